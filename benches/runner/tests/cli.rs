//! The runner's command line: help exits 0, a wrong flag or group exits 2 with the
//! usage, and neither connects to a server (the port given has none).

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sroar_bench"))
        .args(["--conn", "host=127.0.0.1 port=1 user=nobody"])
        .args(args)
        .output()
        .expect("the runner starts")
}

#[test]
fn help_prints_usage_and_exits_0() {
    let out = run(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    for flag in ["--smoke", "--only", "--reps", "--publish", "--conn"] {
        assert!(text.contains(flag), "help lacks {flag}: {text}");
    }
}

#[test]
fn unknown_flag_exits_2_with_usage() {
    let out = run(&["--bogus"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--bogus") && err.contains("Usage"), "{err}");
}

#[test]
fn unknown_group_exits_2_naming_the_groups() {
    let out = run(&["--only", "aggregates,nonsense"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("nonsense") && err.contains("pairwise"),
        "{err}"
    );
}

#[test]
fn bad_reps_exit_2() {
    for reps in ["0", "many"] {
        let out = run(&["--reps", reps]);
        assert_eq!(out.status.code(), Some(2), "--reps {reps}");
    }
}
