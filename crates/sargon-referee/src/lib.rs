//! # sargon-referee
//!
//! The referee between two engines, for the people who test a port against the
//! original: two searches compared event by event ([`diff`]), sharded, resumable runs
//! over many positions with their reports ([`diff_run`]), the whole data area compared
//! at every hook point ([`state_diff`]), the original's traces cached so that a port is
//! checked without rerunning it ([`trace_cache`]), and the check of an engine, or an
//! imported image, against the known Sargon's behaviour ([`behaviour`]; `verify` with
//! feature `emulator`).

#![warn(unreachable_pub)]
pub mod behaviour;
pub mod cost;
pub mod diff;
pub mod diff_run;
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing;
pub mod state_diff;
pub mod trace_cache;
#[cfg(feature = "emulator")]
pub mod verify;
