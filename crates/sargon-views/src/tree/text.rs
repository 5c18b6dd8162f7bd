//! A tree as indented text, and the words every picture uses for a node (shared with
//! `dot.rs`).

use std::fmt::Write as _;

use super::{pawns, SearchTree, Status, TreeNode, View, ROOT};
use crate::models::{Decision, MAX_PAWNS};

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

/// What a picture shows of the tree: the view's summary, then what the tree itself left
/// out, if anything.
pub fn summary(tree: &SearchTree, view: &View) -> String {
    match &tree.cut {
        Some(cut) => format!("{}\n{}", view.summary(), cut.note()),
        None => view.summary(),
    }
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
