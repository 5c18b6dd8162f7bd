//! Whole games in the known behaviour: what a search leaves for the program's next move.
//!
//! Every search of the replay starts afresh, so a change to what FNDMOV leaves behind
//! (PLYMAX lowered by two and PMATE decremented after a mate found at the root, the score
//! table's bytes it does not clear) shows in no search. In a real game it does: the
//! original's main loop plays in one memory that nothing resets between moves, so the next
//! search of the side that found the mate is two plies shallower ([`sargon_core::game`]),
//! and a search starts where the last one left the score table.
//!
//! A game case plays both sides from a position as two copies of the original would, one
//! machine per colour, each keeping its memory between its moves ([`Memory`]): its first
//! search is a new game's, every later one continues after the other side's move, entered
//! as the player's. Its replay is every search's trace in order, each followed by what that
//! search left ([`Step::Left`]): PMATE is read by no search, only by the original's "mate
//! in N". A case may go on into a next game in the same memory, as the original's next game
//! without reloading ([`Game::next_game`]).

use std::fmt;

use sha2::{Digest as _, Sha256};
use shakmaty::Position;

use sargon_core::engine::{Carried, Engine, Memory, SearchOptions};
use sargon_core::game::{DepthRule, GameDepth};
use sargon_core::position::{self, Book};
use sargon_core::record;
use sargon_core::trace::{Detail, Event};

use super::ReplayError;

/// A whole game of the known behaviour: Sargon plays both sides from `position` at
/// `level`, until the side to move has no legal move or [`MAX_PLIES`] are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    /// The label in `roms/behaviour.tsv`.
    pub label: &'static str,
    /// The FEN the game starts from.
    pub position: &'static str,
    /// The level: the depth of each side's first search.
    pub level: u8,
    /// Whether the side that moved last then plays the first move of a next game from the
    /// initial position, in the same memory (its book move): the original's next game
    /// without reloading, which starts with what the last game left in the score table.
    pub next_game: bool,
}

/// The games the known behaviour holds, all cheap:
///
/// * a mate in two that Sargon finds at level 3 a move before it plays it, once for each
///   colour (FNDMOV decrements PMATE only when the program plays Black): the mating side's
///   searches are of depths 3, then 1. White's machine then opens a next game, whose book
///   move finds the mate's root score still in its score table (BOOK clears it);
/// * kings and blocked pawns, three searches a side at depth 3: each search after a side's
///   first finds the last one's scores in the table (FNDMOV clears PLYMAX + 2 bytes).
pub const GAMES: [Game; 3] = [
    Game {
        label: "game-rook-mate-white",
        position: "7k/8/5K2/8/8/8/8/6R1 w - - 0 40",
        level: 3,
        next_game: true,
    },
    Game {
        label: "game-rook-mate-black",
        position: "6r1/8/8/8/8/5k2/8/7K b - - 0 40",
        level: 3,
        next_game: false,
    },
    Game {
        label: "game-kings-and-pawns",
        position: "8/5k2/8/3p4/3P4/8/5K2/8 w - - 0 40",
        level: 3,
        next_game: false,
    },
];

/// The most plies a game case plays: a bound for an image that no longer mates.
pub const MAX_PLIES: usize = 6;

/// One line of a case's replay: an event of one of its searches, or, in a game, what a
/// search left for the program's next move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// An event of a search's trace.
    Event(Event),
    /// After a search of a game: PLYMAX and PMATE as it left them.
    Left(Carried),
}

impl fmt::Display for Step {
    /// An event as its trace line; what a search left as `left plymax 01 pmate ff`.
    ///
    /// ```
    /// use sargon_core::engine::Carried;
    /// use sargon_core::Event;
    /// use sargon_referee::behaviour::Step;
    /// let left = Step::Left(Carried { plymax: 1, pmate: 0xff });
    /// assert_eq!(left.to_string(), "left plymax 01 pmate ff");
    /// let ascend = Event::Ascend { ply: 2 };
    /// assert_eq!(Step::Event(ascend.clone()).to_string(), ascend.to_string());
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Event(e) => write!(f, "{e}"),
            Step::Left(c) => write!(f, "left plymax {:02x} pmate {:02x}", c.plymax, c.pmate),
        }
    }
}

