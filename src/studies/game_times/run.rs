//! The run of `sargon history games`: which games a run still has to play, and in what
//! order; the checks that a resumed run continues the games it was given; the calibration
//! of `--estimate-levels`; the plot. The command (`src/cli/history.rs`) names, reads, locks
//! and writes the files and prints the progress; what it asks for is here.

use sargon_chess::play::Opening;
use sargon_core::engine::Engine;
use sargon_core::game::DepthRule;

use super::{
    calibrate, play_game, replay_counts, Calibration, GameError, GameLevelSummary, TimeEstimate,
    TimedGame, Timing,
};
use crate::studies::history::{self, PlotLevel, PlotText};

/// What a run plays: every level of `levels` (first and last), `rounds` games each, game
/// N from opening N (cycling), the book's random byte from `seed`, a draw adjudicated
/// after `max_moves` moves per side.
pub(crate) struct GamesPlan<'a> {
    /// The first and last level.
    pub levels: (u8, u8),
    /// Games per level.
    pub rounds: usize,
    /// The seed of the book's random choice.
    pub seed: u64,
    /// Moves per side before a draw is adjudicated.
    pub max_moves: u32,
    /// The openings, game N from opening N (cycling).
    pub openings: &'a [Opening],
    /// How each side's depth is set from move to move.
    pub depth_rule: DepthRule,
}

/// Why the games of a file cannot be continued by a run.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ResumeError {
    /// They were played with another seed or move limit.
    #[error(
        "its games were played with --seed {seed} --max-moves {max_moves}, not --seed \
         {wanted_seed} --max-moves {wanted_max_moves}"
    )]
    Settings {
        /// The games' seed.
        seed: u64,
        /// The games' move limit (`none` when they had none).
        max_moves: String,
        /// The run's seed.
        wanted_seed: u64,
        /// The run's move limit.
        wanted_max_moves: u32,
    },
    /// A game was played with the other depth rule.
    #[error("level {level} game {game} was played with {played}, not {wanted} (--fresh-depth)")]
    DepthRule {
        /// The game's level.
        level: u8,
        /// The game's number.
        game: usize,
        /// How its depths were set.
        played: &'static str,
        /// How this run sets them.
        wanted: &'static str,
    },
    /// A game was played from another opening than these openings give it.
    #[error(
        "level {level} game {game} was played from `{opening}`, but these openings give \
         `{expected}` for it"
    )]
    Opening {
        /// The game's level.
        level: u8,
        /// The game's number.
        game: usize,
        /// The opening it was played from.
        opening: String,
        /// The opening these openings give it.
        expected: String,
    },
}

/// What a run is doing, for its progress lines.
pub(crate) enum Played<'a> {
    /// A game is starting: its level and number.
    Starting {
        /// The level.
        level: u8,
        /// The game's number, from 1.
        round: usize,
    },
    /// A game has ended.
    Ended(&'a TimedGame),
}

/// Why a run stopped.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PlayError<E: std::error::Error + 'static> {
    /// A game could not be played.
    #[error("level {level}, game {round}")]
    Game {
        /// Its level.
        level: u8,
        /// Its number.
        round: usize,
        /// Why.
        #[source]
        source: GameError,
    },
    /// The caller refused a game (it could not be recorded).
    #[error(transparent)]
    Recording(E),
}

/// Opening `game - 1` (game `game` counts from 1), cycling, with its index.
fn opening_of(openings: &[Opening], game: usize) -> (usize, &Opening) {
    let index = (game - 1) % openings.len();
    (index, &openings[index])
}

/// The name a game from opening `game - 1` (cycling) records: the opening's, else
/// `opening N`.
fn opening_name(openings: &[Opening], game: usize) -> String {
    let (index, opening) = opening_of(openings, game);
    opening
        .name
        .clone()
        .unwrap_or_else(|| format!("opening {}", index + 1))
}

