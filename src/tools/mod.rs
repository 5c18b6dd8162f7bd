//! The tools: what people do with either engine.
//!
//! Each tool sees an engine only through [`crate::base::engine::Engine`] and its trace
//! through [`crate::base::trace`], recorded by [`record`]: analysis and the principal variation, the differential
//! runner, search-tree pictures, the minimax models of "A Window into Sargon", EPD batches,
//! the UCI protocol from both sides (Sargon as an engine, and a client that drives other
//! engines), matches with PGN out and Elo estimates, annotated games, and the check of an
//! engine against the known Sargon's behaviour.

pub mod analysis;
pub mod annotate;
pub mod batch;
pub mod behaviour;
pub mod diff;
pub mod diff_run;
pub mod elo;
pub mod game_times;
pub mod models;
pub mod pgn;
pub mod play;
pub mod pv;
pub mod record;
pub mod strength;
pub mod tree;
pub mod uci;
pub mod uci_client;
