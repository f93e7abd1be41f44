//! The tiers and their tables: the kinds of SIMD implementation, the table of
//! function pointers each tier provides, and the detection proofs that guard the
//! SIMD tables. Only [`detect_avx2`], [`detect_avx512`] and [`detect_neon`] create
//! a proof, and only after the CPU said it has the features, which is what makes
//! the safe function pointers of a SIMD table sound. The tiers import this module;
//! the dispatcher imports the tiers and this module, so no import runs back.

use std::fmt;

use super::scalar;
use super::scalar::bitmap::BitOp;

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

    /// Lower-case name, as accepted by [`Tier::parse`] and the `SROAR_SIMD` variable.
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

/// Error of [`set_tier`](super::dispatch::set_tier): the CPU does not support the requested tier.
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
/// `fn(runs, array, out)`: the array's values inside the runs.
pub type RunArrayOpFn = fn(&[[u8; 4]], &[[u8; 2]], &mut Vec<u16>);
/// `fn(runs, array) -> count`: how many of the array's values are inside the runs.
pub type RunArrayCountFn = fn(&[[u8; 4]], &[[u8; 2]]) -> u32;
/// `fn(array, runs, out)`: the array's values outside the runs.
pub type ArrayRunOpFn = fn(&[[u8; 2]], &[[u8; 4]], &mut Vec<u16>);
/// `fn(op, a, b, out) -> cardinality` of a bitmap kernel.
pub type BitmapOpFn = fn(BitOp, &[[u8; 8]], &[[u8; 8]], &mut [u64; 1024]) -> u32;
/// `fn(op, a, b) -> cardinality` of a bitmap kernel.
pub type BitmapCountFn = fn(BitOp, &[[u8; 8]], &[[u8; 8]]) -> u32;
/// `fn(a, b) -> bool` of a bitmap kernel.
pub type BitmapTestFn = fn(&[[u8; 8]], &[[u8; 8]]) -> bool;
/// `fn(array, bitmap, out)` that appends the array's values set (or not set)
/// in the serialized bitmap to `out`.
pub type ArrayBitmapOpFn = fn(&[[u8; 2]], &[[u8; 8]], &mut Vec<u16>);
/// `fn(array, dst) -> runs` of [`array::runs_into`].
pub type RunsIntoFn = fn(&[[u8; 2]], &mut [[u8; 4]]) -> usize;
/// `fn(array, words)` that sets, clears or flips the array's values in `words`.
pub type ArrayMarkFn = fn(&[[u8; 2]], &mut [u64; 1024]);
/// `fn(runs, words)` that sets the runs in `words`.
pub type RunMarkFn = fn(&[[u8; 4]], &mut [u64; 1024]);
/// [`ArrayMarkFn`] on a serialized bitmap's bytes.
pub type ArrayMarkBytesFn = fn(&[[u8; 2]], &mut [[u8; 8]; 1024]);
/// `fn(words, base, out) -> (words consumed, values written)` of [`values::bits_into`](super::values::bits_into).
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
    /// [`bitmap::popcount`].
    pub bitmap_popcount: fn(&[u64; 1024]) -> u32,
    /// [`bitmap::count_runs`].
    pub bitmap_count_runs: fn(&[u64; 1024], u32) -> u32,
    /// [`bitmap::to_array`].
    pub bitmap_to_array: fn(&[u64; 1024], &mut Vec<u16>),
    /// [`array::ascending_runs`].
    pub array_ascending_runs: fn(&[[u8; 2]]) -> Option<u32>,
    /// [`array::runs_into`].
    pub array_runs_into: RunsIntoFn,
    /// [`bitmap::card_and_runs`].
    pub bitmap_card_and_runs: fn(&[[u8; 8]], u32) -> (u32, u32),
    /// [`values::fill_consecutive`].
    pub fill_consecutive: fn(&mut [u64], u64),
    /// [`values::bits_into`].
    pub bits_into: BitsIntoFn,
    /// [`run::checked_card`].
    pub run_checked_card: fn(&[[u8; 4]]) -> Option<u32>,
    /// [`run::run_array_intersect`].
    pub run_array_intersect: RunArrayOpFn,
    /// [`run::run_array_count`].
    pub run_array_count: RunArrayCountFn,
    /// [`run::array_run_difference`].
    pub array_run_difference: ArrayRunOpFn,
    /// [`run::set_into`].
    pub run_set_into: RunMarkFn,
    /// [`array_bitmap::intersect`].
    pub array_bitmap_intersect: ArrayBitmapOpFn,
    /// [`array_bitmap::difference`].
    pub array_bitmap_difference: ArrayBitmapOpFn,
    /// [`array_bitmap::set_into`].
    pub array_bitmap_set_into: ArrayMarkFn,
    /// [`array_bitmap::set_into_bytes`].
    pub array_bitmap_set_into_bytes: ArrayMarkBytesFn,
    /// [`array_bitmap::clear_from`].
    pub array_bitmap_clear_from: ArrayMarkFn,
    /// [`array_bitmap::flip_into`].
    pub array_bitmap_flip_into: ArrayMarkFn,
}

