//! Bottom-layer kernels: operations on raw little-endian slices.
//!
//! Kernels know nothing about containers or the serialized format. Inputs are
//! read in place from byte slices at any (possibly unaligned) address:
//!
//! * sorted, strictly increasing `u16` arrays: `&[[u8; 2]]`;
//! * bitmaps: `&[[u8; 8]]` of exactly [`bitmap::WORDS`] words (bit `b` of
//!   word `w` is value `64 * w + b`);
//! * runs: `&[[u8; 4]]`, each `start: u16 LE, len_minus_1: u16 LE`.
//!
//! Array and run outputs are *appended* to the given `Vec`.
//!
//! The public functions of [`mod@array`], [`bitmap`], [`array_bitmap`], [`run`],
//! [`toggles`] and [`search`] dispatch through the tier chosen once by [`dispatch`]; the
//! per-tier function tables are reachable through [`dispatch::kernels_for`]
//! and the scalar versions through [`scalar`], the one module every tier and the
//! dispatcher import (so no import runs from a tier back to the dispatched API).
//!
//! | kernel | scalar | NEON (aarch64) | AVX2 | AVX-512 |
//! |---|---|---|---|---|
//! | `array::{intersect, intersect_count, intersects}` | merge (branchless) / gallop | 8×8 block compare (`ext` rotations, `tbl` compaction), no branch on which block advances | 8×8 block compare (`pcmpestrm`), the same loop | 32×16 broadcast compare + `vpcompressw`; very different sizes: each short value's block found among the long array's block maxima (4 compares), then one compare |
//! | `array::union` | merge (branchless) / gallop | min/max merge network | min/max merge network; a short array (under 32 values, or far shorter) against one of 32 or more: the long one copied 16 values a step, each short value put in place by one compare | 32+32-lane bitonic merge, last blocks padded with 0xffff; a short array (under 32 values, or far shorter) against one of 64 or more: the long one copied 32 values a step, each short value put in place by one compare |
//! | `array::xor` | merge (branchless) / gallop | min/max merge network, keeping lanes unlike both neighbours | min/max merge network, keeping lanes unlike both neighbours; a short array against a long one as for the union | the bitonic merge, keeping lanes unlike both neighbours; a short array against a long one as for the union |
//! | `array::difference` | merge (branchless) / gallop | 8×8 block compare, keeping the unmatched lanes | 8×8 block compare, keeping the unmatched lanes | 32×16 broadcast compare + `vpcompressw`; a short array against a long one by block maxima, as for the intersection |
//! | `array::ascending_runs` | branch-free pair loop | (scalar) | saturated gaps against a load one value back, 8 or 16 lanes | same on 32 lanes; one masked load up to 32 values |
//! | `array::runs_into` (runs of an array result) | branch-free loop | (scalar) | (scalar) | each run start compressed with its index into a 32-bit lane, 16 values a step, then lengths from the next start's index |
//! | `bitmap::{op_into, op_count, intersects, or_assign (counts), popcount, count_runs, card_and_runs}` | word loop; runs counted to a cap, checked every 128 words | 128-bit, `cnt` + `uadalp` popcount; every run counted | 256-bit, Harley–Seal + Mula popcount; runs to a cap, a Harley–Seal count per 128 words | 512-bit, `vpopcntq`; runs to a cap, as scalar |
//! | `bitmap::to_array` | `tzcnt`, four per word without a branch | (scalar) | the scalar kernel (built with POPCNT and BMI1) up to 4,096 bits, seven values a word without a branch above 2,048; byte table above | `vpcompressw` per non-empty 512-bit group; the scalar kernel (POPCNT, BMI1) below 1024 bits |
//! | `bitmap::{edges, to_runs}` | edge words (vectorized) + `to_array` | through `to_array` | through `to_array` | through `to_array` |
//! | `bitmap::{set_range, clear_range, flip_range, range_count}` | word masks | – | – | – |
//! | `array_bitmap::*` | branch-free loops | (scalar) | `set_into`, `clear_from`, `flip_into`: the scalar loops with BMI2; `intersect`, `difference`: 8 bit tests make a lane mask, one `pshufb` compaction and store; counting and testing scalar (gathers ran at half speed) | (AVX2) |
//! | `run::checked_card` (validation) | branch-free loop | (scalar) | 8 runs per step against a load one run back | (AVX2) |
//! | `run::set_into` (runs ORed into a bitmap) | word masks, picked without a branch for runs far apart | (scalar) | the scalar loop with BMI2 | (AVX2) |
//! | `run::{run_array_intersect, run_array_count, array_run_difference}` | walk of the runs, or of the array, galloping through the other | (scalar) | each 16-value block against every run that meets it (`max`/`min` with the bounds, then `cmpeq`) + `pshufb` compaction per half; the AVX-512 rule for when | each 32-value block against every run that meets it (`vpcmpuw` with the start, then masked with the end) + `vpcompressw`; more than 16 runs a value, or fewer than one per 16 values: scalar |
//! | other `run::*` set operations, `search::lower_bound_u16` | scalar | – | – | – |
//! | `toggles::Toggles` (`⊕` of two run lists; `⊕`, `\` and `∪` of runs and an array; 16 or more each) | toggle points (run starts and ends + 1), merged by the tier's `array::xor`; for `\` the values the tier's `run_array_intersect` finds inside the runs, for `∪` those its `array_run_difference` finds outside | (the tier's) | (the tier's) | (the tier's) |
//! | `in_place::*` (in-place merges of scratch arrays, walks of bits and runs) | scalar | – | – | – |
//! | `prefetch::read_soon` (a cache hint for the next set's container, 256 bytes or more) | none | none | `prefetcht0` per line (SSE, so every x86_64, not dispatched) | (AVX2) |
//! | `values::fill_consecutive` | vectorized loop (SSE2 / NEON) | 2 per store | 4 per store | 8 per store |
//! | `values::bits_into` (bitmap iteration) | `tzcnt` loop | (scalar) | byte table, 8 lanes per byte (words of 6+ bits) | (AVX2) |
//!
//! The NEON tier exists on little-endian aarch64 only; its table takes the
//! scalar entries (`..SCALAR`) for the kernels marked "(scalar)". Its tests
//! run under qemu on x86 machines (`scripts/aarch64.sh`).
//!
//! Short inputs and very different sizes fall back from a SIMD tier to the
//! next lower one. `unsafe` lives only in the SIMD tier files
//! (`avx2/{array,array_bitmap,ascending,bitmap,run,values}.rs`,
//! `avx512/{array,ascending,bitmap,merge,run_array,skewed,values}.rs`,
//! `neon/{array,bitmap,values}.rs`, and `prefetch.rs`, each starting with
//! `#![allow(unsafe_code)]`); every SIMD load and store goes through a
//! reference of exactly the accessed size (a masked load enables exactly the
//! lanes of its reference), and the `#[target_feature]` functions are only
//! reachable through tables that need a detection proof.

pub mod array;
pub mod array_bitmap;
#[cfg(any(target_arch = "x86_64", all(target_arch = "aarch64", target_endian = "little")))]
mod array_blocks;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod array_tails;
pub mod bitmap;
#[cfg(any(target_arch = "x86_64", all(target_arch = "aarch64", target_endian = "little")))]
mod bitmap_tiers;
pub mod dispatch;
pub mod in_place;
pub mod prefetch;
pub mod run;
pub mod scalar;
pub mod search;
mod table;
pub mod toggles;
pub mod values;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
// Little-endian only: the NEON kernels read LE bytes straight into lanes.
#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
mod neon;

pub use dispatch::{available_tiers, reset_tier, set_tier, tier, Tier, Unsupported};
