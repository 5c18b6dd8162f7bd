//! For the doc examples that need the original (hidden from the docs): the user's imported
//! Sargon, or nothing, so that such an example runs and asserts where a ROM is imported
//! and returns early where none is. It obeys `SARGON_REQUIRE_ROM=1` as the tests' ROM gate
//! (`tests/it/common/rom_gate.rs`) does: a broken store must not pass as "no ROM here".

use sargon_core::engine::SearchOptions;
use sargon_core::position::{parse_position, setup, Book, PositionError};

use crate::emu::{StepError, Stepper};
use crate::rom::{Rom, RomError, RomStore};

/// Why an example's stepper could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum DocRomError {
    /// The store or the ROM.
    #[error(transparent)]
    Rom(#[from] RomError),
    /// The position.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// The stepper.
    #[error(transparent)]
    Step(#[from] StepError),
}

/// The store's ROM (the one `sargon` commands use when none is named), or `None` when it
/// cannot be loaded; with `SARGON_REQUIRE_ROM=1`, the error instead.
pub fn imported() -> Result<Option<Rom>, RomError> {
    match RomStore::open(None).load(None) {
        Ok(rom) => Ok(Some(rom)),
        Err(e) if std::env::var_os("SARGON_REQUIRE_ROM").is_some_and(|v| v == "1") => Err(e),
        Err(_) => Ok(None),
    }
}

/// A [`Stepper`] on the imported ROM: the initial position, book off, at `depth`.
pub fn stepper(depth: u8) -> Result<Option<Stepper>, DocRomError> {
    let Some(rom) = imported()? else {
        return Ok(None);
    };
    let start = setup(&parse_position("startpos")?, Book::Off)?;
    Ok(Some(Stepper::open(
        rom,
        &start,
        &SearchOptions::depth(depth),
    )?))
}
