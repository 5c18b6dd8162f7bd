//! The minimax and alpha-beta models of "A Window into Sargon", run on Sargon's own search.
//!
//! # The idea
//!
//! A real chess tree is far too big to follow by hand, so the document builds a *model*: a
//! tree where White has two moves (A and B), Black two replies to each (G and H) and White
//! two answers to each of those (A and B again): 2 + 4 + 8 = 14 positions below the root,
//! named by their moves, "A", "AG", "AGA", ... Each example pretends these 14 positions are
//! those of some interesting chess position (a fork, Philidor's smothered mate, ...), with
//! pretend lines ("1.Qg8+ Nxg8 2.Nf7#") and pretend scores.
//!
//! Sargon is made to search exactly such a tree without knowing it:
//!
//! * the real position is a bare pawn ending, White Ka1, Pa3, Pb4 against Black Kh8, Pg6,
//!   Ph6 ([`REAL_FEN`]), searched to depth 3 without the book;
//! * at `movegen.path` a hook ends every king's move generation (A=2, B=1), so each side
//!   has exactly its two pawn pushes: the a-pawn is A, the b-pawn B, the g-pawn G, the
//!   h-pawn H (`key_of`);
//! * at `points.end` a hook replaces every score by the model's score for the node
//!   (`node_score`), converted to Sargon's byte from the point of view of the side that
//!   just moved, which is how POINTS scores; the root gets 0.
//!
//! Everything shown is then derived from the trace ([`sargon_core::trace`]) that
//! [`record::search`] takes of the search: the creation order from the `created` events, one
//! numbered evaluation per `alpha_beta` event, its decision from that event (cutoff) or the
//! `best_test` after it (new best or discard), the best-so-far nodes from the `best` events
//! and the PV from those by [`sargon_core::pv::principal_variation`]. Nothing here knows which engine
//! ran: any [`Engine`] must give the same output.
//!
//! # The thresholds
//!
//! Each evaluation is printed with two thresholds, in pawns from the side of the player who
//! made the node's last move (the *mover*): `[A, M]`.
//!
//! * `A`, the **alpha-beta threshold**, is the score table entry two plies up: what the
//!   *opponent* has already secured elsewhere, seen from the mover's side. A node scoring
//!   `A` or more refutes the opponent's previous move (the opponent will prefer the line
//!   that holds the mover to `A`): ALPHA BETA CUTOFF, the node's remaining siblings are
//!   skipped.
//! * `M`, the **minimax threshold**, is the entry one ply up, negated: what the mover is
//!   already sure of here, from a sibling examined earlier or inherited from two plies
//!   higher up. A node scoring more than `M` is the NEW BEST MOVE among its siblings,
//!   otherwise it is discarded.
//!
//! Sargon starts its score table at byte 0, "16 pawns": `A` = 16.0 and `M` = -16.0 mean
//! "no bound yet" and are printed MAX and -MAX in the text, as in the document; the JSON
//! gives them as the numbers 16.0 and -16.0.
//!
//! A cutoff ends the move list without a `best_test`, so its `M` is not in the trace; it is
//! the score table entry one ply up, which `derive()` follows through the trace the way
//! FNDMOV keeps it (zeroed at the start, each new ply's entry initialised from two plies
//! up, a `best` event storing into its entry) and checks against every value the trace
//! does show.
//!
//! # JSON
//!
//! `--format json` prints an array with one object per example: `example` (1-5), `title`,
//! `fen` (the pretend position), `pv_san`, `pv_keys`, `pv_uci` (the real pawn moves),
//! `creation_order` and `best_so_far` (lists of `{key, line_san}`), `evaluations` (in
//! evaluation order: `{order, key, ply, line_san, score, alpha_beta, minimax, decision}`,
//! scores and thresholds in pawns, MAX as 16.0 and -MAX as -16.0, `decision` one of
//! `new_best`, `discard`, `cutoff`) and `nodes` (the 14 nodes in tree order:
//! `{key, line_san, model_score, created, evaluation, in_pv}`, `evaluation` being the
//! order number or null).

mod data;
mod errors;
mod text;

use sargon_core::engine::{Engine, SearchOptions};
use sargon_core::hooks::{Hook, HookEvent, HookMask, HookPoint};
use sargon_core::position;
use sargon_core::position::Book;
use sargon_core::record;
use sargon_core::trace::{Detail, Event};
use sargon_core::vocab::{PieceKind, SMove, Score};

