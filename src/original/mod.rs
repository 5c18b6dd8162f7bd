//! The original: Sargon's own Z80 code, brought by the user and run as it was written.
//!
//! The user imports their copy into a ROM store outside the repository ([`rom`], assembled
//! by the project's own Z80 assembler [`asm`]); [`emu`] runs it in the `iz80` emulator with
//! the hook points patched in; [`z80`] decodes its instructions, [`program`] maps its
//! routines, and [`listing`], [`profile`] and [`history`] study it as a 1978 program: its
//! listing, where its time goes, and how long it took on the machines of its day;
//! [`port_links`] reads which of its labels the port cites, and where.

pub mod asm;
pub mod emu;
pub mod history;
pub mod listing;
pub mod port_links;
pub mod profile;
pub mod program;
pub mod rom;
pub mod z80;
