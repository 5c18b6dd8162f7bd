//! The explorer's HTTP API as types: one struct for each request body or query and for
//! each answer (docs/explorer.md describes the routes). The server answers with these and
//! its tests read the answers back into them, so a field renamed on one side fails the
//! build of the other.
//!
//! The fields of every answer are declared in alphabetical order: the server answered
//! with `serde_json` values before, whose keys come out sorted, and the answers stay the
//! same byte for byte. A field marked "only when ..." is left out of the JSON otherwise;
//! an `Option` without that note is sent as `null`. What another crate makes and the API
//! hands on as it is (a search's analysis, a profile's rows, the models' examples) stays a
//! [`serde_json::Value`], keys sorted as before.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

pub use crate::api_step::*;

/// What a refused request gets, with its HTTP status: `{"error": "..."}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErrorAnswer {
    /// One line saying why.
    pub error: String,
}

// ---------------------------------------------------------------------------------------
// Engines and positions

/// `GET /api/engines`: every engine a page may choose, and the workers' load.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EnginesAnswer {
    /// The original, as in `engines`.
    pub emulator: EngineInfo,
    /// Every engine offered: the port, the original, then those of `serve --engine`.
    pub engines: Vec<EngineInfo>,
    /// Searches that run at once.
    pub jobs: usize,
    /// The port, as in `engines`.
    pub port: EngineInfo,
    /// Searches running now.
    pub running: usize,
    /// Searches waiting for a worker.
    pub waiting: usize,
}

/// One engine a page may choose.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineInfo {
    /// Whether it can run now (the original needs an imported ROM).
    pub available: bool,
    /// What it can do; `null` while it cannot be opened.
    pub capabilities: Option<CapabilitiesInfo>,
    /// The emulator's core (only for the original, with a ROM).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub core: Option<String>,
    /// The deepest search it takes.
    pub max_depth: u8,
    /// Its recorded name (`port`, `emulator`, `exec:CMD`, `uci:CMD`), the name a page
    /// asks for it by.
    pub name: String,
    /// The deepest search that is practical in the explorer: done in seconds to a minute,
    /// its tree within the default node budget (deeper ones run, but long, and may stop at
    /// the budget with a partial tree).
    #[serde(default)]
    pub practical_depth: u8,
    /// Why it cannot run (only when not available).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The ROM it runs (only for the original, with a ROM).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rom: Option<String>,
    /// Why a search with it cannot open as a tree (only when it has no trace).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_refused: Option<String>,
    /// Whether a search with it opens as a tree now.
    pub searches: bool,
    /// Whether its ROM is the known Sargon (only for the original, with a ROM).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verified: Option<bool>,
    /// Why its ROM is not the known Sargon, `null` when it is (only for the original,
    /// with a ROM).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub warning: Option<Option<String>>,
}

/// What an engine can do (`sargon_core::engine::Capabilities`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CapabilitiesInfo {
    /// `Capability::Hooks`: it stops at Sargon's hook points.
    pub hooks: bool,
    /// `Capability::State`: it shows Sargon's memory.
    pub state: bool,
    /// `Capability::Trace`: it records a trace.
    pub trace: bool,
    /// `Capability::Z80`: it runs the original's Z80 code.
    pub z80: bool,
}

/// `POST /api/position`: a FEN, an EPD line or `startpos`, each maybe followed by
/// `moves ...`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionBody {
    /// The position as the command line takes it.
    pub text: String,
}

/// A position and its legal moves, for the board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionAnswer {
    /// Whether Sargon would play from its opening book here.
    pub book_position: bool,
    /// The position.
    pub fen: String,
    /// The move number.
    pub fullmove: u32,
    /// How the game ends when the side to move has no move, else `null`.
    pub game_end: Option<GameEnd>,
    /// The legal moves.
    pub legal: Vec<LegalMove>,
    /// What was read leniently.
    pub notices: Vec<String>,
    /// Why Sargon cannot set the position up, `null` when it can.
    pub representable: Option<String>,
    /// `white` or `black`.
    pub turn: String,
}

/// How a game ends when the side to move has no legal move
/// (`sargon_views::analysis::GameEnd`): `checkmate` or `stalemate`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameEnd {
    /// The side to move is in check: it has lost.
    Checkmate,
    /// The side to move is not in check: a draw.
    Stalemate,
}

impl From<sargon_views::analysis::GameEnd> for GameEnd {
    fn from(end: sargon_views::analysis::GameEnd) -> GameEnd {
        match end {
            sargon_views::analysis::GameEnd::Checkmate => GameEnd::Checkmate,
            sargon_views::analysis::GameEnd::Stalemate => GameEnd::Stalemate,
        }
    }
}

