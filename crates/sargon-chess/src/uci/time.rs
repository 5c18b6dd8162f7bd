//! Time management: the budget of a move and the depths a `go` searches.

use std::time::Duration;

use shakmaty::Color;

use super::{GoParams, Settings};

/// Time kept in hand for the GUI and the pipe: never planned to be used.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(50);

/// Growth of the search time from one depth to the next, before one is observed.
pub const DEFAULT_GROWTH: f64 = 6.0;

/// How long one move may take.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// The time a move should take on average: depths are started while their predicted
    /// end is within 1.5 times this.
    pub soft: Duration,
    /// Never exceeded: the search is stopped here.
    pub hard: Duration,
}

impl TimeBudget {
    /// `movetime`: all of it but [`MOVE_OVERHEAD`] (at least 1 ms).
    pub(crate) fn from_movetime(movetime: Duration) -> TimeBudget {
        let t = movetime
            .saturating_sub(MOVE_OVERHEAD)
            .max(Duration::from_millis(1));
        TimeBudget { soft: t, hard: t }
    }

    /// A clock: `time` left, `inc` added after each move, `movestogo` moves to the next
    /// time control (25 assumed when not given). The usable time is what is left less
    /// [`MOVE_OVERHEAD`]; the soft budget is its share per move plus 3/4 of the increment,
    /// at most half of it; the hard limit is three times the soft budget, at most 3/4 of
    /// the usable time. So a move never takes more than 3/4 of the clock, and the clock
    /// never runs out whatever the number of moves.
    pub(crate) fn from_clock(time: Duration, inc: Duration, movestogo: Option<u32>) -> TimeBudget {
        let usable = time.saturating_sub(MOVE_OVERHEAD);
        let moves = movestogo.unwrap_or(25).clamp(1, 50);
        let soft = (usable / moves + inc * 3 / 4).min(usable / 2);
        let hard = (soft * 3).min(usable * 3 / 4);
        let floor = Duration::from_millis(1);
        TimeBudget {
            soft: soft.max(floor),
            hard: hard.max(floor),
        }
    }

    /// The budget of a `go`, or `None` when it has no time limit.
    /// (`go ponder` has the budget of its clock, which starts at `ponderhit`.)
    pub(crate) fn of(go: &GoParams, turn: Color) -> Option<TimeBudget> {
        if go.infinite {
            return None;
        }
        let clock = go
            .clock(turn)
            .map(|(t, inc)| TimeBudget::from_clock(t, inc, go.movestogo));
        let movetime = go.movetime.map(TimeBudget::from_movetime);
        match (clock, movetime) {
            (Some(a), Some(b)) => Some(TimeBudget {
                soft: a.soft.min(b.soft),
                hard: a.hard.min(b.hard),
            }),
            (a, b) => a.or(b),
        }
    }

    /// The hard limit of the side to move's clock (`wtime`/`btime`), the one limit that
    /// may cut depth 1: running out of the clock loses the game. A `go movetime` alone has
    /// none (depth 1 completes, in milliseconds on the port, however short the time).
    pub(crate) fn clock_limit(go: &GoParams, turn: Color) -> Option<Duration> {
        if go.infinite {
            return None;
        }
        go.clock(turn)
            .map(|(t, inc)| TimeBudget::from_clock(t, inc, go.movestogo).hard)
    }

    /// May a depth predicted to take `predicted` start after `elapsed`?
    pub(crate) fn allows(&self, elapsed: Duration, predicted: Duration) -> bool {
        let end = elapsed + predicted;
        end <= self.hard && end <= self.soft.mul_f64(1.5)
    }
}

