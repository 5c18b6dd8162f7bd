//! # sargon-engines
//!
//! The one place a Sargon engine is named and opened ([`engines`]): the native port, the
//! original in the emulator (feature `emulator`), and other people's ports, run as
//! programs that print a trace or as UCI engines ([`external`]), with the UCI client that
//! drives them ([`uci_client`]). Whatever opens here is a [`sargon_core::Engine`], so no
//! command above cares which engine it drives.

#![warn(unreachable_pub)]
mod command_line;
pub mod engines;
pub mod external;
pub mod uci_client;

pub use engines::{open, EngineSpec};
