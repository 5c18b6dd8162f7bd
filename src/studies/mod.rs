//! The studies of the command: how long Sargon took on the machines of 1978
//! ([`history`], [`game_times`]), its strength per depth ([`strength`]) and the plots they
//! draw ([`svg`]). (Which of the original's labels the port cites, for `sargon listing
//! --port` and the explorer's listing, is the library `sargon_port_links`.)
//!
//! They are modules of the command, not of a library: they print tables and plots for
//! people (`sargon history`, `sargon bench`) and
//! change as the studies do. Their tests that call them directly are unit tests here
//! (`tests/`); the tests that run the command stay in the workspace's `tests/`.

pub(crate) mod game_times;
pub(crate) mod history;
pub(crate) mod strength;
pub(crate) mod svg;

#[cfg(test)]
mod tests;
