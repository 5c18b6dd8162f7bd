//! The search thread: depth after depth under the plan's limits, `info` lines, the
//! watchdog at the hard time limit, and `bestmove`.

use std::io::Write;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use shakmaty::{CastlingMode, Chess, Move, Position};

use sargon_core::engine::{Capability, Engine, Memory, SearchError, SearchOptions};
use sargon_core::hooks::{FnHook, Hook, HookEvent, HookMask, HookPoint};
use sargon_core::position::{self, Setup};
use sargon_core::record;
use sargon_core::trace::Detail;

use super::shared::{AnswerWriter, Loaded};
use super::{Plan, DEFAULT_GROWTH};
use sargon_core::position::Book;

/// Everything the search thread needs.
pub(super) struct Job {
    pub(super) position: Chess,
    pub(super) plan: Plan,
    pub(super) book_random: u8,
    pub(super) started: Instant,
    /// The root moves Sargon may choose from (`go searchmoves`); empty: all.
    pub(super) searchmoves: Vec<Move>,
    /// How many lines to report (`MultiPV`).
    pub(super) multipv: u8,
    /// How long the `go` runs before `info currmove` lines start.
    pub(super) currmove_after: Duration,
    /// Shared with the session: `stop` and `ponderhit`.
    pub(super) signals: Arc<GuiSignals>,
    /// PMATE before each search: what the side's last search left (`CarryDepth`), or 0.
    pub(super) pmate: u8,
    /// The memory of the search at the plan's last depth, the one the original would make
    /// (`CarryDepth`: the side's game continued or begun); every other depth is searched
    /// afresh.
    pub(super) memory: Memory,
}

/// The flags that end a search early, in two strengths.
///
/// Depth 1 always completes, so that the move played is one a search chose: `stop`, the
/// end of the input, a node limit and the hard time limit of a `go movetime` set only
/// [`StopFlags::soon`], which ends the depths after it. Only `quit` and the hard limit of
/// the side's clock (running out of it loses the game) set [`StopFlags::now`], which
/// ends depth 1 too.
#[derive(Clone, Debug, Default)]
pub(super) struct StopFlags {
    soon: Arc<AtomicBool>,
    now: Arc<AtomicBool>,
}

impl StopFlags {
    /// End the search once depth 1 has completed.
    pub(super) fn stop_soon(&self) {
        self.soon.store(true, Ordering::Relaxed);
    }

    /// End the search at once, depth 1 too.
    pub(super) fn stop_now(&self) {
        self.now.store(true, Ordering::Relaxed);
        self.soon.store(true, Ordering::Relaxed);
    }
}

/// What the GUI said during a search.
///
/// `stop` is kept apart from the engine's stop flag, which the clock and the node limit
/// set too: `go infinite` and `go ponder` answer only when the GUI says so, not when a
/// limit ended the search. A `go ponder` search runs without a time limit until
/// `ponderhit`, then under the `go`'s clock counted from the `ponderhit`.
#[derive(Debug)]
pub(super) struct GuiSignals {
    stopped: AtomicBool,
    quitting: AtomicBool,
    pondering: AtomicBool,
    hit_at: Mutex<Option<Instant>>,
}

impl GuiSignals {
    pub(super) fn new(pondering: bool) -> GuiSignals {
        GuiSignals {
            stopped: AtomicBool::new(false),
            quitting: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            hit_at: Mutex::new(None),
        }
    }

    /// The GUI's `stop` (or `quit`, or the end of its input).
    pub(super) fn stop(&self) {
        self.stopped.store(true, Ordering::SeqCst);
    }

    fn stopped(&self) -> bool {
        self.stopped.load(Ordering::SeqCst)
    }

    /// The GUI's `quit`: it wants no answer, not even depth 1's.
    pub(super) fn quit(&self) {
        self.quitting.store(true, Ordering::SeqCst);
        self.stop();
    }

    fn quitting(&self) -> bool {
        self.quitting.load(Ordering::SeqCst)
    }

    pub(super) fn pondering(&self) -> bool {
        self.pondering.load(Ordering::SeqCst)
    }

    /// The GUI's `ponderhit`: the clock starts now.
    pub(super) fn hit(&self) {
        *self.hit_at.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// When the move's clock started: at `ponderhit`, or at `go` for a search that never
    /// pondered.
    fn clock_start(&self, go: Instant) -> Instant {
        self.hit_at
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .unwrap_or(go)
    }
}

/// The hook that keeps root moves out of Sargon's search: at `movegen.done` of ply 1 it
/// takes every move not in `allowed` out of the root's move list, so Sargon searches and
/// chooses among the others exactly as if they were all it had generated. Moves of
/// Sargon's that are not legal (it generates moves that leave its king in check and drops
/// them itself when it plays them) are left for it to drop.
pub struct RootMoves<'a> {
    root: &'a Chess,
    allowed: &'a [Move],
}

