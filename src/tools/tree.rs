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
//! itself is the command line's business (`src/cli/graphviz.rs`).

use std::collections::HashMap;
use std::fmt::Write as _;

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Position};

use crate::base::trace::Event;
use crate::base::vocab::SMove;
use crate::tools::models::{Decision, ModelRun, KEYS, MAX_PAWNS};
use crate::tools::pv;

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

/// What a tree left out because the search created more nodes than it may keep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeCut {
    /// The most nodes (below the root) the tree keeps.
    pub limit: usize,
    /// The nodes the search created.
    pub created: u64,
    /// The tree holds every node down to this ply and none deeper; `None` when even the
    /// root's moves did not fit, and the tree holds the first `limit` nodes created.
    pub plies: Option<usize>,
}

impl TreeCut {
    /// One sentence for the picture: what was cut and why.
    pub fn note(&self) -> String {
        let kept = match self.plies {
            Some(p) => format!("the tree holds the nodes down to ply {p} only"),
            None => format!("the tree holds the first {} created only", self.limit),
        };
        format!(
            "Cut: the search created {} nodes, more than the {} kept in memory (--keep-nodes): {kept}.",
            self.created, self.limit
        )
    }
}

/// Builds a [`SearchTree`] from a trace one event at a time, keeping at most a given
/// number of nodes, so that a deep search (tens of millions of nodes) is drawn in bounded
/// memory.
///
/// When the tree is full and a node arrives, the deepest ply kept is dropped and no node
/// below the remaining plies is taken any more: the tree stays whole down to a ply rather
/// than holding the first corner of the search. What a dropped reply tells about its parent
/// (that it refuted it) is kept. Only when the root's moves alone fill the tree are later
/// nodes refused as they come. [`SearchTree::cut`] then says what was left out.
pub struct TreeBuilder {
    nodes: Vec<TreeNode>,
    index: HashMap<Vec<SMove>, usize>,
    /// For a node whose replies are not kept: the first evaluation among them that was a
    /// cutoff (it refuted the node).
    hidden_refutation: Vec<Option<usize>>,
    evaluations: usize,
    /// The node whose `alpha_beta` waits for its `best_test`.
    pending: Option<usize>,
    result: Option<(Option<SMove>, crate::base::vocab::Score)>,
    pv: pv::PvTracker,
    limit: usize,
    /// No node deeper than this is kept.
    max_ply: usize,
    /// Even the root's moves do not fit: no node is taken any more.
    frozen: bool,
    /// New nodes seen, kept or not.
    created: u64,
    cut: bool,
}

impl TreeBuilder {
    /// A builder keeping at most `limit` nodes below the root (`None`: all).
    pub fn new(limit: Option<usize>) -> TreeBuilder {
        let mut index = HashMap::new();
        index.insert(Vec::new(), ROOT);
        TreeBuilder {
            nodes: vec![root_node(String::new())],
            index,
            hidden_refutation: vec![None],
            evaluations: 0,
            pending: None,
            result: None,
            pv: pv::PvTracker::new(),
            limit: limit.unwrap_or(usize::MAX),
            max_ply: usize::MAX,
            frozen: false,
            created: 0,
            cut: false,
        }
    }

    /// Nodes kept so far, below the root.
    pub fn len(&self) -> usize {
        self.nodes.len() - 1
    }

    /// Whether the tree has no node besides the root.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// Take the next event of a full trace ([`crate::base::trace::Detail::Full`]).
    pub fn add(&mut self, event: &Event) {
        match event {
            Event::Created { path } => self.created(path),
            Event::AlphaBeta {
                path,
                score,
                two_above,
                cutoff,
            } => {
                self.pending = None;
                self.evaluations += 1;
                let order = self.evaluations;
                let Some(&id) = self.index.get(path) else {
                    // A reply not kept: if it refuted a kept node, the node will say so.
                    if *cutoff && !path.is_empty() {
                        if let Some(&parent) = self.index.get(&path[..path.len() - 1]) {
                            self.hidden_refutation[parent].get_or_insert(order);
                        }
                    }
                    return;
                };
                self.nodes[id].eval = Some(NodeEval {
                    order,
                    score: score.pawns(),
                    decision: if *cutoff {
                        Decision::Cutoff
                    } else {
                        Decision::Discard
                    },
                    alpha_beta: two_above.pawns(),
                    minimax: None,
                });
                self.nodes[id].status = Status::Evaluated;
                if !cutoff {
                    self.pending = Some(id);
                }
            }
            Event::BestTest {
                path,
                one_above,
                accepted,
                ..
            } => {
                if let Some(id) = self.pending.take() {
                    if self.index.get(path) == Some(&id) {
                        if let Some(ev) = self.nodes[id].eval.as_mut() {
                            ev.decision = if *accepted {
                                Decision::NewBest
                            } else {
                                Decision::Discard
                            };
                            ev.minimax = Some(-one_above.pawns() + 0.0);
                        }
                    }
                }
            }
            Event::Best { path, .. } => {
                self.pv.add(event);
                if let Some(&id) = self.index.get(path) {
                    self.nodes[id].best_so_far = true;
                }
            }
            Event::Result { best, score } => self.result = Some((*best, *score)),
            Event::Eval { .. } | Event::Ascend { .. } => {}
        }
    }