/// What a `go` will do: which depths, under which limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The depths to search, in order.
    pub depths: Vec<u8>,
    /// The time limits, if the `go` has any.
    pub budget: Option<TimeBudget>,
    /// Stop once this many positions have been evaluated (after depth 1: depth 1 always
    /// completes, so that the move played is a searched one).
    pub nodes: Option<u64>,
    /// The limit that may cut depth 1 short: the hard limit of the side's clock
    /// (`wtime`/`btime`), whose running out loses the game. Nothing else does but `quit`.
    pub depth_one_limit: Option<Duration>,
    /// Wait for `stop` before answering (go infinite / go ponder).
    pub wait_for_stop: bool,
    /// `go ponder`: `ponderhit` also ends the wait, and starts the clock.
    pub ponder: bool,
    /// Use the opening book where it applies: not when analysing (`UCI_AnalyseMode`,
    /// `go infinite`, `go ponder`), nor when the root is restricted (`searchmoves`,
    /// `MultiPV` above 1), as the book knows only its one move.
    pub book: bool,
}

impl Plan {
    /// The plan for `go` in a position with `turn` to move, on an engine that searches up
    /// to `max_depth`; explanations for the GUI are returned with it.
    pub(crate) fn new(
        go: &GoParams,
        settings: &Settings,
        turn: Color,
        max_depth: u8,
    ) -> (Plan, Vec<String>) {
        let mut notes = Vec::new();
        let budget = TimeBudget::of(go, turn);
        let depths: Vec<u8> = if settings.fixed_depth > 0 {
            let fixed = if settings.fixed_depth > max_depth {
                notes.push(format!(
                    "FixedDepth {} is beyond this engine's maximum: searching depth {max_depth}",
                    settings.fixed_depth
                ));
                max_depth
            } else {
                settings.fixed_depth
            };
            if let Some(d) = go.depth.filter(|&d| d != fixed) {
                notes.push(format!(
                    "FixedDepth {fixed} overrides go depth {d} (setoption name FixedDepth value 0 to follow go)"
                ));
            }
            if let Some(m) = go.mate {
                notes.push(format!(
                    "FixedDepth {fixed} overrides go mate {m} (setoption name FixedDepth value 0 to follow go)"
                ));
            }
            // `stop`, a clock or a node limit may end depth N before it finishes: depth 1
            // first, so that there is always a searched move to play.
            if fixed > 1 {
                vec![1, fixed]
            } else {
                vec![fixed]
            }
        } else {
            let mut last = max_depth;
            if let Some(d) = go.depth {
                if d > max_depth {
                    notes.push(format!(
                        "depth {d} is beyond this engine's maximum: searching to depth {max_depth}"
                    ));
                }
                last = d.clamp(1, max_depth);
            }
            if let Some(m) = go.mate {
                let plies = m.saturating_mul(2).saturating_sub(1).min(255) as u8;
                if plies > last {
                    notes.push(format!(
                        "go mate {m} needs {} plies; this engine searches at most {last}: a mate \
                         beyond depth {last} may be missed",
                        m.saturating_mul(2).saturating_sub(1)
                    ));
                }
                last = last.min(plies).max(1);
            }
            (1..=last).collect()
        };
        let wait_for_stop = go.infinite || go.ponder;
        let restricted = !go.searchmoves.is_empty() || settings.multipv > 1;
        let plan = Plan {
            depths,
            budget,
            nodes: go.nodes,
            depth_one_limit: TimeBudget::clock_limit(go, turn),
            wait_for_stop,
            ponder: go.ponder,
            book: settings.book && !settings.analyse_mode && !wait_for_stop && !restricted,
        };
        (plan, notes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_budget_keeps_time_in_hand() {
        let s = Duration::from_secs;
        for (time, inc, mtg) in [
            (s(300), s(0), None),
            (s(1), s(0), None),
            (Duration::from_millis(60), s(0), Some(1)),
            (Duration::from_millis(10), s(2), None),
            (s(10), s(5), Some(1)),
        ] {
            let b = TimeBudget::from_clock(time, inc, mtg);
            assert!(b.soft <= b.hard.max(Duration::from_millis(1)));
            let usable = time.saturating_sub(MOVE_OVERHEAD);
            assert!(
                b.hard <= (usable * 3 / 4).max(Duration::from_millis(1)),
                "{time:?} {inc:?}: {b:?}"
            );
        }
        let b = TimeBudget::from_clock(s(300), s(0), None);
        assert!(b.soft > s(10) && b.soft < s(13), "{b:?}");
    }

    #[test]
    fn prediction_blocks_a_depth_that_would_not_finish() {
        let b = TimeBudget::from_movetime(Duration::from_millis(1050));
        assert!(b.allows(Duration::from_millis(100), Duration::from_millis(800)));
        assert!(!b.allows(Duration::from_millis(300), Duration::from_millis(800)));
    }

    #[test]
    fn plans() {
        let settings = Settings::default();
        let (go, _) = GoParams::parse(&["depth", "3"]);
        let (p, _) = Plan::new(&go, &settings, Color::White, 6);
        assert_eq!(p.depths, vec![1, 2, 3]);
        let (go, _) = GoParams::parse(&["depth", "30"]);
        let (p, notes) = Plan::new(&go, &settings, Color::White, 6);
        assert_eq!(p.depths.len(), 6);
        assert_eq!(notes.len(), 1);
        let fixed = Settings {
            fixed_depth: 4,
            ..Settings::default()
        };
        let (go, _) = GoParams::parse(&["wtime", "1000", "btime", "1000"]);
        let (p, _) = Plan::new(&go, &fixed, Color::Black, 6);
        assert_eq!(p.depths, vec![1, 4]);
        assert_eq!(p.depth_one_limit, p.budget.map(|b| b.hard));
        assert!(p.depth_one_limit.is_some());
        // Depth 1 first whatever the limits (issue 32 item 4): `stop` or a node limit ends
        // only what follows it; only the clock may cut depth 1 itself.
        for words in [&[][..], &["nodes", "1"], &["movetime", "10"], &["infinite"]] {
            let (go, _) = GoParams::parse(words);
            let (p, _) = Plan::new(&go, &fixed, Color::White, 6);
            assert_eq!(p.depths, vec![1, 4], "{words:?}");
            assert_eq!(p.depth_one_limit, None, "{words:?}");
        }
        let (go, _) = GoParams::parse(&["infinite"]);
        let (p, _) = Plan::new(&go, &settings, Color::Black, 6);
        assert!(p.wait_for_stop && !p.book && p.budget.is_none());
        // The largest values a GUI can send plan without overflowing.
        let (go, problems) = GoParams::parse(&[
            "mate",
            "4294967295",
            "movetime",
            "18446744073709551615",
            "winc",
            "18446744073709551615",
            "wtime",
            "9223372036854775807",
        ]);
        assert!(problems.is_empty(), "{problems:?}");
        let (p, _) = Plan::new(&go, &settings, Color::White, 20);
        assert_eq!(p.depths.len(), 20);
        let (go, _) = GoParams::parse(&["mate", "2"]);
        let (p, notes) = Plan::new(&go, &settings, Color::Black, 20);
        assert_eq!(p.depths, vec![1, 2, 3]);
        assert!(notes.is_empty(), "{notes:?}");
    }

    /// Every limit a setting overrides or the engine caps is said (issue 21 item 8).
    #[test]
    fn overridden_and_capped_limits_are_said() {
        let fixed = Settings {
            fixed_depth: 6,
            ..Settings::default()
        };
        // FixedDepth over go depth and go mate (depth 1 first, as always).
        let (go, _) = GoParams::parse(&["depth", "1"]);
        let (p, notes) = Plan::new(&go, &fixed, Color::White, 6);
        assert_eq!(p.depths, vec![1, 6]);
        assert_eq!(
            notes,
            ["FixedDepth 6 overrides go depth 1 (setoption name FixedDepth value 0 to follow go)"]
        );
        let (go, _) = GoParams::parse(&["mate", "2"]);
        let (_, notes) = Plan::new(&go, &fixed, Color::White, 6);
        assert!(
            notes[0].starts_with("FixedDepth 6 overrides go mate 2"),
            "{notes:?}"
        );
        // go mate beyond the engine's depth.
        let (go, _) = GoParams::parse(&["mate", "200"]);
        let (p, notes) = Plan::new(&go, &Settings::default(), Color::White, 6);
        assert_eq!(p.depths, vec![1, 2, 3, 4, 5, 6]);
        assert_eq!(
            notes,
            ["go mate 200 needs 399 plies; this engine searches at most 6: a mate beyond depth 6 may be missed"]
        );
    }
}
