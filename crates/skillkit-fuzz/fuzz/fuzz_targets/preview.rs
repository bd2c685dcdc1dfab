//! libFuzzer target `preview`: skillkit_fuzz's preview checks, one input at a time (see ../../README.md).
#![no_main]

use libfuzzer_sys::fuzz_target;
use skillkit_fuzz::{check_one, Target};

fuzz_target!(|data: &[u8]| check_one(Target::Preview, data));
