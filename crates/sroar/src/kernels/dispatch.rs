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
//! `Avx2Proof`, `Avx512Proof`) that only this module can create, and only
//! after runtime feature detection succeeded. This is what makes the safe
//! function pointers in a SIMD [`Kernels`] table sound.

use std::fmt;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::OnceLock;

use super::bitmap::BitOp;
use super::{array, bitmap, run, search, values};

/// Name of the environment variable that forces a tier.
pub const ENV_VAR: &str = "SROAR_SIMD";

/// An implementation tier. Tiers form two families over `Scalar`, each
/// nested (a CPU that supports a tier supports every lower tier of its
/// family): `Neon` on aarch64, `Avx2` < `Avx512` on x86-64. The order (of
/// [`Tier::ALL`] and `Ord`) puts `Neon` below `Avx2`, so that a request for
/// an x86 tier on aarch64 resolves to `Neon`, and `neon` on x86 to `Scalar`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tier {
    /// Portable Rust, no `unsafe`.
    Scalar,
    /// aarch64 Advanced SIMD (NEON, 128-bit).
    Neon,
    /// x86-64 AVX2 (+ POPCNT, BMI1, BMI2, LZCNT).
    Avx2,
    /// x86-64 AVX-512 F, BW, VL, VPOPCNTDQ, VBMI2 (+ everything of `Avx2`).
    Avx512,
}

impl Tier {
    /// All tiers, lowest first.
    pub const ALL: [Tier; 4] = [Tier::Scalar, Tier::Neon, Tier::Avx2, Tier::Avx512];

    /// Lower-case name, as accepted by [`Tier::parse`] and [`ENV_VAR`].
    pub const fn name(self) -> &'static str {
        match self {
            Tier::Scalar => "scalar",
            Tier::Neon => "neon",
            Tier::Avx2 => "avx2",
            Tier::Avx512 => "avx512",
        }
    }

    /// Parses a tier name (case-insensitive, surrounding spaces ignored).
    pub fn parse(s: &str) -> Option<Tier> {
        match s.trim().to_ascii_lowercase().as_str() {
            "scalar" | "none" | "off" => Some(Tier::Scalar),
            "neon" => Some(Tier::Neon),
            "avx2" => Some(Tier::Avx2),
            "avx512" | "avx-512" => Some(Tier::Avx512),
            _ => None,
        }
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error of [`set_tier`]: the CPU does not support the requested tier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unsupported {
    /// The tier that was asked for.
    pub requested: Tier,
    /// The best tier this CPU supports.
    pub best: Tier,
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SIMD tier {} is not supported by this CPU (best: {})",
            self.requested, self.best
        )
    }
}

impl std::error::Error for Unsupported {}

/// `fn(a, b, out)` of a sorted-array set operation.
pub type ArrayOpFn = fn(&[[u8; 2]], &[[u8; 2]], &mut Vec<u16>);
/// `fn(a, b) -> count` of a sorted-array kernel.
pub type ArrayCountFn = fn(&[[u8; 2]], &[[u8; 2]]) -> u32;
/// `fn(a, b) -> bool` of a sorted-array kernel.
pub type ArrayTestFn = fn(&[[u8; 2]], &[[u8; 2]]) -> bool;
/// `fn(op, a, b, out) -> cardinality` of a bitmap kernel.
pub type BitmapOpFn = fn(BitOp, &[[u8; 8]], &[[u8; 8]], &mut [u64; 1024]) -> u32;
/// `fn(op, a, b) -> cardinality` of a bitmap kernel.
pub type BitmapCountFn = fn(BitOp, &[[u8; 8]], &[[u8; 8]]) -> u32;
/// `fn(a, b) -> bool` of a bitmap kernel.
pub type BitmapTestFn = fn(&[[u8; 8]], &[[u8; 8]]) -> bool;
/// `fn(words, base, out) -> (words consumed, values written)` of [`values::bits_into`].
pub type BitsIntoFn = fn(&[[u8; 8]], u64, &mut [u64]) -> (usize, usize);

