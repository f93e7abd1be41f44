//! The scalar tier of the kernels over run lists: portable Rust, the
//! reference every SIMD tier is tested against, and the fallback of short inputs.

/// Start and inclusive end of run `r`, as `u32`.
#[inline(always)]
pub fn bounds(r: [u8; 4]) -> (u32, u32) {
    let start = u16::from_le_bytes([r[0], r[1]]) as u32;
    let len_minus_1 = u16::from_le_bytes([r[2], r[3]]) as u32;
    (start, start + len_minus_1)
}
/// The cardinality of a valid stored run list (`run::checked_card`), without a
/// branch per run (an invalid list is
/// rare, and only needs to be found, not located).
pub fn checked_card(runs: &[[u8; 4]]) -> Option<u32> {
    let mut ok = true;
    let mut card = 0u32;
    let mut next_min = 0u32;
    for r in runs {
        let (s, e) = bounds(*r);
        ok &= s >= next_min && e <= 65535;
        card = card.wrapping_add(e - s + 1);
        next_min = e + 2;
    }
    ok.then_some(card)
}
