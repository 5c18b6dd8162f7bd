//! Pictures of Sargon's search: the tree a search built, read from its trace.
//!
//! [`SearchTree::from_trace`] turns a full trace ([`crate::base::trace`]) into a tree:
//!
//! * a node for every `created` event (a move entered a move list), its children in the
//!   order the search took them up;
//! * its **evaluation**, from the Nth `alpha_beta` event: the order N, the score (pawns,
//!   from the side that made the node's move, as the trace gives it) and the decision:
//!   *new best* or *discard* from the `best_test` that follows, or *alpha-beta cutoff*;
//! * the **principal variation**, from the `best` events ([`pv::principal_variation`]);
//! * why a node has no evaluation: it was **cut off** (a sibling's cutoff ended its move
//!   list before it was searched; or an ancestor was cut off), **refuted** (one of its own
//!   replies caused a cutoff, so its score was never backed up), or its move is
//!   **illegal** (Sargon generates moves that leave the king in check and drops them when
//!   it plays them).
//!
//! [`SearchTree::from_model_run`] builds the same kind of tree from a run of one of the
//! models of "A Window into Sargon" ([`crate::tools::models`]), so both are drawn alike.
//!
//! A real tree has thousands of nodes: [`View::select`] keeps the PV, the moves at the
//! root and then the earliest-evaluated nodes up to a budget, and says how many it left
//! out. [`to_dot`] writes Graphviz DOT and [`to_text`] an indented text tree; running Graphviz
//! itself is the command line's business.

//!
//! The parts: [`build`] reads a trace or a model run into a [`SearchTree`], [`view`] picks
//! what to show, [`dot`] and [`text`] draw it.

use shakmaty::{Chess, Color, Position};

use crate::base::vocab::SMove;
use crate::tools::models::{Decision, MAX_PAWNS};

mod build;
mod dot;
mod text;
mod view;

pub use dot::{models_dot, to_dot, to_dot_many, DotLayout};
pub use text::to_text;
pub use view::View;

/// An evaluated node's numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeEval {
    /// N: the node's `alpha_beta` event is the Nth of the search.
    pub order: usize,
    /// Pawns, from the side that made the node's move.
    pub score: f64,
    /// What the score decided: a new best, a discard or a cutoff.
    pub decision: Decision,
    /// The alpha-beta threshold (two plies up), in the same pawns (16.0: MAX).
    pub alpha_beta: f64,
    /// The minimax threshold (one ply up, negated), when the trace shows it.
    pub minimax: Option<f64>,
}

/// Why a node is drawn as it is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// The root.
    Root,
    /// It has an evaluation.
    Evaluated,
    /// One of its replies caused a cutoff at evaluation `at`: never backed up.
    Refuted {
        /// The evaluation's order number.
        at: usize,
    },
    /// Never searched: a cutoff (evaluation `by`, when known) ended its move list first.
    CutOff {
        /// The cutting evaluation's order number.
        by: Option<usize>,
    },
    /// Its move leaves the king in check: Sargon drops it.
    Illegal,
    /// Created but not evaluated, for none of the reasons above (e.g. a search that was
    /// stopped, or a model node never created).
    NotEvaluated,
}

/// One node of a search tree.
#[derive(Clone, Debug)]
pub struct TreeNode {
    /// The parent's index (none for the root).
    pub parent: Option<usize>,
    /// The children's indices, in creation order.
    pub children: Vec<usize>,
    /// Depth in the tree (0 for the root).
    pub ply: usize,
    /// The move in numbered SAN ("1.e4", "1...e5"), or UCI when it is illegal.
    pub label: String,
    /// The model's name for the node ("AG"), for model trees.
    pub key: Option<String>,
    /// Position in creation order (0 for the root).
    pub created: usize,
    /// The evaluation, if the node was evaluated.
    pub eval: Option<NodeEval>,
    /// Why it is drawn as it is.
    pub status: Status,
    /// It is on the principal variation.
    pub in_pv: bool,
    /// It was the best so far among its siblings at some point (a `best` event).
    pub best_so_far: bool,
}

