//! libFuzzer target `session_script`: skillkit_fuzz's session_script checks, one input at a time (see ../../README.md).
#![no_main]

use libfuzzer_sys::fuzz_target;
use skillkit_fuzz::{check_one, Target};

fuzz_target!(|data: &[u8]| check_one(Target::SessionScript, data));
