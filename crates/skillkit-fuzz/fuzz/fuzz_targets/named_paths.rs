//! libFuzzer target `named_paths`: skillkit_fuzz's named-paths checks, one input at a time (see ../../README.md).
#![no_main]

use libfuzzer_sys::fuzz_target;
use skillkit_fuzz::{check_one, Target};

fuzz_target!(|data: &[u8]| check_one(Target::NamedPaths, data));