pub use data::{Model, ModelNode, KEYS, MODELS};
pub use errors::{MisfitError, ModelError};

/// The real position Sargon searches: two pawns and a king each, White to move.
///
/// "A Window into Sargon" describes it as "pawns a4,b3", but its figures come from a3/b4.
/// Sargon generates moves square by square from a1 upward, keeps that order among equal
/// static scores when it sorts a ply, and does not sort the last ply at all; so the a-pawn
/// must stand on a lower square than the b-pawn, before and after either pawn has moved,
/// for A to come before B at every White ply, as all the document's evaluation orders show.
pub const REAL_FEN: &str = "7k/8/6pp/8/1P6/P7/8/K7 w - - 0 1";

/// The search depth of every model.
pub const DEPTH: u8 = 3;

/// Score table byte 0 in pawns: "no bound yet", printed MAX (and -MAX negated).
pub(crate) const MAX_PAWNS: f64 = 16.0;

/// Output form of `sargon models`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ModelFormat {
    /// Plain text for people.
    Text,
    /// JSON for programs.
    Json,
}

/// What happened to an evaluated node.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// It beat the minimax threshold: best so far among its siblings.
    NewBest,
    /// It did not beat the minimax threshold.
    Discard,
    /// It reached the alpha-beta threshold: its parent is refuted, its siblings skipped.
    Cutoff,
}

impl Decision {
    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            Decision::NewBest => "new_best",
            Decision::Discard => "discard",
            Decision::Cutoff => "cutoff",
        }
    }
}

/// One numbered evaluation: a node's score compared with the thresholds (an `alpha_beta`
/// event and what followed it).
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// 1, 2, ...: the "(N)" of the document.
    pub order: usize,
    /// The node's key in the model ("AG").
    pub key: String,
    /// The node's score in pawns, from the side that made its last move.
    pub score: f64,
    /// The alpha-beta threshold `A` in pawns (16.0: MAX).
    pub alpha_beta: f64,
    /// The minimax threshold `M` in pawns (-16.0: -MAX).
    pub minimax: f64,
    /// What the score decided.
    pub decision: Decision,
    /// The node whose "best so far" score is the alpha-beta threshold (none while it is
    /// MAX): the opponent's alternative that a cutoff refers to.
    pub alpha_beta_source: Option<String>,
    /// The node whose "best so far" score is the minimax threshold (none while it is -MAX):
    /// an earlier sibling, or a node two plies up whose score was handed down.
    pub minimax_source: Option<String>,
}

impl Evaluation {
    /// Ply of the node (1 for White's first move).
    pub(crate) fn ply(&self) -> usize {
        self.key.len()
    }
}

/// One example run, everything derived from the trace.
#[derive(Clone, Debug)]
pub struct ModelRun {
    /// The example run.
    pub model: &'static Model,
    /// Keys in the order the move generator created the nodes.
    pub created: Vec<String>,
    /// In evaluation order.
    pub evaluations: Vec<Evaluation>,
    /// Keys of the `best` events, in order.
    pub best_so_far: Vec<String>,
    /// Keys of the PV nodes, from ply 1 down.
    pub pv: Vec<String>,
    /// The PV's real moves (pawn pushes) in UCI.
    pub pv_uci: Vec<String>,
}

impl ModelRun {
    /// The PV as the model's pretend line, e.g. "1.Qg8+ Nxg8 2.Nf7#".
    pub fn pv_san(&self) -> &'static str {
        self.pv.last().map_or("", |k| self.model.line(k))
    }

    /// The evaluation of the node `key`, if it was evaluated.
    pub(crate) fn evaluation(&self, key: &str) -> Option<&Evaluation> {
        self.evaluations.iter().find(|e| e.key == key)
    }

    /// Whether the node `key` is on the principal variation.
    pub(crate) fn in_pv(&self, key: &str) -> bool {
        self.pv.iter().any(|k| k == key)
    }

    /// Whether the move generator created the node `key`.
    pub(crate) fn was_created(&self, key: &str) -> bool {
        self.created.iter().any(|k| k == key)
    }
}

