//! Fuzz target `epd_file`: see `sargon_referee::fuzzing::epd_file` for what it exercises and checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    sargon_referee::fuzzing::epd_file(data);
});