impl<'a> RootMoves<'a> {
    /// Let Sargon search only `allowed` (legal moves of `root`) at the root.
    pub(crate) fn new(root: &'a Chess, allowed: &'a [Move]) -> Self {
        RootMoves { root, allowed }
    }
}

impl Hook for RootMoves<'_> {
    fn points(&self) -> HookMask {
        HookMask::of(&[HookPoint::MovegenDone])
    }

    fn at(&mut self, event: &mut HookEvent<'_>) {
        if let HookEvent::MovegenDone(v) = event
            && v.search().ply() == 1
        {
            let (root, allowed) = (self.root, self.allowed);
            v.keep_out(|m| m.to_chess(root).is_some_and(|c| !allowed.contains(&c)));
        }
    }
}

/// The root moves Sargon's search may choose from: `searchmoves` if given, else every
/// legal move, less `taken` (the best moves of the MultiPV lines before).
pub fn root_moves(pos: &Chess, searchmoves: &[Move], taken: &[Move]) -> Vec<Move> {
    let all: Vec<Move> = if searchmoves.is_empty() {
        pos.legal_moves().into_iter().collect()
    } else {
        searchmoves.to_vec()
    };
    all.into_iter().filter(|m| !taken.contains(m)).collect()
}

/// One completed depth.
#[derive(Clone, Debug)]
pub struct DepthResult {
    /// The depth searched.
    pub depth: u8,
    /// The move chosen.
    pub best: Move,
    /// Legal from the position; starts with `best`.
    pub pv: Vec<Move>,
    /// Centipawns for the side to move.
    pub score_cp: i32,
    /// Moves to mate (negative: the side to move is mated), from a PV ending in mate.
    pub mate: Option<i32>,
    /// The move came from the opening book.
    pub from_book: bool,
}

/// Search one depth; the positions evaluated are added to `nodes` even when it fails.
/// With `node_limit`, `stop` is set once `nodes` reaches it.
pub fn search_depth(
    engine: &mut dyn Engine,
    setup: &Setup,
    opts: &SearchOptions,
    nodes: &mut u64,
    node_limit: Option<u64>,
    extra: &mut [&mut dyn Hook],
) -> Result<DepthResult, SearchError> {
    let pos = &setup.position;
    let stop = opts.stop.clone();
    let counted = &mut *nodes;
    let mut counter = FnHook::new(&[HookPoint::PointsEnd], move |_| {
        *counted += 1;
        if let (Some(limit), Some(stop)) = (node_limit, &stop)
            && *counted >= limit
        {
            stop.store(true, Ordering::Relaxed);
        }
    });
    let mut hooks: Vec<&mut dyn Hook> = Vec::with_capacity(extra.len() + 1);
    // An engine without hooks (another person's port) counts no nodes and announces no
    // root moves: it searches without them.
    if engine.capabilities().has(Capability::Hooks) {
        hooks.push(&mut counter);
        for h in extra.iter_mut() {
            hooks.push(&mut **h);
        }
    }
    let recorded = record::search(engine, setup, opts, Detail::BestOnly, &mut hooks)?;
    let outcome = &recorded.outcome;
    let best_s = outcome.best.ok_or(SearchError::Stopped)?;
    let Some(best) = best_s.to_chess(pos) else {
        return Err(SearchError::ReplayRefused {
            uci: format!("{} (Sargon's choice, illegal here)", best_s.uci()),
        });
    };
    let mut pv = recorded.pv(pos).moves;
    if pv.first() != Some(&best) {
        pv = vec![best];
    }
    Ok(DepthResult {
        depth: opts.depth,
        best,
        mate: mate_of(pos, &pv),
        pv,
        score_cp: outcome.score_for_mover().centipawns(),
        from_book: outcome.from_book,
    })
}

/// `Some(n)` when `pv` ends in checkmate: n moves for the side to move to mate, or -n
/// when it is the side to move that is mated.
pub fn mate_of(pos: &Chess, pv: &[Move]) -> Option<i32> {
    let mut p = pos.clone();
    for m in pv {
        p.play_unchecked(*m);
    }
    if !p.is_checkmate() || pv.is_empty() {
        return None;
    }
    let n = pv.len() as i32;
    Some(if n % 2 == 1 { (n + 1) / 2 } else { -(n / 2) })
}

