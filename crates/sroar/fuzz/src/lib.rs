//! The checks behind sroar's fuzz targets, and the seed corpora.
//!
//! Each target in `fuzz_targets/` is one call into this crate, so the checks can be
//! read (and reused by `examples/seed_corpus.rs`) in one place:
//! - [`input`]: how `view_ops` splits one fuzz input into parameters and buffers;
//! - [`view`]: every query and every producing operation of one valid view, each
//!   output validated and tied to the input by identities;
//! - [`pair`]: the set algebra on two or more valid views;
//! - [`portable`]: import of arbitrary bytes as the standard portable format;
//! - [`structured`]: value sets built from `arbitrary`, encoded, then mutated;
//! - [`seeds`]: valid buffers of every container kind, for the seed corpora.
//!
//! A failed check panics with a message that names the operation and its argument;
//! libFuzzer records the input as a crash.

/// The free-function forms the checks are written in, over the public API only
/// (shared with the crate's integration tests).
#[allow(dead_code, reason = "the checks use some of the door's forms")]
#[path = "../../tests/common/door.rs"]
pub mod door;
pub mod input;
pub mod pair;
pub mod portable;
pub mod seeds;
pub mod structured;
pub mod view;

use sroar::{CapacityError, RoaringView};

/// Opens an operation's output, which must be a valid buffer.
///
/// # Panics
/// If the operation failed or its output does not validate.
#[track_caller]
pub fn valid<B: Into<Vec<u8>>>(
    out: Result<B, CapacityError>,
    what: &dyn core::fmt::Display,
) -> Vec<u8> {
    let out: Vec<u8> = match out {
        Ok(out) => out.into(),
        Err(e) => panic!("{what}: unexpected {e}"),
    };
    if let Err(e) = RoaringView::from_bytes(&out) {
        panic!("{what}: output does not validate: {e}");
    }
    out
}

/// A view of bytes that [`valid`] checked.
pub fn view(bytes: &[u8]) -> RoaringView<'_> {
    RoaringView::from_bytes(bytes).expect("checked by valid()")
}

/// Runs every check of the `view_ops` target on one fuzz input.
pub fn view_ops(data: &[u8]) {
    let input = input::Input::split(data);
    let mut views = Vec::new();
    for part in &input.parts {
        if let Ok(v) = RoaringView::from_bytes(part) {
            view::check(&v, &input.params);
            pair::check_self(&v);
            // A neighbour that shares most containers: the pairs of container
            // kinds at equal keys that two unrelated inputs rarely reach.
            let near = view::neighbour(&v, &input.params);
            pair::check(&v, &view(&near));
            views.push(v);
        }
    }
    for (i, a) in views.iter().enumerate() {
        for b in &views[i + 1..] {
            pair::check(a, b);
        }
    }
    pair::check_many(&views);
}
