//! # sargon-studies
//!
//! The studies only the `sargon` command uses: how long Sargon took on the machines of
//! 1978 ([`history`], [`game_times`]), its strength per depth ([`strength`]), the plots
//! they draw ([`svg`]), and which of the original's labels the port cites ([`port_links`],
//! for `sargon listing --port`). They are the command's, not a library's (`publish = false`): they
//! print tables and plots for people, and change as the studies do. They are a crate of
//! their own only so that the tests in `tests/` can call them directly.

#![warn(unreachable_pub)]
pub mod game_times;
pub mod history;
pub mod port_links;
pub mod strength;
pub mod svg;
