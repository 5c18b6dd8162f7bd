//! Other people's ports of Sargon as engines: programs that print their trace
//! ([`ExecEngine`], `exec:COMMAND`) and UCI engines ([`UciEngine`], `uci:COMMAND`).
//!
//! The project's own engines show their search through hooks. A port written elsewhere, in
//! another language, has no hooks we can call; what it can do is print its trace, or at
//! least answer as a UCI engine. Each is an [`sargon_core::Engine`] that says what it can
//! do: an `exec:` port has a trace (so it can be compared event by event, drawn as a tree,
//! analysed with its PV, opened in the explorer); a `uci:` port has its answers only (the
//! best move and the score: `diff` compares those, `analyze` and `play` use them). Both
//! refuse hooks, and so what needs them (`models`), before any work.

mod exec;
mod uci;

use std::time::Duration;

pub use exec::{ExecEngine, ExecError};
pub use uci::{score_of, Answer, UciEngine};

/// The per-search timeout when none is given: generous, since a port in a slow language
/// may take minutes at depth 5 where the native port takes a second.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

/// The deepest search asked of another person's port: the deepest any engine of this
/// project takes (the native port's, [`sargon_port::MAX_DEPTH`]). A port that cannot go
/// so deep says so in its own error.
pub const EXTERNAL_MAX_DEPTH: u8 = sargon_port::MAX_DEPTH;
