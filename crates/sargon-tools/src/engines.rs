//! Opening an engine by kind (feature `emulator`): the one place that knows both the
//! original and the port.
//!
//! A program that embeds the port alone needs nothing here: `sargon_port::Port::new()` is
//! an [`Engine`]. With the `emulator` feature, [`open`] gives either kind from an
//! [`EngineKind`], and everything else (the tools, the CLI) talks to the result only
//! through the [`Engine`] interface.

use sargon_core::engine::{Engine, EngineKind};
use sargon_original::emu::{Core, Emulator};
use sargon_original::rom::RomStore;
use sargon_port::Port;

/// Why an engine could not be opened.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OpenError {
    /// The emulator needs an imported copy of the original, and none could be loaded.
    #[error(transparent)]
    Rom(#[from] sargon_original::rom::RomError),
    /// The ROM loaded but the harness cannot run it (a symbol or hook point is missing).
    #[error("the imported ROM cannot be used: {0}")]
    Unusable(sargon_original::rom::RomError),
}

/// An engine that [`open`] opened, with what the person running it must be told.
pub struct Opened {
    /// The engine, ready to search.
    pub engine: Box<dyn Engine + Send>,
    /// For the emulator on a ROM that is not verified (see [`crate::verify`]): the warning
    /// to show, one line. The library does not print it; the program that opened the
    /// engine does, so that whatever it shows, the person running it is told.
    pub warning: Option<String>,
}

/// An engine of `kind`; the emulator runs the ROM `rom` of `store` (default: the only one
/// imported, or `sargon`) on its default Z80 core, iz80.
pub fn open(store: &RomStore, kind: EngineKind, rom: Option<&str>) -> Result<Opened, OpenError> {
    open_on(store, kind, rom, Core::default())
}

/// [`open`], the emulator running on the Z80 core `core` (the port has none: it ignores it).
pub fn open_on(
    store: &RomStore,
    kind: EngineKind,
    rom: Option<&str>,
    core: Core,
) -> Result<Opened, OpenError> {
    match kind {
        EngineKind::Emulator => {
            let rom = store.load(rom)?;
            let warning = rom.unverified_reason().map(|why| {
                format!(
                    "ROM `{}` is not verified ({why}): its results may not be Sargon's",
                    rom.meta.name
                )
            });
            let engine = Box::new(Emulator::with_core(rom, core).map_err(OpenError::Unusable)?);
            Ok(Opened { engine, warning })
        }
        EngineKind::Port => Ok(Opened {
            engine: Box::new(Port::new()),
            warning: None,
        }),
    }
}
