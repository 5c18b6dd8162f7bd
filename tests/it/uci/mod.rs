//! The UCI protocol driven with scripted input, its output checked.
//!
//! Most tests run on a stand-in engine (it plays the first legal move after a delay that
//! grows with the depth, and honours the stop flag), so that the protocol, the clock and
//! `stop` are tested exactly and everywhere. The tests in `real` run the real engine chosen
//! by `SARGON_UCI_ENGINE` (`port` by default, or `emulator`, which needs an imported ROM
//! and is skipped without one).
//!
//! - `stand_in`: the stand-in engine, the session's output and the helpers that read it;
//! - `protocol`: commands, `stop`, `quit`, refused and malformed input;
//! - `clock`: time management (`movetime`, the clock, `ponder`);
//! - `options`: `setoption` (FixedDepth, the engine) and an engine that cannot start;
//! - `real`: the real engines.

mod carry;
mod clock;
mod options;
mod protocol;
mod real;
mod stand_in;
