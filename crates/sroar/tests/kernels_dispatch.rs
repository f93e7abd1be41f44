//! Tier selection: `set_tier`, `SROAR_SIMD` forcing (in child processes, since
//! the variable is read once per process) and request resolution.

use std::process::Command;

use sroar::kernels::array;
use sroar::kernels::dispatch::{
    available_tiers, best_tier, kernels, kernels_for, reset_tier, resolve_request, set_tier, tier,
    Tier, Unsupported, ENV_VAR,
};

const CHILD: &str = "SROAR_DISPATCH_TEST_EXPECT";
/// The command (split at spaces) that runs a test binary of the target, when
/// the host cannot run it directly.
const RUNNER_ENV: &str = "SROAR_TEST_RUNNER";

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
    let x86_512 = [Scalar, Avx2, Avx512];
    let x86_2 = [Scalar, Avx2];
    let arm = [Scalar, Neon];
    let none = [Scalar];
    // Within a family, a request is capped at the best available tier.
    assert_eq!(resolve_request(None, &x86_512), Avx512);
    assert_eq!(resolve_request(Some("scalar"), &x86_512), Scalar);
    assert_eq!(resolve_request(Some(" AVX2 "), &x86_512), Avx2);
    assert_eq!(resolve_request(Some("avx512"), &x86_2), Avx2);
    assert_eq!(resolve_request(Some("avx512"), &none), Scalar);
    assert_eq!(resolve_request(Some("avx2"), &none), Scalar);
    assert_eq!(resolve_request(Some("bogus"), &x86_2), Avx2);
    assert_eq!(resolve_request(Some(""), &x86_512), Avx512);
    // Across families: the best available tier below the request.
    assert_eq!(resolve_request(Some("neon"), &x86_512), Scalar);
    assert_eq!(resolve_request(Some("NEON"), &x86_2), Scalar);
    assert_eq!(resolve_request(Some("avx2"), &arm), Neon);
    assert_eq!(resolve_request(Some("avx512"), &arm), Neon);
    assert_eq!(resolve_request(Some("neon"), &arm), Neon);
    assert_eq!(resolve_request(Some("scalar"), &arm), Scalar);
    assert_eq!(resolve_request(None, &arm), Neon);
    assert_eq!(resolve_request(Some("bogus"), &arm), Neon);
    assert_eq!(resolve_request(Some("neon"), &none), Scalar);
    // Scalar is the floor even when the list leaves it out.
    assert_eq!(resolve_request(Some("neon"), &[Avx2]), Scalar);
    for t in Tier::ALL {
        assert_eq!(Tier::parse(t.name()), Some(t));
        assert_eq!(t.to_string(), t.name());
    }
}

/// The tiers this build can detect: the aarch64 family or the x86 one.
#[test]
fn detected_family() {
    let avail = available_tiers();
    eprintln!("available tiers: {avail:?}");
    if cfg!(all(target_arch = "aarch64", target_endian = "little")) {
        // NEON is part of the aarch64 baseline, so it is always detected.
        assert_eq!(avail, [Tier::Scalar, Tier::Neon]);
    } else {
        assert!(!avail.contains(&Tier::Neon));
    }
    if !cfg!(target_arch = "x86_64") {
        assert!(!avail.contains(&Tier::Avx2) && !avail.contains(&Tier::Avx512));
    }
}

/// Runs `env_child` in a fresh process with `SROAR_SIMD` set to `value`.
fn child(value: Option<&str>, expect: Tier) {
    let exe = std::env::current_exe().unwrap();
    // Under an emulator (scripts/aarch64.sh runs this file under qemu-user)
    // the kernel cannot start the test binary itself: the child goes through
    // the same emulator, named by RUNNER_ENV.
    let runner = std::env::var(RUNNER_ENV).unwrap_or_default();
    let mut runner = runner.split_whitespace();
    let mut cmd = match runner.next() {
        Some(emulator) => {
            let mut c = Command::new(emulator);
            c.args(runner).arg(&exe);
            c
        }
        None => Command::new(&exe),
    };
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

/// What `SROAR_SIMD=requested` must select, written out per family rather
/// than through `resolve_request`.
fn expected(requested: Tier) -> Tier {
    let best = best_tier();
    match (requested, best) {
        (Tier::Scalar, _) => Tier::Scalar,
        // aarch64: every SIMD request means NEON.
        (_, Tier::Neon) => Tier::Neon,
        // x86 (or no SIMD): NEON is not there, and below AVX2 is scalar.
        (Tier::Neon, _) => Tier::Scalar,
        (t, b) => t.min(b),
    }
}

#[test]
fn env_var_forces_tier() {
    let best = best_tier();
    child(None, best);
    child(Some("scalar"), Tier::Scalar);
    child(Some("neon"), expected(Tier::Neon));
    child(Some("avx2"), expected(Tier::Avx2));
    child(Some("avx512"), expected(Tier::Avx512));
    child(Some("AVX2"), expected(Tier::Avx2));
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
