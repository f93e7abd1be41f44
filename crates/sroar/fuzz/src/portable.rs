//! Arbitrary bytes as the standard 64-bit portable format.

use crate::door::portable::{from_portable, to_portable};
use sroar::{looks_like_portable, RoaringView};

use crate::view::{self, MODEL_MAX};

/// Runs every check of the `portable` target on one fuzz input.
pub fn check(data: &[u8]) {
    // The other door must not panic on these bytes either.
    let _ = RoaringView::from_bytes(data);
    let _ = looks_like_portable(data);
    let Ok(out) = from_portable(data) else {
        return;
    };
    let v = match RoaringView::from_bytes(&out) {
        Ok(v) => v,
        Err(e) => panic!("from_portable output does not validate: {e}"),
    };
    assert!(
        looks_like_portable(data),
        "from_portable accepts bytes that looks_like_portable rejects"
    );
    let p = to_portable(&v);
    match from_portable(&p) {
        Ok(again) => assert!(again == out, "from_portable(to_portable(x)) != x"),
        Err(e) => panic!("from_portable(to_portable(x)) fails: {e}"),
    }
    let pv = RoaringView::from_bytes(&out).expect("validated above");
    assert!(to_portable(&pv) == p, "to_portable is not stable");
    if v.len() <= MODEL_MAX {
        let vals: Vec<u64> = v.iter().collect();
        assert_eq!(vals.len() as u64, v.len(), "iter().count() vs len");
        assert!(
            crate::door::from_sorted(&vals).as_deref().ok() == Some(&out[..]),
            "from_portable output is not the canonical encoding of its values"
        );
    }
    let params = [data.len() as u64, v.len(), 0x1_0000_0001, u64::MAX / 3];
    view::check(&v, &params);
}
