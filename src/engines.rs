//! Opening an engine by kind: the one place that knows both the original and the port.
//!
//! Everything else (the tools, the CLI) asks for an [`EngineKind`] here and then talks to
//! the result only through the [`Engine`] interface. Without the `emulator` feature only
//! the port can be opened.

use crate::base::engine::{Engine, EngineKind};
#[cfg(feature = "emulator")]
use crate::original::{emu::Emulator, rom::RomStore};
use crate::port::Port;

/// Why an engine could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The emulator needs an imported copy of the original, and none could be loaded.
    #[cfg(feature = "emulator")]
    #[error(transparent)]
    Rom(#[from] crate::original::rom::RomError),
    /// The ROM loaded but the harness cannot run it (a symbol or hook point is missing).
    #[cfg(feature = "emulator")]
    #[error("the imported ROM cannot be used: {0}")]
    Unusable(crate::original::rom::RomError),
    /// This build was made without the emulator (`default-features = false`).
    #[error("this build has no emulator (built without the `emulator` feature)")]
    NoEmulator,
}

/// The native port, ready to search.
pub fn open_port() -> Box<dyn Engine + Send> {
    Box::new(Port::new())
}

/// An engine of `kind`; the emulator runs the ROM `rom` of `store` (default: the only one
/// imported, or `sargon`). Opening a ROM that is not verified (see `crate::verify`) prints
/// a one-line warning on stderr: whatever the caller shows, the person running it is told.
#[cfg(feature = "emulator")]
pub fn open(
    store: &RomStore,
    kind: EngineKind,
    rom: Option<&str>,
) -> Result<Box<dyn Engine + Send>, OpenError> {
    match kind {
        EngineKind::Emulator => {
            let rom = store.load(rom)?;
            if let Some(why) = rom.unverified_reason() {
                eprintln!(
                    "warning: ROM `{}` is not verified ({why}): its results may not be Sargon's",
                    rom.meta.name
                );
            }
            Ok(Box::new(Emulator::new(rom).map_err(OpenError::Unusable)?))
        }
        EngineKind::Port => Ok(open_port()),
    }
}

/// An engine of `kind` in a build without the emulator: the port, or an error.
#[cfg(not(feature = "emulator"))]
pub fn open(kind: EngineKind) -> Result<Box<dyn Engine + Send>, OpenError> {
    match kind {
        EngineKind::Emulator => Err(OpenError::NoEmulator),
        EngineKind::Port => Ok(open_port()),
    }
}
