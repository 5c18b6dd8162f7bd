//! Compare: the original and the port (or another engine with a trace, offered with
//! `sargon serve --engine exec:...`) on the same search, event by event
//! ([`sargon_referee::diff::compare`]), as a job of the `--jobs` line (jobs.rs): its
//! progress is the events compared so far, it stops when its page leaves or cancels, and
//! its answer is kept. Each engine is watched while it searches ([`Watched`]), so the
//! answer also says what each one chose, with its score and its time.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::State as AxumState;
use axum::Json;
use shakmaty::{Chess, Color, Position};

use sargon_core::engine::RomId;
use sargon_core::engine::{
    Capabilities, Capability, Engine, SearchError, SearchOptions, SearchOutcome,
};
use sargon_core::hooks::{Hook, Hooks};
use sargon_core::position::{self, Book, Setup};
use sargon_core::trace::{Detail, Event};
use sargon_engines::engines::EngineSpec;
use sargon_referee::cost::cpu_timed;

use super::api::{CompareAnswer, CompareBody, Divergence, EngineAnswer, SearchBody};
use super::app::{ApiError, App, Body};
use super::search_routes::search_request;
use super::{jobs, searches};

/// An engine of a comparison, watched: its answer and how long its search took, and the
/// events it has sent (the comparison's progress, for the port's side). The time is the
/// CPU time of its thread: the two engines run in step, the faster one waiting for the
/// other, so their wall times would be the same.
struct Watched<'a> {
    engine: &'a mut (dyn Engine + Send),
    outcome: Option<SearchOutcome>,
    took: Duration,
    events: Option<Arc<AtomicU64>>,
}

impl<'a> Watched<'a> {
    fn new(engine: &'a mut (dyn Engine + Send), events: Option<Arc<AtomicU64>>) -> Self {
        Watched {
            engine,
            outcome: None,
            took: Duration::ZERO,
            events,
        }
    }

    fn keep(
        &mut self,
        started: Instant,
        cpu: Option<Duration>,
        outcome: &Result<SearchOutcome, SearchError>,
    ) {
        self.took = cpu.unwrap_or_else(|| started.elapsed());
        self.outcome = outcome.as_ref().ok().cloned();
    }
}

impl Engine for Watched<'_> {
    fn id(&self) -> String {
        self.engine.id()
    }
    fn max_depth(&self) -> u8 {
        self.engine.max_depth()
    }
    fn capabilities(&self) -> Capabilities {
        self.engine.capabilities()
    }
    fn rom_id(&self) -> Option<&RomId> {
        self.engine.rom_id()
    }
    fn core(&self) -> Option<&str> {
        self.engine.core()
    }
    fn search(
        &mut self,
        setup: &Setup,
        opts: &SearchOptions,
        hooks: &mut Hooks,
    ) -> Result<SearchOutcome, SearchError> {
        let started = Instant::now();
        let (outcome, cpu) = cpu_timed(|| self.engine.search(setup, opts, hooks));
        self.keep(started, cpu, &outcome);
        outcome
    }
    fn trace(
        &mut self,
        setup: &Setup,
        opts: &SearchOptions,
        detail: Detail,
        extra: &mut [&mut dyn Hook],
        sink: &mut dyn FnMut(Event),
    ) -> Result<SearchOutcome, SearchError> {
        let started = Instant::now();
        let counter = self.events.clone();
        let mut counted = |e: Event| {
            if let Some(c) = &counter {
                c.fetch_add(1, Ordering::Relaxed);
            }
            sink(e)
        };
        let (outcome, cpu) =
            cpu_timed(|| self.engine.trace(setup, opts, detail, extra, &mut counted));
        self.keep(started, cpu, &outcome);
        outcome
    }
}

/// What a watched engine answered, as the page shows it.
fn engine_answer(spec: &EngineSpec, root: &Chess, watched: &Watched<'_>) -> EngineAnswer {
    let side = match root.turn() {
        Color::White => "White",
        Color::Black => "Black",
    };
    let outcome = watched.outcome.as_ref();
    let best = outcome.and_then(|o| o.best).and_then(|m| {
        let chess = m.to_chess(root)?;
        Some((
            m.uci(),
            shakmaty::san::SanPlus::from_move(root.clone(), chess).to_string(),
        ))
    });
    EngineAnswer {
        best: best.as_ref().map(|(uci, _)| uci.clone()),
        best_san: best.map(|(_, san)| san),
        elapsed_ms: watched.took.as_millis() as u64,
        engine: spec.to_string(),
        // As the command line writes a result: SCORE+1's byte, its value for the mover.
        score: outcome.map(|o| {
            format!(
                "0x{:02x} ({:+.3} pawns for {side})",
                o.root_score.0,
                o.score_for_mover().pawns()
            )
        }),
        score_byte: outcome.map(|o| o.root_score.0),
        score_pawns: outcome.map(|o| o.score_for_mover().pawns()),
        stopped: outcome.is_none(),
    }
}

