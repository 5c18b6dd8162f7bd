//! Shared by the integration tests: find the user's imported ROM, or say clearly why a
//! test that needs the original is skipped.
#![allow(dead_code)]

use sargon::original::emu::Emulator;
use sargon::original::rom::{Rom, RomStore};

/// The line a test prints when it cannot run for want of the original program.
pub const SKIP: &str = "skipped: no Sargon ROM imported";

/// The imported ROM (the store's default one), or `None` after printing the skip line.
pub fn rom(test: &str) -> Option<Rom> {
    let store = RomStore::open(None);
    match store.load(None) {
        Ok(rom) => Some(rom),
        Err(e) => {
            eprintln!(
                "{SKIP} ({test}: {})",
                e.to_string().lines().next().unwrap_or("")
            );
            None
        }
    }
}

/// An emulator on the imported ROM, or `None` after printing the skip line.
pub fn emulator(test: &str) -> Option<Emulator> {
    let rom = rom(test)?;
    Some(Emulator::new(rom).expect("the imported ROM passes the harness checks"))
}