/// A legal move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LegalMove {
    /// In standard algebraic notation.
    pub san: String,
    /// In UCI notation.
    pub uci: String,
}

/// `POST /api/pgn`: a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PgnBody {
    /// The PGN text (its first game is read).
    pub pgn: String,
}

/// The first game's positions, one per move, to pick from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PgnAnswer {
    /// Games in the text.
    pub games: usize,
    /// `White - Black`.
    pub players: String,
    /// The start position, then the position after each move.
    pub positions: Vec<PgnPosition>,
}

/// A position of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PgnPosition {
    /// The position.
    pub fen: String,
    /// The move that led here (`12.Nf3`, `12...e5`), `null` for the start.
    pub san: Option<String>,
}

// ---------------------------------------------------------------------------------------
// Searches

/// `POST /api/search`: a search to start.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchBody {
    /// The position, as the command line takes it.
    pub fen: String,
    /// The engine, by the name `/api/engines` gives (default `port`).
    #[serde(default = "port")]
    pub engine: String,
    /// The depth.
    pub depth: u8,
    /// Whether Sargon may play from its book (default yes).
    #[serde(default = "yes")]
    pub book: bool,
    /// The page asking (its earlier search is cancelled).
    #[serde(default)]
    pub page: Option<String>,
}

/// A search's state, progress and, once done, its result: the answer of
/// `POST /api/search` and `GET /api/search/{id}`, and each event of
/// `GET /api/search/{id}/progress`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchStatus {
    /// Milliseconds since a worker took it up.
    pub elapsed_ms: u64,
    /// Why it failed (only when `failed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Trace events so far (all of them, once done).
    pub events: u64,
    /// Its number, in URLs.
    pub id: u64,
    /// Tree nodes so far.
    pub nodes: u64,
    /// Why its tree is partial (only when `done` with a partial tree: the search was
    /// stopped at the node budget, and the tree holds what it had made; `result` then
    /// has no move).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial: Option<String>,
    /// Its place in line (only when `waiting`; `null` if it has just left the line).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub place: Option<Option<usize>>,
    /// The nodes of the principal variation (only when `done`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pv_nodes: Option<Vec<usize>>,
    /// What was asked.
    pub request: SearchRequestInfo,
    /// The analysis as `sargon analyze --format json` gives it (only when `done`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    /// The root node with its children (only when `done`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root: Option<Node>,
    /// `waiting`, `running`, `done`, `failed` or `cancelled`.
    pub state: String,
}

/// What a search was asked, as the server read it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchRequestInfo {
    /// Whether Sargon may play from its book.
    pub book: bool,
    /// The depth.
    pub depth: u8,
    /// The engine's recorded name.
    pub engine: String,
    /// The position, normalised.
    pub fen: String,
}

/// `POST /api/search/{id}/cancel`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CancelAnswer {
    /// The search.
    pub id: u64,
    /// Its state after the cancel.
    pub state: String,
}

// ---------------------------------------------------------------------------------------
// The tree

/// A node of a finished search: `GET /api/search/{id}/node/{node}`,
/// `GET /api/search/{id}/find?path=...`, a search's `root`, and (without the fields
/// marked "with its children") each of their children.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Node {
    /// Whether it was the best so far when it was evaluated.
    pub best_so_far: bool,
    /// Its children's summaries (with its children).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub children: Option<Vec<Node>>,
    /// How many children it has.
    pub children_count: usize,
    /// Its evaluation (only when it has one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eval: Option<NodeEval>,
    /// The position at it (with its children).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// Its number.
    pub id: usize,
    /// Whether it is on the principal variation.
    pub in_pv: bool,
    /// Its label (`root` for the root).
    pub label: String,
    /// Whether every move of its path is legal (with its children).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legal_path: Option<bool>,
    /// Its parent, `null` for the root.
    pub parent: Option<usize>,
    /// The moves from the root, in UCI (with its children).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<Vec<String>>,
    /// The labels of the nodes from the root's first move down to it (with its children).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path_labels: Option<Vec<String>>,
    /// Its ply.
    pub ply: usize,
    /// What became of it.
    pub status: NodeStatus,
    /// Nodes in its subtree, itself included.
    pub subtree: u32,
    /// Its move in UCI, `null` for the root.
    pub uci: Option<String>,
}

/// What became of a node.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeStatus {
    /// The evaluation that refuted or cut it off (only for `refuted` and `cut_off`;
    /// `null` for a cutoff whose evaluation is not known).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub by_evaluation: Option<Option<usize>>,
    /// `root`, `evaluated`, `refuted`, `cut_off`, `illegal` or `not_evaluated`.
    pub kind: String,
}

