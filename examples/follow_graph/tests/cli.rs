//! The example's command line: help exits 0, a wrong flag exits 2 with the usage and
//! a wrong value exits 2 naming it, before any graph is generated or server reached.

use std::process::Command;

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_follow_graph"))
        .args(args)
        .output()
        .expect("the example starts")
}

#[test]
fn help_prints_usage_and_exits_0() {
    let out = run(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    for flag in [
        "--users",
        "--host",
        "--port",
        "--dbname",
        "--firehose",
        "--rate",
        "--flush-ms",
        "--readers",
        "--questions-per-s",
    ] {
        assert!(text.contains(flag), "help lacks {flag}: {text}");
    }
}

#[test]
fn wrong_arguments_exit_2() {
    // An unknown flag or a bare word: the usage.
    for args in [&["--bogus"][..], &["extra"]] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("Usage"), "{args:?}: {err}");
    }
    // A wrong value: what is wrong with it, naming the flag.
    for args in [
        &["--users", "0"][..],
        &["--users", "ten"],
        &["--port", "99999"],
        &["--rate", "0"],
        &["--flush-ms", "soon"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(args[0]) && err.contains(args[1]),
            "{args:?}: {err}"
        );
    }
}
