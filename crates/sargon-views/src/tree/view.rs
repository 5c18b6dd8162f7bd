//! What a picture shows of a tree: a real tree has thousands of nodes, so [`View::select`]
//! keeps the principal variation, the root's moves and the earliest-evaluated nodes up to a
//! budget, and counts what it leaves out.

use super::{SearchTree, Status, ROOT};

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