/// Whether `games` were played with `seed` and `max_moves`, as a run continuing them is.
pub(crate) fn check_settings(
    games: &[TimedGame],
    seed: u64,
    max_moves: u32,
) -> Result<(), ResumeError> {
    match games
        .iter()
        .find(|g| g.seed != seed || g.max_moves != Some(max_moves))
    {
        Some(g) => Err(ResumeError::Settings {
            seed: g.seed,
            max_moves: g.max_moves.map_or("none".to_string(), |m| m.to_string()),
            wanted_seed: seed,
            wanted_max_moves: max_moves,
        }),
        None => Ok(()),
    }
}

impl GamesPlan<'_> {
    /// Whether every game of `games` was played from the opening this plan gives it, its
    /// depths set by this plan's rule.
    pub(crate) fn check_openings(&self, games: &[TimedGame]) -> Result<(), ResumeError> {
        let named = |rule| match rule {
            DepthRule::Carried => "the depth carried from move to move",
            DepthRule::Fresh => "a fresh depth every move",
        };
        for g in games {
            if g.depth_rule() != self.depth_rule {
                return Err(ResumeError::DepthRule {
                    level: g.level,
                    game: g.game,
                    played: named(g.depth_rule()),
                    wanted: named(self.depth_rule),
                });
            }
            let expected = opening_name(self.openings, g.game);
            if g.opening != expected {
                return Err(ResumeError::Opening {
                    level: g.level,
                    game: g.game,
                    opening: g.opening.clone(),
                    expected,
                });
            }
        }
        Ok(())
    }

    /// Play, on `engine` and timed as `timing` says, the games of the plan that `games`
    /// lacks: round by round, every level within a round, so that every level has games
    /// early. Each game is handed to `on` as it starts and ends (where the caller records
    /// it), then added to `games`.
    pub(crate) fn play_missing<E: std::error::Error + 'static>(
        &self,
        engine: &mut dyn Engine,
        timing: &Timing,
        games: &mut Vec<TimedGame>,
        mut on: impl FnMut(Played<'_>) -> Result<(), E>,
    ) -> Result<(), PlayError<E>> {
        let (first, last) = self.levels;
        for round in 1..=self.rounds {
            for level in first..=last {
                if games.iter().any(|g| g.level == level && g.game == round) {
                    continue;
                }
                let mut opening = opening_of(self.openings, round).1.clone();
                opening.name = Some(opening_name(self.openings, round));
                on(Played::Starting { level, round }).map_err(PlayError::Recording)?;
                let game = play_game(
                    engine,
                    level,
                    round,
                    self.seed,
                    &opening,
                    Some(self.max_moves),
                    timing,
                    self.depth_rule,
                )
                .map_err(|source| PlayError::Game {
                    level,
                    round,
                    source,
                })?;
                on(Played::Ended(&game)).map_err(PlayError::Recording)?;
                games.push(game);
            }
        }
        Ok(())
    }
}

/// The calibration of `--estimate-levels`: every measured level's cost of an evaluation,
/// and the timing taken from the highest.
#[derive(Debug)]
pub(crate) struct CalibrationRun {
    /// Each measured level's calibration, lowest level first.
    pub levels: Vec<Calibration>,
    /// The timing of the estimate: the highest level's T-states per evaluation.
    pub timing: Timing,
}

/// Why a calibration file cannot calibrate.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CalibrationError {
    /// It holds no game measured on the emulator.
    #[error("no game measured on the emulator")]
    NoMeasuredGame,
    /// A game's moves without counts do not replay on the port.
    #[error("level {level} game {game}")]
    Replay {
        /// Its level.
        level: u8,
        /// Its number.
        game: usize,
        /// Why.
        #[source]
        source: GameError,
    },
    /// The highest level has no searched move.
    #[error("no searched move at level {0}")]
    NoSearchedMove(u8),
}

