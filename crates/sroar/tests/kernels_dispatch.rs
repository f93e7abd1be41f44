//! Tier selection: `set_tier`, `SROAR_SIMD` forcing (in child processes, since
//! the variable is read once per process) and request resolution.

use std::process::Command;

use sroar::kernels::array;
use sroar::kernels::dispatch::{
    available_tiers, best_tier, kernels, kernels_for, reset_tier, resolve_request, set_tier, tier,
    Tier, Unsupported, ENV_VAR,
};

const CHILD: &str = "SROAR_DISPATCH_TEST_EXPECT";

#[test]
fn set_tier_switches_and_rejects_missing_tiers() {
    let avail = available_tiers();
    assert_eq!(avail[0], Tier::Scalar);
    assert_eq!(*avail.last().unwrap(), best_tier());
    let a: Vec<u8> = (0..200u16).flat_map(|x| (x * 3).to_le_bytes()).collect();
    let b: Vec<u8> = (0..200u16).flat_map(|x| (x * 2).to_le_bytes()).collect();
    let (a, b) = (a.as_chunks::<2>().0, b.as_chunks::<2>().0);
    for t in Tier::ALL {
        match set_tier(t) {
            Ok(()) => {
                assert!(avail.contains(&t));
                assert_eq!(tier(), t);
                assert_eq!(kernels().tier, t);
                assert_eq!(kernels_for(t).unwrap().tier, t);
                let mut out = Vec::new();
                array::intersect(a, b, &mut out);
                let want: Vec<u16> = (0..600u16).filter(|x| x % 6 == 0 && *x < 400).collect();
                assert_eq!(out, want, "{t}");
                let (a3, b2) = (
                    |x: &u16| x.is_multiple_of(3) && *x < 600,
                    |x: &u16| x.is_multiple_of(2) && *x < 400,
                );
                let mut out = Vec::new();
                array::xor(a, b, &mut out);
                let want: Vec<u16> = (0..600u16).filter(|x| a3(x) != b2(x)).collect();
                assert_eq!(out, want, "{t} xor");
                let mut out = Vec::new();
                array::difference(a, b, &mut out);
                let want: Vec<u16> = (0..600u16).filter(|x| a3(x) && !b2(x)).collect();
                assert_eq!(out, want, "{t} difference");
            }
            Err(e) => {
                assert!(!avail.contains(&t));
                assert_eq!(
                    e,
                    Unsupported {
                        requested: t,
                        best: best_tier()
                    }
                );
                assert!(kernels_for(t).is_none());
                eprintln!("skipped: {t} not available ({e})");
            }
        }
    }
    reset_tier();
}

#[test]
fn request_resolution() {
    use Tier::*;
    assert_eq!(resolve_request(None, Avx512), Avx512);
    assert_eq!(resolve_request(Some("scalar"), Avx512), Scalar);
    assert_eq!(resolve_request(Some(" AVX2 "), Avx512), Avx2);
    assert_eq!(resolve_request(Some("avx512"), Avx2), Avx2);
    assert_eq!(resolve_request(Some("avx512"), Scalar), Scalar);
    assert_eq!(resolve_request(Some("avx2"), Scalar), Scalar);
    assert_eq!(resolve_request(Some("bogus"), Avx2), Avx2);
    assert_eq!(resolve_request(Some(""), Avx512), Avx512);
    for t in Tier::ALL {
        assert_eq!(Tier::parse(t.name()), Some(t));
        assert_eq!(t.to_string(), t.name());
    }
}

/// Runs `env_child` in a fresh process with `SROAR_SIMD` set to `value`.
fn child(value: Option<&str>, expect: Tier) {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["--exact", "env_child", "--nocapture", "--test-threads=1"])
        .env(CHILD, expect.name());
    match value {
        Some(v) => cmd.env(ENV_VAR, v),
        None => cmd.env_remove(ENV_VAR),
    };
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "SROAR_SIMD={value:?}: {stdout}\n{stderr}"
    );
}

#[test]
fn env_var_forces_tier() {
    let best = best_tier();
    child(None, best);
    child(Some("scalar"), Tier::Scalar);
    child(Some("avx2"), Tier::Avx2.min(best));
    child(Some("avx512"), Tier::Avx512.min(best));
    child(Some("AVX2"), Tier::Avx2.min(best));
    child(Some("no-such-tier"), best);
    child(Some(""), best);
}

/// Child side of `env_var_forces_tier` (does nothing in a normal run).
#[test]
fn env_child() {
    let Ok(expect) = std::env::var(CHILD) else {
        return;
    };
    assert_eq!(tier().name(), expect);
    eprintln!(
        "child: {ENV_VAR}={:?} -> {}",
        std::env::var(ENV_VAR).ok(),
        tier()
    );
}
