//! A tree as Graphviz DOT. Running Graphviz is the command line's business
//! (`src/cli/graphviz.rs`).

use std::fmt::Write as _;

use super::text::{group_lines, node_lines, summary};
use super::{SearchTree, Status, View, ROOT};
use crate::models::{Decision, ModelRun};

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

/// The models' runs as one DOT graph (`sargon models --format dot`); `note` (the note of
/// an unverified ROM) is added to the title, where the picture shows it.
pub fn models_dot(runs: &[ModelRun], note: Option<&str>) -> String {
    let trees: Vec<SearchTree> = runs.iter().map(SearchTree::from_model_run).collect();
    let mut title = "Minimax and alpha-beta in Sargon: the models of \"A Window into Sargon\", searched by Sargon (depth 3).\n\
         Each node: (N) key and pretend move; score [alpha-beta threshold, minimax threshold] in pawns."
        .to_string();
    if let Some(note) = note {
        title = format!("{note}\n{title}");
    }
    to_dot_many(&trees, &title, DotLayout::TopToBottom)
}
