//! The one place that chooses a SIMD tier.
//!
//! Detection runs once; the chosen tier is cached. The environment variable
//! [`ENV_VAR`] (`SROAR_SIMD=scalar|neon|avx2|avx512`) forces a tier; a tier
//! the CPU lacks resolves to the best available tier below it in
//! [`Tier::ALL`] order (see [`resolve_request`]); unknown values fall back to
//! detection. [`set_tier`] changes the tier at run time (mainly for tests and
//! benchmarks).
//!
//! SIMD tables can only be obtained with a proof token (`NeonProof`,
//! `Avx2Proof`, `Avx512Proof`) that only the detection functions of
//! [`table`](super::table) create, after runtime feature detection succeeded.
//! This is what makes the safe function pointers in a SIMD [`Kernels`] table
//! sound.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::OnceLock;

pub use super::table::{Kernels, Tier, Unsupported, SCALAR};
/// The function types of a table, for the benchmarks that call tiers directly.
#[cfg(feature = "internals")]
pub use super::table::{
    ArrayCountFn, ArrayMarkFn, ArrayOpFn, ArrayTestFn, BitmapCountFn, BitmapOpFn,
    BitmapTestFn, BitsIntoFn,
};

/// Name of the environment variable that forces a tier.
pub const ENV_VAR: &str = "SROAR_SIMD";

struct State {
    best: Tier,
    tables: [Option<&'static Kernels>; Tier::ALL.len()],
}

fn state() -> &'static State {
    static STATE: OnceLock<State> = OnceLock::new();
    STATE.get_or_init(|| {
        let mut tables: [Option<&'static Kernels>; Tier::ALL.len()] = [None; Tier::ALL.len()];
        tables[Tier::Scalar as usize] = Some(&SCALAR);
        #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
        if let Some(p) = super::table::detect_neon() {
            tables[Tier::Neon as usize] = Some(super::neon::table(p));
        }
        #[cfg(target_arch = "x86_64")]
        {
            if let Some(p) = super::table::detect_avx2() {
                tables[Tier::Avx2 as usize] = Some(super::avx2::table(p));
            }
            if let Some(p) = super::table::detect_avx512() {
                tables[Tier::Avx512 as usize] = Some(super::avx512::table(p));
            }
        }
        let best = Tier::ALL
            .into_iter()
            .rev()
            .find(|t| tables[*t as usize].is_some())
            .unwrap_or(Tier::Scalar);
        State { best, tables }
    })
}

const UNSET: u8 = u8::MAX;
static ACTIVE: AtomicU8 = AtomicU8::new(UNSET);

/// The tier a request (the value of [`ENV_VAR`]) resolves to on a CPU that
/// supports the tiers `available`: the best available tier not above the
/// requested one in [`Tier::ALL`] order (capping the request at the best
/// tier would turn `neon` on an AVX2 CPU into `Neon`, which it lacks); the
/// best available tier when the request is absent or unknown. `Scalar` is always available, even
/// if `available` omits it.
pub fn resolve_request(request: Option<&str>, available: &[Tier]) -> Tier {
    let cap = request.and_then(Tier::parse);
    available
        .iter()
        .copied()
        .filter(|t| cap.is_none_or(|c| *t <= c))
        .max()
        .unwrap_or(Tier::Scalar)
}

fn env_tier() -> Tier {
    let value = std::env::var(ENV_VAR).ok();
    resolve_request(value.as_deref(), &available_tiers())
}

#[cold]
fn init_active() -> u8 {
    let t = env_tier() as u8;
    match ACTIVE.compare_exchange(UNSET, t, Ordering::Relaxed, Ordering::Relaxed) {
        Ok(_) => t,
        Err(current) => current,
    }
}

/// The table of the active tier (detected once, see the module docs).
#[inline]
pub fn kernels() -> &'static Kernels {
    let mut active = ACTIVE.load(Ordering::Relaxed);
    if active == UNSET {
        active = init_active();
    }
    state().tables[active as usize].unwrap_or(&SCALAR)
}

/// The table of `tier`, if this CPU supports it. Lets tests and benchmarks
/// call every tier directly.
pub fn kernels_for(tier: Tier) -> Option<&'static Kernels> {
    state().tables[tier as usize]
}

/// The active tier.
pub fn tier() -> Tier {
    kernels().tier
}

/// The best tier this CPU supports (ignoring [`ENV_VAR`]).
pub fn best_tier() -> Tier {
    state().best
}

/// The tiers this CPU supports, lowest first.
pub fn available_tiers() -> Vec<Tier> {
    Tier::ALL
        .into_iter()
        .filter(|t| kernels_for(*t).is_some())
        .collect()
}

/// Makes `tier` the active tier for the whole process.
pub fn set_tier(tier: Tier) -> Result<(), Unsupported> {
    if kernels_for(tier).is_none() {
        return Err(Unsupported {
            requested: tier,
            best: best_tier(),
        });
    }
    ACTIVE.store(tier as u8, Ordering::Relaxed);
    Ok(())
}

/// Returns to the tier chosen by `SROAR_SIMD` and detection; returns it.
pub fn reset_tier() -> Tier {
    let t = env_tier();
    ACTIVE.store(t as u8, Ordering::Relaxed);
    t
}
