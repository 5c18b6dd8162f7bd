//! Why an example could not be run, and why a trace does not fit its model.

use sargon_core::engine::SearchError;
use sargon_core::position::PositionError;

/// Why an example could not be run ([`run_example`](super::run_example),
/// [`run_example_from`](super::run_example_from), [`trace_example`](super::trace_example),
/// [`run_models`](super::run_models)). Each message says its cause once: only the wrapped
/// errors of other crates are `source()`s, passed through as they are.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ModelError {
    /// The examples are numbered 1 to 5.
    #[error("there is no example {0} (1-5)")]
    NoExample(u8),
    /// The real position given does not read or cannot be set up.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// The engine could not search.
    #[error(transparent)]
    Search(#[from] SearchError),
    /// The search reached a node the model has no score for.
    #[error("example {number}: the search scored a node the model does not have: {path}")]
    Stray {
        /// The example.
        number: u8,
        /// The node's moves, in UCI notation.
        path: String,
    },
    /// The trace does not follow the model's tree as Sargon's search must.
    #[error("example {number}: the trace does not fit the model: {misfit}")]
    Misfit {
        /// The example.
        number: u8,
        /// Where it does not.
        misfit: MisfitError,
    },
    /// The move chosen is not the first of the principal variation.
    #[error("example {number}: Sargon chose {chose:?} but the PV starts with {pv:?}")]
    NotThePv {
        /// The example.
        number: u8,
        /// The move chosen, in UCI notation.
        chose: Option<String>,
        /// The principal variation's first move.
        pv: Option<String>,
    },
}

/// Where a trace does not fit the model's tree.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MisfitError {
    /// A node (its moves, in UCI notation) that is not in the model.
    #[error("no model node for the moves {0}")]
    NoNode(String),
    /// An evaluation with no `best_test` after it.
    #[error("evaluation ({order}) of {key} had no best_test")]
    NoBestTest {
        /// Its number in evaluation order, from 1.
        order: usize,
        /// The node evaluated.
        key: String,
    },
    /// An `alpha_beta` event at a ply the score table does not have.
    #[error("alpha_beta event at ply {0}")]
    Ply(usize),
    /// The score two plies up is not the score table's.
    #[error("alpha_beta of {key}: two plies up is {found:02x}, the score table says {table:02x}")]
    TwoAbove {
        /// The node.
        key: String,
        /// The score the event gave.
        found: u8,
        /// The score of the table.
        table: u8,
    },
    /// A `best_test` with no `alpha_beta` before it.
    #[error("best_test of {0} without an alpha_beta before it")]
    BestTestAlone(String),
    /// A `best_test` of another node than the `alpha_beta` before it.
    #[error("best_test of {key} after the alpha_beta of {alpha_beta}")]
    BestTestAfter {
        /// The node of the `best_test`.
        key: String,
        /// The node of the `alpha_beta`.
        alpha_beta: String,
    },
    /// The score one ply up is not the score table's.
    #[error("best_test of {key}: one ply up is {found:02x}, the score table says {table:02x}")]
    OneAbove {
        /// The node.
        key: String,
        /// The score the event gave.
        found: u8,
        /// The score of the table.
        table: u8,
    },
}
