//! Value sets built from `arbitrary`, encoded with `from_sorted`, then mutated.
//!
//! The encoding must validate and hold exactly the values. A few byte edits then
//! make a buffer that is right almost everywhere, which reaches the deep checks of
//! validation (runs, cardinalities, canonical kinds, header min and max) far more
//! often than random bytes do. A mutated buffer that still validates must be the
//! canonical encoding of its values, and gets every check of the `view_ops` target.

use crate::door::from_sorted;
use arbitrary::Arbitrary;
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

/// One part of a set.
#[derive(Arbitrary, Clone, Debug)]
pub enum Piece {
    /// A few values near an anchor.
    Sparse { anchor: u8, offs: Vec<i32> },
    /// `len` consecutive values.
    Run { anchor: u8, off: i32, len: u16 },
    /// All 65536 values of one container.
    Full { anchor: u8, dkey: i8 },
    /// `count` pseudo-random lows of one container (> 4096 makes a bitmap).
    Dense {
        anchor: u8,
        dkey: i8,
        count: u16,
        seed: u64,
    },
    /// `runs` runs of `run_len` values `gap` apart, in one container.
    Pattern {
        anchor: u8,
        dkey: i8,
        run_len: u8,
        gap: u8,
        runs: u16,
    },
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

fn anchor(a: u8) -> u64 {
    ANCHORS[usize::from(a) % ANCHORS.len()]
}

fn place(a: u8, off: i64) -> u64 {
    (i128::from(anchor(a)) + i128::from(off)).clamp(0, i128::from(u64::MAX)) as u64
}

fn key_of(a: u8, dkey: i8) -> u64 {
    ((anchor(a) >> 16) as i64 + i64::from(dkey)).clamp(0, (1 << 48) - 1) as u64
}

impl Piece {
    fn push_values(&self, out: &mut Vec<u64>) {
        match *self {
            Piece::Sparse { anchor, ref offs } => {
                out.extend(offs.iter().map(|&o| place(anchor, i64::from(o))));
            }
            Piece::Run { anchor, off, len } => {
                let start = place(anchor, i64::from(off));
                let end = start.saturating_add(u64::from(len));
                out.extend(start..=end);
            }
            Piece::Full { anchor, dkey } => {
                let high = key_of(anchor, dkey) << 16;
                out.extend(high..=high | 0xFFFF);
            }
            Piece::Dense {
                anchor,
                dkey,
                count,
                seed,
            } => {
                let high = key_of(anchor, dkey) << 16;
                let mut s = seed | 1;
                for _ in 0..count {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    out.push(high | (s & 0xFFFF));
                }
            }
            Piece::Pattern {
                anchor,
                dkey,
                run_len,
                gap,
                runs,
            } => {
                let high = key_of(anchor, dkey) << 16;
                let step = u64::from(run_len) + u64::from(gap) + 1;
                for r in 0..u64::from(runs) {
                    let s = r * step;
                    if s > 0xFFFF {
                        break;
                    }
                    let e = (s + u64::from(run_len)).min(0xFFFF);
                    out.extend((s..=e).map(|low| high | low));
                }
            }
        }
    }
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
        p.push_values(&mut values);
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
