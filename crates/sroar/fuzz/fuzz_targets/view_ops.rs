//! Two or three buffers: each one that validates gets every query and every
//! producing operation, and each pair gets the set algebra (see `src/view.rs`,
//! `src/pair.rs`; the input layout is in `src/input.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| sroar_fuzz::view_ops(data));
