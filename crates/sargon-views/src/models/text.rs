//! The text form of `sargon models`: a lesson in minimax and alpha-beta, one example at a
//! time, every figure taken from the run.

use std::fmt::Write as _;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position, Square};

use super::{
    pawns_text, threshold_text, Decision, Evaluation, Model, ModelRun, DEPTH, KEYS, REAL_FEN,
};

/// Width the explanations are wrapped to.
const WIDTH: usize = 92;

/// The whole text: the introduction, then each run.
pub(super) fn render(runs: &[ModelRun]) -> String {
    let mut out = String::new();
    out.push_str(&introduction());
    for run in runs {
        out.push('\n');
        out.push_str(&example(run));
    }
    out
}

fn introduction() -> String {
    let mut out = String::new();
    out.push_str("Minimax and alpha-beta in Sargon: five small models\n");
    out.push_str("====================================================\n\n");
    let paragraphs = [
        "A real search tree is too big to follow by hand, so each example below is a model: \
         White has two moves, A and B; Black has two replies to each, G and H; White has two \
         answers to each of those, A and B again. With the root, that is 1 + 2 + 4 + 8 = 15 \
         positions, named by their moves: A, AG, AGA, AGB, AH, ... Each example pretends \
         these positions belong to a real chess struggle, with pretend lines and pretend \
         scores.",
        &format!(
            "Sargon does not know it is being fooled. It searches the bare pawn ending {REAL_FEN} \
             to depth {DEPTH}, but a hook in its move generator stops the kings from moving, \
             so every side always has exactly two moves (White's a- and b-pawn are A and B, \
             Black's g- and h-pawn G and H), and a hook at the end of its scoring routine \
             replaces each score by the model's. Everything shown is what Sargon's own search \
             code then did, read from a trace of its decisions."
        ),
        "How to read an evaluation. Every score is seen from the side that made the node's \
         last move (the mover): White's moves at plies 1 and 3, Black's at ply 2, so Black's \
         nodes show negative numbers when White is winning. A node at ply 3 has the model's \
         score; a node above has the score backed up from its replies. Two thresholds from \
         Sargon's score table decide its fate; they are printed [A, M]:",
        "A, the alpha-beta threshold (two plies up), is what the opponent has already made \
         sure of elsewhere, seen from the mover's side: one move earlier the opponent has an \
         alternative that holds the mover to A. If the node scores A or more, the opponent's \
         previous move is refuted, since the opponent will prefer that alternative whatever \
         else the mover could do here: ALPHA BETA CUTOFF, and the rest of the moves in this \
         position are never looked at.",
        "M, the minimax threshold (one ply up), is what the mover is already sure of in this \
         position: the best of the moves tried here so far, or before any, a bound handed \
         down from two plies higher up. If the node scores more than M it becomes the NEW \
         BEST MOVE here, and its score is the position's value so far; otherwise it is \
         discarded.",
        "MAX is Sargon's 'no bound yet' (16 pawns, more than any score); -MAX is the same \
         seen from the other side.",
        "The principal variation (PV) is read off the 'best so far' nodes: scanning them \
         from the last to the first, take the first node of ply 1, then the first node of \
         ply 2 below it, then of ply 3. Its nodes are marked with an asterisk.",
    ];
    for p in paragraphs {
        out.push_str(&wrap(p, "", WIDTH));
        out.push('\n');
    }
    out
}

