//! The stand-in engine of the UCI tests, the session's output it writes to, and the helpers
//! that start a session and read its answers.

use std::io::{self, Write};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position};

use sargon_chess::uci::{EngineFactory, Settings, Uci};
use sargon_core::engine::{Capabilities, Engine, SearchError, SearchOptions, SearchOutcome};
use sargon_core::hooks::Hooks;
use sargon_core::position::{self, Setup};
use sargon_core::vocab::{flag, SMove, Score, Sq};

/// What the session wrote, shared with the test.
#[derive(Clone, Default)]
pub(super) struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Sink {
    pub(super) fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
    pub(super) fn lines(&self) -> Vec<String> {
        self.text().lines().map(str::to_string).collect()
    }
    pub(super) fn clear(&self) {
        self.0.lock().unwrap().clear();
    }
    /// Wait until `count` lines start with `prefix`.
    pub(super) fn wait_for_count(&self, prefix: &str, count: usize, timeout: Duration) {
        let t0 = Instant::now();
        while t0.elapsed() < timeout {
            if self
                .lines()
                .iter()
                .filter(|l| l.starts_with(prefix))
                .count()
                >= count
            {
                return;
            }
            thread::sleep(Duration::from_millis(2));
        }
        panic!(
            "no {count} `{prefix}` within {timeout:?}; output:\n{}",
            self.text()
        );
    }

    /// Wait until a line starting with `prefix` appears; the time it took.
    pub(super) fn wait_for(&self, prefix: &str, timeout: Duration) -> Duration {
        let t0 = Instant::now();
        while t0.elapsed() < timeout {
            if self.lines().iter().any(|l| l.starts_with(prefix)) {
                return t0.elapsed();
            }
            thread::sleep(Duration::from_millis(2));
        }
        panic!("no `{prefix}` within {timeout:?}; output:\n{}", self.text());
    }
}

/// A stand-in engine: depth d takes `base * 4^(d-1)`, then the first legal move (the book
/// move at once in a book position).
struct Fake {
    base: Duration,
}

impl Engine for Fake {
    fn id(&self) -> String {
        "fake".into()
    }
    fn max_depth(&self) -> u8 {
        8
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities::hooked(false, false)
    }
    fn search(
        &mut self,
        setup: &Setup,
        opts: &SearchOptions,
        _hooks: &mut Hooks,
    ) -> Result<SearchOutcome, SearchError> {
        self.check_depth(opts.depth)?;
        let from_book = setup.plays_from_book();
        if !from_book {
            let t = self.base * 4u32.pow(u32::from(opts.depth) - 1);
            let t0 = Instant::now();
            while t0.elapsed() < t {
                if opts.stop_requested() {
                    return Err(SearchError::Stopped);
                }
                thread::sleep(Duration::from_micros(300));
            }
        }
        let m = setup
            .position
            .legal_moves()
            .into_iter()
            .find(|m| !m.is_castle())
            .expect("a test position with a move");
        let best = SMove {
            from: Sq::from_shakmaty(m.from().unwrap()),
            to: Sq::from_shakmaty(m.to()),
            flags: if m.is_promotion() { flag::PROMOTE } else { 0 },
        };
        Ok(SearchOutcome {
            best: Some(best),
            root_score: Score(0x88),
            from_book,
            stats: Default::default(),
        })
    }
}

fn fake_factory(base_ms: u64) -> EngineFactory {
    Box::new(move |_kind| {
        Ok(Box::new(Fake {
            base: Duration::from_millis(base_ms),
        }) as Box<dyn Engine + Send>)
    })
}

pub(super) fn session(base_ms: u64) -> (Uci<Sink>, Sink) {
    let sink = Sink::default();
    let uci = Uci::new(fake_factory(base_ms), sink.clone(), Settings::default());
    (uci, sink)
}

/// The move of the `bestmove` line, checked legal in `pos`.
pub(super) fn bestmove(sink: &Sink, pos: &Chess) -> Move {
    let lines = sink.lines();
    let line = lines
        .iter()
        .find(|l| l.starts_with("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove in:\n{}", sink.text()));
    let uci: UciMove = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    uci.to_move(pos)
        .unwrap_or_else(|_| panic!("{line} is not legal in {}", position::fen_of(pos)))
}

pub(super) const MIDDLEGAME: &str =
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
