//! Why a ROM could not be imported or loaded: [`RomError`].

use std::io;
use std::path::PathBuf;

use super::bytes::shown;

/// Why a ROM could not be imported or loaded.
///
/// Each message carries its cause (the OS's or the assembler's words) itself, and none
/// has a `source()`: printed alone or through `anyhow`'s `{:#}`, the cause appears once.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RomError {
    #[error("no Sargon ROM imported in {}\n  import your copy of the Z80 transcription with: sargon rom import path/to/sargon-z80.asm\n  (see roms/README.md; the store is chosen by --roms, $SARGON_ROMS or $XDG_DATA_HOME)", shown(.store))]
    /// The store holds no ROM.
    NoneImported {
        /// The store's directory.
        store: PathBuf,
    },
    #[error("no ROM named `{name}` in {} (imported: {available})", shown(.store))]
    /// No ROM has the name asked.
    NotFound {
        /// The name asked, as [`echo`](sargon_core::input::echo) quotes it.
        name: String,
        /// The store's directory.
        store: PathBuf,
        /// The names imported.
        available: String,
    },
    #[error("several ROMs in {} ({available}): choose one with {choose}", shown(.store))]
    /// Several ROMs are stored and none was named.
    Ambiguous {
        /// The store's directory.
        store: PathBuf,
        /// The names imported.
        available: String,
        /// How the command at hand names a ROM: `--rom NAME` from [`RomStore::load`](crate::rom::RomStore::load),
        /// another syntax through [`RomError::naming_the_rom_as`].
        choose: &'static str,
    },
    #[error("a different image is already imported as `{name}` (SHA-256 {existing}); use --force to replace it or --name to import under another name")]
    /// Another image is stored under the name.
    Exists {
        /// The name.
        name: String,
        /// SHA-256 of the stored image.
        existing: String,
    },
    #[error("invalid ROM name `{0}`: use letters, digits, `-`, `_` and `.`")]
    /// The name has characters other than letters, digits, `-`, `_` and `.`.
    BadName(String),
    #[error("cannot assemble {file}: {cause}")]
    /// The source did not assemble.
    Assemble {
        /// The source file.
        file: String,
        /// The assembler's error, as text (printed once: not a `source`).
        cause: String,
    },
    #[error("{file} is not a text file (Z80 source or zmac listing expected)")]
    /// The file is binary: it is never echoed.
    NotText {
        /// The file.
        file: String,
    },
    #[error("{file} emitted no bytes: is it the Sargon transcription?")]
    /// The source assembled to no bytes.
    Empty {
        /// The source file.
        file: String,
    },
    #[error("{file} assembles only in part: {why}; nothing stored")]
    /// Part of the source did not assemble.
    Incomplete {
        /// The source file.
        file: String,
        /// What is missing.
        why: String,
    },
    #[error("ROM `{rom}` lacks the symbol {symbol}, which the emulator harness needs: is it the Sargon transcription?")]
    /// The ROM lacks a symbol the harness needs.
    MissingSymbol {
        /// The ROM's name.
        rom: String,
        /// The symbol missing.
        symbol: String,
    },
    #[error("ROM `{name}` in {} is corrupt: {why}", shown(.dir))]
    /// A stored ROM does not match its record.
    Corrupt {
        /// The ROM's name.
        name: String,
        /// Its directory.
        dir: PathBuf,
        /// What does not match.
        why: String,
    },
    #[error("the ROM store {} is not a directory (the store is chosen by --roms, $SARGON_ROMS or $XDG_DATA_HOME)", shown(.store))]
    /// The store's path names something other than a directory.
    StoreNotADirectory {
        /// The store's path.
        store: PathBuf,
    },
    #[error("cannot read the ROM store {}: {cause}", shown(.store))]
    /// The store cannot be read.
    StoreUnreadable {
        /// The store's directory.
        store: PathBuf,
        /// The OS error (printed once: not a `source`).
        cause: io::Error,
    },
    #[error("cannot write to the ROM store {}: {cause}", shown(.store))]
    /// The store cannot be written.
    StoreUnwritable {
        /// The store's directory.
        store: PathBuf,
        /// The OS error.
        cause: io::Error,
    },
    #[error("no ROM store: $HOME is not set; choose one with --roms DIR, $SARGON_ROMS or $XDG_DATA_HOME")]
    /// No store was named and `$HOME` is unset.
    NoHome,
    #[error("{context}: {cause}")]
    /// Reading or writing a file failed.
    Io {
        /// What was being done.
        context: String,
        /// The error.
        cause: io::Error,
    },
}

impl RomError {
    /// The error as a command that takes its ROM's name otherwise than by `--rom NAME`
    /// shows it: `syntax` (`sargon rom info NAME`) is the advice when several ROMs are
    /// stored and none was named, so that the advice is one the command accepts.
    ///
    /// ```
    /// use sargon_original::rom::{RomStore, Verdict};
    /// let dir = tempfile::tempdir()?;
    /// let store = RomStore::new(dir.path().join("roms"));
    /// let file = dir.path().join("tiny.asm");
    /// std::fs::write(&file, "        ORG 100H\nSTART:  RET\n")?;
    /// for name in ["one", "two"] {
    ///     store.store(store.prepare(&file, name, false)?, false, Verdict::default())?;
    /// }
    /// // Two ROMs, none named, neither called `sargon`: which one?
    /// let e = store.load(None).unwrap_err();
    /// assert!(e.to_string().contains("--rom NAME"), "{e}");
    /// let e = e.naming_the_rom_as("sargon rom info NAME");
    /// assert!(e.to_string().contains("sargon rom info NAME") && !e.to_string().contains("--rom"), "{e}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn naming_the_rom_as(self, syntax: &'static str) -> RomError {
        match self {
            RomError::Ambiguous {
                store, available, ..
            } => RomError::Ambiguous {
                store,
                available,
                choose: syntax,
            },
            other => other,
        }
    }
}