fn example(run: &ModelRun) -> String {
    let m = run.model;
    let mut out = String::new();
    let title = format!("Example {}: {}", m.number, m.title);
    let _ = writeln!(out, "{title}\n{}\n", "-".repeat(title.len()));
    out.push_str(&wrap(m.intro, "", WIDTH));
    let _ = writeln!(out, "\nPretend position, White to move ({}):\n", m.fen);
    out.push_str(&diagram(m.fen));

    out.push('\n');
    out.push_str(&wrap(
        "The model: pretend lines and scores (in pawns, from White's side; the static \
         scores of the inner nodes only serve to sort the moves):",
        "",
        WIDTH,
    ));
    for n in &m.nodes {
        let indent = "  ".repeat(n.key.len() - 1);
        let label = format!("{indent}{} {}", n.key, n.line);
        let _ = writeln!(out, "  {label:<34} {:>7}", pawns_text(n.score));
    }

    out.push_str("\nCreation order (as Sargon's move generator filled its move lists):\n");
    for (i, k) in run.created.iter().enumerate() {
        let _ = writeln!(out, "  {:>2}. {k:<4} {}", i + 1, m.line(k));
    }
    let missing: Vec<&str> = KEYS
        .iter()
        .copied()
        .filter(|k| !run.was_created(k))
        .collect();
    if !missing.is_empty() {
        let _ = writeln!(
            out,
            "  never created: {} (a cutoff came before their move list)",
            missing.join(", ")
        );
    }

    out.push_str("\nEvaluation order: (N) line, score [A, M], decision\n");
    let width = run
        .evaluations
        .iter()
        .map(|e| m.line(&e.key).len())
        .max()
        .unwrap_or(0);
    for e in &run.evaluations {
        let _ = writeln!(
            out,
            "  {:>4} {:<width$}  {}",
            format!("({})", e.order),
            m.line(&e.key),
            figures(e)
        );
        out.push_str(&wrap(&explanation(run, e), "         ", WIDTH));
    }
    let cutoffs = run
        .evaluations
        .iter()
        .filter(|e| e.decision == Decision::Cutoff)
        .count();
    let skipped = KEYS.len() - run.evaluations.len();
    let _ = writeln!(
        out,
        "  {} evaluations, {} alpha-beta cutoff{}, {} of the 14 nodes never evaluated.",
        run.evaluations.len(),
        cutoffs,
        if cutoffs == 1 { "" } else { "s" },
        skipped
    );

    out.push_str("\nBest-so-far nodes in the order Sargon found them, and the backward scan:\n");
    let picked = backward_scan(&run.best_so_far);
    for (i, k) in run.best_so_far.iter().enumerate() {
        let mark = match picked.iter().position(|&p| p == i) {
            Some(level) => format!("  <- PV move {}", level + 1),
            None => String::new(),
        };
        let line = format!("  {k:<4} {:<24}{mark}", m.line(k));
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let _ = writeln!(
        out,
        "\nPV = {}   (nodes {}; the real moves searched: {})",
        run.pv_san(),
        run.pv.join(", "),
        run.pv_uci.join(" ")
    );

    out.push_str("\nThe tree: (N) is the evaluation order, * marks the PV\n");
    for line in tree(m, &|k| node_tail(run, k), &run.pv) {
        let _ = writeln!(out, "  {line}");
    }
    out.push('\n');
    out.push_str(&wrap(m.moral, "", WIDTH));
    out
}

/// Score, thresholds and decision, e.g. "3.250 [MAX, -MAX]  3.250 > -MAX so NEW BEST MOVE".
pub(super) fn figures(e: &Evaluation) -> String {
    format!(
        "{:>7} [{}, {}]  {}",
        pawns_text(e.score),
        threshold_text(e.alpha_beta),
        threshold_text(e.minimax),
        decision_text(e)
    )
}

/// What the tree shows after a node's line: its evaluation, or why there is none.
fn node_tail(run: &ModelRun, key: &str) -> String {
    if let Some(e) = run.evaluation(key) {
        return format!("{:>4} {}", format!("({})", e.order), figures(e));
    }
    let cut = run.evaluations.iter().find(|e| {
        e.decision == Decision::Cutoff && e.ply() == key.len() + 1 && e.key.starts_with(key)
    });
    match cut {
        Some(e) => format!("     (refuted at ({}), never backed up)", e.order),
        None => "     (never evaluated)".to_string(),
    }
}

/// The comparison that decided, e.g. "12.000 >= 12.000 so ALPHA BETA CUTOFF".
pub(crate) fn decision_text(e: &Evaluation) -> String {
    let s = pawns_text(e.score);
    match e.decision {
        Decision::Cutoff => format!(
            "{s} >= {} so ALPHA BETA CUTOFF",
            threshold_text(e.alpha_beta)
        ),
        Decision::NewBest => format!("{s} > {} so NEW BEST MOVE", threshold_text(e.minimax)),
        Decision::Discard => format!("{s} <= {} so discard", threshold_text(e.minimax)),
    }
}

fn side(ply: usize) -> &'static str {
    if ply % 2 == 1 {
        "White"
    } else {
        "Black"
    }
}

/// The last move of a node's line, as it would be written alone: "1.Qa1", "1...Rxg8".
pub(crate) fn last_move(model: &Model, key: &str) -> String {
    let line = model.line(key);
    let san = line.split(' ').next_back().unwrap_or("");
    if key.len().is_multiple_of(2) {
        format!("{}...{san}", key.len() / 2)
    } else {
        san.to_string()
    }
}

/// Why the decision was taken, in words.
fn explanation(run: &ModelRun, e: &Evaluation) -> String {
    let mut text = decision_reason(run.model, e);
    // A score backed up from replies none of which beat their minimax threshold is that
    // threshold handed back: a bound rather than an exact value.
    let children: Vec<&Evaluation> = run
        .evaluations
        .iter()
        .filter(|c| c.ply() == e.ply() + 1 && c.key.starts_with(&e.key))
        .collect();
    if let Some(first) = children.first()
        && children.iter().all(|c| c.decision == Decision::Discard)
    {
        let replier = side(e.ply() + 1);
        let _ = write!(
            text,
            " (None of {replier}'s replies beat the {} {replier} already had, so that \
                 bound is all Sargon knows: {} gets at least {} after {}.)",
            threshold_text(first.minimax),
            side(e.ply()),
            pawns_text(e.score),
            last_move(run.model, &e.key)
        );
    }
    text
}

