//! The explorer's searches: each runs once on a worker thread, its whole trace read into a
//! [`SearchTree`] as it streams by, and the tree is kept while the server runs so that
//! pages can open its nodes one at a time (a depth-5 search has some 200,000 nodes; a page
//! asks for the dozen it shows).
//!
//! Memory is the budget that matters: trees are kept up to a number of nodes in all
//! ([`Searches::keep_nodes`]), the least recently used dropped first; a search that alone
//! would pass the budget is stopped and told which command streams its trace instead. CPU
//! is the other: at most [`Searches::workers`] searches run at once, the others wait in
//! line and know their place.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use shakmaty::{Chess, Position};

use sargon_core::engine::{SearchError, SearchOptions};
use sargon_core::position;
use sargon_core::position::Book;
use sargon_core::record::{self, Recorded};
use sargon_core::trace::{Detail, Event, Path};
use sargon_core::vocab::SMove;
use sargon_engines::engines::EngineSpec;
use sargon_original::emu::Core;
use sargon_original::rom::RomStore;
use sargon_views::analysis::{self, Analysis};
use sargon_views::tree::{SearchTree, TreeBuilder};

/// What a page asks to search.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub(crate) struct SearchRequest {
    /// The position, as a FEN (normalised by the server).
    pub fen: String,
    /// Which engine (one the server offers: `Engines::offered`, engines.rs).
    pub engine: EngineSpec,
    /// Plies.
    pub depth: u8,
    /// Whether the opening book may answer (only matters in a book position).
    pub book: bool,
}

impl SearchRequest {
    /// The command that streams this search's trace, for a search too big to keep.
    pub(crate) fn trace_command(&self) -> String {
        let book = if self.book { "" } else { " --no-book" };
        // Another person's port is a command line of its own: quoted for the shell.
        let engine = self.engine.to_string();
        let engine = if engine
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b':')
        {
            engine
        } else {
            format!("'{}'", engine.replace('\'', r"'\''"))
        };
        format!(
            "sargon trace '{}' --depth {} --engine {engine}{book}",
            self.fen, self.depth
        )
    }
}

/// Where a search is.
#[derive(Clone)]
pub(crate) enum State {
    /// In line behind others.
    Waiting,
    /// On a worker.
    Running,
    /// Finished: its tree and analysis.
    Done(Arc<Finished>),
    /// It could not run, or was too big to keep: why, in one line.
    Failed(String),
    /// Stopped by its page (Cancel, or the page went away).
    Cancelled,
}

impl State {
    /// The state's name, as the API gives it.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            State::Waiting => "waiting",
            State::Running => "running",
            State::Done(_) => "done",
            State::Failed(_) => "failed",
            State::Cancelled => "cancelled",
        }
    }

    /// Whether the search is over, one way or another.
    pub(crate) fn is_over(&self) -> bool {
        !matches!(self, State::Waiting | State::Running)
    }
}

/// A finished search: what the explorer shows of it.
pub(crate) struct Finished {
    /// The position searched.
    pub root: Chess,
    /// The search tree, children in Sargon's order.
    pub tree: SearchTree,
    /// Nodes in each node's subtree, itself included.
    pub subtree: Vec<u32>,
    /// The analysis (best move, score, PV, times), as `sargon analyze` gives it; `None`
    /// for a partial tree, whose search never ended.
    pub analysis: Option<Analysis>,
    /// Why the tree is partial: the search was stopped at the node budget, and the tree
    /// holds the nodes it had made (`None`: the whole search).
    pub partial: Option<String>,
    /// The `best` events with their 0-based index in the trace, for the PV replay.
    pub best_events: Vec<(u64, Path)>,
    /// Events in the trace, the result event included.
    pub events: u64,
}

/// One search, shared between the worker that runs it and the pages that watch it.
pub(crate) struct Search {
    /// The search's number, in URLs.
    pub id: u64,
    /// What was asked.
    pub request: SearchRequest,
    /// The page that asked (one search per page at a time).
    pub page: Option<String>,
    /// Set to stop the search.
    pub stop: Arc<AtomicBool>,
    /// Nodes created so far.
    pub nodes: AtomicU64,
    /// Events so far.
    pub events: AtomicU64,
    /// When a worker took it up, once it has.
    started: Mutex<Option<Instant>>,
    /// How long it ran, once over.
    ran: Mutex<Option<Duration>>,
    state: Mutex<State>,
}