/// A node's evaluation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodeEval {
    /// The window's bound at the evaluation, in pawns (`+0.25`, `-3.375`).
    pub alpha_beta: String,
    /// The same as Sargon's score byte, in hex.
    pub alpha_beta_byte: String,
    /// The score as Sargon's score byte, in hex.
    pub byte: String,
    /// What the score decided.
    pub decision: String,
    /// The minimax value backed up to it, in pawns, when known.
    pub minimax: Option<String>,
    /// The evaluation's order number.
    pub order: usize,
    /// The score, in pawns (`+0.25`, `-3.375`).
    pub pawns: String,
}

/// `GET /api/search/{id}/find?path=e2e4,e7e5`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FindQuery {
    /// Moves in UCI, separated by spaces or commas.
    pub path: String,
}

/// `GET /api/search/{id}/pv-steps`: the backward scan of "A Window into Sargon" over the
/// `best` events.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PvStepsAnswer {
    /// How many `best` events the trace has.
    pub best_events: usize,
    /// Events in the trace.
    pub events: u64,
    /// The line the scan found, in UCI.
    pub pv: Vec<String>,
    /// Its steps, in the order found.
    pub steps: Vec<PvStep>,
}

/// A step of the backward scan.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PvStep {
    /// The `best` event's index in the trace.
    pub event: u64,
    /// The node's label, when the node is in the tree.
    pub label: Option<String>,
    /// The node, when in the tree.
    pub node: Option<usize>,
    /// `best` events passed over before this one.
    pub passed_over: u64,
    /// The moves from the root, in UCI.
    pub path: Vec<String>,
    /// The step's ply.
    pub ply: usize,
}

// ---------------------------------------------------------------------------------------
// Memory

/// `GET /api/search/{id}/node/{node}/memory`: Sargon's memory at a node, the port's and
/// the original's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MemoryAnswer {
    /// Whether this answer was kept from an earlier request (no search ran for it).
    #[serde(default)]
    pub cached: bool,
    /// The original's snapshot, `null` when the search never reached the node or the
    /// original cannot run.
    pub emulator: Option<Snapshot>,
    /// Why the original cannot run, else `null`.
    pub emulator_reason: Option<String>,
    /// What is shown when the search was made by another engine, else `null`.
    pub note: Option<String>,
    /// The node's moves from the root, in UCI.
    pub path: Vec<String>,
    /// The port's snapshot, `null` when the search never reached the node.
    pub port: Option<Snapshot>,
    /// Whether the two snapshots are the same, `null` without the original's.
    pub same: Option<bool>,
}

/// Sargon's memory at a node, bytes in hex.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// BOARDA, 120 bytes.
    pub board: String,
    /// COLOR.
    pub color: String,
    /// Whether the node was evaluated (else only the move list is known).
    pub evaluated: bool,
    /// The ply's move list, in list order.
    pub moves: Vec<SnapshotMove>,
    /// NPLY.
    pub nply: u8,
    /// The best score one ply up, when the node reached the best test.
    pub one_ply_up: Option<String>,
    /// PLYMAX.
    pub plymax: u8,
    /// The node's score byte.
    pub score: String,
    /// The score table's byte two plies up.
    pub two_plies_up: String,
}

/// A move of a snapshot's move list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SnapshotMove {
    /// Its flag byte, in hex.
    pub flags: String,
    /// Its from square (Sargon's board index).
    pub from: u8,
    /// Its to square.
    pub to: u8,
    /// In UCI.
    pub uci: String,
}

// ---------------------------------------------------------------------------------------
// The other views

/// `POST /api/compare`: the original and the port on the same search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareBody {
    /// The engine compared with the original, by its recorded name: the port (the
    /// default) or a port given to `sargon serve --engine exec:...` (one with a trace).
    #[serde(default = "port")]
    pub engine: String,
    /// The position.
    pub fen: String,
    /// The depth.
    pub depth: u8,
    /// Whether Sargon may play from its book (default yes).
    #[serde(default = "yes")]
    pub book: bool,
    /// The page's name for this request, to follow and cancel it by (`/api/jobs/{job}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job: Option<String>,
}

/// The comparison, event by event, and what each engine answered.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareAnswer {
    /// Whether this answer was kept from an earlier request (no search ran for it).
    #[serde(default)]
    pub cached: bool,
    /// Where the traces first differ, `null` when they agree.
    pub divergence: Option<Divergence>,
    /// 0 or 1.
    pub divergences: usize,
    /// Milliseconds the comparison took.
    pub elapsed_ms: u64,
    /// The original's answer and time.
    #[serde(default)]
    pub emulator: Option<EngineAnswer>,
    /// Events that agreed.
    pub events: u64,
    /// The answer and time of the engine compared with the original (the port, or the
    /// one asked: its `engine` names it).
    #[serde(default)]
    pub port: Option<EngineAnswer>,
}