    fn created(&mut self, path: &[SMove]) {
        if path.is_empty() || self.index.contains_key(path) {
            return;
        }
        self.created += 1;
        let ply = path.len();
        if ply > self.max_ply {
            self.cut = true;
            return;
        }
        if self.len() >= self.limit {
            self.cut = true;
            if self.frozen || !self.drop_deepest_ply() || ply > self.max_ply {
                return;
            }
        }
        let Some(&parent) = self.index.get(&path[..ply - 1]) else {
            return;
        };
        let id = self.nodes.len();
        let mut node = root_node(String::new());
        node.parent = Some(parent);
        node.ply = ply;
        node.created = self.created as usize;
        node.status = Status::NotEvaluated;
        self.nodes.push(node);
        self.hidden_refutation.push(None);
        self.nodes[parent].children.push(id);
        self.index.insert(path.to_vec(), id);
    }

    /// Make room by dropping the deepest ply kept; `false` (and no more nodes taken) when
    /// only the root's moves are left.
    fn drop_deepest_ply(&mut self) -> bool {
        let deepest = self.nodes.iter().map(|n| n.ply).max().unwrap_or(0);
        if deepest <= 1 {
            self.frozen = true;
            return false;
        }
        self.max_ply = deepest - 1;
        let max_ply = self.max_ply;
        // A dropped node that was a cutoff refuted its parent.
        for id in 1..self.nodes.len() {
            let node = &self.nodes[id];
            if node.ply == deepest {
                if let Some(e) = node
                    .eval
                    .as_ref()
                    .filter(|e| e.decision == Decision::Cutoff)
                {
                    let (parent, order) = (node.parent.expect("non-root"), e.order);
                    let slot = &mut self.hidden_refutation[parent];
                    *slot = Some(slot.map_or(order, |o| o.min(order)));
                }
            }
        }
        // Parents come before children, so ids keep their order.
        let mut new_id = vec![None; self.nodes.len()];
        let mut kept = 0;
        for (id, node) in self.nodes.iter().enumerate() {
            if node.ply <= max_ply {
                new_id[id] = Some(kept);
                kept += 1;
            }
        }
        let nodes = std::mem::take(&mut self.nodes);
        let hidden = std::mem::take(&mut self.hidden_refutation);
        for (mut node, refuted) in nodes.into_iter().zip(hidden) {
            if node.ply > max_ply {
                continue;
            }
            node.parent = node.parent.and_then(|p| new_id[p]);
            node.children = node.children.iter().filter_map(|&c| new_id[c]).collect();
            self.nodes.push(node);
            self.hidden_refutation.push(refuted);
        }
        self.index.retain(|_, id| match new_id[*id] {
            Some(new) => {
                *id = new;
                true
            }
            None => false,
        });
        self.pending = self.pending.and_then(|p| new_id[p]);
        true
    }

    /// The tree of a search of `pos` (the events taken so far), titled `title`.
    pub fn finish(self, pos: &Chess, title: impl Into<String>) -> SearchTree {
        let TreeBuilder {
            mut nodes,
            index,
            hidden_refutation,
            result,
            pv,
            limit,
            max_ply,
            created,
            cut,
            ..
        } = self;
        // The PV.
        let pv_moves = pv.line().to_vec();
        for n in 1..=pv_moves.len() {
            if let Some(&id) = index.get(&pv_moves[..n]) {
                nodes[id].in_pv = true;
            }
        }
        // Labels and legality, walking down with positions.
        let mut moves: Vec<Option<SMove>> = vec![None; nodes.len()];
        for (path, &id) in &index {
            moves[id] = path.last().copied();
        }
        drop(index);
        let mut positions: Vec<Option<Chess>> = vec![None; nodes.len()];
        positions[ROOT] = Some(pos.clone());
        // Creation order puts parents before children.
        for id in 1..nodes.len() {
            let parent = nodes[id].parent.expect("non-root");
            let m = moves[id].expect("non-root has a move");
            let legal = positions[parent]
                .as_ref()
                .and_then(|p| m.to_chess(p).map(|mv| (p, mv)));
            match legal {
                Some((p, mv)) => {
                    let san = SanPlus::from_move(p.clone(), mv).to_string();
                    nodes[id].label = numbered(p, &san);
                    // Only a node with children needs its position.
                    if !nodes[id].children.is_empty() {
                        let mut after = p.clone();
                        after.play_unchecked(mv);
                        positions[id] = Some(after);
                    }
                }
                None => {
                    // Sargon generates moves that leave the king in check (and, past a
                    // mate, scores them): shown in UCI, marked.
                    nodes[id].label = format!("{} (illegal)", m.uci());
                    if nodes[id].eval.is_none() {
                        nodes[id].status = Status::Illegal;
                    }
                }
            }
        }
        drop(positions);
        classify_unevaluated(&mut nodes, &hidden_refutation);
        let side = match pos.turn() {
            Color::White => "White",
            Color::Black => "Black",
        };
        let mut root_text = format!("{side} to move");
        if let Some((best, score)) = result {
            let choice = best
                .and_then(|m| pv::san(pos, &m))
                .unwrap_or_else(|| "no move".into());
            let _ = write!(
                root_text,
                "\nSargon plays {choice}\n{} for {side}",
                pawns(score.negated().pawns())
            );
        }
        nodes[ROOT].label = root_text.clone();
        nodes[ROOT].in_pv = !pv_moves.is_empty();
        let cut = cut.then(|| TreeCut {
            limit,
            created,
            plies: (max_ply != usize::MAX).then_some(max_ply),
        });
        let mut tree = SearchTree {
            nodes,
            title: title.into(),
            root_text,
            cut,
        };
        tree.order_children();
        tree
    }
}