impl Search {
    /// Where the search is now.
    pub(crate) fn state(&self) -> State {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn set_state(&self, state: State) {
        *self.state.lock().unwrap_or_else(|e| e.into_inner()) = state;
    }

    /// Time on a worker so far (or in all, once over).
    pub(crate) fn elapsed(&self) -> Duration {
        if let Some(ran) = *self.ran.lock().unwrap_or_else(|e| e.into_inner()) {
            return ran;
        }
        match *self.started.lock().unwrap_or_else(|e| e.into_inner()) {
            Some(t) => t.elapsed(),
            None => Duration::ZERO,
        }
    }

    /// Ask the search to stop; a search still waiting is cancelled at once.
    pub(crate) fn cancel(&self) {
        self.stop.store(true, Ordering::Relaxed);
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if matches!(*state, State::Waiting) {
            *state = State::Cancelled;
        }
    }
}

/// Everything the server knows of searches.
pub(crate) struct Searches {
    /// Where the original's ROM is, for the emulator.
    pub store: RomStore,
    /// Which ROM of the store (default: the only one, or `sargon`).
    pub rom: Option<String>,
    /// The Z80 core the emulator runs on.
    pub core: Core,
    /// Searches that run at once.
    pub workers: usize,
    /// Tree nodes kept in memory, all searches together.
    pub keep_nodes: usize,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    next_id: u64,
    by_id: HashMap<u64, Arc<Search>>,
    /// Finished searches, by request, for reloads and links.
    by_request: HashMap<SearchRequest, u64>,
    /// Finished searches kept, least recently used first.
    kept: VecDeque<u64>,
    /// Work in line for a worker, first first: searches, and the tasks of the other views.
    waiting: VecDeque<Waiting>,
    /// Work on a worker now, searches and tasks.
    running: usize,
    next_task: u64,
    /// Tasks waiting or running, by number.
    tasks: HashMap<u64, Arc<TaskInfo>>,
}

/// What is in line: a search, by its number, or another view's task (a profile, a
/// memory snapshot, a comparison), by its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ticket {
    Search(u64),
    Task(u64),
}

/// Work in line, with what starts it on a worker's thread (the work itself frees the
/// worker when it is done: [`Searches::release`]).
struct Waiting {
    ticket: Ticket,
    stop: Arc<AtomicBool>,
    work: Work,
}

/// What a worker's thread runs; it frees the worker when done.
type Work = Box<dyn FnOnce(&Arc<Searches>) + Send>;

/// A task of another view in line or on a worker: what the page can ask of it.
pub(crate) struct TaskInfo {
    /// The page's name for it (`?job=`), to ask its place and cancel it by.
    pub token: Option<String>,
    /// Set to stop it (its request went away, or its page cancelled it).
    pub stop: Arc<AtomicBool>,
    /// Its progress so far, in its own unit (events compared, for a comparison).
    pub progress: Arc<AtomicU64>,
    /// When a worker took it up.
    started: Mutex<Option<Instant>>,
}

impl TaskInfo {
    /// Time on a worker so far; `None` while it waits.
    pub(crate) fn running_for(&self) -> Option<Duration> {
        self.started
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .map(|t| t.elapsed())
    }
}

/// A task queued by [`Searches::queue_task`]: its answer once a worker has run it. Dropping
/// it (the request went away: the page left or cancelled) stops the task, and takes it
/// out of the line if it has not started.
pub(crate) struct Task<T> {
    id: u64,
    searches: Arc<Searches>,
    pub(crate) info: Arc<TaskInfo>,
    answer: tokio::sync::oneshot::Receiver<T>,
}

impl<T> Task<T> {
    /// The task's answer; `None` when it was stopped before it answered.
    pub(crate) async fn answer(mut self) -> Option<T> {
        (&mut self.answer).await.ok()
    }
}

impl<T> Drop for Task<T> {
    fn drop(&mut self) {
        self.info.stop.store(true, Ordering::Relaxed);
        let mut inner = self.searches.inner();
        inner.waiting.retain(|w| w.ticket != Ticket::Task(self.id));
        inner.tasks.remove(&self.id);
    }
}

/// Why a search could not even be queued.
#[derive(Debug, thiserror::Error)]
pub(crate) enum AskError {
    /// The position or depth is not one the engine takes.
    #[error("{0}")]
    Refused(String),
}

