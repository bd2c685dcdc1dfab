//! libFuzzer target `form_edit`: skillkit_fuzz's form_edit checks, one input at a time (see ../../README.md).
#![no_main]

use libfuzzer_sys::fuzz_target;
use skillkit_fuzz::{check_one, Target};

fuzz_target!(|data: &[u8]| check_one(Target::FormEdit, data));
