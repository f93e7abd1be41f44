//! A value set from `arbitrary`, encoded, then a few byte edits: reaches the deep
//! checks of validation (see `src/structured.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use sroar_fuzz::structured::{check, Case};

fuzz_target!(|case: Case| check(&case));