impl Searches {
    /// Open the engine `spec` names, the emulator on this server's ROM and core
    /// ([`sargon_engines::engines::open`]: the server builds no engine itself).
    pub(crate) fn open(
        &self,
        spec: &EngineSpec,
    ) -> Result<sargon_engines::engines::Opened, sargon_engines::engines::OpenError> {
        let spec = spec
            .clone()
            .with_rom_and_core(self.rom.as_deref(), Some(&self.core.to_string()));
        let options = sargon_engines::engines::OpenOptions {
            store: self.store.clone(),
            timeout: sargon_engines::external::DEFAULT_TIMEOUT,
        };
        sargon_engines::engines::open(&spec, &options)
    }

    /// No searches yet.
    pub(crate) fn new(
        store: RomStore,
        rom: Option<String>,
        core: Core,
        workers: usize,
        keep_nodes: usize,
    ) -> Self {
        Searches {
            store,
            rom,
            core,
            workers: workers.max(1),
            keep_nodes,
            inner: Mutex::new(Inner::default()),
        }
    }

    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A search by its number, marked as just used.
    pub(crate) fn get(&self, id: u64) -> Option<Arc<Search>> {
        let mut inner = self.inner();
        let search = inner.by_id.get(&id).cloned()?;
        if let Some(at) = inner.kept.iter().position(|&k| k == id) {
            inner.kept.remove(at);
            inner.kept.push_back(id);
        }
        Some(search)
    }

    /// Place in line (1: next), for a waiting search.
    pub(crate) fn place(&self, id: u64) -> Option<usize> {
        self.place_of(Ticket::Search(id))
    }

    fn place_of(&self, ticket: Ticket) -> Option<usize> {
        self.inner()
            .waiting
            .iter()
            .filter(|w| !w.stop.load(Ordering::Relaxed))
            .position(|w| w.ticket == ticket)
            .map(|p| p + 1)
    }

    /// Work running now and waiting: searches and the other views' tasks.
    pub(crate) fn load(&self) -> (usize, usize) {
        let inner = self.inner();
        let waiting = inner
            .waiting
            .iter()
            .filter(|w| !w.stop.load(Ordering::Relaxed))
            .count();
        (inner.running, waiting)
    }

    /// The task a page named `token`, waiting or running, with its place in line (`None`
    /// once it runs).
    pub(crate) fn task(&self, token: &str) -> Option<(Arc<TaskInfo>, Option<usize>)> {
        let (id, info) = {
            let inner = self.inner();
            let (id, info) = inner
                .tasks
                .iter()
                .find(|(_, t)| t.token.as_deref() == Some(token))?;
            (*id, info.clone())
        };
        Some((info, self.place_of(Ticket::Task(id))))
    }

