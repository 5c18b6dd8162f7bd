//! Fuzz target `pgn`: see `sargon_referee::fuzzing::pgn` for what it exercises and checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    sargon_referee::fuzzing::pgn(data);
});
