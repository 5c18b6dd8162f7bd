//! Pictures of Sargon's search: the tree a search built, read from its trace.
//!
//! [`SearchTree::from_trace`] turns a full trace ([`sargon_core::trace`]) into a tree:
//!
//! * a node for every `created` event (a move entered a move list), its children in the
//!   order the search took them up;
//! * its **evaluation**, from the Nth `alpha_beta` event: the order N, the score (pawns,
//!   from the side that made the node's move, as the trace gives it) and the decision:
//!   *new best* or *discard* from the `best_test` that follows, or *alpha-beta cutoff*;
//! * the **principal variation**, from the `best` events ([`sargon_core::pv::principal_variation`]);
//! * why a node has no evaluation: it was **cut off** (a sibling's cutoff ended its move
//!   list before it was searched; or an ancestor was cut off), **refuted** (one of its own
//!   replies caused a cutoff, so its score was never backed up), or its move is
//!   **illegal** (Sargon generates moves that leave the king in check and drops them when
//!   it plays them).
//!
//! [`SearchTree::from_model_run`] builds the same kind of tree from a run of one of the
//! models of "A Window into Sargon" ([`crate::models`]), so both are drawn alike.
//!
//! A real tree has thousands of nodes: [`View::select`] keeps the PV, the moves at the
//! root and then the earliest-evaluated nodes up to a budget, and says how many it left
//! out. [`to_dot`] writes Graphviz DOT and [`to_text`] an indented text tree; running Graphviz
//! itself is the command line's business (`src/cli/graphviz.rs`).
//!
//! The files follow those steps: `build.rs` reads a trace (or a model run) into a tree, in
//! bounded memory if asked; `view.rs` chooses what a picture shows; `text.rs` and `dot.rs`
//! write it out. This file holds the tree itself.

use crate::models::Decision;

mod build;
mod dot;
mod text;
mod view;

#[cfg(test)]
mod tests;

pub use build::{TreeBuilder, TreeCut};
pub use dot::{models_dot, to_dot, to_dot_many, DotLayout};
pub use text::{summary, to_text};
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
    /// The node's move in Sargon's terms (none for the root and for model nodes).
    pub mv: Option<sargon_core::vocab::SMove>,
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
    /// What was left out to keep the tree in memory, if anything ([`TreeBuilder`]).
    pub cut: Option<TreeCut>,
}

const ROOT: usize = 0;

fn root_node(label: String) -> TreeNode {
    TreeNode {
        parent: None,
        children: Vec::new(),
        ply: 0,
        label,
        mv: None,
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

impl SearchTree {
    /// Nodes below the root.
    pub fn len(&self) -> usize {
        self.nodes.len() - 1
    }

    /// Whether the tree has no node besides the root.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// The nodes of the PV, from ply 1 down.
    pub fn pv(&self) -> Vec<usize> {
        let mut line = Vec::new();
        let mut at = ROOT;
        while let Some(&c) = self.nodes[at]
            .children
            .iter()
            .find(|&&c| self.nodes[c].in_pv)
        {
            line.push(c);
            at = c;
        }
        line
    }

    /// The first evaluation in each node's subtree (itself included).
    fn first_evaluations(&self) -> Vec<usize> {
        let mut first: Vec<usize> = self
            .nodes
            .iter()
            .map(|n| n.eval.as_ref().map_or(usize::MAX, |e| e.order))
            .collect();
        // Children come after their parents in `nodes`: one backward pass suffices.
        for id in (1..self.nodes.len()).rev() {
            let p = self.nodes[id].parent.expect("non-root");
            first[p] = first[p].min(first[id]);
        }
        first
    }

    /// Children in the order the search took them up (never-searched ones last, in
    /// creation order).
    fn order_children(&mut self) {
        let first = self.first_evaluations();
        for id in 0..self.nodes.len() {
            let mut children = std::mem::take(&mut self.nodes[id].children);
            children.sort_by_key(|&c| (first[c], self.nodes[c].created, c));
            self.nodes[id].children = children;
        }
    }
}