fn uci_of(m: &Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

/// The `info` line of a completed depth; `multipv` names the line when there are several.
pub fn info_line(r: &DepthResult, multipv: Option<u8>, nodes: u64, elapsed: Duration) -> String {
    let ms = elapsed.as_millis() as u64;
    let nps = nodes * 1000 / ms.max(1);
    let score = match r.mate {
        Some(n) => format!("mate {n}"),
        None => format!("cp {}", r.score_cp),
    };
    let pv: Vec<String> = r.pv.iter().map(uci_of).collect();
    let line = multipv.map_or(String::new(), |k| format!(" multipv {k}"));
    format!(
        "info depth {}{line} score {score} nodes {nodes} nps {nps} time {ms} pv {}",
        r.depth,
        pv.join(" ")
    )
}

/// The first legal move (of `searchmoves` if given), or none: what is played when the
/// clock's hard limit came before depth 1 completed.
fn fallback(pos: &Chess, searchmoves: &[Move]) -> Option<Move> {
    root_moves(pos, searchmoves, &[]).first().copied()
}

fn bestmove_line(best: &Option<Move>, ponder: Option<&Move>) -> String {
    match (best, ponder) {
        (Some(b), Some(p)) => format!("bestmove {} ponder {}", uci_of(b), uci_of(p)),
        (Some(b), None) => format!("bestmove {}", uci_of(b)),
        (None, _) => "bestmove 0000".to_string(),
    }
}

/// What a `go` answers.
enum Answer {
    /// The move of the last completed depth.
    Searched(DepthResult),
    /// `bestmove 0000`: no legal move, a search that failed, or `quit` before depth 1
    /// completed. Why has been told in an `info string`.
    NoMove,
    /// The clock's hard limit came before depth 1 completed: the one case where a move no
    /// search chose is played, as running out of the clock would lose the game.
    Unsearched,
}

/// The watchdog: sets `flags` at the plan's hard limits, counted from the start of the
/// move's clock (from `ponderhit` when pondering: until then there is no limit). The hard
/// limit of the budget ends the search once depth 1 has completed; the clock's own hard
/// limit ends depth 1 too.
fn watchdog(
    job: &Job,
    flags: &StopFlags,
    finished: &Arc<AtomicBool>,
) -> Option<thread::JoinHandle<()>> {
    let budget = job.plan.budget?;
    let mut limits: Vec<(Duration, bool)> = vec![(budget.hard, false)];
    if let Some(limit) = job.plan.depth_one_limit {
        limits.push((limit, true));
    }
    limits.sort();
    let (finished, flags, signals) = (finished.clone(), flags.clone(), job.signals.clone());
    let started = job.started;
    Some(thread::spawn(move || {
        let mut limits = limits.into_iter().peekable();
        while let Some(&(limit, cuts_depth_one)) = limits.peek() {
            if finished.load(Ordering::Relaxed) {
                return;
            }
            if signals.pondering() {
                thread::park_timeout(Duration::from_millis(10));
                continue;
            }
            // A limit beyond what the clock can count (`go movetime` of 10^19 ms) is none.
            let Some(deadline) = signals.clock_start(started).checked_add(limit) else {
                thread::park_timeout(Duration::from_secs(1));
                continue;
            };
            let now = Instant::now();
            if now < deadline {
                thread::park_timeout(deadline - now);
                continue;
            }
            if cuts_depth_one {
                flags.stop_now();
            } else {
                flags.stop_soon();
            }
            limits.next();
        }
    }))
}

/// The search thread: iterate, report, answer `bestmove`, hand the engine back.
pub(super) fn search_thread<W: Write>(
    mut loaded: Option<Loaded>,
    job: Job,
    flags: StopFlags,
    answered: Arc<AtomicBool>,
    out: AnswerWriter<W>,
) -> Option<Loaded> {
    let finished = Arc::new(AtomicBool::new(false));
    let watchdog = watchdog(&job, &flags, &finished);

    let answer = if job.position.legal_moves().is_empty() {
        out.info("no legal move: checkmate or stalemate");
        Answer::NoMove
    } else if let Some(l) = loaded.as_mut() {
        let result = panic::catch_unwind(AssertUnwindSafe(|| iterate(l, &job, &flags, &out)));
        result.unwrap_or_else(|_| {
            out.info("no move: the engine failed during the search; it will be restarted");
            loaded = None;
            Answer::NoMove
        })
    } else {
        out.info("no move: no engine to search with (see the message above)");
        Answer::NoMove
    };

    finished.store(true, Ordering::Relaxed);
    if let Some(w) = watchdog {
        w.thread().unpark();
        let _ = w.join();
    }
    // go infinite answers after `stop`; go ponder after `stop` or `ponderhit`.
    if job.plan.wait_for_stop {
        while !job.signals.stopped() && (!job.plan.ponder || job.signals.pondering()) {
            thread::park_timeout(Duration::from_millis(50));
        }
    }
    let line = match &answer {
        Answer::Searched(r) => bestmove_line(&Some(r.best), r.pv.get(1)),
        Answer::NoMove => bestmove_line(&None, None),
        Answer::Unsearched => {
            let fb = fallback(&job.position, &job.searchmoves);
            if let Some(m) = &fb {
                let limit = job.plan.depth_one_limit.unwrap_or_default();
                out.info(&format!(
                    "the clock's hard limit ({} ms) came before depth 1 completed: playing \
                     the first legal move {}, which no search chose",
                    limit.as_millis(),
                    uci_of(m)
                ));
            }
            bestmove_line(&fb, None)
        }
    };
    answered.store(true, Ordering::SeqCst);
    out.line(&line);
    loaded
}

/// The hook that announces each root move as Sargon starts on it (`info currmove`): the
/// first move generation below the root is the start of a root move's subtree. Costs one
/// look at the ply per generation, so it is always on. From depth 2 only: at depth 1
/// only checks are searched a ply deeper, so the numbers would count checks alone. Only
/// once the `go` has run `quiet_until`: a quick search would flood the GUI.
struct CurrMove<'a, W: Write> {
    out: &'a AnswerWriter<W>,
    number: u32,
    quiet_until: Instant,
}

