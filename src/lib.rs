//! # sargon
//!
//! Sargon, the 1978 chess program by Dan and Kathe Spracklen, brought back twice:
//!
//! * **the original**: Sargon's Z80 machine code, imported by the user from their own copy
//!   ([`rom`], assembled by [`asm`]), running in the `iz80` emulator ([`emu`]) with Rust
//!   hooks at fixed addresses of the program ([`hooks`]);
//! * **a native port** of the same algorithm ([`port`]), routine by routine, checked against
//!   the original event by event ([`trace`]).
//!
//! Both engines sit behind one interface ([`engine::Engine`]) and speak Sargon's own
//! vocabulary ([`sargon`]); positions come in as FEN through [`position`].
//!
//! The repository never contains Sargon's code: users import their own copy into a ROM
//! store outside it (see `roms/README.md`).

pub mod analysis;
pub mod asm;
pub mod batch;
pub mod cli;
pub mod diff;
pub mod diff_run;
pub mod disasm;
pub mod emu;
pub mod engine;
pub mod history;
pub mod hooks;
pub mod models;
pub mod port;
pub mod position;
pub mod profile;
pub mod pv;
pub mod rom;
pub mod sargon;
pub mod trace;
pub mod tree;
pub mod uci;
