//! Fuzz target `fen`: see `sargon_referee::fuzzing::fen` for what it exercises and checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    sargon_referee::fuzzing::fen(data);
});