impl<W: Write> Hook for CurrMove<'_, W> {
    fn points(&self) -> HookMask {
        HookMask::of(&[HookPoint::MovegenDone])
    }

    fn at(&mut self, event: &mut HookEvent<'_>) {
        let search = event.search();
        if search.ply() != 2 || search.max_ply() < 2 {
            return;
        }
        if let Some(m) = search.path().first() {
            self.number += 1;
            if Instant::now() < self.quiet_until {
                return;
            }
            self.out.line(&format!(
                "info currmove {} currmovenumber {}",
                m.uci(),
                self.number
            ));
        }
    }
}

/// Search depth after depth, each with its MultiPV lines: the answer is line 1 of the
/// last depth whose line 1 completed. Depth 1 always completes but for `quit` and the
/// clock's hard limit ([`StopFlags`]); a search that fails (not stopped: failed, as an
/// image that runs away does) answers no move, whatever the depths before it found.
fn iterate<W: Write>(
    loaded: &mut Loaded,
    job: &Job,
    flags: &StopFlags,
    out: &AnswerWriter<W>,
) -> Answer {
    let setup = match position::setup(&job.position, Book::from(job.plan.book)) {
        Ok(s) => s,
        Err(e) => {
            out.info(&format!("no move: cannot set up the position: {e}"));
            return Answer::NoMove;
        }
    };
    let mut last: Option<DepthResult> = None;
    let mut nodes = 0u64;
    // Time of the last two completed depths, for the prediction.
    let mut times: Vec<Duration> = Vec::new();
    let restricted = !job.searchmoves.is_empty() || job.multipv > 1;
    // A book move costs no search: not even the clock stops it (a GUI's hint pane sends
    // `go` and `stop` together, and the book's move is the answer Sargon has at hand).
    let book_move_due = setup.plays_from_book() && !restricted;
    'depths: for (i, &depth) in job.plan.depths.iter().enumerate() {
        let first = i == 0;
        let nodes_spent = job.plan.nodes.is_some_and(|limit| nodes >= limit);
        if !first && (flags.soon.load(Ordering::Relaxed) || nodes_spent) {
            break;
        }
        // While pondering there is no time limit; after `ponderhit` the clock runs from it.
        let clock_start = job.signals.clock_start(job.started);
        let budget = job.plan.budget.filter(|_| !job.signals.pondering());
        if let (Some(budget), Some(&t)) = (budget, times.last()) {
            let growth = match times.len() {
                n if n >= 2 && times[n - 2] >= Duration::from_millis(2) => {
                    (t.as_secs_f64() / times[n - 2].as_secs_f64()).clamp(2.0, 12.0)
                }
                _ => DEFAULT_GROWTH,
            };
            let steps = depth.saturating_sub(job.plan.depths[i - 1]).max(1) as i32;
            let predicted = t.mul_f64(growth.powi(steps).min(1e6));
            if !budget.allows(clock_start.elapsed(), predicted) {
                break;
            }
        }
        // Depth 1 looks only at the flag of `quit` and the clock, and not at the node
        // limit: it completes, so that the move played is a searched one.
        let stop = match (first, book_move_due) {
            (true, true) => None,
            (true, false) => Some(flags.now.clone()),
            (false, _) => Some(flags.soon.clone()),
        };
        let node_limit = job.plan.nodes.filter(|_| !first);
        let last_depth = job.plan.depths.last() == Some(&depth);
        let mut opts = SearchOptions {
            depth,
            book_random: job.book_random,
            stop,
            pmate: job.pmate,
            memory: if last_depth {
                job.memory
            } else {
                Memory::Fresh
            },
            ..Default::default()
        };
        let t0 = Instant::now();
        // MultiPV line k: Sargon's search with the best moves of lines 1..k-1 kept out.
        let mut taken: Vec<Move> = Vec::new();
        let hooked = loaded.engine.capabilities().has(Capability::Hooks);
        for k in 1..=job.multipv {
            // Keeping root moves out takes hooks: an engine without them gives one line,
            // from every root move (said once, at the first depth).
            if !hooked && restricted {
                if k == 1 && first {
                    out.info(&format!(
                        "searchmoves and MultiPV need hooks, which the engine `{}` does not have: one line, every move",
                        loaded.engine.id()
                    ));
                }
                if k > 1 {
                    break;
                }
            }
            let allowed = root_moves(&job.position, &job.searchmoves, &taken);
            if allowed.is_empty() {
                break;
            }
            let mut roots = RootMoves::new(&job.position, &allowed);
            let mut currmove = CurrMove {
                out,
                number: 0,
                quiet_until: job.started + job.currmove_after,
            };
            let mut extra: Vec<&mut dyn Hook> = vec![&mut currmove];
            if restricted {
                extra.push(&mut roots);
            }
            let result = loop {
                let result = search_depth(
                    loaded.engine.as_mut(),
                    &setup,
                    &opts,
                    &mut nodes,
                    node_limit,
                    &mut extra,
                );
                // The side's kept memory is gone (a search of it was stopped, the engine
                // was restarted) or is not this game's (the GUI played another move): the
                // side's game begins anew here.
                match &result {
                    Err(
                        e @ (SearchError::NoGameInMemory { .. }
                        | SearchError::KeptBoardDiffers { .. }),
                    ) if matches!(opts.memory, Memory::Continue { .. }) => {
                        out.info(&format!("{e}: a new game's memory for this side"));
                        opts.memory = Memory::NewGame;
                    }
                    _ => break result,
                }
            };
            match result {
                Ok(r) if r.from_book => {
                    let elapsed = job.started.elapsed().as_millis();
                    out.line(&format!(
                        "info depth 0 nodes 0 time {elapsed} pv {}",
                        uci_of(&r.best)
                    ));
                    out.info(&format!(
                        "book move {} (Sargon's opening book)",
                        uci_of(&r.best)
                    ));
                    return Answer::Searched(r);
                }
                Ok(r) => {
                    let multipv = (job.multipv > 1).then_some(k);
                    out.line(&info_line(&r, multipv, nodes, job.started.elapsed()));
                    taken.push(r.best);
                    if k == 1 {
                        last = Some(r);
                    }
                }
                Err(SearchError::Stopped) => break 'depths,
                Err(e) => {
                    out.info(&format!("search at depth {depth} failed: {e}"));
                    out.info("no move: the engine's search failed");
                    return Answer::NoMove;
                }
            }
        }
        // The whole depth, all its lines, is what the next depth's prediction grows from.
        times.push(t0.elapsed());
        // A mate found for the side to move: deeper searches cannot improve on it.
        if last.as_ref().is_some_and(|r| r.mate.is_some_and(|n| n > 0)) {
            break;
        }
    }
    match last {
        Some(r) => Answer::Searched(r),
        None if job.signals.quitting() => {
            out.info("quit before depth 1 completed: no move");
            Answer::NoMove
        }
        None if flags.now.load(Ordering::Relaxed) => Answer::Unsearched,
        None => {
            out.info("no move: depth 1 ended without one");
            Answer::NoMove
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::uci::UciMove;

    #[test]
    fn mate_from_the_pv() {
        let pos = position::parse_position("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
        let m: UciMove = "a1a8".parse().unwrap();
        let mv = m.to_move(&pos).unwrap();
        assert_eq!(mate_of(&pos, &[mv]), Some(1));
        assert_eq!(mate_of(&pos, &[]), None);
    }
}