/// The SHA-256 of a replay's text form (each step's line and `\n`) and its number of
/// events. A replay of events only has the digest of its trace
/// ([`sargon_core::digest::DigestBuilder`]'s), as the golden files do.
///
/// ```
/// use sargon_core::digest::DigestBuilder;
/// use sargon_core::engine::Carried;
/// use sargon_core::Event;
/// use sargon_referee::behaviour::{Step, StepDigest};
///
/// let events = [Event::Ascend { ply: 2 }, Event::Ascend { ply: 1 }];
/// let (mut steps, mut trace) = (StepDigest::default(), DigestBuilder::new());
/// for e in &events {
///     steps.add(&Step::Event(e.clone()));
///     trace.add(e);
/// }
/// assert_eq!(steps.events(), 2);
/// let sha256 = steps.clone().finish();
/// assert_eq!(sha256, trace.finish().sha256);
/// // What a search left is hashed too, and is no event.
/// steps.add(&Step::Left(Carried { plymax: 3, pmate: 0 }));
/// assert_eq!(steps.events(), 2);
/// assert_ne!(steps.finish(), sha256);
/// ```
#[derive(Clone, Default)]
pub struct StepDigest {
    hasher: Sha256,
    events: u64,
    line: String,
}

impl StepDigest {
    /// Count and hash one step.
    ///
    /// ```
    /// use sargon_core::game::Carried;
    /// use sargon_core::trace::Event;
    /// use sargon_referee::behaviour::{Step, StepDigest};
    /// let (mut a, mut b) = (StepDigest::default(), StepDigest::default());
    /// a.add(&Step::Event(Event::Ascend { ply: 1 }));
    /// b.add(&Step::Left(Carried { plymax: 1, pmate: 0 }));
    /// assert_eq!((a.events(), b.events()), (1, 0));
    /// assert_ne!(a.finish(), b.finish());
    /// ```
    pub fn add(&mut self, step: &Step) {
        use std::fmt::Write as _;
        if matches!(step, Step::Event(_)) {
            self.events += 1;
        }
        self.line.clear();
        let _ = writeln!(self.line, "{step}");
        self.hasher.update(self.line.as_bytes());
    }

    /// The events among the steps added.
    ///
    /// ```
    /// use sargon_core::trace::Event;
    /// use sargon_referee::behaviour::{Step, StepDigest};
    /// let mut digest = StepDigest::default();
    /// assert_eq!(digest.events(), 0);
    /// for ply in [2, 1] {
    ///     digest.add(&Step::Event(Event::Ascend { ply }));
    /// }
    /// assert_eq!(digest.events(), 2);
    /// ```
    pub fn events(&self) -> u64 {
        self.events
    }

    /// The SHA-256 of the steps added, in hex.
    ///
    /// ```
    /// use sargon_referee::behaviour::StepDigest;
    /// // No step: the SHA-256 of nothing.
    /// assert_eq!(
    ///     StepDigest::default().finish(),
    ///     "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    /// );
    /// ```
    pub fn finish(self) -> String {
        hex::encode(self.hasher.finalize())
    }
}

