//! The command's integration tests, one test binary (`cargo test --test it`): each module
//! tests one command or area end to end through the `sargon` binary or the libraries, as
//! its first lines say. Run one area with a filter: `cargo test --test it golden::`.
//! Tests that need the user's imported ROM, or a tool (Stockfish, Graphviz, python-chess, a
//! GUI, a browser, Slurm), say so in a `skipped:` line where it is missing
//! (docs/testing.md).

mod common;

mod annotate;
mod assembler;
mod bad_input;
mod bad_input_messages;
mod bad_input_rom;
mod batch;
mod checking_your_port;
mod core_z80emu;
mod crosscheck;
mod diff;
mod diff_causes;
mod diff_exec;
mod diff_plan;
mod diff_state;
mod doctest_coverage;
mod emulator;
mod epd;
mod exec_edges;
mod fuzz_corpus;
mod golden;
mod gui;
mod history;
mod hooks;
mod import_loops;
mod listing;
mod models;
mod mutation_campaign;
mod play;
mod play_carry;
mod port;
mod profile;
mod readme;
mod rom_verify;
// The explorer's tests read its answers into `sargon_explorer::api`, which the command
// carries with its feature `serve` (on by default).
#[cfg(feature = "serve")]
mod serve;
#[cfg(feature = "serve")]
mod serve_browser;
#[cfg(feature = "serve")]
mod serve_browser_game;
#[cfg(feature = "serve")]
mod serve_browser_governed;
#[cfg(feature = "serve")]
mod serve_browser_heat;
#[cfg(feature = "serve")]
mod serve_browser_step;
#[cfg(feature = "serve")]
mod serve_browser_views;
#[cfg(feature = "serve")]
mod serve_compare_exec;
#[cfg(feature = "serve")]
mod serve_engines;
#[cfg(feature = "serve")]
mod serve_governed;
#[cfg(feature = "serve")]
mod serve_heat;
#[cfg(feature = "serve")]
mod serve_step;
#[cfg(feature = "serve")]
mod serve_step_governed;
mod slurm;
mod step_original;
mod trace_cache;
mod tree;
mod uci;
mod uci_process;
mod uci_python;
mod workspace_shape;
