//! The tree as indented text.

use std::fmt::Write as _;

use super::*;

/// The tree as indented text: `*` marks the PV.
pub fn to_text(tree: &SearchTree, view: &View) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", tree.title);
    let _ = writeln!(out, "{}", view.summary());
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
