//! # sargon-chess
//!
//! Sargon in the chess world's formats, for any engine [`sargon_engines`] opens: the UCI
//! protocol's engine side ([`uci`]: what `sargon uci` speaks to a chess GUI), matches with
//! PGN out and Elo estimates ([`play`], [`pgn`], [`elo`]), annotated games ([`annotate`])
//! and EPD batches ([`batch`]).

#![warn(unreachable_pub)]
pub mod annotate;
pub mod batch;
pub mod elo;
pub mod pgn;
pub mod play;
pub mod uci;
