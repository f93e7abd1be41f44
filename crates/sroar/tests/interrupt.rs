//! The interrupt hook: long operations call it, and a hook that panics abandons them
//! (PostgreSQL's cancel works this way). Its own test binary, because the hook is
//! process-wide.

mod common;

use std::cell::Cell;
use std::panic::catch_unwind;

use common::door::{from_range, ops};
use sroar::RoaringView;

thread_local! {
    static CALLS: Cell<u64> = const { Cell::new(0) };
    static CANCEL: Cell<bool> = const { Cell::new(false) };
}

fn hook() {
    CALLS.with(|c| c.set(c.get() + 1));
    if CANCEL.with(Cell::get) {
        panic!("cancelled");
    }
}

#[test]
fn long_operations_call_the_hook_and_can_be_abandoned() {
    sroar::set_interrupt_hook(hook);
    // 2^15 full containers: the writer calls the hook every 4096 containers.
    let big = from_range(0..(1u64 << 31)).unwrap();
    let calls = CALLS.with(Cell::get);
    assert!(calls >= 7, "the writer called the hook {calls} times");
    let view = RoaringView::from_bytes(&big).unwrap();
    assert!(
        CALLS.with(Cell::get) > calls,
        "validation calls the hook too"
    );

    CANCEL.with(|c| c.set(true));
    let cancelled = catch_unwind(|| ops::or(view, view).map(|v| v.len()));
    assert!(
        cancelled.is_err(),
        "a panicking hook abandons the operation"
    );
    CANCEL.with(|c| c.set(false));
    assert_eq!(
        ops::or(view, view).unwrap(),
        big,
        "and the next one runs to the end"
    );
}
