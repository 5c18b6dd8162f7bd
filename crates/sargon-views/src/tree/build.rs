//! Building a [`SearchTree`]: from a full trace, one event at a time and in bounded memory
//! ([`TreeBuilder`], `--keep-nodes`), or from a run of one of the models.

use std::collections::HashMap;
use std::fmt::Write as _;

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Position};

use super::{pawns, root_node, NodeEval, SearchTree, Status, TreeNode, ROOT};
use crate::models::{Decision, ModelRun, KEYS};
use sargon_core::pv;
use sargon_core::trace::Event;
use sargon_core::vocab::SMove;

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
    pub(crate) fn note(&self) -> String {
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
    result: Option<(Option<SMove>, sargon_core::vocab::Score)>,
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
    pub(crate) fn len(&self) -> usize {
        self.nodes.len() - 1
    }

    /// Take the next event of a full trace ([`sargon_core::trace::Detail::Full`]).
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
                    if *cutoff
                        && !path.is_empty()
                        && let Some(&parent) = self.index.get(&path[..path.len() - 1])
                    {
                        self.hidden_refutation[parent].get_or_insert(order);
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
                if let Some(id) = self.pending.take()
                    && self.index.get(path) == Some(&id)
                    && let Some(ev) = self.nodes[id].eval.as_mut()
                {
                    ev.decision = if *accepted {
                        Decision::NewBest
                    } else {
                        Decision::Discard
                    };
                    ev.minimax = Some(-one_above.pawns() + 0.0);
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
            if node.ply == deepest
                && let Some(e) = node
                    .eval
                    .as_ref()
                    .filter(|e| e.decision == Decision::Cutoff)
            {
                let (parent, order) = (node.parent.expect("non-root"), e.order);
                let slot = &mut self.hidden_refutation[parent];
                *slot = Some(slot.map_or(order, |o| o.min(order)));
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
            nodes[id].mv = Some(m);
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
    /// The tree of a search of `pos` from its full trace (a [`sargon_core::trace::Recorder`]
    /// with [`sargon_core::trace::Detail::Full`], plus the result event if wanted). Every
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