fn decision_reason(model: &Model, e: &Evaluation) -> String {
    let ply = e.ply();
    let (mover, opponent) = (side(ply), side(ply + 1));
    let parent = &e.key[..ply - 1];
    let here = if parent.is_empty() {
        "in the start position".to_string()
    } else {
        format!("after {}", model.line(parent))
    };
    let (s, a, m) = (
        pawns_text(e.score),
        threshold_text(e.alpha_beta),
        threshold_text(e.minimax),
    );
    let sure_of = |src: &Option<String>| match src {
        Some(k) => format!(
            "the {m} {mover} is already sure of with {}",
            last_move(model, k)
        ),
        None => format!("the {m} {mover} is already sure of"),
    };
    match e.decision {
        Decision::NewBest if e.minimax <= -super::MAX_PAWNS => format!(
            "The first {mover} move judged {here}, with nothing to beat yet: the best so far, \
             so {position} is worth {s} to {mover} for now.",
            position = if parent.is_empty() {
                "the start position".to_string()
            } else {
                last_move(model, parent)
            }
        ),
        Decision::NewBest => format!(
            "Better for {mover} than {}: the best {mover} move {here} so far, and the moves \
             still to come there must beat {s}.",
            sure_of(&e.minimax_source)
        ),
        Decision::Discard => format!(
            "No better for {mover} than {}: discarded.",
            sure_of(&e.minimax_source)
        ),
        Decision::Cutoff => {
            let alternative = match &e.alpha_beta_source {
                Some(k) => format!("with {}", last_move(model, k)),
                None => "by a bound from higher up".to_string(),
            };
            let refuted = last_move(model, parent);
            format!(
                "{mover} gets at least {s} here, no less than the {a} that {opponent} can \
                 already hold {mover} to {alternative}. So {opponent} will never play \
                 {refuted}: {mover}'s other moves after it could only make it worse for \
                 {opponent}. Sargon skips them, and {refuted} is not backed up at all."
            )
        }
    }
}

/// Indices (into `best`) of the nodes the backward scan picks, for ply 1, 2, 3.
pub(crate) fn backward_scan(best: &[String]) -> Vec<usize> {
    let mut picked = Vec::new();
    let mut line = String::new();
    for (i, k) in best.iter().enumerate().rev() {
        if k.len() == line.len() + 1 && k.starts_with(&line) {
            line = k.clone();
            picked.push(i);
        }
    }
    picked
}

/// The 14 nodes as an indented tree (root first), each labelled with its pretend line,
/// `*` before the PV nodes, and followed, in one column, by `tail(key)`.
pub(super) fn tree(model: &Model, tail: &dyn Fn(&str) -> String, pv: &[String]) -> Vec<String> {
    let is_last = |key: &str| matches!(key.chars().last(), Some('B' | 'H'));
    let labels: Vec<(String, &str)> = KEYS
        .iter()
        .map(|&key| {
            let mut prefix = String::new();
            for depth in 1..key.len() {
                prefix.push_str(if is_last(&key[..depth]) {
                    "    "
                } else {
                    "|   "
                });
            }
            prefix.push_str(if is_last(key) { "`-- " } else { "+-- " });
            let star = if pv.iter().any(|k| k == key) {
                '*'
            } else {
                ' '
            };
            (format!("{prefix}{star}{}", model.line(key)), key)
        })
        .collect();
    let width = labels.iter().map(|(l, _)| l.len()).max().unwrap_or(0);
    let mut out = vec!["(root)".to_string()];
    for (label, key) in labels {
        out.push(
            format!("{label:<width$} {}", tail(key))
                .trim_end()
                .to_string(),
        );
    }
    out
}

/// A FEN's board as 8 ranks of letters and dots, with coordinates.
pub(crate) fn diagram(fen: &str) -> String {
    let pos: Option<Chess> = Fen::from_ascii(fen.as_bytes())
        .ok()
        .and_then(|f| f.into_position(CastlingMode::Standard).ok());
    let Some(pos) = pos else {
        return format!("  (unreadable FEN {fen})\n");
    };
    let mut out = String::new();
    for rank in (0..8u32).rev() {
        let _ = write!(out, "    {} ", rank + 1);
        for file in 0..8u32 {
            let sq = Square::from_coords(shakmaty::File::new(file), shakmaty::Rank::new(rank));
            let c = pos.board().piece_at(sq).map_or('.', |p| p.char());
            let _ = write!(out, " {c}");
        }
        out.push('\n');
    }
    out.push_str("       a b c d e f g h\n");
    out
}

/// Word-wrap `text` to `width` columns, each line starting with `indent`.
pub(super) fn wrap(text: &str, indent: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && indent.len() + line.len() + 1 + word.len() > width {
            let _ = writeln!(out, "{indent}{line}");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        let _ = writeln!(out, "{indent}{line}");
    }
    out
}