/// Calibrate from `games` (a file of measured games): the estimated ones are left out, the
/// moves recorded without counts are replayed on `port` to count them (`replaying` is told
/// of each such game before, with its level and number, and after), and the T-states per
/// evaluation of the highest level give the timing.
pub(crate) fn calibrate_from(
    mut games: Vec<TimedGame>,
    port: &mut dyn Engine,
    mut replaying: impl FnMut(&TimedGame, bool),
) -> Result<CalibrationRun, CalibrationError> {
    games.retain(|g| g.estimate.is_none());
    let top = games
        .iter()
        .map(|g| g.level)
        .max()
        .ok_or(CalibrationError::NoMeasuredGame)?;
    for g in games.iter_mut() {
        if g.moves
            .iter()
            .all(|m| m.nodes.is_some() && m.evaluations.is_some())
        {
            continue;
        }
        replaying(g, false);
        let counts = replay_counts(port, g).map_err(|source| CalibrationError::Replay {
            level: g.level,
            game: g.game,
            source,
        })?;
        for (m, c) in g.moves.iter_mut().zip(counts) {
            m.nodes = Some(c.nodes);
            m.evaluations = Some(c.evaluations);
        }
        replaying(g, true);
    }
    let mut levels: Vec<u8> = games.iter().map(|g| g.level).collect();
    levels.sort_unstable();
    levels.dedup();
    let levels: Vec<Calibration> = levels
        .into_iter()
        .filter_map(|level| calibrate(&games, level))
        .collect();
    let c = levels
        .iter()
        .find(|c| c.level == top)
        .ok_or(CalibrationError::NoSearchedMove(top))?;
    let timing = Timing::Estimated(TimeEstimate {
        t_states_per_evaluation: c.t_states_per_evaluation(),
        calibration_level: top,
        calibration_moves: c.moves,
    });
    Ok(CalibrationRun { levels, timing })
}