/// A table of the dispatched kernels of one tier.
///
/// Kernels without a SIMD version are not in the table; they are called
/// directly from their module.
#[derive(Clone, Copy, Debug)]
pub struct Kernels {
    /// The tier these functions belong to.
    pub tier: Tier,
    /// [`array::intersect`].
    pub array_intersect: ArrayOpFn,
    /// [`array::intersect_count`].
    pub array_intersect_count: ArrayCountFn,
    /// [`array::intersects`].
    pub array_intersects: ArrayTestFn,
    /// [`array::union`].
    pub array_union: ArrayOpFn,
    /// [`array::xor`].
    pub array_xor: ArrayOpFn,
    /// [`array::difference`].
    pub array_difference: ArrayOpFn,
    /// [`bitmap::op_into`].
    pub bitmap_op_into: BitmapOpFn,
    /// [`bitmap::op_count`].
    pub bitmap_op_count: BitmapCountFn,
    /// [`bitmap::intersects`].
    pub bitmap_intersects: BitmapTestFn,
    /// [`bitmap::or_assign`].
    pub bitmap_or_assign: fn(&mut [u64; 1024], &[[u8; 8]]) -> u32,
    /// [`bitmap::or_assign_words`].
    pub bitmap_or_assign_words: fn(&mut [u64; 1024], &[u64; 1024]),
    /// [`bitmap::popcount`].
    pub bitmap_popcount: fn(&[u64; 1024]) -> u32,
    /// [`bitmap::count_runs`].
    pub bitmap_count_runs: fn(&[u64; 1024]) -> u32,
    /// [`bitmap::to_array`].
    pub bitmap_to_array: fn(&[u64; 1024], &mut Vec<u16>),
    /// [`search::lower_bound_keys`].
    pub lower_bound_keys: fn(&[[u8; 8]], u64) -> usize,
    /// [`array::ascending_runs`].
    pub array_ascending_runs: fn(&[[u8; 2]]) -> Option<u32>,
    /// [`bitmap::card_and_runs`].
    pub bitmap_card_and_runs: fn(&[[u8; 8]]) -> (u32, u32),
    /// [`values::fill_consecutive`].
    pub fill_consecutive: fn(&mut [u64], u64),
    /// [`values::bits_into`].
    pub bits_into: BitsIntoFn,
    /// [`run::checked_card`].
    pub run_checked_card: fn(&[[u8; 4]]) -> Option<u32>,
}

/// The scalar table.
pub static SCALAR: Kernels = Kernels {
    tier: Tier::Scalar,
    array_intersect: array::scalar::intersect,
    array_intersect_count: array::scalar::intersect_count,
    array_intersects: array::scalar::intersects,
    array_union: array::scalar::union,
    array_xor: array::scalar::xor,
    array_difference: array::scalar::difference,
    bitmap_op_into: bitmap::scalar::op_into,
    bitmap_op_count: bitmap::scalar::op_count,
    bitmap_intersects: bitmap::scalar::intersects,
    bitmap_or_assign: bitmap::scalar::or_assign,
    bitmap_or_assign_words: bitmap::scalar::or_assign_words,
    bitmap_popcount: bitmap::scalar::popcount,
    bitmap_count_runs: bitmap::scalar::count_runs,
    bitmap_to_array: bitmap::scalar::to_array,
    lower_bound_keys: search::scalar::lower_bound_keys,
    array_ascending_runs: array::scalar::ascending_runs,
    bitmap_card_and_runs: bitmap::scalar::card_and_runs,
    fill_consecutive: values::scalar::fill_consecutive,
    bits_into: values::scalar::bits_into,
    run_checked_card: run::scalar::checked_card,
};

/// Proof that the CPU supports the NEON tier. Only this module creates it,
/// and only after runtime detection.
#[derive(Clone, Copy)]
#[cfg_attr(
    not(all(target_arch = "aarch64", target_endian = "little")),
    allow(dead_code)
)]
pub(crate) struct NeonProof(());

/// Proof that the CPU supports the AVX2 tier. Only this module creates it,
/// and only after runtime detection.
#[derive(Clone, Copy)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) struct Avx2Proof(());

/// Proof that the CPU supports the AVX-512 tier (and so the AVX2 tier).
#[derive(Clone, Copy)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) struct Avx512Proof(());

#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
impl Avx512Proof {
    /// AVX-512 tier support implies AVX2 tier support.
    pub(crate) fn avx2(self) -> Avx2Proof {
        Avx2Proof(())
    }
}

#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
fn detect_neon() -> Option<NeonProof> {
    std::arch::is_aarch64_feature_detected!("neon").then_some(NeonProof(()))
}

#[cfg(target_arch = "x86_64")]
fn detect_avx2() -> Option<Avx2Proof> {
    let ok = std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt");
    ok.then_some(Avx2Proof(()))
}

#[cfg(target_arch = "x86_64")]
fn detect_avx512() -> Option<Avx512Proof> {
    detect_avx2()?;
    let ok = std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512vl")
        && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
        && std::arch::is_x86_feature_detected!("avx512vbmi2");
    ok.then_some(Avx512Proof(()))
}

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
        if let Some(p) = detect_neon() {
            tables[Tier::Neon as usize] = Some(super::neon::table(p));
        }
        #[cfg(target_arch = "x86_64")]
        {
            if let Some(p) = detect_avx2() {
                tables[Tier::Avx2 as usize] = Some(super::avx2::table(p));
            }
            if let Some(p) = detect_avx512() {
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

/// Returns to the tier chosen by [`ENV_VAR`] and detection; returns it.
pub fn reset_tier() -> Tier {
    let t = env_tier();
    ACTIVE.store(t as u8, Ordering::Relaxed);
    t
}