/// A search tree: node 0 is the root.
#[derive(Clone, Debug)]
pub struct SearchTree {
    /// The nodes, indexed by `parent` and `children`.
    pub nodes: Vec<TreeNode>,
    /// What was searched, for the picture's title.
    pub title: String,
    /// The root's text (side to move, Sargon's choice).
    pub root_text: String,
}

const ROOT: usize = 0;

fn root_node(label: String) -> TreeNode {
    TreeNode {
        parent: None,
        children: Vec::new(),
        ply: 0,
        label,
        key: None,
        created: 0,
        eval: None,
        status: Status::Root,
        in_pv: false,
        best_so_far: false,
    }
}

/// Pawns as "+0.25", "-3.375", "+1.00": Sargon's eighths exactly, at least 2 decimals.
pub fn pawns(p: f64) -> String {
    let s = format!("{:+.3}", p + 0.0);
    match s.strip_suffix('0') {
        Some(t) => t.to_string(),
        None => s,
    }
}

/// A threshold: MAX and -MAX for the score table's "no bound yet".
fn threshold(p: f64) -> String {
    if p >= MAX_PAWNS {
        "MAX".into()
    } else if p <= -MAX_PAWNS {
        "-MAX".into()
    } else {
        pawns(p)
    }
}

/// A move as numbered SAN: "12.Nf3" or "12...Nf6".
fn numbered(pos: &Chess, san: &str) -> String {
    let n = pos.fullmoves().get();
    match pos.turn() {
        Color::White => format!("{n}.{san}"),
        Color::Black => format!("{n}...{san}"),
    }
}

/// The text of a group of cut-off moves.
pub(super) fn group_lines(tree: &SearchTree, members: &[usize]) -> Vec<String> {
    let by = members.iter().find_map(|&m| match tree.nodes[m].status {
        Status::CutOff { by: Some(by) } => Some(by),
        _ => None,
    });
    let head = match (by, members.len()) {
        (Some(by), 1) => format!("1 move cut off by ({by})"),
        (Some(by), k) => format!("{k} moves cut off by ({by})"),
        (None, 1) => "1 move cut off".to_string(),
        (None, k) => format!("{k} moves cut off"),
    };
    let mut names: Vec<String> = members
        .iter()
        .take(6)
        .map(|&m| {
            let l = &tree.nodes[m].label;
            // Without the move number: "Nb4" rather than "4...Nb4".
            l.rsplit('.').next().unwrap_or(l).to_string()
        })
        .collect();
    if members.len() > 6 {
        names.push("...".into());
    }
    vec![head, names.join(" ")]
}

/// The lines of text describing a node: the move (with its evaluation order), then the
/// score and decision, then (models) the thresholds.
pub(super) fn node_lines(node: &TreeNode) -> Vec<String> {
    let mut lines = Vec::new();
    if node.status == Status::Root {
        return node.label.lines().map(str::to_string).collect();
    }
    let key = node
        .key
        .as_ref()
        .map(|k| format!("{k}  "))
        .unwrap_or_default();
    match &node.eval {
        Some(e) => {
            lines.push(format!("({}) {key}{}", e.order, node.label));
            let verdict = match e.decision {
                Decision::NewBest => "new best",
                Decision::Discard => "discard",
                Decision::Cutoff => "CUTOFF",
            };
            lines.push(format!("{} {verdict}", pawns(e.score)));
            if node.key.is_some() {
                lines.push(format!(
                    "[{}, {}]",
                    threshold(e.alpha_beta),
                    e.minimax.map_or("?".into(), threshold)
                ));
            }
        }
        None => {
            lines.push(format!("{key}{}", node.label));
            lines.push(match node.status {
                Status::Refuted { at } => format!("refuted at ({at})"),
                Status::CutOff { by: Some(by) } => format!("cut off by ({by})"),
                Status::CutOff { by: None } => "cut off".into(),
                Status::Illegal => "dropped: leaves the king in check".into(),
                _ => "never searched".into(),
            });
        }
    }
    lines
}

#[cfg(test)]
mod tests;