/// The model key of a path of the real position: White's a/b-pawn pushes are A/B, Black's
/// g/h-pawn pushes G/H (`None` for any other move, or a path deeper than 3).
pub(crate) fn key_of(path: &[SMove]) -> Option<String> {
    if path.len() > 3 {
        return None;
    }
    path.iter()
        .enumerate()
        .map(|(i, m)| {
            let (file, rank) = m.from.file_rank()?;
            let white = i % 2 == 0;
            // One square forward, from a square no king of the real position stands on.
            let push = if white {
                m.to.0 == m.from.0 + 10 && rank >= 2
            } else {
                m.to.0 + 10 == m.from.0 && rank <= 5
            };
            match (push, white, file) {
                (true, true, 0) => Some('A'),
                (true, true, 1) => Some('B'),
                (true, false, 6) => Some('G'),
                (true, false, 7) => Some('H'),
                _ => None,
            }
        })
        .collect()
}

/// The score byte POINTS must return for a node: the model's score (White's side) seen from
/// the side that made the node's last move, White at odd plies, Black at even ones; 0 for
/// the root.
pub(crate) fn node_score(model: &Model, key: &str) -> Option<Score> {
    if key.is_empty() {
        return Some(Score::from_pawns(0.0));
    }
    let white = model.node(key)?.score;
    Some(Score::from_pawns(if key.len() % 2 == 1 {
        white
    } else {
        -white
    }))
}

/// A threshold as printed: MAX and -MAX for the score table's "no bound yet".
pub(crate) fn threshold_text(pawns: f64) -> String {
    if pawns >= MAX_PAWNS {
        "MAX".to_string()
    } else if pawns <= -MAX_PAWNS {
        "-MAX".to_string()
    } else {
        pawns_text(pawns)
    }
}

/// Pawns with three decimals (Sargon's eighths are exact): "3.375", "-12.000".
pub(crate) fn pawns_text(pawns: f64) -> String {
    format!("{pawns:.3}")
}

/// The hook that turns Sargon's search of the real position into a model's search.
struct ModelHook<'m> {
    model: &'m Model,
    /// A path no model key stands for (a move the model does not expect).
    stray: Option<String>,
}