/// Play a game case on `engine`: from `position`, both sides at `level`, each side in its
/// own memory kept between its moves ([`Memory`]) and its depth carried
/// ([`DepthRule::Carried`]), every search's events and then what it left handed to `sink`.
/// The game ends when the side to move has no legal move, when a search chooses no move the
/// position has (an image that no longer plays chess), or after [`MAX_PLIES`]. With
/// `next_game`, the side that moved last then plays the first move of a next game from the
/// initial position in its memory, from its book. An engine that cannot say what a search
/// left ([`Engine::left_for_next_move`]) plays each search at the level, and its replay has
/// no [`Step::Left`].
pub(super) fn play(
    engine: &mut dyn Engine,
    position: &str,
    level: u8,
    next_game: bool,
    max_instructions: u64,
    mut sink: impl FnMut(Step),
) -> Result<(), ReplayError> {
    let mut pos = position::parse_position(position)?;
    let base = SearchOptions {
        max_instructions: Some(max_instructions),
        ..SearchOptions::depth(level)
    };
    let mut depths = GameDepth::new(DepthRule::Carried);
    let mut last_mover = None;
    let search = |engine: &mut dyn Engine,
                  pos: &shakmaty::Chess,
                  book: Book,
                  opts: &SearchOptions,
                  sink: &mut dyn FnMut(Step)|
     -> Result<Option<shakmaty::Move>, ReplayError> {
        let setup = position::setup(pos, book)?;
        let mut best = None;
        record::search_streaming(engine, &setup, opts, Detail::Full, &mut [], |e| {
            if let Event::Result { best: b, .. } = &e {
                best = *b;
            }
            sink(Step::Event(e));
        })?;
        if let Some(left) = engine.left_for_next_move() {
            sink(Step::Left(left));
        }
        Ok(best
            .and_then(|b| b.to_chess(pos))
            .filter(|m| pos.is_legal(*m)))
    };
    for _ in 0..MAX_PLIES {
        if pos.legal_moves().is_empty() {
            break;
        }
        // Each side's first search a new game's, each later one its memory continued after
        // the other side's move ([`GameDepth::options`]).
        let opts = depths.options(&pos, &base, engine.max_depth());
        let chosen = search(engine, &pos, Book::Off, &opts, &mut sink)?;
        depths.searched(&pos, engine);
        let Some(chosen) = chosen else {
            break;
        };
        last_mover = Some(pos.turn());
        pos.play_unchecked(chosen);
    }
    if let (true, Some(color)) = (next_game, last_mover) {
        // The next game: the initial position, White's first move (1.e4, as the player's)
        // before Black's; the book answers.
        let mut start = shakmaty::Chess::default();
        if color == shakmaty::Color::Black {
            let e4 = shakmaty::uci::UciMove::from_ascii(b"e2e4")
                .expect("a UCI move")
                .to_move(&start)
                .expect("1.e4 is legal");
            start.play_unchecked(e4);
        }
        let opts = SearchOptions {
            memory: Memory::NextGame,
            ..base.clone()
        };
        search(engine, &start, Book::Allowed, &opts, &mut sink)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On the port (which searches as the original does), each game is the mate in two,
    /// the mating side's second search two plies shallower, and PMATE decremented after a
    /// mate found by Black only.
    #[test]
    fn the_games_mate_with_the_depth_carried() {
        for game in GAMES.iter().filter(|g| g.label.contains("-mate-")) {
            let mut steps = Vec::new();
            let mut port = sargon_port::Port::new();
            play(&mut port, game.position, game.level, false, u64::MAX, |s| {
                steps.push(s)
            })
            .unwrap();
            let left: Vec<Carried> = steps
                .iter()
                .filter_map(|s| match s {
                    Step::Left(c) => Some(*c),
                    Step::Event(_) => None,
                })
                .collect();
            let results: Vec<String> = steps
                .iter()
                .filter_map(|s| match s {
                    Step::Event(e @ Event::Result { .. }) => Some(e.to_string()),
                    _ => None,
                })
                .collect();
            assert_eq!(results.len(), 3, "{}: {results:?}", game.label);
            assert!(results[0].ends_with(": ff"), "{}: {results:?}", game.label);
            assert!(results[2].ends_with(": ff"), "{}: {results:?}", game.label);
            let plymax: Vec<u8> = left.iter().map(|c| c.plymax).collect();
            // The mating side: 3 lowered to 1 by the mate seen, then to 255 by the mate
            // played; the other side keeps its 3.
            assert_eq!(plymax, [1, 3, 255], "{}", game.label);
            // Both sides' first searches write the same move number into PMATE (they see
            // the same mate); the mating side's is one less when it plays Black.
            let black_mates = game.position.contains(" b ");
            assert_eq!(
                left[0].pmate + u8::from(black_mates),
                left[1].pmate,
                "{}: {left:?}",
                game.label
            );
        }
    }
}
