//! The one generator of test sets' parts, shared by the integration tests (which
//! draw pieces with proptest, `super::piece`) and the fuzz targets (which decode
//! them from bytes with `arbitrary`, `fuzz/src/structured.rs`): each piece puts
//! values near an anchor, so that sets reach every container kind and the edges of
//! the `u64` line.

/// One part of a generated set. `anchor` indexes the caller's table of anchors
/// (modulo its length); `dkey` moves a container's key from the anchor's.
#[derive(Clone, Debug)]
pub enum Piece {
    /// A few scattered values near an anchor.
    Sparse { anchor: usize, offs: Vec<i32> },
    /// `len` consecutive values (at least one).
    Run { anchor: usize, off: i32, len: u32 },
    /// All 65536 values of one container.
    Full { anchor: usize, dkey: i8 },
    /// `count` pseudo-random lows of one container (> 4096 makes a bitmap).
    Dense {
        anchor: usize,
        dkey: i8,
        count: u16,
        seed: u64,
    },
    /// Runs of `run_len` values separated by `gap` missing values, in one container.
    Pattern {
        anchor: usize,
        dkey: i8,
        run_len: u16,
        gap: u16,
        runs: u16,
    },
}

/// The value `off` away from anchor `anchor`, within `u64`.
pub fn place(anchors: &[u64], anchor: usize, off: i64) -> u64 {
    let a = anchors[anchor % anchors.len()];
    (i128::from(a) + i128::from(off)).clamp(0, i128::from(u64::MAX)) as u64
}

fn key_of(anchors: &[u64], anchor: usize, dkey: i8) -> u64 {
    let a = anchors[anchor % anchors.len()];
    ((a >> 16) as i64 + i64::from(dkey)).clamp(0, (1 << 48) - 1) as u64
}

fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

impl Piece {
    /// Calls `f` with each value of the piece (in no particular order, possibly
    /// repeated).
    pub fn for_each_value(&self, anchors: &[u64], mut f: impl FnMut(u64)) {
        match *self {
            Piece::Sparse { anchor, ref offs } => {
                for &o in offs {
                    f(place(anchors, anchor, i64::from(o)));
                }
            }
            Piece::Run { anchor, off, len } => {
                let s = place(anchors, anchor, i64::from(off));
                let e = s.saturating_add(u64::from(len.max(1)) - 1);
                (s..=e).for_each(f);
            }
            Piece::Full { anchor, dkey } => {
                let k = key_of(anchors, anchor, dkey) << 16;
                (k..=k + 0xFFFF).for_each(f);
            }
            Piece::Dense {
                anchor,
                dkey,
                count,
                seed,
            } => {
                let k = key_of(anchors, anchor, dkey) << 16;
                let mut s = seed | 1;
                for _ in 0..count {
                    f(k | (xorshift(&mut s) & 0xFFFF));
                }
            }
            Piece::Pattern {
                anchor,
                dkey,
                run_len,
                gap,
                runs,
            } => {
                let k = key_of(anchors, anchor, dkey) << 16;
                let mut v = 0u64;
                for _ in 0..runs {
                    for _ in 0..run_len {
                        if v > 0xFFFF {
                            return;
                        }
                        f(k | v);
                        v += 1;
                    }
                    v += u64::from(gap);
                }
            }
        }
    }
}
