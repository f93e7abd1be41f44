#![allow(unsafe_code, reason = "the target_feature functions of this tier")]
//! The scalar loops that set, clear or flip an array's values in a bitmap,
//! compiled with BMI2: `shlx` shifts by a register in one µop where `shl` by
//! `cl` takes three, and the loops do little else per value (setting went from
//! 0.71 to 0.50 ns per value on a Xeon). The loops that only test bits gain
//! nothing (they compile to `bt` either way), so they stay scalar and inlined.

use crate::kernels::scalar::array_bitmap as scalar;
use crate::kernels::scalar::bitmap::WORDS;

/// For each loop, a `#[target_feature]` copy (the scalar loop is inlined into
/// it, so compiled with the features) and the safe wrapper the table holds.
macro_rules! with_bmi2 {
    ($($name:ident),*) => {$(
        pub(super) fn $name(array: &[[u8; 2]], words: &mut [u64; WORDS]) {
            #[target_feature(enable = "bmi1,bmi2")]
            fn inner(array: &[[u8; 2]], words: &mut [u64; WORDS]) {
                scalar::$name(array, words)
            }
            // SAFETY: only reachable through the AVX2 table, which the dispatcher
            // hands out only after detecting the enabled features.
            unsafe { inner(array, words) }
        }
    )*};
}

with_bmi2!(set_into, clear_from, flip_into);

pub(super) fn set_into_bytes(array: &[[u8; 2]], words: &mut [[u8; 8]; WORDS]) {
    #[target_feature(enable = "bmi1,bmi2")]
    fn inner(array: &[[u8; 2]], words: &mut [[u8; 8]; WORDS]) {
        scalar::set_into_bytes(array, words)
    }
    // SAFETY: only reachable through the AVX2 table, which the dispatcher
    // hands out only after detecting the enabled features.
    unsafe { inner(array, words) }
}