    /// Put `work` in line with the searches, to run on a worker when its turn comes: the
    /// other views (a profile, a memory snapshot, a comparison) share the `--jobs` workers
    /// with the searches, so the CPU they take is counted and bounded. `work` is given
    /// the task's stop flag and progress counter; its answer comes through the [`Task`].
    pub(crate) fn queue_task<T: Send + 'static>(
        self: &Arc<Self>,
        token: Option<String>,
        work: impl FnOnce(&TaskInfo) -> T + Send + 'static,
    ) -> Task<T> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let info = Arc::new(TaskInfo {
            token,
            stop: Arc::new(AtomicBool::new(false)),
            progress: Arc::new(AtomicU64::new(0)),
            started: Mutex::new(None),
        });
        let mut inner = self.inner();
        inner.next_task += 1;
        let id = inner.next_task;
        inner.tasks.insert(id, info.clone());
        let mine = info.clone();
        inner.waiting.push_back(Waiting {
            ticket: Ticket::Task(id),
            stop: info.stop.clone(),
            work: Box::new(move |searches: &Arc<Searches>| {
                *mine.started.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
                let answer = work(&mine);
                searches.release();
                // The request may have gone: then nobody wants the answer.
                let _ = tx.send(answer);
            }),
        });
        drop(inner);
        self.start_waiting();
        Task {
            id,
            searches: self.clone(),
            info,
            answer: rx,
        }
    }

    /// A task's worker is free again.
    fn release(self: &Arc<Self>) {
        self.inner().running -= 1;
        self.start_waiting();
    }

    /// Ask for a search: the finished one for the same request if it is still kept,
    /// else a new one in line. A page's earlier search still going is cancelled first.
    pub(crate) fn ask(
        self: &Arc<Self>,
        request: SearchRequest,
        page: Option<String>,
    ) -> Result<Arc<Search>, AskError> {
        request
            .engine
            .check_depth(request.depth)
            .map_err(|e| AskError::Refused(e.to_string()))?;
        let mut inner = self.inner();
        if let Some(page) = &page {
            for s in inner.by_id.values() {
                if s.page.as_ref() == Some(page) && !s.state().is_over() {
                    s.cancel();
                }
            }
            let Inner { waiting, by_id, .. } = &mut *inner;
            waiting.retain(|w| match w.ticket {
                Ticket::Search(id) => by_id.get(&id).is_some_and(|s| !s.state().is_over()),
                Ticket::Task(_) => true,
            });
        }
        if let Some(&id) = inner.by_request.get(&request)
            && let Some(s) = inner.by_id.get(&id).cloned()
            && matches!(s.state(), State::Done(_))
        {
            return Ok(s);
        }
        inner.next_id += 1;
        let search = Arc::new(Search {
            id: inner.next_id,
            request,
            page,
            stop: Arc::new(AtomicBool::new(false)),
            nodes: AtomicU64::new(0),
            events: AtomicU64::new(0),
            started: Mutex::new(None),
            ran: Mutex::new(None),
            state: Mutex::new(State::Waiting),
        });
        inner.by_id.insert(search.id, search.clone());
        let queued = search.clone();
        inner.waiting.push_back(Waiting {
            ticket: Ticket::Search(search.id),
            stop: search.stop.clone(),
            work: Box::new(move |searches: &Arc<Searches>| {
                let state = searches.run(&queued);
                *queued.ran.lock().unwrap_or_else(|e| e.into_inner()) = Some(queued.elapsed());
                searches.finish(&queued, state);
            }),
        });
        drop(inner);
        self.start_waiting();
        Ok(search)
    }

    /// Give free workers to the work first in line.
    fn start_waiting(self: &Arc<Self>) {
        let mut inner = self.inner();
        while inner.running < self.workers {
            let Some(next) = inner.waiting.pop_front() else {
                break;
            };
            if let Ticket::Search(id) = next.ticket {
                let Some(search) = inner.by_id.get(&id).cloned() else {
                    continue;
                };
                if search.state().is_over() {
                    // Cancelled while it waited.
                    inner.by_id.remove(&id);
                    continue;
                }
                search.set_state(State::Running);
                *search.started.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
            } else if next.stop.load(Ordering::Relaxed) {
                // Its page left while it waited.
                continue;
            }
            inner.running += 1;
            let searches = self.clone();
            std::thread::spawn(move || (next.work)(&searches));
        }
    }

    /// A search is over: record it, keep it within the budget, start the next.
    fn finish(self: &Arc<Self>, search: &Arc<Search>, state: State) {
        let mut inner = self.inner();
        inner.running -= 1;
        if let State::Done(finished) = &state {
            inner.by_request.insert(search.request.clone(), search.id);
            inner.kept.push_back(search.id);
            let mut total: usize = finished.tree.nodes.len();
            // Count what is kept, newest first, and drop the oldest beyond the budget.
            let mut keep = VecDeque::new();
            while let Some(id) = inner.kept.pop_back() {
                let nodes = match inner.by_id.get(&id).map(|s| s.state()) {
                    Some(State::Done(f)) => f.tree.nodes.len(),
                    _ => 0,
                };
                if id == search.id || total + nodes <= self.keep_nodes {
                    if id != search.id {
                        total += nodes;
                    }
                    keep.push_front(id);
                } else {
                    inner.by_id.remove(&id);
                    inner.by_request.retain(|_, v| *v != id);
                }
            }
            inner.kept = keep;
        }
        search.set_state(state);
        drop(inner);
        self.start_waiting();
    }

    /// Run one search on this thread.
    fn run(&self, search: &Search) -> State {
        match self.run_search(search) {
            Ok(finished) => State::Done(Arc::new(finished)),
            Err(RunError::Cancelled) => State::Cancelled,
            Err(RunError::Failed(why)) => State::Failed(why),
        }
    }

    fn run_search(&self, search: &Search) -> Result<Finished, RunError> {
        let request = &search.request;
        let root =
            position::parse_position(&request.fen).map_err(|e| RunError::Failed(e.to_string()))?;
        let setup = position::setup(&root, Book::from(request.book))
            .map_err(|e| RunError::Failed(e.to_string()))?;
        let opened = self
            .open(&request.engine)
            .map_err(|e| RunError::Failed(e.to_string()))?;
        let mut engine = opened.engine;
        let opts = SearchOptions {
            depth: request.depth,
            stop: Some(search.stop.clone()),
            ..SearchOptions::default()
        };
        let mut builder = TreeBuilder::new(None);
        let mut best_events = Vec::new();
        let mut kept = Vec::new();
        let mut index = 0u64;
        let mut too_big = false;
        let keep_nodes = self.keep_nodes;
        let outcome =
            record::search_streaming(engine.as_mut(), &setup, &opts, Detail::Full, &mut [], |e| {
                match &e {
                    Event::Created { .. } => {
                        let n = search.nodes.fetch_add(1, Ordering::Relaxed) + 1;
                        if n as usize > keep_nodes && !too_big {
                            too_big = true;
                            search.stop.store(true, Ordering::Relaxed);
                        }
                    }
                    Event::Best { path, .. } => best_events.push((index, path.clone())),
                    Event::Result { .. } => kept.push(e.clone()),
                    _ => {}
                }
                if matches!(e, Event::Best { .. }) {
                    kept.push(e.clone());
                }
                if !too_big {
                    builder.add(&e);
                }
                index += 1;
                search.events.store(index, Ordering::Relaxed);
            });
        let title = format!(
            "{} to depth {} ({})",
            request.fen, request.depth, request.engine
        );
        let outcome = match outcome {
            Ok(o) => o,
            // Past the budget: the tree made so far is kept and shown, marked partial.
            Err(SearchError::Stopped) if too_big => {
                let tree = builder.finish(&root, title);
                let subtree = subtree_sizes(&tree);
                return Ok(Finished {
                    root,
                    tree,
                    subtree,
                    analysis: None,
                    partial: Some(format!(
                        "a partial tree: the search was stopped at {keep_nodes} nodes, all the explorer keeps in memory (serve --keep-nodes), so it has no result; `{}` streams its whole trace",
                        request.trace_command()
                    )),
                    best_events,
                    events: index,
                });
            }
            Err(SearchError::Stopped) => return Err(RunError::Cancelled),
            Err(e) => return Err(RunError::Failed(e.to_string())),
        };
        let nodes = search.nodes.load(Ordering::Relaxed);
        let recorded = Recorded {
            outcome,
            events: kept,
        };
        let (analysis, _) =
            analysis::analyse_recorded(engine.as_ref(), &setup, &opts, recorded, Some(nodes))
                .map_err(|e| RunError::Failed(e.to_string()))?;
        let tree = builder.finish(&root, title);
        let subtree = subtree_sizes(&tree);
        Ok(Finished {
            root,
            tree,
            subtree,
            analysis: Some(analysis),
            partial: None,
            best_events,
            events: index,
        })
    }
}

enum RunError {
    Cancelled,
    Failed(String),
}

/// Nodes in each node's subtree (itself included).
fn subtree_sizes(tree: &SearchTree) -> Vec<u32> {
    let mut size = vec![1u32; tree.nodes.len()];
    // Children come after their parents: one backward pass.
    for id in (1..tree.nodes.len()).rev() {
        if let Some(p) = tree.nodes[id].parent {
            size[p] += size[id];
        }
    }
    size
}

/// The moves from the root to node `id`, root first.
pub(crate) fn path_to(tree: &SearchTree, mut id: usize) -> Vec<SMove> {
    let mut path = Vec::new();
    while let Some(parent) = tree.nodes[id].parent {
        if let Some(m) = tree.nodes[id].mv {
            path.push(m);
        }
        id = parent;
    }
    path.reverse();
    path
}

/// The position after `path` from `root`, as far as its moves are legal, and how many were.
pub(crate) fn play(root: &Chess, path: &[SMove]) -> (Chess, usize) {
    let mut pos = root.clone();
    for (i, m) in path.iter().enumerate() {
        match m.to_chess(&pos) {
            Some(mv) => pos.play_unchecked(mv),
            None => return (pos, i),
        }
    }
    (pos, path.len())
}