impl SearchTree {
    /// The tree of a search of `pos` from its full trace (a [`crate::base::trace::Recorder`]
    /// with [`crate::base::trace::Detail::Full`], plus the result event if wanted). Every
    /// node is kept; [`TreeBuilder`] keeps a bounded number.
    pub fn from_trace(pos: &Chess, events: &[Event], title: impl Into<String>) -> SearchTree {
        let mut builder = TreeBuilder::new(None);
        for e in events {
            builder.add(e);
        }
        builder.finish(pos, title)
    }

    /// The tree of a model run: the 14 nodes of the 2x2x2 model (those never created are
    /// drawn as cut off), labelled with the model's pretend moves and keys, with the
    /// thresholds of every evaluation.
    pub fn from_model_run(run: &ModelRun) -> SearchTree {
        let m = run.model;
        let mut nodes = vec![root_node(String::new())];
        let mut by_key: HashMap<&str, usize> = HashMap::new();
        by_key.insert("", ROOT);
        for key in KEYS {
            let parent = by_key[&key[..key.len() - 1]];
            let id = nodes.len();
            let line = m.line(key);
            let san = line.split(' ').next_back().unwrap_or("");
            let label = if key.len() % 2 == 0 {
                format!("{}...{san}", key.len() / 2)
            } else {
                san.to_string()
            };
            let mut node = root_node(label);
            node.parent = Some(parent);
            node.ply = key.len();
            node.key = Some(key.to_string());
            node.created = run
                .created
                .iter()
                .position(|k| k == key)
                .map_or(usize::MAX, |i| i + 1);
            node.eval = run.evaluation(key).map(|e| NodeEval {
                order: e.order,
                score: e.score,
                decision: e.decision,
                alpha_beta: e.alpha_beta,
                minimax: Some(e.minimax),
            });
            node.status = if node.eval.is_some() {
                Status::Evaluated
            } else {
                Status::NotEvaluated
            };
            node.in_pv = run.in_pv(key);
            node.best_so_far = run.best_so_far.iter().any(|k| k == key);
            nodes.push(node);
            nodes[parent].children.push(id);
            by_key.insert(key, id);
        }
        classify_unevaluated(&mut nodes, &[]);
        let root_text = format!("White to move\nPV {}", run.pv_san());
        nodes[ROOT].label = root_text.clone();
        nodes[ROOT].in_pv = true;
        let mut tree = SearchTree {
            nodes,
            title: format!("Example {}: {}", m.number, m.title),
            root_text,
            cut: None,
        };
        tree.order_children();
        tree
    }

    /// Nodes below the root.
    pub fn len(&self) -> usize {
        self.nodes.len() - 1
    }