/// What one engine of a comparison answered, and how long it took.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineAnswer {
    /// Its move in UCI, `null` when it has none (no legal move, or stopped first).
    pub best: Option<String>,
    /// Its move in standard algebraic notation, when it has one.
    pub best_san: Option<String>,
    /// Milliseconds of CPU its search took on its own thread (the two run in step, so
    /// their wall times are the same; wall time where the platform has no thread clock).
    pub elapsed_ms: u64,
    /// The engine's recorded name.
    pub engine: String,
    /// The root score as the command line writes a score byte: `0x7e (+0.250 pawns for
    /// White)`, for the side to move; `null` when it was stopped first.
    pub score: Option<String>,
    /// The same score's byte, for the page to write as it writes every score.
    pub score_byte: Option<u8>,
    /// The same score in pawns for the side to move.
    pub score_pawns: Option<f64>,
    /// Whether it was stopped before its answer (at the divergence, or cancelled).
    pub stopped: bool,
}

/// `?job=TOKEN` on the routes that run as jobs (profile, memory): the page's name for
/// the request, to follow and cancel it by.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct JobQuery {
    /// The name (letters, digits, `-`, `_`).
    #[serde(default)]
    pub job: Option<String>,
}

/// `GET /api/jobs/{token}`: where a page's job (a profile, a memory snapshot, a
/// comparison) is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobStatus {
    /// Milliseconds on a worker so far, `null` while it waits.
    pub elapsed_ms: Option<u64>,
    /// Its place in line (1: next), `null` once it runs.
    pub place: Option<usize>,
    /// Its progress in its own unit (events compared, for a comparison).
    pub progress: u64,
    /// `waiting`, `running` or (the answer of a cancel) `cancelled`.
    pub state: String,
}

/// Where the original's and the other engine's traces first differ.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Divergence {
    /// The original's event there.
    pub emulator: String,
    /// The position at the divergence's path.
    pub fen: String,
    /// The event's index.
    pub index: u64,
    /// The moves to the divergence, in UCI.
    pub path: Vec<String>,
    /// The other engine's event there (the port's, or the engine compared).
    pub port: String,
}

/// `GET /api/models?engine=port`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelsQuery {
    /// The engine (default `port`).
    #[serde(default = "port")]
    pub engine: String,
}

/// The five models of "A Window into Sargon".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelsAnswer {
    /// The depth of the examples.
    pub depth: u8,
    /// The engine that ran them.
    pub engine: String,
    /// Each example as `sargon models --format json` gives it, with its `intro` and
    /// `moral`.
    pub examples: Value,
    /// The pawn position the examples search.
    pub real_fen: String,
}

/// `GET /api/search/{id}/profile`: where the original spends the search's time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProfileAnswer {
    /// The original's move, `null` when there is no legal move.
    pub best: Option<String>,
    /// Whether this answer was kept from an earlier request (no search ran for it).
    #[serde(default)]
    pub cached: bool,
    /// The heat of the listing: every address whose instruction was executed, in address
    /// order, with how often; the counts sum to the totals' `instructions`.
    pub executions: Vec<Execution>,
    /// What is shown when the search was made by another engine, else `null`.
    pub note: Option<String>,
    /// Routine by routine, as `sargon profile --format json` gives them.
    pub rows: Value,
    /// The totals.
    pub totals: Value,
    /// The search's time on a TRS-80, in seconds.
    pub trs80_seconds: f64,
}

/// How often the instruction at one address was executed in a profiled search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Execution {
    /// The instruction's address.
    pub address: u16,
    /// Times it was executed.
    pub count: u32,
}

/// `GET /api/listing/{routine}`: one routine of the user's own imported copy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ListingAnswer {
    /// The ROM listed.
    pub rom: String,
    /// The routine, as asked.
    pub routine: String,
    /// The annotated disassembly, with the port's sites under the labels.
    pub text: String,
    /// Whether the ROM is the known Sargon.
    pub verified: bool,
}

// ---------------------------------------------------------------------------------------
// Defaults

fn port() -> String {
    "port".into()
}

fn yes() -> bool {
    true
}

/// A field that, when present, is a value or `null`: present as `null` reads as
/// `Some(None)`, absent as `None` (with `#[serde(default)]`).
fn present<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}
