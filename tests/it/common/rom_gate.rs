//! The ROM gate of the tests that need the original: each says whether it ran with the
//! user's imported Sargon ROM or skipped for want of it, in lines that `.ci/run` counts by
//! test name. Shared, as this one file, by the integration tests (through `common`) and by
//! the command's own unit tests (`src/studies/tests/`, through `#[path]`), so that both
//! print the same lines and obey the same `SARGON_REQUIRE_ROM=1`.

use sargon_original::emu::Emulator;
use sargon_original::rom::{Rom, RomStore};

/// The line a test prints when it cannot run for want of the original program.
pub const SKIP: &str = "skipped: no Sargon ROM imported";

/// The line a test that needs the original prints when it has it and runs; `.ci/run`
/// counts these and the [`SKIP`] lines (by test name) to say how many of the tests that
/// need the ROM ran.
pub const RAN: &str = "ran with the Sargon ROM";

/// Say that `test`, which needs the original, cannot run, because `why`. With
/// `SARGON_REQUIRE_ROM=1` (set by `.ci/run` where a ROM is imported) that is a failure:
/// a broken store or emulator must not pass as "no ROM here".
pub fn skip_for_want_of_rom(test: &str, why: &str) {
    if std::env::var_os("SARGON_REQUIRE_ROM").is_some_and(|v| v == "1") {
        panic!("{test} needs the Sargon ROM and SARGON_REQUIRE_ROM=1, but: {why}");
    }
    eprintln!("{SKIP} ({test}: {why})");
}

/// Note that `test`, which needs the original, has it and runs.
pub fn ran_with_rom(test: &str) {
    eprintln!("{RAN} ({test})");
}

/// The imported ROM (the store's default one), or `None` after printing the skip line.
pub fn rom(test: &str) -> Option<Rom> {
    let store = RomStore::open(None);
    match store.load(None) {
        Ok(rom) => {
            ran_with_rom(test);
            Some(rom)
        }
        Err(e) => {
            skip_for_want_of_rom(test, e.to_string().lines().next().unwrap_or(""));
            None
        }
    }
}

/// An emulator on the imported ROM, or `None` after printing the skip line.
pub fn emulator(test: &str) -> Option<Emulator> {
    let rom = rom(test)?;
    Some(Emulator::new(rom).expect("the imported ROM passes the harness checks"))
}
