//! Arbitrary bytes into `sroar::from_portable`: an accepted input's output must
//! validate and survive export and re-import unchanged (see `src/portable.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| sroar_fuzz::portable::check(data));
