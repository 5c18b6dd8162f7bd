//! Reading a search's trace (or a model run) into a [`SearchTree`].

use std::collections::HashMap;
use std::fmt::Write as _;

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Position};

use super::*;
use crate::base::trace::Event;
use crate::tools::models::{Decision, ModelRun, KEYS};
use crate::tools::pv;

impl SearchTree {
    /// The tree of a search of `pos` from its full trace (a [`crate::base::trace::Recorder`]
    /// with [`crate::base::trace::Detail::Full`], plus the result event if wanted).
    pub fn from_trace(pos: &Chess, events: &[Event], title: impl Into<String>) -> SearchTree {
        let mut nodes = vec![root_node(String::new())];
        let mut index: HashMap<Vec<SMove>, usize> = HashMap::new();
        index.insert(Vec::new(), ROOT);
        let mut evaluations = 0;
        let mut pending: Option<usize> = None;
        let mut result: Option<(Option<SMove>, crate::base::vocab::Score)> = None;
        for e in events {
            match e {
                Event::Created { path } => {
                    if path.is_empty() || index.contains_key(path) {
                        continue;
                    }
                    let Some(&parent) = index.get(&path[..path.len() - 1]) else {
                        continue;
                    };
                    let id = nodes.len();
                    let mut node = root_node(String::new());
                    node.parent = Some(parent);
                    node.ply = path.len();
                    node.created = id;
                    node.status = Status::NotEvaluated;
                    nodes.push(node);
                    nodes[parent].children.push(id);
                    index.insert(path.clone(), id);
                }
                Event::AlphaBeta {
                    path,
                    score,
                    two_above,
                    cutoff,
                } => {
                    pending = None;
                    let Some(&id) = index.get(path) else { continue };
                    evaluations += 1;
                    nodes[id].eval = Some(NodeEval {
                        order: evaluations,
                        score: score.pawns(),
                        decision: if *cutoff {
                            Decision::Cutoff
                        } else {
                            Decision::Discard
                        },
                        alpha_beta: two_above.pawns(),
                        minimax: None,
                    });
                    nodes[id].status = Status::Evaluated;
                    if !cutoff {
                        pending = Some(id);
                    }
                }
                Event::BestTest {
                    path,
                    one_above,
                    accepted,
                    ..
                } => {
                    if let Some(id) = pending.take() {
                        if index.get(path) == Some(&id) {
                            if let Some(ev) = nodes[id].eval.as_mut() {
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
                    if let Some(&id) = index.get(path) {
                        nodes[id].best_so_far = true;
                    }
                }
                Event::Result { best, score } => result = Some((*best, *score)),
                Event::Eval { .. } | Event::Ascend { .. } => {}
            }
        }
        // The PV.
        let pv_moves = pv::principal_variation(events.iter());
        for n in 1..=pv_moves.len() {
            if let Some(&id) = index.get(&pv_moves[..n]) {
                nodes[id].in_pv = true;
            }
        }
        // Labels and legality, walking down with positions.
        let mut paths: Vec<(usize, Vec<SMove>)> = index.into_iter().map(|(p, i)| (i, p)).collect();
        paths.sort_by_key(|(i, _)| *i);
        let moves: Vec<Option<SMove>> = paths.iter().map(|(_, p)| p.last().copied()).collect();
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
                    let mut after = p.clone();
                    after.play_unchecked(mv);
                    positions[id] = Some(after);
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
        classify_unevaluated(&mut nodes);
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
        let mut tree = SearchTree {
            nodes,
            title: title.into(),
            root_text,
        };
        tree.order_children();
        tree
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
        classify_unevaluated(&mut nodes);
        let root_text = format!("White to move\nPV {}", run.pv_san());
        nodes[ROOT].label = root_text.clone();
        nodes[ROOT].in_pv = true;
        let mut tree = SearchTree {
            nodes,
            title: format!("Example {}: {}", m.number, m.title),
            root_text,
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
    pub(super) fn first_evaluations(&self) -> Vec<usize> {
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

/// Give every node without an evaluation its reason.
fn classify_unevaluated(nodes: &mut [TreeNode]) {
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
        nodes[id].status = if let Some(at) = cutoff_among(nodes, &children) {
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
