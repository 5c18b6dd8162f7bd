//! Stepping the original: a search of the original run instruction by instruction,
//! forward and back ([`Stepper`]), one session per page.
//!
//! A session is opened on a finished search (`POST /api/step`), at one of its nodes or
//! events; it runs the original's search once to record its events and keep snapshots,
//! then answers each move (`POST /api/step/{id}/move`) with the machine as it stands
//! ([`StepState`]). Sessions are bounded: at most [`MAX_SESSIONS`] at once, each holding
//! at most [`MAX_SNAPSHOTS`] snapshots of 64 KiB and the events of a search of at most
//! [`MAX_EVENTS`]; a session idle for the idle time (five minutes, or
//! `SARGON_STEP_IDLE_SECONDS`) is closed, and the page closes its own when it leaves
//! (`POST /api/step/{id}/close`, sent on `pagehide`).
//!
//! A session is work like a search: it waits its turn in the `--jobs` line (`"job"` in the
//! body names it, for its place in line: jobs.rs), records the search on the worker it is
//! given, and holds that worker while it is open; closing it, by its page or when idle,
//! frees the worker for the next in line.

use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Path as UrlPath, State as AxumState};
use axum::Json;

use sargon_core::engine::SearchOptions;
use sargon_core::position::{self, Book};
use sargon_core::trace::Event;
use sargon_original::emu::stepper::MAX_SNAPSHOTS;
use sargon_original::emu::{Step, Stepper};

use super::api::{
    StepChange, StepClosed, StepFrame, StepMoveBody, StepOpenBody, StepRegisters, StepState,
    StepVariable,
};
use super::app::{finished, get_search, ApiError, App, Body};
use super::jobs;
use super::step_sessions::{Session, Slot, MAX_EVENTS, MAX_SESSIONS};

/// Every few seconds, close the idle sessions.
pub(crate) async fn close_idle_sessions(app: Arc<App>) {
    let every = (app.steps.idle / 2).clamp(Duration::from_millis(200), Duration::from_secs(5));
    loop {
        tokio::time::sleep(every).await;
        app.steps.close_idle();
    }
}

/// `POST /api/step`: open a session on a finished search, at a node or an event.
pub(crate) async fn open_route(
    AxumState(app): AxumState<Arc<App>>,
    Body(body): Body<StepOpenBody>,
) -> Result<Json<StepState>, ApiError> {
    let search = get_search(&app, body.search)?;
    let f = finished(&search)?;
    if f.events > MAX_EVENTS {
        return Err(ApiError::conflict(format!(
            "search {} has {} events; a stepping session keeps every event and steps through searches of at most {MAX_EVENTS} (search less deep)",
            body.search, f.events
        )));
    }
    let created = match body.node {
        Some(node) => Some(
            f.tree
                .nodes
                .get(node as usize)
                .ok_or_else(|| {
                    ApiError::not_found(format!("search {} has no node {node}", body.search))
                })?
                .created,
        ),
        None => None,
    };
    app.steps.close_idle();
    // Counted among the sessions while it waits for a worker and records (counted under
    // the table's lock, so that two pages asking at once cannot both take the last place).
    let waiting = {
        let mut table = app.steps.table();
        if let Some(page) = &body.page {
            table.retain(|_, s| {
                s.try_lock()
                    .map_or(true, |s| s.page.as_deref() != Some(page.as_str()))
            });
        }
        if table.len() + app.steps.waiting() >= MAX_SESSIONS {
            return Err(too_many(&app));
        }
        app.steps.wait()
    };
    let rom = app
        .searches
        .store
        .load(app.searches.rom.as_deref())
        .map_err(|e| ApiError::conflict(e.to_string()))?;
    let request = search.request.clone();
    let note = (!request.engine.is_emulator()).then(|| {
        format!(
            "this search was made by `{}`: the original is stepped through the same position, depth and book on the emulator",
            sargon_core::input::echo(&request.engine.to_string())
        )
    });
    let root = f.root.clone();
    let (event, page, search_id) = (body.event, body.page.clone(), body.search);
    let token = jobs::token(body.job.clone())?;
    let (deliver, delivered) = tokio::sync::oneshot::channel();
    let task = app.searches.queue_task(token, move |_| {
        let (slot, released) = std::sync::mpsc::channel::<()>();
        let session = record(rom, &root, &request, event, created).map(|stepper| Session {
            port: port_citations(&stepper),
            stepper,
            search: search_id,
            depth: request.depth,
            note,
            page,
            last_used: Instant::now(),
            _slot: Slot::new(slot),
        });
        // The page may have left meanwhile: then the session is dropped here, its slot
        // with it.
        let _ = deliver.send(session);
        // Hold the worker until the session is closed.
        let _ = released.recv();
    });
    let session = match delivered.await {
        Ok(session) => session?,
        Err(_) => return Err(jobs::cancelled("the stepping session")),
    };
    // Given its worker: the task's entry in line is no longer needed.
    drop(task);
    let id = app.steps.next.fetch_add(1, Ordering::Relaxed);
    let answer = state_of(id, &session, &app);
    let mut table = app.steps.table();
    drop(waiting);
    table.insert(id, Arc::new(Mutex::new(session)));
    Ok(Json(answer))
}

