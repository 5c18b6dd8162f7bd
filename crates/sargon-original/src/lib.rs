//! The original: Sargon's own Z80 code, brought by the user and run as it was written.
//!
//! The user imports their copy into a ROM store outside the repository ([`rom`], assembled
//! by the project's own Z80 assembler [`asm`]); [`emu`] runs it in the `iz80` emulator with
//! the hook points patched in; [`z80`] decodes its instructions, [`program`] maps its
//! routines, and [`listing`] and [`profile`] study it as a 1978 program: its listing and
//! where its time goes; [`coverage`] measures how much of it a set of searches runs.

#![warn(unreachable_pub)]
pub mod asm;
pub mod coverage;
#[doc(hidden)]
pub mod doc_rom;
pub mod emu;
pub mod listing;
pub mod profile;
pub mod program;
pub mod rom;
pub mod z80;

pub use emu::Emulator;
pub use program::Program;
pub use rom::{Rom, RomError, RomStore};