    /// Whether the tree has no node besides the root.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// Evaluations in the tree.
    pub fn evaluations(&self) -> usize {
        self.nodes.iter().filter(|n| n.eval.is_some()).count()
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

/// Give every node without an evaluation its reason. `hidden_refutation[id]`: the cutoff
/// among a node's replies when the replies are not in the tree.
fn classify_unevaluated(nodes: &mut [TreeNode], hidden_refutation: &[Option<usize>]) {
    let cutoff_among = |nodes: &[TreeNode], list: &[usize]| {
        list.iter().find_map(|&c| match &nodes[c].eval {
            Some(e) if e.decision == Decision::Cutoff => Some(e.order),
            _ => None,
        })
    };
    // Parents before children.
    for id in 1..nodes.len() {
        if nodes[id].status != Status::NotEvaluated {
            continue;
        }
        let parent = nodes[id].parent.expect("non-root");
        let children = nodes[id].children.clone();
        let siblings = nodes[parent].children.clone();
        let refutation =
            cutoff_among(nodes, &children).or(hidden_refutation.get(id).copied().flatten());
        nodes[id].status = if let Some(at) = refutation {
            Status::Refuted { at }
        } else if let Some(by) = cutoff_among(nodes, &siblings) {
            Status::CutOff { by: Some(by) }
        } else if let Status::CutOff { by } = nodes[parent].status {
            Status::CutOff { by }
        } else {
            Status::NotEvaluated
        };
    }
}

/// The part of a tree a picture shows.
#[derive(Clone, Debug)]
pub struct View {
    /// For each node: drawn on its own.
    pub shown: Vec<bool>,
    /// Cut-off moves drawn as one faded box per move list: (parent, the cut-off children).
    pub cut_groups: Vec<(usize, Vec<usize>)>,
    /// For a shown node: how many nodes below it are left out (each left-out node is
    /// counted at its nearest shown ancestor).
    pub left_out_below: Vec<usize>,
    /// Nodes drawn on their own (the root included).
    pub shown_count: usize,
    /// Nodes drawn in the cut-off groups.
    pub grouped: usize,
    /// Nodes left out.
    pub left_out: usize,
    /// The node limit the view was made with.
    pub max_nodes: Option<usize>,
    /// The ply limit the view was made with.
    pub max_ply: Option<usize>,
}

impl View {
    /// Every node on its own.
    pub fn all(tree: &SearchTree) -> View {
        let n = tree.nodes.len();
        View {
            shown: vec![true; n],
            cut_groups: Vec::new(),
            left_out_below: vec![0; n],
            shown_count: n,
            grouped: 0,
            left_out: 0,
            max_nodes: None,
            max_ply: None,
        }
    }

    /// At most `max_nodes` nodes (the root included) down to ply `max_ply`: the PV first,
    /// then the moves at the root (up to half the budget), then the earliest-evaluated
    /// nodes, each with its ancestors. The moves a cutoff skipped are not counted: under
    /// each shown node they are drawn together as one faded box.
    pub fn select(tree: &SearchTree, max_nodes: Option<usize>, max_ply: Option<usize>) -> View {
        let n = tree.nodes.len();
        // The budget is for nodes below the root; `count` includes the root.
        let budget = max_nodes.map_or(usize::MAX, |m| m.saturating_add(1));
        let cut_off = |id: usize| matches!(tree.nodes[id].status, Status::CutOff { .. });
        let eligible = |id: usize| max_ply.is_none_or(|p| tree.nodes[id].ply <= p) && !cut_off(id);
        let mut shown = vec![false; n];
        shown[ROOT] = true;
        let mut count = 1;
        let take = |id: usize, shown: &mut Vec<bool>, count: &mut usize, limit: usize| {
            let mut chain = Vec::new();
            let mut at = id;
            while !shown[at] {
                chain.push(at);
                at = tree.nodes[at].parent.expect("the root is shown");
            }
            if *count + chain.len() <= limit {
                for c in chain {
                    shown[c] = true;
                    *count += 1;
                }
            }
        };
        for id in tree.pv() {
            if eligible(id) {
                take(id, &mut shown, &mut count, budget);
            }
        }
        let first = tree.first_evaluations();
        let priority = |id: usize| {
            let node = &tree.nodes[id];
            match (node.eval.as_ref(), node.status) {
                (Some(e), _) => (e.order, node.created),
                (None, Status::Refuted { .. }) => (first[id], node.created),
                _ => (usize::MAX, node.created),
            }
        };
        let mut root_moves = tree.nodes[ROOT].children.clone();
        root_moves.sort_by_key(|&c| priority(c));
        for id in root_moves {
            if eligible(id) {
                let limit = budget.div_ceil(2).max(count);
                take(id, &mut shown, &mut count, limit);
            }
        }
        // The refutations: the reply that made each shown refuted node fail.
        let refutations: Vec<usize> = (1..n)
            .filter(|&id| shown[id])
            .filter_map(|id| match tree.nodes[id].status {
                Status::Refuted { at } => tree.nodes[id]
                    .children
                    .iter()
                    .copied()
                    .find(|&c| tree.nodes[c].eval.as_ref().is_some_and(|e| e.order == at)),
                _ => None,
            })
            .collect();
        for id in refutations {
            if eligible(id) {
                let limit = (budget * 3).div_ceil(4).max(count);
                take(id, &mut shown, &mut count, limit);
            }
        }
        let mut order: Vec<usize> = (1..n).filter(|&id| eligible(id)).collect();
        order.sort_by_key(|&id| priority(id));
        for id in order {
            if count >= budget {
                break;
            }
            take(id, &mut shown, &mut count, budget);
        }
        // The cut-off moves of each shown node's list (within the ply limit).
        let mut cut_groups = Vec::new();
        let mut grouped_node = vec![false; n];
        for (id, &on) in shown.iter().enumerate() {
            if !on || max_ply.is_some_and(|p| tree.nodes[id].ply >= p) {
                continue;
            }
            let members: Vec<usize> = tree.nodes[id]
                .children
                .iter()
                .copied()
                .filter(|&c| cut_off(c))
                .collect();
            if !members.is_empty() {
                for &m in &members {
                    grouped_node[m] = true;
                }
                cut_groups.push((id, members));
            }
        }
        // Count what is left out at its nearest shown ancestor.
        let mut left_out_below = vec![0; n];
        let mut nearest = vec![ROOT; n];
        let mut left_out = 0;
        for id in 1..n {
            let p = tree.nodes[id].parent.expect("non-root");
            nearest[id] = if shown[p] { p } else { nearest[p] };
            if !shown[id] && !grouped_node[id] {
                left_out_below[nearest[id]] += 1;
                left_out += 1;
            }
        }
        View {
            grouped: grouped_node.iter().filter(|&&g| g).count(),
            left_out,
            shown,
            cut_groups,
            left_out_below,
            shown_count: count,
            max_nodes,
            max_ply,
        }
    }

    /// "Showing 200 of 3491 nodes (and 1734 moves skipped by cutoffs, grouped in faded
    /// boxes): 1557 left out (--max-nodes 200)." The root is not counted.
    pub fn summary(&self) -> String {
        let shown = self.shown_count - 1;
        let total = shown + self.grouped + self.left_out;
        let grouped = if self.grouped > 0 {
            format!(
                " (and {} moves skipped by cutoffs, grouped in faded boxes)",
                self.grouped
            )
        } else {
            String::new()
        };
        if self.left_out == 0 {
            return format!("Showing all {total} nodes{grouped}.");
        }
        let mut limits = Vec::new();
        if let Some(m) = self.max_nodes {
            limits.push(format!("--max-nodes {m}"));
        }
        if let Some(p) = self.max_ply {
            limits.push(format!("--ply {p}"));
        }
        format!(
            "Showing {shown} of {total} nodes{grouped}: {} left out ({}).",
            self.left_out,
            limits.join(", ")
        )
    }
}

/// The text of a group of cut-off moves.
fn group_lines(tree: &SearchTree, members: &[usize]) -> Vec<String> {
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
fn node_lines(node: &TreeNode) -> Vec<String> {
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

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// How a tree is laid out in DOT.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DotLayout {
    /// Plies as columns, one line per node (big trees).
    LeftToRight,
    /// Plies as rows, several lines per node (small trees, like the models).
    TopToBottom,
}

const PV_FILL: &str = "#ffd54f";
const PV_LINE: &str = "#e65100";
const CUT_LINE: &str = "#c62828";
const CUT_FILL: &str = "#ffebee";
const BEST_LINE: &str = "#2e7d32";
const FADED: &str = "#a8a8a8";

/// The nodes and edges of a tree as DOT statements, node names prefixed by `prefix`.
fn dot_statements(tree: &SearchTree, view: &View, prefix: &str, layout: DotLayout) -> String {
    let mut out = String::new();
    let name = |id: usize| format!("{prefix}n{id}");
    let join = |lines: &[String]| {
        let sep = match layout {
            DotLayout::LeftToRight => "  ",
            DotLayout::TopToBottom => "\\n",
        };
        lines
            .iter()
            .map(|l| dot_escape(l))
            .collect::<Vec<_>>()
            .join(sep)
    };
    // Depth first in search order, so that Graphviz keeps siblings in that order.
    let mut order = Vec::with_capacity(tree.nodes.len());
    let mut stack = vec![ROOT];
    while let Some(id) = stack.pop() {
        order.push(id);
        stack.extend(
            tree.nodes[id]
                .children
                .iter()
                .rev()
                .copied()
                .filter(|&c| view.shown[c]),
        );
    }
    for id in order {
        let node = &tree.nodes[id];
        let lines = node_lines(node);
        let label = if node.status == Status::Root {
            lines
                .iter()
                .map(|l| dot_escape(l))
                .collect::<Vec<_>>()
                .join("\\n")
        } else {
            join(&lines)
        };
        let mut attrs = vec![format!("label=\"{label}\"")];
        let faded = matches!(
            node.status,
            Status::CutOff { .. } | Status::Illegal | Status::NotEvaluated
        );
        let cutoff = node
            .eval
            .as_ref()
            .is_some_and(|e| e.decision == Decision::Cutoff);
        let mut style = vec!["rounded", "filled"];
        if node.status == Status::Root {
            style = vec!["filled", "bold"];
            attrs.push("fillcolor=\"#dde7f5\", fontsize=11".into());
        } else if node.in_pv {
            attrs.push(format!(
                "fillcolor=\"{PV_FILL}\", color=\"{PV_LINE}\", penwidth=3, fontname=\"Helvetica-Bold\""
            ));
        } else if faded {
            style.push("dashed");
            attrs.push(format!(
                "fillcolor=\"#f7f7f7\", color=\"{FADED}\", fontcolor=\"{FADED}\""
            ));
        } else if cutoff {
            attrs.push(format!(
                "fillcolor=\"{CUT_FILL}\", color=\"{CUT_LINE}\", penwidth=2.5, fontcolor=\"{CUT_LINE}\", fontname=\"Helvetica-Bold\""
            ));
        } else if matches!(node.status, Status::Refuted { .. }) {
            style.push("dashed");
            attrs.push(format!("color=\"{CUT_LINE}\", penwidth=1.5"));
        } else if node
            .eval
            .as_ref()
            .is_some_and(|e| e.decision == Decision::NewBest)
        {
            attrs.push(format!("color=\"{BEST_LINE}\", penwidth=1.5"));
        }
        attrs.push(format!("style=\"{}\"", style.join(",")));
        let _ = writeln!(out, "  {} [{}];", name(id), attrs.join(", "));
        if let Some(p) = node.parent {
            let style = if node.in_pv {
                format!("color=\"{PV_LINE}\", penwidth=3.5")
            } else if faded {
                format!("color=\"{FADED}\", style=dashed")
            } else if cutoff {
                format!("color=\"{CUT_LINE}\", penwidth=1.5")
            } else {
                String::new()
            };
            let _ = writeln!(out, "  {} -> {} [{style}];", name(p), name(id));
        }
    }
    // The moves cutoffs skipped, one faded box per move list.
    for (parent, members) in &view.cut_groups {
        let label = join(&group_lines(tree, members));
        let _ = writeln!(
            out,
            "  {prefix}cut{parent} [label=\"{label}\", style=\"rounded,dashed,filled\", fillcolor=\"#f7f7f7\", color=\"{FADED}\", fontcolor=\"{FADED}\"];\n  {} -> {prefix}cut{parent} [color=\"{FADED}\", style=dashed];",
            name(*parent)
        );
    }
    // What is left out.
    for (id, &k) in view.left_out_below.iter().enumerate() {
        if k > 0 && view.shown[id] {
            let more = if k == 1 {
                "+1 node not shown".to_string()
            } else {
                format!("+{k} nodes not shown")
            };
            let _ = writeln!(
                out,
                "  {prefix}more{id} [label=\"{more}\", shape=plaintext, fontcolor=\"{FADED}\", style=\"\"];\n  {} -> {prefix}more{id} [color=\"{FADED}\", style=dotted, arrowhead=none];",
                name(id)
            );
        }
    }
    out
}

const LEGEND: &str = "(N) = evaluation order;  scores in pawns for the side that made the move.\n\
Gold, thick = principal variation;  green = new best;  red = alpha-beta CUTOFF (the rest of that move list is skipped);\n\
red dashed = refuted (a reply caused a cutoff: never backed up);  grey dashed = never searched (skipped by a cutoff) or illegal.";

fn graph_header(out: &mut String, name: &str, layout: DotLayout, label: &str) {
    let rankdir = match layout {
        DotLayout::LeftToRight => "LR",
        DotLayout::TopToBottom => "TB",
    };
    let _ = writeln!(out, "digraph {name} {{");
    let _ = writeln!(
        out,
        "  graph [rankdir={rankdir}, fontname=\"Helvetica\", fontsize=12, labelloc=t, labeljust=l, nodesep=0.05, ranksep=0.3, label=\"{}\"];",
        dot_escape(label).replace('\n', "\\l") + "\\l"
    );
    let _ = writeln!(
        out,
        "  node [shape=box, style=\"rounded,filled\", fillcolor=white, color=\"#555555\", fontname=\"Helvetica\", fontsize=9, margin=\"0.05,0.01\", height=0.18];"
    );
    let _ = writeln!(out, "  edge [color=\"#777777\", arrowsize=0.4];");
}

/// The tree as a Graphviz DOT graph.
pub fn to_dot(tree: &SearchTree, view: &View, layout: DotLayout) -> String {
    let mut out = String::new();
    let label = format!("{}\n{}\n{LEGEND}", tree.title, summary(tree, view));
    graph_header(&mut out, "sargon_search", layout, &label);
    out.push_str(&dot_statements(tree, view, "", layout));
    out.push_str("}\n");
    out
}

/// What a picture shows of the tree: the view's summary, then what the tree itself left
/// out, if anything.
pub fn summary(tree: &SearchTree, view: &View) -> String {
    match &tree.cut {
        Some(cut) => format!("{}\n{}", view.summary(), cut.note()),
        None => view.summary(),
    }
}

/// Several trees (the models) in one DOT graph, one box each, every node shown.
pub fn to_dot_many(trees: &[SearchTree], title: &str, layout: DotLayout) -> String {
    let mut out = String::new();
    graph_header(
        &mut out,
        "sargon_models",
        layout,
        &format!("{title}\n{LEGEND}"),
    );
    for (i, tree) in trees.iter().enumerate() {
        let view = View::all(tree);
        let _ = writeln!(
            out,
            "  subgraph cluster_{i} {{\n  label=\"{}\"; fontsize=13; color=\"#999999\"; style=rounded;",
            dot_escape(&tree.title)
        );
        out.push_str(&dot_statements(tree, &view, &format!("t{i}_"), layout));
        out.push_str("  }\n");
        // Stack the trees: the next one starts below the deepest node of this one.
        if i + 1 < trees.len() {
            let depth = tree.nodes.iter().map(|n| n.ply).max().unwrap_or(0);
            for id in (0..tree.nodes.len()).filter(|&id| tree.nodes[id].ply == depth) {
                let _ = writeln!(out, "  t{i}_n{id} -> t{}_n0 [style=invis];", i + 1);
            }
        }
    }
    out.push_str("}\n");
    out
}

/// The models' runs as one DOT graph (`sargon models --format dot`).
pub fn models_dot(runs: &[ModelRun]) -> String {
    let trees: Vec<SearchTree> = runs.iter().map(SearchTree::from_model_run).collect();
    to_dot_many(
        &trees,
        "Minimax and alpha-beta in Sargon: the models of \"A Window into Sargon\", searched by Sargon (depth 3).\n\
         Each node: (N) key and pretend move; score [alpha-beta threshold, minimax threshold] in pawns.",
        DotLayout::TopToBottom,
    )
}

/// The tree as indented text: `*` marks the PV.
pub fn to_text(tree: &SearchTree, view: &View) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", tree.title);
    let _ = writeln!(out, "{}", summary(tree, view));
    let _ = writeln!(
        out,
        "(N) evaluation order, score in pawns for the side that made the move, * principal variation\n"
    );
    let _ = writeln!(out, "{}", tree.root_text.replace('\n', "; "));
    let mut rows: Vec<(String, String)> = Vec::new();
    text_children(tree, view, ROOT, String::new(), &mut rows);
    let width = rows
        .iter()
        .filter(|(_, r)| !r.is_empty())
        .map(|(l, _)| l.chars().count())
        .max()
        .unwrap_or(0);
    for (left, right) in rows {
        let pad = width.saturating_sub(left.chars().count());
        let _ = writeln!(
            out,
            "{}",
            format!("{left}{}  {right}", " ".repeat(pad)).trim_end()
        );
    }
    out
}

fn text_children(
    tree: &SearchTree,
    view: &View,
    id: usize,
    prefix: String,
    rows: &mut Vec<(String, String)>,
) {
    let shown: Vec<usize> = tree.nodes[id]
        .children
        .iter()
        .copied()
        .filter(|&c| view.shown[c])
        .collect();
    let group = view.cut_groups.iter().find(|(p, _)| *p == id);
    let more = view.left_out_below[id];
    let entries = shown.len() + usize::from(group.is_some()) + usize::from(more > 0);
    let mut i = 0;
    let branch = |i: &mut usize| {
        *i += 1;
        if *i == entries {
            ("`-- ", "    ")
        } else {
            ("+-- ", "|   ")
        }
    };
    for &c in &shown {
        let (b, cont) = branch(&mut i);
        let node = &tree.nodes[c];
        let star = if node.in_pv { "*" } else { " " };
        let lines = node_lines(node);
        rows.push((
            format!("{prefix}{b}{star}{}", lines[0]),
            lines[1..].join("  "),
        ));
        text_children(tree, view, c, format!("{prefix}{cont}"), rows);
    }
    if let Some((_, members)) = group {
        let (b, _) = branch(&mut i);
        let g = group_lines(tree, members);
        rows.push((format!("{prefix}{b} [{}: {}]", g[0], g[1]), String::new()));
    }
    if more > 0 {
        let (b, _) = branch(&mut i);
        rows.push((
            format!("{prefix}{b} [{more} more not shown]"),
            String::new(),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::vocab::{Score, Sq};

    fn mv(from: u8, to: u8) -> SMove {
        SMove {
            from: Sq(from),
            to: Sq(to),
            flags: 0,
        }
    }

    /// A hand-made trace: 1.e4 (e5 d5) and 1.d4 (d5, then a cutoff skipping e5).
    fn small_trace() -> Vec<Event> {
        let (e4, d4, e5, d5) = (mv(35, 55), mv(34, 54), mv(85, 65), mv(84, 64));
        let c = |p: Vec<SMove>| Event::Created { path: p };
        let ab = |p: Vec<SMove>, s: u8, cutoff: bool| Event::AlphaBeta {
            path: p,
            score: Score(s),
            two_above: Score(0),
            cutoff,
        };
        let bt = |p: Vec<SMove>, accepted: bool| Event::BestTest {
            path: p,
            negated: Score(0x80),
            one_above: Score(0),
            accepted,
        };
        let best = |p: Vec<SMove>| Event::Best {
            path: p,
            score: Score(0x80),
        };
        vec![
            c(vec![e4]),
            c(vec![d4]),
            c(vec![e4, e5]),
            c(vec![e4, d5]),
            ab(vec![e4, e5], 0x80, false),
            bt(vec![e4, e5], true),
            best(vec![e4, e5]),
            ab(vec![e4, d5], 0x88, false),
            bt(vec![e4, d5], false),
            ab(vec![e4], 0x80, false),
            bt(vec![e4], true),
            best(vec![e4]),
            c(vec![d4, d5]),
            c(vec![d4, e5]),
            ab(vec![d4, d5], 0x70, true),
            Event::Result {
                best: Some(e4),
                score: Score(0x80),
            },
        ]
    }

    #[test]
    fn tree_from_a_trace() {
        let tree = SearchTree::from_trace(&Chess::default(), &small_trace(), "test");
        assert_eq!(tree.len(), 6);
        let by_label = |l: &str| tree.nodes.iter().position(|n| n.label == l).unwrap();
        let e4 = by_label("1.e4");
        let d4 = by_label("1.d4");
        assert!(tree.nodes[e4].in_pv);
        assert_eq!(tree.pv().len(), 2);
        assert_eq!(tree.nodes[e4].eval.as_ref().unwrap().order, 3);
        assert_eq!(tree.nodes[d4].status, Status::Refuted { at: 4 });
        let skipped = tree.nodes[d4].children[1];
        assert_eq!(tree.nodes[skipped].label, "1...e5");
        assert_eq!(tree.nodes[skipped].status, Status::CutOff { by: Some(4) });
        let dot = to_dot(&tree, &View::all(&tree), DotLayout::LeftToRight);
        assert!(dot.contains("cut off by (4)"), "{dot}");
        assert!(dot.contains("CUTOFF"));
        let text = to_text(&tree, &View::all(&tree));
        assert!(text.contains("*(3) 1.e4"), "{text}");
        assert!(text.contains("Sargon plays e4"), "{text}");
    }

    #[test]
    fn pruning_keeps_the_pv_and_counts_the_rest() {
        let tree = SearchTree::from_trace(&Chess::default(), &small_trace(), "test");
        let view = View::select(&tree, Some(3), None);
        assert_eq!(view.shown_count, 4);
        assert_eq!(view.left_out, 3);
        for id in tree.pv() {
            assert!(view.shown[id]);
        }
        assert_eq!(view.left_out_below.iter().sum::<usize>(), 3);
        assert!(view.summary().contains("3 left out"));
        let view = View::select(&tree, None, Some(1));
        assert_eq!(view.shown_count, 3);
        let text = to_text(&tree, &view);
        assert!(text.contains("more not shown"), "{text}");
    }

    #[test]
    fn a_full_builder_drops_the_deepest_ply_and_keeps_the_refutations() {
        let full = SearchTree::from_trace(&Chess::default(), &small_trace(), "test");
        assert_eq!(full.cut, None);
        let mut builder = TreeBuilder::new(Some(3));
        for e in small_trace() {
            builder.add(&e);
        }
        let tree = builder.finish(&Chess::default(), "test");
        // The two root moves; the replies went when the tree was full.
        assert_eq!(tree.len(), 2);
        let cut = tree.cut.clone().expect("a cut");
        assert_eq!((cut.limit, cut.created, cut.plies), (3, 6, Some(1)));
        let by_label = |l: &str| tree.nodes.iter().position(|n| n.label == l).unwrap();
        let (e4, d4) = (by_label("1.e4"), by_label("1.d4"));
        assert!(tree.nodes[e4].in_pv);
        assert_eq!(tree.nodes[e4].eval.as_ref().unwrap().order, 3);
        // 1...d5 refuted 1.d4: the reply is gone, the verdict stays.
        assert_eq!(tree.nodes[d4].status, Status::Refuted { at: 4 });
        let text = to_text(&tree, &View::all(&tree));
        assert!(
            text.contains("Cut: the search created 6 nodes, more than the 3 kept in memory (--keep-nodes): the tree holds the nodes down to ply 1 only."),
            "{text}"
        );
        let dot = to_dot(&tree, &View::all(&tree), DotLayout::LeftToRight);
        assert!(dot.contains("Cut: the search created 6 nodes"), "{dot}");
        // When the root's moves alone overflow, the first ones are kept.
        let mut builder = TreeBuilder::new(Some(1));
        for e in small_trace() {
            builder.add(&e);
        }
        let tree = builder.finish(&Chess::default(), "test");
        assert_eq!(tree.len(), 1);
        assert_eq!(tree.cut.as_ref().unwrap().plies, None);
        assert!(tree
            .cut
            .unwrap()
            .note()
            .contains("the first 1 created only"));
    }

    /// Each node by its line of labels from the root.
    fn by_line(tree: &SearchTree) -> HashMap<Vec<String>, &TreeNode> {
        let mut out = HashMap::new();
        for node in &tree.nodes[1..] {
            let mut line = vec![node.label.clone()];
            let mut at = node.parent;
            while let Some(p) = at.filter(|&p| p != ROOT) {
                line.push(tree.nodes[p].label.clone());
                at = tree.nodes[p].parent;
            }
            line.reverse();
            out.insert(line, node);
        }
        out
    }

    /// A bounded tree of a real search is the whole tree cut at a ply: the same nodes down
    /// to that ply, with the same evaluations, verdicts and principal variation.
    #[test]
    fn a_bounded_tree_is_the_whole_tree_down_to_a_ply() {
        use crate::base::engine::SearchOptions;
        use crate::base::position::{parse_position, setup};
        use crate::base::trace::Detail;
        let pos =
            parse_position("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
                .unwrap();
        let events = crate::tools::record::search(
            crate::engines::open_port().as_mut(),
            &setup(&pos, false).unwrap(),
            &SearchOptions::depth(3),
            Detail::Full,
            &mut [],
        )
        .unwrap()
        .events;
        let full = SearchTree::from_trace(&pos, &events, "full");
        let mut builder = TreeBuilder::new(Some(600));
        for e in &events {
            builder.add(e);
        }
        let cut = builder.finish(&pos, "cut");
        let plies = cut
            .cut
            .as_ref()
            .and_then(|c| c.plies)
            .expect("cut at a ply");
        assert!(plies < 3 && cut.len() <= 600, "{plies} {}", cut.len());
        let whole = by_line(&full);
        let kept = by_line(&cut);
        let expected = whole.values().filter(|n| n.ply <= plies).count();
        assert_eq!(kept.len(), expected);
        let mut refuted = 0;
        for (line, node) in &kept {
            let other = whole[line];
            assert_eq!(node.eval, other.eval, "{line:?}");
            assert_eq!(node.status, other.status, "{line:?}");
            assert_eq!(node.in_pv, other.in_pv, "{line:?}");
            assert_eq!(node.best_so_far, other.best_so_far, "{line:?}");
            refuted += usize::from(matches!(node.status, Status::Refuted { .. }));
        }
        assert!(refuted > 0, "refutations are among what is checked");
        assert_eq!(
            cut.cut.as_ref().unwrap().created as usize,
            full.len(),
            "every node counted"
        );
    }

    #[test]
    fn pawn_text() {
        assert_eq!(pawns(0.25), "+0.25");
        assert_eq!(pawns(-3.375), "-3.375");
        assert_eq!(pawns(1.0), "+1.00");
        assert_eq!(pawns(-0.0), "+0.00");
    }
}
