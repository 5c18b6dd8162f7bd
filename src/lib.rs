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
//!
//! The layers, what may use what, and the path of one search are in
//! `docs/architecture.md`. With `default-features = false` the crate is the port alone:
//! no emulator, no command line.
//!
//! # Example: Sargon's move, score and principal variation, on the port
//!
//! ```
//! use sargon::tools::record;
//! use sargon::{parse_position, setup, Detail, Port, SearchOptions};
//!
//! let pos = parse_position("r2n2k1/5ppp/b5q1/1P3N2/8/8/3Q1PPP/3R2K1 w - - 0 1")?;
//! let setup = setup(&pos, false)?; // false: no opening book
//! let opts = SearchOptions::depth(3);
//! let run = record::search(&mut Port::new(), &setup, &opts, Detail::BestOnly, &mut [])?;
//! let pv = run.pv(&pos);
//! println!("move  {}", pv.san[0]);
//! println!("score {} cp for the side to move", run.outcome.score_for_mover().centipawns());
//! println!("PV    {}", pv.san.join(" "));
//! assert_eq!(pv.san, ["Qxd8+", "Rxd8", "Rxd8#"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

pub mod base;
pub mod engines;
pub mod fuzzing;
#[cfg(feature = "emulator")]
pub mod original;
pub mod port;
pub mod tools;
#[cfg(feature = "emulator")]
pub mod verify;

pub use base::engine::{
    Engine, EngineKind, SearchError, SearchOptions, SearchOutcome, SearchStats,
};
pub use base::hooks::{FnHook, Hook, HookEvent, HookMask, HookPoint, Hooks};
pub use base::position::{parse_position, setup, Setup};
pub use base::trace::{Detail, Event, Recorder};
pub use base::vocab::{SMove, Score, Sq};
pub use port::Port;
