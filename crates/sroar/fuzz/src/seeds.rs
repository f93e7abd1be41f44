//! Valid buffers for the seed corpora: every container kind, at the edges of the
//! u64 line and of the key space.

use crate::door::portable::to_portable;
use crate::door::{from_range, from_values};
use sroar::RoaringView;

use crate::input::{self, PARAMS};

/// Named valid sroar buffers.
pub fn buffers() -> Vec<(&'static str, Vec<u8>)> {
    let top = 1u64 << 63;
    let key_top = ((1u64 << 48) - 1) << 16;
    let sets: Vec<(&'static str, Vec<u64>)> = vec![
        ("empty", vec![]),
        ("zero", vec![0]),
        ("max", vec![u64::MAX]),
        ("edges", vec![0, 0xFFFF, 0x1_0000, top - 1, top, u64::MAX]),
        ("array", vec![1, 3, 5, 1000, 65535]),
        ("run3", vec![0, 1, 2]),
        ("run_two", (10..20).chain(100..130).collect()),
        ("keys", (0..40u64).map(|k| (k * 7) << 16 | k).collect()),
        (
            "bitmap",
            (0..5000u64).map(|x| (1 << 32) | (2 * x + 1)).collect(),
        ),
        (
            "array_4096",
            (0..4096u64).map(|x| (5 << 16) | (3 * x)).collect(),
        ),
        (
            "bitmap_4097",
            (0..4097u64).map(|x| (5 << 16) | (3 * x)).collect(),
        ),
        (
            "runs_2047",
            (0..2047u64)
                .flat_map(|r| {
                    [
                        (9 << 16) | (r * 32),
                        (9 << 16) | (r * 32 + 1),
                        (9 << 16) | (r * 32 + 2),
                    ]
                })
                .collect(),
        ),
        ("top_key", vec![key_top, key_top | 7, u64::MAX - 1]),
        (
            "signs",
            vec![top - 2, top - 1, top, top + 1, key_top, u64::MAX],
        ),
    ];
    let mut out: Vec<(&'static str, Vec<u8>)> = sets
        .into_iter()
        .map(|(name, vals)| (name, from_values(vals).expect("small set")))
        .collect();
    out.push(("full", from_range(7 << 16..8 << 16).expect("one container")));
    out.push((
        "full_three",
        from_range(0xFFFF..(3 << 16) + 2).expect("four containers"),
    ));
    out.push(("top_range", from_range(u64::MAX - 70_000..).expect("two")));
    for (name, b) in &out {
        assert!(RoaringView::from_bytes(b).is_ok(), "seed {name} is invalid");
    }
    out
}

/// Seeds for `view_ops`: pairs and triples of the buffers, with a few parameters.
pub fn view_ops() -> Vec<(String, Vec<u8>)> {
    let bufs = buffers();
    let params: [[u64; PARAMS]; 3] = [
        [0, 0, 0, 0],
        [3, 0x1_0000_0005, 70_000, 0xFFFF_0000_0000_0123],
        [u64::MAX, 1 << 63, 12345, 1 << 20],
    ];
    let mut out = Vec::new();
    for (i, (na, a)) in bufs.iter().enumerate() {
        let (nb, b) = &bufs[(i + 1) % bufs.len()];
        let p = params[i % params.len()];
        out.push((format!("{na}-{nb}"), input::encode(p, &[a, b])));
        let (nc, c) = &bufs[(i + 5) % bufs.len()];
        out.push((
            format!("{na}-{nb}-{nc}"),
            input::encode(params[(i + 1) % params.len()], &[a, b, c]),
        ));
    }
    out
}

/// Seeds for `portable`: the portable export of each buffer.
pub fn portable() -> Vec<(String, Vec<u8>)> {
    buffers()
        .into_iter()
        .map(|(name, b)| {
            let v = RoaringView::from_bytes(&b).expect("valid seed");
            (name.to_string(), to_portable(&v))
        })
        .collect()
}

/// Seeds for `structured`: `arbitrary` reads any bytes, so a few short patterns.
pub fn structured() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for (i, n) in [16usize, 64, 256, 1024].into_iter().enumerate() {
        let bytes: Vec<u8> = (0..n).map(|j| (j * 31 + i * 7) as u8).collect();
        out.push((format!("pattern-{n}"), bytes));
    }
    out.push(("zeros".to_string(), vec![0; 64]));
    out
}
