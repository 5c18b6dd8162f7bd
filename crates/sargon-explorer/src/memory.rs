//! Sargon's memory at one node of a search, on either engine: what the page shows beside a
//! node, so the original and the port can be read side by side.
//!
//! The search is run again with one hook, which watches for the node: the move list of
//! its ply when GENMOV has made it (`movegen.done` at the node's parent), then, at the
//! node's evaluation (`alphabeta`), the 120-byte board, NPLY, PLYMAX, COLOR and the score
//! bytes of FM37; and, if the node passes on to the best test (`best.test`), the best score
//! one ply up. The views read the engine's own memory (the emulator's Z80 RAM, the port's
//! byte arrays laid out as the original's), so equal snapshots are a check of the port's
//! state, not only of its events. The search is stopped once the node is seen.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use sargon_core::engine::{Engine, SearchError, SearchOptions};
use sargon_core::hooks::{FnHook, HookEvent, HookPoint, Hooks};
use sargon_core::vocab::SMove;

use axum::extract::{Path as UrlPath, Query, State as AxumState};
use axum::Json;
use sargon_core::position::{self, Book, Setup};
use sargon_engines::engines::EngineSpec;

use super::api::{self, JobQuery, MemoryAnswer, SnapshotMove};
use super::app::{finished, get_search, ApiError, App};
use super::{engines, jobs, searches};

/// What one engine's memory held at a node.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Snapshot {
    /// The node's ply's move list, in list order, as GENMOV left it.
    pub moves: Vec<SMove>,
    /// Whether the node was evaluated (else only the move list is known).
    pub evaluated: bool,
    /// BOARDA, 120 bytes, at the evaluation.
    pub board: Vec<u8>,
    /// NPLY at the evaluation.
    pub nply: u8,
    /// PLYMAX.
    pub plymax: u8,
    /// COLOR: the side to move at the node's ply.
    pub color: u8,
    /// The node's score byte (FM37).
    pub score: u8,
    /// The score table byte two plies up (FM37).
    pub two_plies_up: u8,
    /// The best score one ply up, when the node reached the best test.
    pub one_ply_up: Option<u8>,
}

impl Snapshot {
    /// As the page reads it: bytes in hex.
    pub(crate) fn to_json(&self) -> api::Snapshot {
        api::Snapshot {
            moves: self
                .moves
                .iter()
                .map(|m| SnapshotMove {
                    uci: m.uci(),
                    from: m.from.0,
                    to: m.to.0,
                    flags: format!("{:02x}", m.flags),
                })
                .collect(),
            evaluated: self.evaluated,
            board: self.board.iter().map(|b| format!("{b:02x}")).collect(),
            nply: self.nply,
            plymax: self.plymax,
            color: format!("{:02x}", self.color),
            score: format!("{:02x}", self.score),
            two_plies_up: format!("{:02x}", self.two_plies_up),
            one_ply_up: self.one_ply_up.map(|b| format!("{b:02x}")),
        }
    }
}

/// Whether two paths make the same moves, square for square. A path read from another
/// port's trace carries only the promotion bit of each move's flags (docs/trace-format.md),
/// so the node is found by its squares, not by the flag bytes of this engine's moves.
fn same_squares(a: &[SMove], b: &[SMove]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (x.from, x.to) == (y.from, y.to))
}