/// The SVG plot of the games' time per move per level beside the manual's.
pub(crate) fn svg_plot(summary: &[GameLevelSummary]) -> String {
    let plotted = super::plotted(summary);
    let moves = |estimated: bool| -> usize {
        plotted
            .iter()
            .filter(|l| l.estimated == estimated)
            .map(|l| l.moves)
            .sum()
    };
    let mut subtitle = format!(
        "whole games, Sargon against itself, book on: {} moves timed by T-states / 1.774 MHz",
        moves(false)
    );
    if moves(true) > 0 {
        subtitle += &format!(", {} estimated", moves(true));
    }
    let text = PlotText {
        subtitle,
        mean: "games: mean time per move (book included)".to_string(),
        range: "games: median to dearest move".to_string(),
        values: "games".to_string(),
    };
    let levels: Vec<PlotLevel> = plotted
        .iter()
        .map(|l| PlotLevel {
            level: l.level,
            mean: l.mean_seconds,
            low: l.median_seconds,
            high: l.max_seconds,
            estimate: l.estimated,
        })
        .collect();
    history::svg_plot_levels(&text, &levels)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::studies::game_times::default_openings;
    use sargon_port::Port;

    /// A timing the port can give (it counts no T-states): an estimate from evaluations.
    fn estimated() -> Timing {
        Timing::Estimated(TimeEstimate {
            t_states_per_evaluation: 600_000.0,
            calibration_level: 2,
            calibration_moves: 10,
        })
    }

    fn plan(openings: &[Opening]) -> GamesPlan<'_> {
        GamesPlan {
            levels: (1, 2),
            rounds: 2,
            seed: 7,
            max_moves: 2,
            openings,
            depth_rule: DepthRule::Carried,
        }
    }

    /// Round by round, each level within a round; the games a file already has are not
    /// played again, and each game is announced before it is played.
    #[test]
    fn a_run_plays_the_missing_games_round_by_round() {
        let openings = default_openings();
        let mut games = Vec::new();
        let first = GamesPlan {
            levels: (1, 1),
            rounds: 1,
            ..plan(&openings)
        };
        first
            .play_missing(&mut Port::new(), &estimated(), &mut games, |_| {
                Ok::<(), std::io::Error>(())
            })
            .unwrap();
        assert_eq!(games.len(), 1);
        let mut seen = Vec::new();
        plan(&openings)
            .play_missing(&mut Port::new(), &estimated(), &mut games, |p| {
                seen.push(match p {
                    Played::Starting { level, round } => format!("start {level}/{round}"),
                    Played::Ended(g) => format!("end {}/{} {}", g.level, g.game, g.opening),
                });
                Ok::<(), std::io::Error>(())
            })
            .unwrap();
        assert_eq!(
            seen,
            [
                "start 2/1",
                "end 2/1 initial position",
                "start 1/2",
                "end 1/2 c2c4",
                "start 2/2",
                "end 2/2 c2c4",
            ]
        );
        assert_eq!(games.len(), 4);
        assert!(games.iter().all(|g| g.seed == 7 && g.max_moves == Some(2)));
        // The games resume with these settings and openings, not with others.
        check_settings(&games, 7, 2).unwrap();
        plan(&openings).check_openings(&games).unwrap();
        let e = check_settings(&games, 8, 2).unwrap_err().to_string();
        assert_eq!(
            e,
            "its games were played with --seed 7 --max-moves 2, not --seed 8 --max-moves 2"
        );
        let other: Vec<Opening> = openings.iter().rev().cloned().collect();
        let e = plan(&other).check_openings(&games).unwrap_err().to_string();
        assert!(
            e.starts_with("level 1 game 1 was played from `initial position`, but these openings give `e2e4 e7e5 g1f3 b8c6 f1c4`"),
            "{e}"
        );
    }

    /// A game that cannot be played names its level and number; a game the caller cannot
    /// record stops the run with the caller's error.
    #[test]
    fn a_failed_game_or_record_stops_the_run() {
        let openings = default_openings();
        let mut games = Vec::new();
        // The port counts no T-states: a measured game cannot be timed on it.
        let e = plan(&openings)
            .play_missing(&mut Port::new(), &Timing::Measured, &mut games, |_| {
                Ok::<(), std::io::Error>(())
            })
            .unwrap_err();
        assert_eq!(e.to_string(), "level 1, game 1");
        assert!(matches!(
            e,
            PlayError::Game {
                source: GameError::NoTStates,
                ..
            }
        ));
        let e = plan(&openings)
            .play_missing(&mut Port::new(), &estimated(), &mut games, |p| match p {
                Played::Ended(_) => Err(std::io::Error::other("disk full")),
                Played::Starting { .. } => Ok(()),
            })
            .unwrap_err();
        assert_eq!(e.to_string(), "disk full");
        assert!(games.is_empty(), "a game not recorded is not counted");
    }

    /// A run continues only games whose depths were set by its own rule; a line without
    /// the field (every game recorded before issue 38) had a fresh depth every move.
    #[test]
    fn a_run_resumes_only_games_of_its_depth_rule() {
        let openings = default_openings();
        let mut games = Vec::new();
        let one = GamesPlan {
            levels: (1, 1),
            rounds: 1,
            ..plan(&openings)
        };
        one.play_missing(&mut Port::new(), &estimated(), &mut games, |_| {
            Ok::<(), std::io::Error>(())
        })
        .unwrap();
        assert!(games[0].carried_depth);
        one.check_openings(&games).unwrap();
        let fresh = GamesPlan {
            depth_rule: DepthRule::Fresh,
            ..one
        };
        let e = fresh.check_openings(&games).unwrap_err().to_string();
        assert_eq!(
            e,
            "level 1 game 1 was played with the depth carried from move to move, not a fresh \
             depth every move (--fresh-depth)"
        );
        let line = serde_json::to_string(&games[0]).unwrap();
        let old = line.replace(",\"carried_depth\":true", "");
        assert_ne!(old, line);
        let read = crate::studies::game_times::read_games(&old).unwrap();
        assert_eq!(read[0].depth_rule(), DepthRule::Fresh);
        fresh.check_openings(&read).unwrap();
    }

    #[test]
    fn a_calibration_needs_measured_games() {
        let e = calibrate_from(Vec::new(), &mut Port::new(), |_, _| {}).unwrap_err();
        assert!(matches!(e, CalibrationError::NoMeasuredGame), "{e}");
        // Estimated games do not calibrate.
        let openings = default_openings();
        let mut games = Vec::new();
        plan(&openings)
            .play_missing(&mut Port::new(), &estimated(), &mut games, |_| {
                Ok::<(), std::io::Error>(())
            })
            .unwrap();
        let e = calibrate_from(games, &mut Port::new(), |_, _| {}).unwrap_err();
        assert_eq!(e.to_string(), "no game measured on the emulator");
    }
}
