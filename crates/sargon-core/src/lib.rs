//! # sargon-core
//!
//! What the two Sargons share: the original (Sargon's Z80 code in an emulator, crate
//! `sargon-original`) and the native port (crate `sargon-port`) implement the same
//! [`Engine`] interface, fire the same [`hooks`] at the same points of the program, and so
//! produce the same [`trace`] of [`Event`]s, from which [`pv`] rebuilds the principal
//! variation. Everything a tool needs to drive either engine is here, and nothing of either
//! engine.
//!
//! * [`vocab`]: Sargon's own words: squares ([`Sq`]), moves ([`SMove`]), scores ([`Score`]).
//! * [`position`]: FEN and `startpos` in, Sargon's [`Setup`] out.
//! * [`engine`]: the [`Engine`] trait, [`SearchOptions`] and [`SearchOutcome`].
//! * [`hooks`]: the points of the program a [`Hook`] can observe and steer.
//! * [`trace`] and [`record`]: a search as a list of events; [`trace_line`]: a trace read
//!   back from its JSON Lines form (another program's).
//! * [`pv`]: the principal variation from the "best so far" events.
//! * [`clock`]: T-states as time on the machines of 1978.
//! * [`causes`]: an error and its causes on one line, as the command prints them.
//! * [`input`]: quoting what the user typed in an error.
//! * [`text_file`]: a person's text file (PGN, EPD, JSON) as text: byte-order mark, character
//!   set; [`outputs`]: the files a command writes (checked before any work, never an
//!   input, written whole through a rename, results files locked).
//!
//! # Example: Sargon's move and principal variation, on the port
//!
//! ```
//! use sargon_core::{parse_position, record, setup, Book, Detail, SearchOptions};
//! use sargon_port::Port;
//!
//! let pos = parse_position("r2n2k1/5ppp/b5q1/1P3N2/8/8/3Q1PPP/3R2K1 w - - 0 1")?;
//! let setup = setup(&pos, Book::Off)?;
//! let run = record::search(&mut Port::new(), &setup, &SearchOptions::depth(3), Detail::BestOnly, &mut [])?;
//! let pv = run.pv(&pos);
//! assert_eq!(pv.san, ["Qxd8+", "Rxd8", "Rxd8#"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(unreachable_pub)]
#![deny(missing_docs)]

pub mod benchmark;
pub mod causes;
pub mod clock;
#[cfg(feature = "digest")]
pub mod digest;
pub mod engine;
pub mod game;
pub mod hooks;
pub mod input;
mod memory;
pub mod outputs;
pub mod position;
pub mod pv;
pub mod record;
pub mod state;
pub mod text_file;
pub mod trace;
pub mod trace_line;
pub mod vocab;

pub use engine::{
    Capabilities, Capability, Engine, SearchError, SearchOptions, SearchOutcome, SearchStats,
};
pub use hooks::{FnHook, Hook, HookEvent, HookMask, HookPoint, Hooks};
pub use position::{parse_position, setup, Book, Setup};
pub use pv::PvLine;
pub use record::Recorded;
pub use trace::{Detail, Event, Recorder};
pub use vocab::{SMove, Score, Sq};

/// `docs/hooks.md`, whose example is compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/hooks.md")]
struct HooksGuide;
