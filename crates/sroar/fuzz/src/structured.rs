//! Value sets built from `arbitrary`, encoded with `from_sorted`, then mutated.
//!
//! The encoding must validate and hold exactly the values. A few byte edits then
//! make a buffer that is right almost everywhere, which reaches the deep checks of
//! validation (runs, cardinalities, canonical kinds, header min and max) far more
//! often than random bytes do. A mutated buffer that still validates must be the
//! canonical encoding of its values, and gets every check of the `view_ops` target.

use crate::door::from_sorted;
use arbitrary::{Arbitrary, Unstructured};
use sroar::RoaringView;

use crate::input::PARAMS;
use crate::view::{self, MODEL_MAX};

/// Values near which pieces are placed.
const ANCHORS: [u64; 7] = [
    0,
    1 << 16,
    1 << 32,
    1 << 47 << 16,
    1 << 63,
    u64::MAX - (1 << 20),
    u64::MAX,
];

/// Most values one case builds.
const VALUES_MAX: usize = 1 << 16;

/// The parts of a set: the generator the crate's integration tests draw from too.
#[path = "../../tests/common/pieces.rs"]
pub mod pieces;
use pieces::Piece;

/// A piece decoded from fuzz bytes: the kind, then its fields.
impl<'a> Arbitrary<'a> for Piece {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let anchor = usize::from(u.arbitrary::<u8>()?);
        Ok(match u.int_in_range(0..=4u8)? {
            0 => Piece::Sparse {
                anchor,
                offs: u.arbitrary()?,
            },
            1 => Piece::Run {
                anchor,
                off: u.arbitrary()?,
                len: u32::from(u.arbitrary::<u16>()?) + 1,
            },
            2 => Piece::Full {
                anchor,
                dkey: u.arbitrary()?,
            },
            3 => Piece::Dense {
                anchor,
                dkey: u.arbitrary()?,
                count: u.arbitrary()?,
                seed: u.arbitrary()?,
            },
            _ => Piece::Pattern {
                anchor,
                dkey: u.arbitrary()?,
                run_len: u16::from(u.arbitrary::<u8>()?) + 1,
                gap: u16::from(u.arbitrary::<u8>()?),
                runs: u.arbitrary()?,
            },
        })
    }
}

/// One edit of the encoded bytes.
#[derive(Arbitrary, Clone, Debug)]
pub enum Edit {
    /// XOR one byte, at a position in the header (0), directory (1) or payloads (2+).
    Xor { region: u8, at: u32, mask: u8 },
    /// Overwrite a little-endian u16 at a byte position.
    Put16 { at: u32, value: u16 },
    /// Drop the last `n` bytes.
    Truncate { n: u16 },
    /// Append `n` zero bytes (the last payload's size is implied by the length).
    Extend { n: u8 },
}

/// One case: a set, edits of its encoding, and parameters for the view checks.
#[derive(Arbitrary, Clone, Debug)]
pub struct Case {
    pub pieces: Vec<Piece>,
    pub edits: Vec<Edit>,
    pub params: [u64; PARAMS],
}

impl Edit {
    /// `header` and `head` are the byte lengths of the header and of the header
    /// with the directory.
    fn apply(&self, bytes: &mut Vec<u8>, header: usize, head: usize) {
        let len = bytes.len();
        if len == 0 {
            return;
        }
        match *self {
            Edit::Xor { region, at, mask } => {
                let (lo, hi) = match region % 4 {
                    0 => (0, header),
                    1 => (header, head),
                    _ => (head, len),
                };
                let (lo, hi) = (lo.min(len), hi.min(len));
                if lo < hi {
                    bytes[lo + at as usize % (hi - lo)] ^= mask;
                }
            }
            Edit::Put16 { at, value } => {
                if len >= 2 {
                    let at = at as usize % (len - 1);
                    bytes[at..at + 2].copy_from_slice(&value.to_le_bytes());
                }
            }
            Edit::Truncate { n } => bytes.truncate(len.saturating_sub(usize::from(n))),
            Edit::Extend { n } => bytes.resize(len + usize::from(n), 0),
        }
    }
}

/// Bytes of a valid buffer's header: 7 fixed bytes, then the cardinality and the
/// container count in `cw` bytes each, min in `mw` and max - min in `sw` (FORMAT.md).
fn header_len(bytes: &[u8]) -> usize {
    let cw = usize::from(bytes[5] >> 4);
    let (mw, sw) = (usize::from(bytes[6] & 15), usize::from(bytes[6] >> 4));
    7 + 2 * cw + mw + sw
}

/// Runs every check of the `structured` target on one case.
pub fn check(case: &Case) {
    let mut values = Vec::new();
    for p in &case.pieces {
        p.for_each_value(&ANCHORS, |v| values.push(v));
        if values.len() > VALUES_MAX {
            return;
        }
    }
    values.sort_unstable();
    values.dedup();
    let bytes = match from_sorted(&values) {
        Ok(b) => b,
        Err(e) => panic!("from_sorted of {} values: {e}", values.len()),
    };
    let v = match RoaringView::from_bytes(&bytes) {
        Ok(v) => v,
        Err(e) => panic!("from_sorted output does not validate: {e}"),
    };
    assert_eq!(v.len(), values.len() as u64, "from_sorted: len");
    assert!(v.iter().eq(values.iter().copied()), "from_sorted: values");
    if case.edits.is_empty() {
        view::check(&v, &case.params);
        return;
    }
    let header = header_len(&bytes);
    let head = v.stats().head_bytes as usize;
    let mut edited = bytes.clone();
    for e in &case.edits {
        e.apply(&mut edited, header, head);
    }
    let Ok(ev) = RoaringView::from_bytes(&edited) else {
        return;
    };
    if ev.len() <= MODEL_MAX {
        let vals: Vec<u64> = ev.iter().collect();
        assert!(
            from_sorted(&vals).as_deref().ok() == Some(&edited[..]),
            "an edited buffer validates but is not the canonical encoding of its values"
        );
    }
    view::check(&ev, &case.params);
}
