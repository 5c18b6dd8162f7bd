//! Why the positions of a run, or a run's earlier results, cannot be used.

use sargon_core::input::echo;
use sargon_core::position::PositionError;

/// Why [`read_positions`](super::read_positions) refused a line of the input. Each
/// message names the line (from 1) and says its cause once: none has a `source()`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PositionsError {
    /// A line that is neither an EPD or FEN line nor a position with moves.
    #[error("line {line}: not an EPD or FEN line: {}", echo(.text))]
    NotAPosition {
        /// The line.
        line: usize,
        /// Its text, as written.
        text: String,
    },
    /// A position that does not read or cannot be set up for Sargon. The line's text is
    /// quoted when the cause does not quote it.
    #[error("line {line}{}: {cause}", quoted(.text))]
    Position {
        /// The line.
        line: usize,
        /// Its text, when the cause does not quote it.
        text: Option<String>,
        /// Why.
        cause: PositionError,
    },
}

/// Why [`InputPosition::new`](super::InputPosition::new) refused a position: the position
/// (its index, and its text when the cause does not quote it), and as `source()` why.
#[derive(Debug, thiserror::Error)]
#[error("position {index}{}", quoted(.text))]
pub struct InputPositionError {
    /// Its index in the input, from 0.
    pub index: usize,
    /// Its text, when the cause does not quote it.
    pub text: Option<String>,
    /// Why it does not read or cannot be set up.
    #[source]
    pub cause: PositionError,
}

/// Why [`check_resumable`](super::check_resumable) refuses to go on with a results file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ResumeError {
    /// Its records compare other engines, another ROM, another book setting or shard.
    #[error("the results file is from another run: {0}")]
    OtherRun(String),
    /// Its first line plans another run (other positions, depths, `--first` or shard).
    #[error("the results file was made for another plan: {0}")]
    OtherPlan(String),
    /// Its record of a position names another position than the input at that index.
    #[error(
        "the results file is from another position list: its position {index} is `{theirs}`, \
         the input's is `{ours}`"
    )]
    OtherPosition {
        /// The index.
        index: usize,
        /// The position the file records there.
        theirs: String,
        /// The input's.
        ours: String,
    },
    /// It has a position past the end of the input.
    #[error(
        "the results file is from another position list: it has position {index}, the input \
         has {positions} positions"
    )]
    PastTheInput {
        /// The index it has.
        index: usize,
        /// The input's positions.
        positions: usize,
    },
}

/// ` `TEXT``, quoted as user text is, or nothing.
fn quoted(text: &Option<String>) -> String {
    text.as_deref()
        .map(|t| format!(" `{}`", echo(t)))
        .unwrap_or_default()
}