impl Hook for ModelHook<'_> {
    fn points(&self) -> HookMask {
        HookMask::of(&[HookPoint::MovegenPath, HookPoint::PointsEnd])
    }

    fn at(&mut self, event: &mut HookEvent<'_>) {
        match event {
            HookEvent::MovegenPath(v) if v.piece().kind == PieceKind::King => {
                // "Own piece in the way, last direction": the king generates nothing.
                v.stop_piece();
            }
            HookEvent::PointsEnd(v) => {
                let path = v.search().path();
                let score = key_of(&path).and_then(|k| node_score(self.model, &k));
                match score {
                    Some(s) => v.set_score(s),
                    None => {
                        if self.stray.is_none() {
                            let p: Vec<String> = path.iter().map(|m| m.uci()).collect();
                            self.stray = Some(p.join(" "));
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

/// Run one example (1-5) on `engine`.
pub fn run_example(engine: &mut dyn Engine, number: u8) -> Result<ModelRun, ModelError> {
    run_example_from(engine, number, REAL_FEN)
}

/// Search example `number`'s tree on `engine` as [`run_example`] does, handing every event
/// (the model's scores in place) to `sink`, without judging the trace: how `rom verify`
/// replays a model on an image that may not fit it. The emulator gives up after
/// `max_instructions` Z80 instructions (a wrong image may never return).
pub fn trace_example(
    engine: &mut dyn Engine,
    number: u8,
    max_instructions: u64,
    sink: impl FnMut(Event),
) -> Result<(), ModelError> {
    let model = MODELS
        .iter()
        .find(|m| m.number == number)
        .ok_or(ModelError::NoExample(number))?;
    let setup = position::setup(&position::parse_position(REAL_FEN)?, Book::Off)?;
    let mut model_hook = ModelHook { model, stray: None };
    let opts = SearchOptions {
        max_instructions: Some(max_instructions),
        ..SearchOptions::depth(DEPTH)
    };
    record::search_streaming(
        engine,
        &setup,
        &opts,
        Detail::Full,
        &mut [&mut model_hook],
        sink,
    )?;
    Ok(())
}

/// Run one example with another real position: any position where each side has just its
/// king and two pawns on the a/b (White) and g/h (Black) files. The move order, and so the
/// evaluation order, depends on where the pawns stand (see [`REAL_FEN`]).
pub fn run_example_from(
    engine: &mut dyn Engine,
    number: u8,
    real_fen: &str,
) -> Result<ModelRun, ModelError> {
    let model = MODELS
        .iter()
        .find(|m| m.number == number)
        .ok_or(ModelError::NoExample(number))?;
    let pos = position::parse_position(real_fen)?;
    let setup = position::setup(&pos, Book::Off)?;
    let mut model_hook = ModelHook { model, stray: None };
    // The extra hook runs before the recorder: the score is replaced before it is read.
    let recorded = record::search(
        engine,
        &setup,
        &SearchOptions::depth(DEPTH),
        Detail::Full,
        &mut [&mut model_hook],
    )?;
    if let Some(path) = model_hook.stray {
        return Err(ModelError::Stray { number, path });
    }
    let pv = recorded.pv(&pos);
    let run = derive(model, &recorded.events, &pv.sargon)
        .map_err(|misfit| ModelError::Misfit { number, misfit })?;
    let best = recorded.outcome.best;
    if best.as_ref() != pv.sargon.first() {
        return Err(ModelError::NotThePv {
            number,
            chose: best.map(|m| m.uci()),
            pv: pv.uci.first().cloned(),
        });
    }
    Ok(run)
}

/// Derive a model run from a full trace of its search and the principal variation it gives.
pub(crate) fn derive(
    model: &'static Model,
    events: &[Event],
    pv_moves: &[SMove],
) -> Result<ModelRun, MisfitError> {
    let key = |path: &[SMove]| -> Result<String, MisfitError> {
        key_of(path).ok_or_else(|| {
            let p: Vec<String> = path.iter().map(|m| m.uci()).collect();
            MisfitError::NoNode(p.join(" "))
        })
    };
    let mut created = Vec::new();
    let mut evaluations: Vec<Evaluation> = Vec::new();
    let mut best_so_far = Vec::new();
    // Sargon's score table: entry k is compared with the nodes of ply k+1 ("one ply up")
    // and ply k+2 ("two plies up"); with each entry, the node whose score is stored there.
    let mut table: Vec<(Score, Option<String>)> = vec![(Score(0), None); DEPTH as usize + 3];
    // The evaluation waiting for its best_test.
    let mut pending: Option<(Evaluation, Vec<SMove>)> = None;
    let mut previous: Option<&Event> = None;
    for e in events {
        match e {
            Event::Created { path } => {
                let ply = path.len();
                let parent = &path[..ply.saturating_sub(1)];
                let same_list = matches!(previous, Some(Event::Created { path: p })
                    if p.len() == ply && p[..ply - 1] == *parent);
                if !same_list && ply >= 2 {
                    // FNDMOV entering a new ply: its entry starts as the one two plies up.
                    table[ply] = table[ply - 2].clone();
                }
                created.push(key(path)?);
            }
            Event::AlphaBeta {
                path,
                score,
                two_above,
                cutoff,
            } => {
                if let Some((ev, _)) = pending.take() {
                    return Err(MisfitError::NoBestTest {
                        order: ev.order,
                        key: ev.key,
                    });
                }
                let ply = path.len();
                if ply == 0 || ply >= table.len() {
                    return Err(MisfitError::Ply(ply));
                }
                let (expected, source) = &table[ply - 1];
                if expected != two_above {
                    return Err(MisfitError::TwoAbove {
                        key: key(path)?,
                        found: two_above.0,
                        table: expected.0,
                    });
                }
                let ev = Evaluation {
                    order: evaluations.len() + 1,
                    key: key(path)?,
                    score: score.pawns(),
                    alpha_beta: two_above.pawns(),
                    // + 0.0: the level score's negation is 0.000, not -0.000.
                    minimax: -table[ply].0.pawns() + 0.0,
                    decision: Decision::Cutoff,
                    alpha_beta_source: source.clone(),
                    minimax_source: table[ply].1.clone(),
                };
                if *cutoff {
                    evaluations.push(ev);
                } else {
                    pending = Some((ev, path.clone()));
                }
            }
            Event::BestTest {
                path,
                one_above,
                accepted,
                ..
            } => {
                let Some((mut ev, p)) = pending.take() else {
                    return Err(MisfitError::BestTestAlone(key(path)?));
                };
                if p != *path {
                    return Err(MisfitError::BestTestAfter {
                        key: key(path)?,
                        alpha_beta: ev.key,
                    });
                }
                if table[path.len()].0 != *one_above {
                    return Err(MisfitError::OneAbove {
                        key: ev.key,
                        found: one_above.0,
                        table: table[path.len()].0 .0,
                    });
                }
                ev.decision = if *accepted {
                    Decision::NewBest
                } else {
                    Decision::Discard
                };
                evaluations.push(ev);
            }
            Event::Best { path, score } => {
                let k = key(path)?;
                table[path.len()] = (*score, Some(k.clone()));
                best_so_far.push(k);
            }
            Event::Eval { .. } | Event::Ascend { .. } | Event::Result { .. } => {}
        }
        previous = Some(e);
    }
    if let Some((ev, _)) = pending {
        return Err(MisfitError::NoBestTest {
            order: ev.order,
            key: ev.key,
        });
    }
    let pv = (1..=pv_moves.len())
        .map(|n| key(&pv_moves[..n]))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ModelRun {
        model,
        created,
        evaluations,
        best_so_far,
        pv,
        pv_uci: pv_moves.iter().map(|m| m.uci()).collect(),
    })
}

/// Run the examples (all five, or one) on `engine` and render them.
pub fn run_models(
    engine: &mut dyn Engine,
    example: Option<u8>,
    format: ModelFormat,
) -> Result<String, ModelError> {
    let numbers: Vec<u8> = match example {
        Some(n) => vec![n],
        None => MODELS.iter().map(|m| m.number).collect(),
    };
    let runs = numbers
        .into_iter()
        .map(|n| run_example(engine, n))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(match format {
        ModelFormat::Text => text::render(&runs),
        ModelFormat::Json => to_json(&runs),
    })
}

/// A node named in the JSON: its key and pretend line.
#[derive(serde::Serialize)]
struct JsonNodeRef<'a> {
    key: &'a str,
    line_san: &'a str,
}

#[derive(serde::Serialize)]
struct JsonEvaluation<'a> {
    order: usize,
    key: &'a str,
    ply: usize,
    line_san: &'a str,
    score: f64,
    alpha_beta: f64,
    minimax: f64,
    decision: &'static str,
}

#[derive(serde::Serialize)]
struct JsonNode<'a> {
    key: &'a str,
    line_san: &'a str,
    model_score: f64,
    created: bool,
    evaluation: Option<usize>,
    in_pv: bool,
}

#[derive(serde::Serialize)]
struct JsonExample<'a> {
    example: u8,
    title: &'a str,
    fen: &'a str,
    pv_san: &'a str,
    pv_keys: &'a [String],
    pv_uci: &'a [String],
    creation_order: Vec<JsonNodeRef<'a>>,
    evaluations: Vec<JsonEvaluation<'a>>,
    best_so_far: Vec<JsonNodeRef<'a>>,
    nodes: Vec<JsonNode<'a>>,
}

fn json_example(run: &ModelRun) -> JsonExample<'_> {
    let m = run.model;
    let refs = |keys: &'_ [String]| -> Vec<JsonNodeRef<'static>> {
        keys.iter()
            .map(|k| {
                let node = m.node(k).expect("derive() only keeps model keys");
                JsonNodeRef {
                    key: node.key,
                    line_san: node.line,
                }
            })
            .collect()
    };
    JsonExample {
        example: m.number,
        title: m.title,
        fen: m.fen,
        pv_san: run.pv_san(),
        pv_keys: &run.pv,
        pv_uci: &run.pv_uci,
        creation_order: refs(&run.created),
        evaluations: run
            .evaluations
            .iter()
            .map(|e| JsonEvaluation {
                order: e.order,
                key: &e.key,
                ply: e.ply(),
                line_san: m.line(&e.key),
                score: e.score,
                alpha_beta: e.alpha_beta,
                minimax: e.minimax,
                decision: e.decision.name(),
            })
            .collect(),
        best_so_far: refs(&run.best_so_far),
        nodes: m
            .nodes
            .iter()
            .map(|n| JsonNode {
                key: n.key,
                line_san: n.line,
                model_score: n.score,
                created: run.was_created(n.key),
                evaluation: run.evaluation(n.key).map(|e| e.order),
                in_pv: run.in_pv(n.key),
            })
            .collect(),
    }
}

/// The runs as the JSON array `sargon models --format json` prints (see the module
/// documentation), with a final newline.
pub fn to_json(runs: &[ModelRun]) -> String {
    let all: Vec<JsonExample> = runs.iter().map(json_example).collect();
    let mut s = serde_json::to_string_pretty(&all).expect("plain data serialises");
    s.push('\n');
    s
}

#[cfg(test)]
mod tests;
