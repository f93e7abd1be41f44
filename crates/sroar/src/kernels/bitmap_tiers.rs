//! What every SIMD bitmap tier exposes the same way, written once: the dispatch
//! of a [`BitOp`](super::bitmap::BitOp) to a tier's const-generic kernels, and the
//! safe functions of the tier's table around its `#[target_feature]` kernels.

/// Defines a tier's bitmap table functions from the names of its
/// `#[target_feature]` kernels (compiled with `features`).
///
/// Every `unsafe` block it expands to rests on one promise: these functions are
/// only reachable through the tier's table, which the dispatcher hands out only
/// after detecting the tier's features.
macro_rules! bitmap_tier {
    (
        features = $features:literal,
        op_into = $op_into:ident,
        op_count = $op_count:ident,
        intersects = $intersects:ident,
        or_assign = $or_assign:ident,
        popcount = $popcount:ident,
        count_runs = $count_runs:ident,
        card_and_runs = $card_and_runs:ident $(,)?
    ) => {
        /// The const-generic operations of `apply`.
        const AND: u8 = 0;
        const OR: u8 = 1;
        const XOR: u8 = 2;
        const ANDNOT: u8 = 3;

        #[target_feature(enable = $features)]
        fn op_into_any(
            op: BitOp,
            a: &[[u8; 8]; WORDS],
            b: &[[u8; 8]; WORDS],
            out: &mut [u64; WORDS],
        ) -> u32 {
            match op {
                BitOp::And => $op_into::<AND>(a, b, out),
                BitOp::Or => $op_into::<OR>(a, b, out),
                BitOp::Xor => $op_into::<XOR>(a, b, out),
                BitOp::AndNot => $op_into::<ANDNOT>(a, b, out),
            }
        }

        #[target_feature(enable = $features)]
        fn op_count_any(op: BitOp, a: &[[u8; 8]; WORDS], b: &[[u8; 8]; WORDS]) -> u32 {
            match op {
                BitOp::And => $op_count::<AND>(a, b),
                BitOp::Or => $op_count::<OR>(a, b),
                BitOp::Xor => $op_count::<XOR>(a, b),
                BitOp::AndNot => $op_count::<ANDNOT>(a, b),
            }
        }

        /// `out = a op b`; returns the cardinality.
        pub(super) fn op_into(op: BitOp, a: &[[u8; 8]], b: &[[u8; 8]], out: &mut [u64; WORDS]) -> u32 {
            let (a, b) = (words(a), words(b));
            // SAFETY: see `bitmap_tier!`.
            unsafe { op_into_any(op, a, b, out) }
        }

        /// Cardinality of `a op b`.
        pub(super) fn op_count(op: BitOp, a: &[[u8; 8]], b: &[[u8; 8]]) -> u32 {
            let (a, b) = (words(a), words(b));
            // SAFETY: see `bitmap_tier!`.
            unsafe { op_count_any(op, a, b) }
        }

        /// Whether `a & b` is non-zero.
        pub(super) fn intersects(a: &[[u8; 8]], b: &[[u8; 8]]) -> bool {
            let (a, b) = (words(a), words(b));
            // SAFETY: see `bitmap_tier!`.
            unsafe { $intersects(a, b) }
        }

        /// `acc |= b`; returns the cardinality of `acc`.
        pub(super) fn or_assign(acc: &mut [u64; WORDS], b: &[[u8; 8]]) -> u32 {
            let b = words(b);
            // SAFETY: see `bitmap_tier!`.
            unsafe { $or_assign(acc, b) }
        }

        /// Number of set bits.
        pub(super) fn popcount(w: &[u64; WORDS]) -> u32 {
            // SAFETY: see `bitmap_tier!`.
            unsafe { $popcount(w) }
        }

        /// Number of maximal runs, counted until at least `cap`.
        pub(super) fn count_runs(w: &[u64; WORDS], cap: u32) -> u32 {
            // SAFETY: see `bitmap_tier!`.
            unsafe { $count_runs(w, cap) }
        }

        /// `(number of set bits, number of maximal runs counted until at least
        /// `cap`)`.
        pub(super) fn card_and_runs(b: &[[u8; 8]], cap: u32) -> (u32, u32) {
            let b = words(b);
            // SAFETY: see `bitmap_tier!`.
            unsafe { $card_and_runs(b, cap) }
        }
    };
}

pub(super) use bitmap_tier;
