//! # sargon-tools
//!
//! What people do with either Sargon engine. Each tool sees an engine only through
//! [`sargon_core::Engine`] and its trace through [`sargon_core::trace`], recorded by
//! [`sargon_core::record`]: analysis and the principal variation ([`analysis`]), the
//! differential runner ([`diff`], [`diff_run`] for sharded, resumable runs), the engines
//! of other people's ports, run as programs or UCI engines ([`external`]), and the one
//! place an engine is named and opened ([`engines`]),
//! search-tree pictures ([`tree`]), the minimax models of "A Window into Sargon"
//! ([`models`]), EPD batches ([`batch`]), the UCI protocol from both sides ([`uci`]: Sargon
//! as an engine; [`uci_client`]: a client that drives other engines), matches with PGN out
//! and Elo estimates ([`play`], [`pgn`], [`elo`]), annotated games ([`annotate`]), and the
//! check of an engine against the known Sargon's behaviour ([`behaviour`]); and the rules for
//! the files a command writes ([`outputs`]: checked before any work, never an input,
//! written whole through a rename, results files locked).
//!
//! Feature `emulator` adds the original: [`engines::open`] opens it too, and `verify`
//! checks an imported image against the known Sargon.

#![warn(unreachable_pub)]
pub mod analysis;
pub mod annotate;
pub mod batch;
pub mod behaviour;
mod cost;
pub mod diff;
pub mod diff_run;
pub mod elo;
pub mod engines;
pub mod external;
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing;
pub mod models;
pub mod outputs;
pub mod pgn;
pub mod play;
pub mod state_diff;
pub mod trace_cache;
pub mod tree;
pub mod uci;
pub mod uci_client;
#[cfg(feature = "emulator")]
pub mod verify;

pub use analysis::{analyse, Analysis};
pub use engines::{open, EngineSpec};
