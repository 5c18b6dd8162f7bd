//! The ROM store: the user's own copy of Sargon, imported once, kept outside the repository.
//!
//! Sargon's code is copyrighted, so this project never ships it. As emulator users bring
//! ROMs, Sargon's users bring the published Z80 transcription (or its zmac listing);
//! `sargon rom import` assembles it with the project's own assembler ([`crate::asm`]) and
//! stores the image and its symbol table here:
//!
//! ```text
//! <store>/<name>/image.bin      the bytes from the load address to the last byte emitted
//! <store>/<name>/symbols.json   every label and EQU, upper-cased
//! <store>/<name>/rom.json       name, load address, size, SHA-256 of image and sources,
//!                               and whether the image was verified (see below)
//! <store>/<name>/source.asm     the imported text (source.lst for a listing); both when
//!                               both were imported and gave the same image
//! ```
//!
//! The store is `--roms DIR`, else `$SARGON_ROMS`, else `$XDG_DATA_HOME/sargon/roms`, else
//! `$HOME/.local/share/sargon/roms`; with none of them set there is no store (an error at
//! the first use, never a store relative to the current directory). Every write goes to a
//! temporary directory first and is renamed into place, so an interrupted import never
//! leaves a half-written ROM.
//!
//! **Trusting the image.** A transcription typed or copied by hand can be wrong in one
//! byte and still assemble. Importing is therefore two steps: [`RomStore::prepare`]
//! assembles the file into a [`Candidate`] without storing anything, and
//! [`RomStore::store`] writes it with the verdict of a behavioural check
//! (`crate::verify`, which replays the known Sargon's searches on the candidate). The
//! verdict is kept in `rom.json` (`verified`, `verification`) and shown by every result
//! made with the ROM. [`fingerprint`] names the routines whose code differs from the
//! known transcription.

pub mod fingerprint;

mod bytes;
mod error;
mod image;
mod store;
#[cfg(test)]
mod tests;

pub use error::RomError;
pub use image::{Rom, RomMeta, SourceRecord, Verdict};
pub use store::{image_of, Candidate, ImportResult, RomStore, DEFAULT_NAME};