/// What the comparison's worker hands back.
type Compared = (
    sargon_referee::diff::Comparison,
    Chess,
    EngineAnswer,
    EngineAnswer,
    u64,
);

/// `POST /api/compare`: the original and the port on the same search, event by event,
/// with each one's move, score and time. Waits its turn among the searches; the answer
/// for the same position, depth and book is kept (`"cached": true`).
pub(crate) async fn compare_route(
    AxumState(app): AxumState<Arc<App>>,
    Body(body): Body<CompareBody>,
) -> Result<Json<CompareAnswer>, ApiError> {
    let token = jobs::token(body.job.clone())?;
    // The engine set against the original: one the server offers, with a trace.
    let other = app.engines.offered(&body.engine)?;
    if other.is_emulator() {
        return Err(ApiError::bad(
            "Compare sets the original against another engine: choose the port or a port given with --engine",
        ));
    }
    app.engines
        .require(&app.searches, &other, Capability::Trace, "Compare")?;
    let request = search_request(
        &app,
        &SearchBody {
            fen: body.fen,
            engine: "emulator".into(),
            depth: body.depth,
            book: body.book,
            page: None,
        },
    )?;
    EngineSpec::EMULATOR
        .check_depth(request.depth)
        .map_err(|e| ApiError::bad(e.to_string()))?;
    // Kept by the position, depth, book and the engine set against the original.
    let request = searches::SearchRequest {
        engine: other.clone(),
        ..request
    };
    if let Some(mut kept) = app.cache.comparisons.get(&request) {
        kept.cached = true;
        return Ok(Json(kept));
    }
    let left = app
        .searches
        .open(&EngineSpec::EMULATOR)
        .map_err(|e| ApiError::conflict(e.to_string()))?;
    let right = app
        .searches
        .open(&other)
        .map_err(|e| ApiError::conflict(e.to_string()))?;
    let asked = request.clone();
    let other_spec = other.clone();
    let task = app
        .searches
        .queue_task(token, move |task| -> Result<Compared, String> {
            let started = Instant::now();
            let root = position::parse_position(&asked.fen).map_err(|e| e.to_string())?;
            let setup =
                position::setup(&root, Book::from(asked.book)).map_err(|e| e.to_string())?;
            let (mut left, mut right) = (left.engine, right.engine);
            let mut left = Watched::new(left.as_mut(), None);
            let mut right = Watched::new(right.as_mut(), Some(task.progress.clone()));
            let opts = SearchOptions {
                depth: asked.depth,
                stop: Some(task.stop.clone()),
                ..SearchOptions::default()
            };
            let comparison = sargon_referee::diff::compare(&mut left, &mut right, &setup, &opts)
                .map_err(|e| e.to_string())?;
            let emulator = engine_answer(&EngineSpec::EMULATOR, &root, &left);
            let port = engine_answer(&other_spec, &root, &right);
            Ok((
                comparison,
                root,
                emulator,
                port,
                started.elapsed().as_millis() as u64,
            ))
        });
    let stop = task.info.stop.clone();
    let Some(done) = task.answer().await else {
        return Err(jobs::cancelled("the comparison"));
    };
    let (comparison, root, emulator, port, elapsed_ms) = match done {
        Ok(done) => done,
        Err(_) if stop.load(Ordering::Relaxed) => return Err(jobs::cancelled("the comparison")),
        Err(e) => return Err(ApiError::bad(format!("the comparison failed: {e}"))),
    };
    let divergence = comparison.divergence.as_ref().map(|d| {
        let show = |e: &Option<Event>| match e {
            Some(e) => e.to_string(),
            None => "(its trace had ended)".to_string(),
        };
        let path = d.path().cloned().unwrap_or_default();
        let (pos, _) = searches::play(&root, &path);
        Divergence {
            index: d.index,
            emulator: show(&d.left),
            port: show(&d.right),
            path: path.iter().map(|m| m.uci()).collect(),
            fen: position::fen_of(&pos),
        }
    });
    let answer = CompareAnswer {
        cached: false,
        events: comparison.events,
        divergences: usize::from(divergence.is_some()),
        divergence,
        elapsed_ms,
        emulator: Some(emulator),
        port: Some(port),
    };
    app.cache.comparisons.put(request, answer.clone());
    Ok(Json(answer))
}
