//! The search thread: depth after depth under the plan's limits, `info` lines, the
//! watchdog at the hard time limit, and `bestmove`.

use std::io::Write;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use shakmaty::{CastlingMode, Chess, Move, Position};

use crate::base::engine::{Engine, SearchError, SearchOptions};
use crate::base::hooks::{FnHook, HookPoint};
use crate::base::position::{self, Setup};
use crate::base::trace::Detail;
use crate::tools::record;

use super::session::{AnswerWriter, Loaded};
use super::{Plan, DEFAULT_GROWTH};

/// Everything the search thread needs.
pub(super) struct Job {
    pub(super) position: Chess,
    pub(super) plan: Plan,
    pub(super) book_random: u8,
    pub(super) started: Instant,
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
) -> Result<DepthResult, SearchError> {
    let pos = &setup.position;
    let stop = opts.stop.clone();
    let counted = &mut *nodes;
    let mut counter = FnHook::new(&[HookPoint::PointsEnd], move |_| {
        *counted += 1;
        if let (Some(limit), Some(stop)) = (node_limit, &stop) {
            if *counted >= limit {
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
    let recorded = record::search(engine, setup, opts, Detail::BestOnly, &mut [&mut counter])?;
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

/// The `info` line of a completed depth.
pub fn info_line(r: &DepthResult, nodes: u64, elapsed: Duration) -> String {
    let ms = elapsed.as_millis() as u64;
    let nps = nodes * 1000 / ms.max(1);
    let score = match r.mate {
        Some(n) => format!("mate {n}"),
        None => format!("cp {}", r.score_cp),
    };
    let pv: Vec<String> = r.pv.iter().map(uci_of).collect();
    format!(
        "info depth {} score {score} nodes {nodes} nps {nps} time {ms} pv {}",
        r.depth,
        pv.join(" ")
    )
}

/// The first legal move (or none): what is played when no depth completed.
pub(super) fn fallback(pos: &Chess) -> Option<Move> {
    pos.legal_moves().first().copied()
}

pub(super) fn bestmove_line(best: &Option<Move>, ponder: Option<&Move>) -> String {
    match (best, ponder) {
        (Some(b), Some(p)) => format!("bestmove {} ponder {}", uci_of(b), uci_of(p)),
        (Some(b), None) => format!("bestmove {}", uci_of(b)),
        (None, _) => "bestmove 0000".to_string(),
    }
}

/// The search thread: iterate, report, answer `bestmove`, hand the engine back.
pub(super) fn search_thread<W: Write>(
    mut loaded: Option<Loaded>,
    job: Job,
    stop: Arc<AtomicBool>,
    answered: Arc<AtomicBool>,
    out: AnswerWriter<W>,
) -> Option<Loaded> {
    // A watchdog sets the stop flag at the hard time limit.
    let finished = Arc::new(AtomicBool::new(false));
    let watchdog = job.plan.budget.map(|b| {
        let (finished, stop) = (finished.clone(), stop.clone());
        let deadline = job.started + b.hard;
        thread::spawn(move || loop {
            if finished.load(Ordering::Relaxed) {
                return;
            }
            let now = Instant::now();
            if now >= deadline {
                stop.store(true, Ordering::Relaxed);
                return;
            }
            thread::park_timeout(deadline - now);
        })
    });

    let last = if job.position.legal_moves().is_empty() {
        out.info("no legal move: checkmate or stalemate");
        None
    } else if let Some(l) = loaded.as_mut() {
        let result = panic::catch_unwind(AssertUnwindSafe(|| iterate(l, &job, &stop, &out)));
        match result {
            Ok(last) => last,
            Err(_) => {
                out.info("the engine failed during the search; it will be restarted");
                loaded = None;
                None
            }
        }
    } else {
        out.info("no engine to search with (see the message above)");
        None
    };

    finished.store(true, Ordering::Relaxed);
    if let Some(w) = watchdog {
        w.thread().unpark();
        let _ = w.join();
    }
    if job.plan.wait_for_stop {
        while !stop.load(Ordering::Relaxed) {
            thread::park_timeout(Duration::from_millis(50));
        }
    }
    let line = match &last {
        Some(r) => bestmove_line(&Some(r.best), r.pv.get(1)),
        None => {
            let fb = fallback(&job.position);
            if let Some(m) = &fb {
                out.info(&format!(
                    "no search depth completed: playing the first legal move {}",
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

/// Search depth after depth; the last completed one.
fn iterate<W: Write>(
    loaded: &mut Loaded,
    job: &Job,
    stop: &Arc<AtomicBool>,
    out: &AnswerWriter<W>,
) -> Option<DepthResult> {
    let setup = match position::setup(&job.position, job.plan.book) {
        Ok(s) => s,
        Err(e) => {
            out.info(&format!("cannot set up the position: {e}"));
            return None;
        }
    };
    let mut last: Option<DepthResult> = None;
    let mut nodes = 0u64;
    // Time of the last two completed depths, for the prediction.
    let mut times: Vec<Duration> = Vec::new();
    for (i, &depth) in job.plan.depths.iter().enumerate() {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let elapsed = job.started.elapsed();
        if let (Some(budget), Some(&t)) = (job.plan.budget, times.last()) {
            let growth = match times.len() {
                n if n >= 2 && times[n - 2] >= Duration::from_millis(2) => {
                    (t.as_secs_f64() / times[n - 2].as_secs_f64()).clamp(2.0, 12.0)
                }
                _ => DEFAULT_GROWTH,
            };
            let steps = depth.saturating_sub(job.plan.depths[i - 1]).max(1) as i32;
            let predicted = t.mul_f64(growth.powi(steps).min(1e6));
            if !budget.allows(elapsed, predicted) {
                break;
            }
        }
        let opts = SearchOptions {
            depth,
            book_random: job.book_random,
            stop: Some(stop.clone()),
            ..Default::default()
        };
        let t0 = Instant::now();
        match search_depth(
            loaded.engine.as_mut(),
            &setup,
            &opts,
            &mut nodes,
            job.plan.nodes,
        ) {
            Ok(r) => {
                times.push(t0.elapsed());
                if r.from_book {
                    out.info(&format!(
                        "book move {} (Sargon's opening book)",
                        uci_of(&r.best)
                    ));
                    last = Some(r);
                    break;
                }
                out.line(&info_line(&r, nodes, job.started.elapsed()));
                let mate = r.mate.is_some_and(|n| n > 0);
                last = Some(r);
                if mate {
                    break;
                }
            }
            Err(SearchError::Stopped) => break,
            Err(e) => {
                out.info(&format!("search at depth {depth} failed: {e}"));
                break;
            }
        }
    }
    last
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