/// The refusal when every session is taken.
fn too_many(app: &App) -> ApiError {
    ApiError::conflict(format!(
        "{MAX_SESSIONS} stepping sessions are open or waiting for a worker, the most this server keeps (each holds up to {MAX_SNAPSHOTS} snapshots of 64 KiB, and one of the server's {} workers while open); close one, or wait {} s for an unused one to close",
        app.searches.workers,
        app.steps.idle.as_secs()
    ))
}

/// Run the original's search once for a session (recording its events, keeping
/// snapshots) and stand at `event`, or where the node `created` at is created.
fn record(
    rom: sargon_original::rom::Rom,
    root: &shakmaty::Chess,
    request: &crate::searches::SearchRequest,
    event: Option<u64>,
    created: Option<usize>,
) -> Result<Stepper, ApiError> {
    let setup = position::setup(root, Book::from(request.book))
        .map_err(|e| ApiError::bad(e.to_string()))?;
    let mut stepper = Stepper::open(rom, &setup, &SearchOptions::depth(request.depth))
        .map_err(|e| ApiError::bad(e.to_string()))?;
    if let Some(k) = event {
        if k as usize >= stepper.events().len() {
            return Err(ApiError::bad(format!(
                "the original's trace of this search has {} events: no event {k}",
                stepper.events().len()
            )));
        }
        stepper
            .to_event(k as usize)
            .map_err(|e| ApiError::bad(e.to_string()))?;
    } else if let Some(c) = created.filter(|&c| c > 0) {
        stepper
            .to_node(c)
            .map_err(|e| ApiError::bad(e.to_string()))?;
    }
    Ok(stepper)
}

/// For each label, the port's functions that cite it (`FILE:LINE ITEM`).
fn port_citations(stepper: &Stepper) -> BTreeMap<String, Vec<String>> {
    let links = sargon_port_links::PortLinks::of_port();
    links
        .sites(stepper.program())
        .into_iter()
        .map(|(label, sites)| (label, sites.iter().map(|c| c.place()).collect()))
        .collect()
}

/// `GET /api/step/{id}`: the session as it stands.
pub(crate) async fn state_route(
    AxumState(app): AxumState<Arc<App>>,
    UrlPath(id): UrlPath<u64>,
) -> Result<Json<StepState>, ApiError> {
    let session = app.steps.get(id)?;
    let mut s = session.lock().unwrap_or_else(|e| e.into_inner());
    s.last_used = Instant::now();
    Ok(Json(state_of(id, &s, &app)))
}

/// `POST /api/step/{id}/move`: step forward or back, or go to an event or a position.
pub(crate) async fn move_route(
    AxumState(app): AxumState<Arc<App>>,
    UrlPath(id): UrlPath<u64>,
    Body(body): Body<StepMoveBody>,
) -> Result<Json<StepState>, ApiError> {
    let session = app.steps.get(id)?;
    let step = match body.by.as_deref() {
        None => None,
        Some("instruction") => Some(Step::Instruction),
        Some("over") => Some(Step::Over),
        Some("out") => Some(Step::Out),
        Some("event") => Some(Step::Event),
        Some("node") => Some(Step::Node),
        Some(other) => {
            return Err(ApiError::bad(format!(
                "no step `{}`: `by` is instruction, over, out, event or node",
                sargon_core::input::echo(other)
            )))
        }
    };
    if step.is_none() && body.event.is_none() && body.position.is_none() {
        return Err(ApiError::bad(
            "a move needs `by` (instruction, over, out, event, node), `event` or `position`",
        ));
    }
    let work = tokio::task::spawn_blocking(move || -> Result<StepState, ApiError> {
        let mut s = session.lock().unwrap_or_else(|e| e.into_inner());
        let stepper = &mut s.stepper;
        let moved = match (step, body.event, body.position) {
            (Some(step), _, _) if body.back => stepper.step_back(step),
            (Some(step), _, _) => stepper.step(step),
            (None, Some(k), _) => {
                if k as usize >= stepper.events().len() {
                    return Err(ApiError::bad(format!(
                        "the trace has {} events: no event {k}",
                        stepper.events().len()
                    )));
                }
                stepper.to_event(k as usize)
            }
            (None, None, Some(p)) => stepper.to_position(p),
            (None, None, None) => unreachable!("refused above"),
        };
        moved.map_err(|e| ApiError::bad(e.to_string()))?;
        s.last_used = Instant::now();
        Ok(state_of(id, &s, &app))
    });
    let answer = work
        .await
        .map_err(|e| ApiError::bad(format!("the step failed: {e}")))??;
    Ok(Json(answer))
}