/// Run `setup` to `depth` on `engine` and take the snapshot of the node at `path`.
/// `None` when the search never reached the node's ply list (a path not in the tree).
/// `cancel` stops it from outside (its page left): then `Err(SearchError::Stopped)`.
pub(crate) fn snapshot(
    engine: &mut dyn Engine,
    setup: &Setup,
    depth: u8,
    path: &[SMove],
    cancel: &AtomicBool,
) -> Result<Option<Snapshot>, SearchError> {
    let stop = Arc::new(AtomicBool::new(false));
    let opts = SearchOptions {
        depth,
        stop: Some(stop.clone()),
        ..SearchOptions::default()
    };
    let parent = &path[..path.len().saturating_sub(1)];
    let mut snap = Snapshot::default();
    let mut seen_list = false;
    let mut evaluated_at_ply = false;
    let mut hook = FnHook::new(
        &[
            HookPoint::MovegenDone,
            HookPoint::AlphaBeta,
            HookPoint::BestTest,
        ],
        |event: &mut HookEvent<'_>| match event {
            _ if cancel.load(Ordering::Relaxed) => stop.store(true, Ordering::Relaxed),
            HookEvent::MovegenDone(v)
                if !evaluated_at_ply && !seen_list && same_squares(&v.search().path(), parent) =>
            {
                snap.moves = v.moves();
                seen_list = true;
                // The root has no evaluation of its own: its moves are all there is.
                if path.is_empty() {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            HookEvent::AlphaBeta(v)
                if !evaluated_at_ply && same_squares(&v.search().path(), path) =>
            {
                let search = v.search();
                snap.evaluated = true;
                snap.board = search.board().0.to_vec();
                snap.nply = search.ply();
                snap.plymax = search.max_ply();
                snap.color = search.side_to_move().byte();
                snap.score = v.score().0;
                snap.two_plies_up = v.two_plies_up().0;
                evaluated_at_ply = true;
                if v.cutoff() {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            HookEvent::BestTest(v) if evaluated_at_ply && snap.one_ply_up.is_none() => {
                if same_squares(&v.search().path(), path) {
                    snap.one_ply_up = Some(v.one_ply_up().0);
                }
                stop.store(true, Ordering::Relaxed);
            }
            _ => {}
        },
    );
    let mut hooks = Hooks::new();
    hooks.add(&mut hook);
    match engine.search(setup, &opts, &mut hooks) {
        Err(SearchError::Stopped) if cancel.load(Ordering::Relaxed) => {
            return Err(SearchError::Stopped)
        }
        Ok(_) | Err(SearchError::Stopped) => {}
        Err(e) => return Err(e),
    }
    drop(hooks);
    Ok((seen_list || snap.evaluated).then_some(snap))
}

/// `GET /api/search/{id}/node/{n}/memory`: Sargon's memory at the node on the port and,
/// with a ROM, on the original: the node's ply's move list, and at its evaluation the
/// board, NPLY, PLYMAX, COLOR and the score bytes ([`snapshot`]). The search is run again
/// on each engine up to the node. A search made by another engine is read the same way,
/// on these two, at its node's moves (its own memory has no hooks to read it by), and
/// the answer's `note` says so. It waits its turn among the searches (`?job=` names it,
/// jobs.rs), stops when its page leaves, and is kept: asked again, it is answered at once
/// (`"cached": true`).
pub(super) async fn route(
    AxumState(app): AxumState<Arc<App>>,
    UrlPath((id, node)): UrlPath<(u64, usize)>,
    Query(query): Query<JobQuery>,
) -> Result<Json<MemoryAnswer>, ApiError> {
    let token = jobs::token(query.job)?;
    let search = get_search(&app, id)?;
    let f = finished(&search)?;
    if node >= f.tree.nodes.len() {
        return Err(ApiError::not_found(format!(
            "search {id} has no node {node}"
        )));
    }
    let path = searches::path_to(&f.tree, node);
    let request = search.request.clone();
    let key = (
        request.clone(),
        path.iter().map(|m| m.uci()).collect::<Vec<_>>(),
    );
    if let Some(mut kept) = app.cache.memories.get(&key) {
        kept.cached = true;
        return Ok(Json(kept));
    }
    let note = engines::searched_again_note(
        &request.engine,
        "these are the port's and the original's memories, each searching again up to this node's moves",
    );
    let emulator = app.searches.open(&EngineSpec::EMULATOR);
    let port = app
        .searches
        .open(&EngineSpec::Port)
        .map_err(|e| ApiError::conflict(e.to_string()))?;
    let root = f.root.clone();
    let task = app
        .searches
        .queue_task(token, move |task| -> Result<MemoryAnswer, String> {
            let setup =
                position::setup(&root, Book::from(request.book)).map_err(|e| e.to_string())?;
            let snap = |engine: &mut dyn sargon_core::engine::Engine| {
                snapshot(engine, &setup, request.depth, &path, &task.stop)
                    .map_err(|e| e.to_string())
            };
            let mut port = port.engine;
            let port = snap(port.as_mut())?;
            let (original, reason) = match emulator {
                Ok(mut opened) => (snap(opened.engine.as_mut())?, None),
                Err(e) => (None, Some(e.to_string())),
            };
            let same = original.as_ref().map(|o| Some(o) == port.as_ref());
            Ok(MemoryAnswer {
                cached: false,
                path: path.iter().map(|m| m.uci()).collect(),
                port: port.as_ref().map(Snapshot::to_json),
                emulator: original.as_ref().map(Snapshot::to_json),
                emulator_reason: reason,
                same,
                note,
            })
        });
    let stop = task.info.stop.clone();
    let answer = match task.answer().await {
        None => return Err(jobs::cancelled("reading the memory")),
        Some(Err(_)) if stop.load(Ordering::Relaxed) => {
            return Err(jobs::cancelled("reading the memory"))
        }
        Some(Err(e)) => return Err(ApiError::bad(format!("reading the memory failed: {e}"))),
        Some(Ok(answer)) => answer,
    };
    app.cache.memories.put(key, answer.clone());
    Ok(Json(answer))
}
