//! The routes of a finished search's tree: a node, a node found by its moves, the steps
//! of the principal variation.

use std::sync::Arc;

use axum::extract::{Path as UrlPath, Query, State as AxumState};
use axum::Json;

use sargon_core::input::echo;
use sargon_core::position;
use sargon_views::tree::{pawns, SearchTree, Status};

use super::api::{self, FindQuery, NodeEval, NodeStatus, PvStep, PvStepsAnswer};
use super::app::{finished, get_search, ApiError, App};
use super::searches::{self, Finished};

// ---------------------------------------------------------------------------------------
// Nodes

pub(crate) fn status_name(status: Status) -> NodeStatus {
    let (kind, by_evaluation) = match status {
        Status::Root => ("root", None),
        Status::Evaluated => ("evaluated", None),
        Status::Refuted { at } => ("refuted", Some(Some(at))),
        Status::CutOff { by } => ("cut_off", Some(by)),
        Status::Illegal => ("illegal", None),
        Status::NotEvaluated => ("not_evaluated", None),
    };
    NodeStatus {
        by_evaluation,
        kind: kind.to_string(),
    }
}

/// Sargon's score byte for a score in pawns (the byte is 0x80 minus eighths of a pawn).
pub(crate) fn score_byte(p: f64) -> String {
    let units = (p * 8.0).round() as i32;
    format!("{:02x}", (0x80 - units).clamp(0, 255))
}

/// A node, with its children's summaries when `children`.
pub(crate) fn node_json(f: &Finished, id: usize, children: bool) -> api::Node {
    let tree: &SearchTree = &f.tree;
    let node = &tree.nodes[id];
    let path = searches::path_to(tree, id);
    let mut v = api::Node {
        best_so_far: node.best_so_far,
        children: None,
        children_count: node.children.len(),
        eval: node.eval.as_ref().map(|e| NodeEval {
            alpha_beta: pawns(e.alpha_beta),
            alpha_beta_byte: score_byte(e.alpha_beta),
            byte: score_byte(e.score),
            decision: e.decision.name().to_string(),
            minimax: e.minimax.map(pawns),
            order: e.order,
            pawns: pawns(e.score),
        }),
        fen: None,
        id,
        in_pv: node.in_pv,
        label: if id == 0 {
            "root".to_string()
        } else {
            node.label.clone()
        },
        legal_path: None,
        parent: node.parent,
        path: None,
        path_labels: None,
        ply: node.ply,
        status: status_name(node.status),
        subtree: f.subtree[id],
        uci: node.mv.map(|m| m.uci()),
    };
    if children {
        let (pos, legal) = searches::play(&f.root, &path);
        v.path = Some(path.iter().map(|m| m.uci()).collect());
        v.path_labels = Some(path_labels(tree, id));
        v.fen = Some(position::fen_of(&pos));
        v.legal_path = Some(legal == path.len());
        v.children = Some(
            node.children
                .iter()
                .map(|&c| node_json(f, c, false))
                .collect(),
        );
    }
    v
}

/// The labels of the nodes from the root's first move down to `id`.
pub(crate) fn path_labels(tree: &SearchTree, mut id: usize) -> Vec<String> {
    let mut labels = Vec::new();
    while let Some(parent) = tree.nodes[id].parent {
        labels.push(tree.nodes[id].label.clone());
        id = parent;
    }
    labels.reverse();
    labels
}

pub(crate) async fn node_route(
    AxumState(app): AxumState<Arc<App>>,
    UrlPath((id, node)): UrlPath<(u64, usize)>,
) -> Result<Json<api::Node>, ApiError> {
    let f = finished(&*get_search(&app, id)?)?;
    if node >= f.tree.nodes.len() {
        return Err(ApiError::not_found(format!(
            "search {id} has no node {node} (it has {})",
            f.tree.nodes.len()
        )));
    }
    Ok(Json(node_json(&f, node, true)))
}

/// `GET /api/search/{id}/find?path=e2e4,e7e5`: the node a move path leads to.
pub(crate) async fn find_route(
    AxumState(app): AxumState<Arc<App>>,
    UrlPath(id): UrlPath<u64>,
    Query(q): Query<FindQuery>,
) -> Result<Json<api::Node>, ApiError> {
    let f = finished(&*get_search(&app, id)?)?;
    let mut at = 0usize;
    for (i, word) in q
        .path
        .split([' ', ','])
        .filter(|w| !w.is_empty())
        .enumerate()
    {
        let next = f.tree.nodes[at]
            .children
            .iter()
            .copied()
            .find(|&c| f.tree.nodes[c].mv.is_some_and(|m| m.uci() == word));
        match next {
            Some(c) => at = c,
            None => {
                return Err(ApiError::not_found(format!(
                    "move {} of the path, `{}`, is not a node of this search{}",
                    i + 1,
                    echo(word),
                    if at == 0 {
                        " at the root".to_string()
                    } else {
                        format!(" below {}", f.tree.nodes[at].label)
                    }
                )))
            }
        }
    }
    Ok(Json(node_json(&f, at, true)))
}

/// `GET /api/search/{id}/pv-steps`: the backward scan of "A Window into Sargon" over the
/// `best` events: from the last event to the first, the first node of ply 1 met, then
/// the first of ply 2 met after it that continues it, and so on. Each step names the
/// event, the node, and how many `best` events were passed over before it.
pub(crate) async fn pv_steps(
    AxumState(app): AxumState<Arc<App>>,
    UrlPath(id): UrlPath<u64>,
) -> Result<Json<PvStepsAnswer>, ApiError> {
    let f = finished(&*get_search(&app, id)?)?;
    let mut line: Vec<sargon_core::vocab::SMove> = Vec::new();
    let mut steps = Vec::new();
    let mut passed = 0u64;
    for (index, path) in f.best_events.iter().rev() {
        if path.len() == line.len() + 1 && path.starts_with(&line) {
            line = path.clone();
            let node = find_node(&f.tree, path);
            steps.push(PvStep {
                event: *index,
                ply: path.len(),
                path: path.iter().map(|m| m.uci()).collect(),
                node,
                label: node.map(|n| f.tree.nodes[n].label.clone()),
                passed_over: passed,
            });
            passed = 0;
        } else {
            passed += 1;
        }
    }
    Ok(Json(PvStepsAnswer {
        best_events: f.best_events.len(),
        events: f.events,
        steps,
        pv: line.iter().map(|m| m.uci()).collect(),
    }))
}

pub(crate) fn find_node(tree: &SearchTree, path: &[sargon_core::vocab::SMove]) -> Option<usize> {
    let mut at = 0usize;
    for m in path {
        at = tree.nodes[at]
            .children
            .iter()
            .copied()
            .find(|&c| tree.nodes[c].mv == Some(*m))?;
    }
    Some(at)
}
