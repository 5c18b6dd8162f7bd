//! One timed game of Sargon against itself, and its replay: each side's depth set as the
//! game's [`DepthRule`] says (carried from move to move as the original does, or afresh).

use shakmaty::Position;

use sargon_chess::play::game::{rules_ending, RepetitionHistory};
use sargon_chess::play::Opening;
use sargon_core::clock::trs80_seconds;
use sargon_core::engine::{Engine, SearchOptions};
use sargon_core::game::{DepthRule, GameDepth};
use sargon_core::position;

use super::{
    book_byte, estimate_t_states, search_counting, GameError, SearchCounts, TimedGame, TimedMove,
    Timing,
};

/// Play game `game` (from 1) at `level` from `opening`, Sargon on both sides, each side's
/// depth set by `rule`; `max_moves` caps the moves of each side (then the game is
/// adjudicated a draw). Every move is timed as `timing` says (`Timing::Measured`: by the
/// engine's T-states, on the emulator), and its nodes and evaluations are counted.
#[allow(clippy::too_many_arguments)]
pub(crate) fn play_game(
    engine: &mut dyn Engine,
    level: u8,
    game: usize,
    seed: u64,
    opening: &Opening,
    max_moves: Option<u32>,
    timing: &Timing,
    rule: DepthRule,
) -> Result<TimedGame, GameError> {
    let started = std::time::Instant::now();
    let book_random = book_byte(seed, level, game);
    let base = SearchOptions {
        book_random,
        ..SearchOptions::depth(level)
    };
    let mut depths = GameDepth::new(rule);
    let mut pos = opening.position();
    let mut history = RepetitionHistory::default();
    history.push(&pos);
    let mut moves = Vec::new();
    let (result, ending) = loop {
        if let Some((result, ending)) = rules_ending(&pos, history.repetitions()) {
            break (result.pgn().to_string(), ending.describe(result));
        }
        if max_moves.is_some_and(|cap| moves.len() >= 2 * cap as usize) {
            break (
                "1/2-1/2".to_string(),
                format!(
                    "Draw by adjudication: {} moves each",
                    max_moves.unwrap_or(0)
                ),
            );
        }
        let opts = depths.options(&pos, &base, engine.max_depth());
        let (outcome, counts) = search_counting(engine, &pos, &opts)?;
        depths.searched(&pos, engine);
        let chosen = outcome
            .best
            .and_then(|m| m.to_chess(&pos))
            .ok_or_else(|| GameError::NoMove(position::fen_of(&pos)))?;
        let t_states = match timing {
            Timing::Measured => outcome.stats.t_states.ok_or(GameError::NoTStates)?,
            Timing::Estimated(e) => {
                estimate_t_states(counts.evaluations, e.t_states_per_evaluation)
            }
        };
        moves.push(TimedMove {
            uci: chosen.to_uci(shakmaty::CastlingMode::Standard).to_string(),
            book: outcome.from_book,
            t_states,
            trs80_seconds: trs80_seconds(t_states),
            nodes: Some(counts.nodes),
            evaluations: Some(counts.evaluations),
            depth: (!outcome.from_book).then_some(opts.depth),
        });
        pos.play_unchecked(chosen);
        history.push(&pos);
    };
    Ok(TimedGame {
        level,
        game,
        seed,
        book_random,
        opening: opening.name.clone().unwrap_or_default(),
        start_fen: position::fen_of(&opening.position()),
        max_moves,
        moves,
        result,
        ending,
        wall_seconds: started.elapsed().as_secs_f64(),
        unverified_rom: engine
            .rom_id()
            .filter(|r| !r.verified)
            .map(|r| r.name.clone()),
        estimate: match timing {
            Timing::Measured => None,
            Timing::Estimated(e) => Some(e.clone()),
        },
        carried_depth: rule == DepthRule::Carried,
    })
}

/// The counts of every move of a recorded game, by replaying it on `engine` (the port
/// does: its search is the original's, event by event): the game's positions are searched
/// again at its level with its book byte, each side's depth set as the game's were, and
/// each search must choose the recorded move.
pub(crate) fn replay_counts(
    engine: &mut dyn Engine,
    game: &TimedGame,
) -> Result<Vec<SearchCounts>, GameError> {
    let base = SearchOptions {
        book_random: game.book_random,
        ..SearchOptions::depth(game.level)
    };
    let mut depths = GameDepth::new(game.depth_rule());
    let mut pos = position::parse_position(&game.start_fen)?;
    let mut counts = Vec::with_capacity(game.moves.len());
    for (i, m) in game.moves.iter().enumerate() {
        let opts = depths.options(&pos, &base, engine.max_depth());
        let (outcome, c) = search_counting(engine, &pos, &opts)?;
        depths.searched(&pos, engine);
        let chosen = outcome
            .best
            .and_then(|b| b.to_chess(&pos))
            .ok_or_else(|| GameError::NoMove(position::fen_of(&pos)))?;
        let uci = chosen.to_uci(shakmaty::CastlingMode::Standard).to_string();
        if uci != m.uci {
            return Err(GameError::Replay {
                level: game.level,
                game: game.game,
                index: i + 1,
                recorded: m.uci.clone(),
                chosen: uci,
            });
        }
        counts.push(c);
        pos.play_unchecked(chosen);
    }
    Ok(counts)
}
