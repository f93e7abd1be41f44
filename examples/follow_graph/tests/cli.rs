//! The example's command line: help exits 0, a wrong flag or value exits 2 with the
//! usage, before any graph is generated or server reached.

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
    for flag in ["--users", "--host", "--port", "--dbname"] {
        assert!(text.contains(flag), "help lacks {flag}: {text}");
    }
}

#[test]
fn wrong_arguments_exit_2_with_usage() {
    for args in [
        &["--bogus"][..],
        &["--users", "0"],
        &["--users", "ten"],
        &["extra"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("Usage"), "{args:?}: {err}");
    }
}