/// `POST /api/step/{id}/close`: close a session (the page leaving).
pub(crate) async fn close_route(
    AxumState(app): AxumState<Arc<App>>,
    UrlPath(id): UrlPath<u64>,
) -> Json<StepClosed> {
    let closed = app.steps.table().remove(&id).is_some();
    Json(StepClosed { closed, id })
}

/// The name of `addr`: the symbol at or below it, plus the distance.
fn name_of(stepper: &Stepper, addr: u16) -> Option<String> {
    let (&at, names) = stepper.program().names.range(..=addr).next_back()?;
    let name = names.first()?;
    Some(match addr - at {
        0 => name.clone(),
        d => format!("{name}+{d}"),
    })
}

fn flags(f: u8) -> String {
    "SZ5H3PNC"
        .chars()
        .enumerate()
        .map(|(i, c)| if f & (0x80 >> i) != 0 { c } else { '.' })
        .collect()
}

/// The session as the page reads it.
fn state_of(id: u64, s: &Session, app: &App) -> StepState {
    let st = &s.stepper;
    let r = st.registers();
    let (changes, changed) = st.changes();
    let is_changed = |addr: u16| changes.iter().any(|c| c.addr == addr);
    let syms = st.symbols();
    let mem = st.memory();
    let variables = sargon_core::state::VARIABLES
        .iter()
        .zip(&syms.state.variables)
        .filter_map(|(name, addr)| {
            let addr = (*addr)?;
            Some(StepVariable {
                addr,
                changed: is_changed(addr),
                name: name.to_string(),
                value: mem[addr as usize],
            })
        })
        .collect();
    let label = st
        .program()
        .names
        .range(..=r.pc)
        .next_back()
        .and_then(|(_, n)| n.first().cloned());
    let routine = st.program().routine_at(r.pc).map(|(_, n)| n.to_string());
    let port = label
        .iter()
        .chain(routine.iter())
        .find_map(|l| s.port.get(l))
        .cloned()
        .unwrap_or_default();
    let here = st.events_here();
    let boarda = syms.boarda;
    StepState {
        board: mem[boarda as usize..boarda as usize + 120].to_vec(),
        board_at: boarda,
        call_stack: st
            .call_stack()
            .into_iter()
            .map(|f| StepFrame {
                call_at: f.call_at,
                caller: f.caller,
                return_to: f.return_to,
                routine: f.routine,
            })
            .collect(),
        changed,
        changes: changes
            .iter()
            .map(|c| StepChange {
                addr: c.addr,
                name: name_of(st, c.addr),
                new: c.new,
                old: c.old,
            })
            .collect(),
        depth: s.depth,
        event_texts: st.events()[here.clone()]
            .iter()
            .map(Event::to_string)
            .collect(),
        events: st.events().len() as u64,
        events_before: here.start as u64,
        flags: flags(r.f),
        finished: st.finished(),
        id,
        idle_seconds: app.steps.idle.as_secs(),
        instruction: st.instruction(),
        label,
        length: st.length(),
        note: s.note.clone(),
        port,
        position: st.position(),
        registers: StepRegisters {
            a: r.a,
            bc: r.bc,
            de: r.de,
            f: r.f,
            hl: r.hl,
            ix: r.ix,
            iy: r.iy,
            pc: r.pc,
            sp: r.sp,
        },
        routine,
        search: s.search,
        snapshot_interval: st.interval(),
        snapshots: st.snapshots().len(),
        variables,
        workers: app.searches.workers,
    }
}
