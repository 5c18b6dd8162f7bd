//! # sargon
//!
//! Sargon, the 1978 chess program by Dan and Kathe Spracklen, brought back twice:
//!
//! * **the original**: Sargon's Z80 machine code, imported by the user from their own copy
//!   ([`original::rom`], assembled by [`original::asm`]), running in the `iz80` emulator ([`original::emu`]) with Rust
//!   hooks at fixed addresses of the program ([`base::hooks`]);
//! * **a native port** of the same algorithm ([`port`]), routine by routine, checked against
//!   the original event by event ([`base::trace`]).
//!
//! Both engines sit behind one interface ([`Engine`]) and speak Sargon's own
//! vocabulary ([`base::vocab`]); positions come in as FEN through [`base::position`].
//!
//! The repository never contains Sargon's code: users import their own copy into a ROM
//! store outside it (see `roms/README.md`).

pub mod base;
pub mod engines;
#[cfg(feature = "emulator")]
pub mod original;
pub mod port;
pub mod tools;
#[cfg(feature = "emulator")]
pub mod verify;

pub use base::engine::{
    Engine, EngineKind, SearchError, SearchOptions, SearchOutcome, SearchStats,
};
pub use base::hooks::{FnHook, Hook, HookMask, HookPoint, Hooks, SearchState};
pub use base::position::{parse_position, setup, Setup};
pub use base::trace::{Detail, Event, Recorder};
pub use base::vocab::{SMove, Score, Sq};
pub use port::Port;