/// The scalar table.
pub static SCALAR: Kernels = Kernels {
    tier: Tier::Scalar,
    array_intersect: scalar::array::intersect,
    array_intersect_count: scalar::array::intersect_count,
    array_intersects: scalar::array::intersects,
    array_union: scalar::array::union,
    array_xor: scalar::array::xor,
    array_difference: scalar::array::difference,
    bitmap_op_into: scalar::bitmap::op_into,
    bitmap_op_count: scalar::bitmap::op_count,
    bitmap_intersects: scalar::bitmap::intersects,
    bitmap_or_assign: scalar::bitmap::or_assign,
    bitmap_popcount: scalar::bitmap::popcount,
    bitmap_count_runs: scalar::bitmap::count_runs,
    bitmap_to_array: scalar::bitmap::to_array,
    array_ascending_runs: scalar::array::ascending_runs,
    array_runs_into: scalar::array::runs_into,
    bitmap_card_and_runs: scalar::bitmap::card_and_runs,
    fill_consecutive: scalar::values::fill_consecutive,
    bits_into: scalar::values::bits_into,
    run_checked_card: scalar::run::checked_card,
    run_array_intersect: scalar::run::array_intersect,
    run_array_count: scalar::run::array_count,
    array_run_difference: scalar::run::array_difference,
    run_set_into: scalar::run::set_into,
    array_bitmap_intersect: scalar::array_bitmap::intersect,
    array_bitmap_difference: scalar::array_bitmap::difference,
    array_bitmap_set_into: scalar::array_bitmap::set_into,
    array_bitmap_set_into_bytes: scalar::array_bitmap::set_into_bytes,
    array_bitmap_clear_from: scalar::array_bitmap::clear_from,
    array_bitmap_flip_into: scalar::array_bitmap::flip_into,
};

/// Proof that the CPU supports the NEON tier. Only this module creates it, in
/// [`detect_neon`].
#[derive(Clone, Copy)]
#[cfg_attr(
    not(all(target_arch = "aarch64", target_endian = "little")),
    allow(dead_code)
)]
pub(crate) struct NeonProof(());

/// Proof that the CPU supports the AVX2 tier. Only this module creates it, in
/// [`detect_avx2`].
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
pub(super) fn detect_neon() -> Option<NeonProof> {
    std::arch::is_aarch64_feature_detected!("neon").then_some(NeonProof(()))
}

#[cfg(target_arch = "x86_64")]
pub(super) fn detect_avx2() -> Option<Avx2Proof> {
    let ok = std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt");
    ok.then_some(Avx2Proof(()))
}

#[cfg(target_arch = "x86_64")]
pub(super) fn detect_avx512() -> Option<Avx512Proof> {
    detect_avx2()?;
    let ok = std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512vl")
        && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
        && std::arch::is_x86_feature_detected!("avx512vbmi2");
    ok.then_some(Avx512Proof(()))
}
