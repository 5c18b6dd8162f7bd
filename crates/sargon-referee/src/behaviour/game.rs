//! Whole games in the known behaviour: what a search leaves for the program's next move.
//!
//! Every search of the replay starts afresh, so a change to what FNDMOV leaves behind
//! (PLYMAX lowered by two and PMATE decremented after a mate found at the root) shows in no
//! search. In a real game it does: the original sets PLYMAX once, at the level, so the next
//! search of the side that found the mate is two plies shallower ([`sargon_core::game`]).
//! A game case plays both sides from a position, each side's depth carried from its last
//! search as the original does ([`GameDepth`], [`Engine::left_for_next_move`]), and its
//! replay is every search's trace in order, each followed by what that search left
//! ([`Step::Left`]): PMATE is read by no search, only by the original's "mate in N".

use std::fmt;

use sha2::{Digest as _, Sha256};
use shakmaty::Position;

use sargon_core::engine::{Carried, Engine, SearchOptions};
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
}

/// The games the known behaviour holds: a mate in two that Sargon finds at level 3 a move
/// before it plays it, once for each colour (FNDMOV decrements PMATE only when the program
/// plays Black). The mating side's searches are of depths 3, then 1. Cheap: a king and a
/// rook against a king.
pub const GAMES: [Game; 2] = [
    Game {
        label: "game-rook-mate-white",
        position: "7k/8/5K2/8/8/8/8/6R1 w - - 0 40",
        level: 3,
    },
    Game {
        label: "game-rook-mate-black",
        position: "6r1/8/8/8/8/5k2/8/7K b - - 0 40",
        level: 3,
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

/// Play a game case on `engine`: from `position`, both sides at `level`, each side's depth
/// carried ([`DepthRule::Carried`]), every search's events and then what it left handed to
/// `sink`. The game ends when the side to move has no legal move, when a search chooses no
/// move the position has (an image that no longer plays chess), or after [`MAX_PLIES`].
/// An engine that cannot say what a search left ([`Engine::left_for_next_move`]) plays
/// each search at the level, and its replay has no [`Step::Left`].
pub(super) fn play(
    engine: &mut dyn Engine,
    position: &str,
    level: u8,
    max_instructions: u64,
    mut sink: impl FnMut(Step),
) -> Result<(), ReplayError> {
    let mut pos = position::parse_position(position)?;
    let base = SearchOptions {
        max_instructions: Some(max_instructions),
        ..SearchOptions::depth(level)
    };
    let mut depths = GameDepth::new(DepthRule::Carried);
    for _ in 0..MAX_PLIES {
        if pos.legal_moves().is_empty() {
            break;
        }
        let color = pos.turn();
        let opts = depths.options(color, &base, engine.max_depth());
        let setup = position::setup(&pos, Book::Off)?;
        let mut best = None;
        record::search_streaming(engine, &setup, &opts, Detail::Full, &mut [], |e| {
            if let Event::Result { best: b, .. } = &e {
                best = *b;
            }
            sink(Step::Event(e));
        })?;
        depths.searched(color, engine);
        if let Some(left) = engine.left_for_next_move() {
            sink(Step::Left(left));
        }
        let Some(chosen) = best.and_then(|m| m.to_chess(&pos)) else {
            break;
        };
        if !pos.is_legal(chosen) {
            break;
        }
        pos.play_unchecked(chosen);
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
        for game in GAMES {
            let mut steps = Vec::new();
            let mut port = sargon_port::Port::new();
            play(&mut port, game.position, game.level, u64::MAX, |s| {
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
