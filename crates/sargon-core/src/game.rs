//! Whole games as the original plays them: what a search leaves for the program's next move.
//!
//! The original sets PLYMAX once, when the player picks the level (INTERR), and never again
//! in a game. FNDMOV lowers it by two when it finds a mate at the root (the mate is two
//! plies nearer at the next move) and, when the program plays Black, decrements PMATE; so in
//! a real game every search after a mate was found is two plies shallower. And the whole
//! memory carries over: the royalty table as MOVE keeps it, the castled flag of a king.
//!
//! A [`GameDepth`] plays a game so: each side's search continues the side's memory
//! ([`Memory::Continue`]) when the position follows from its last search by its own move
//! and one reply, and the depth and PMATE are the ones its last search left, on any engine
//! that keeps a game's memory and says what its search left
//! ([`Engine::left_for_next_move`]). A position that does not follow (a game jumped, taken
//! back, set up anew) starts the side's game anew at the level. [`DepthRule::Fresh`] sets up
//! every position afresh at the level instead, as analysis wants.
//!
//! `docs/how-sargon-works.md` ("Between two moves of a game") says what else the original's
//! main loop keeps between moves, and why the position set up for each search covers it.

use shakmaty::{CastlingMode, Chess, Color, Move, Position};

pub use crate::engine::Carried;
use crate::engine::{Engine, Memory, SearchOptions};
use crate::vocab::Sq;

/// How the searches of a game are set up.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum DepthRule {
    /// As the original: each side's searches in its own memory kept between its moves; the
    /// level's depth at the first move, then whatever the last search of the same side left
    /// (PLYMAX and PMATE).
    #[default]
    Carried,
    /// Every position set up afresh, at the level's depth (analysis; the project's games
    /// before issue 38).
    Fresh,
}

/// The set-up of every search of one game for one engine, by [`DepthRule`].
///
/// Each colour has its own memory and carried bytes: two programs playing each other are
/// two machines, each with its own PLYMAX, even when one engine here searches for both
/// sides.
///
/// ```
/// use sargon_core::engine::Memory;
/// use sargon_core::game::{DepthRule, GameDepth};
/// use sargon_core::{setup, Book, Engine, Hooks, SearchOptions};
/// use shakmaty::Position;
///
/// // White mates in two (Kf7 Kh7 Rh1#); Sargon sees it at level 3.
/// let mut pos = sargon_core::parse_position("7k/8/5K2/8/8/8/8/6R1 w - - 0 40")?;
/// let mut port = sargon_port::Port::new();
/// let mut game = GameDepth::new(DepthRule::Carried);
/// let level = SearchOptions::depth(3);
/// let opts = game.options(&pos, &level, port.max_depth());
/// assert_eq!((opts.depth, opts.memory), (3, Memory::NewGame));
/// let found = port.search(&setup(&pos, Book::Off)?, &opts, &mut Hooks::new())?;
/// assert!(found.mates());
/// game.searched(&pos, &port);
/// pos.play_unchecked(found.best.unwrap().to_chess(&pos).unwrap()); // Kf7
/// // Black's first search: a new game at the level.
/// assert_eq!(game.options(&pos, &level, port.max_depth()).depth, 3);
/// pos.play_unchecked(pos.legal_moves()[0]); // Kh7
/// // White's next search continues its memory, two plies shallower.
/// let next = game.options(&pos, &level, port.max_depth());
/// assert_eq!(next.depth, 1);
/// assert!(matches!(next.memory, Memory::Continue { .. }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct GameDepth {
    rule: DepthRule,
    /// Each colour's last search: White's, then Black's.
    sides: [Option<LastSearch>; 2],
}

/// A side's last search of a game: the position, and what it left.
#[derive(Clone, Debug)]
struct LastSearch {
    position: Chess,
    left: Option<Carried>,
}

impl GameDepth {
    /// A new game, its searches set up by `rule`.
    ///
    /// ```
    /// use sargon_core::game::{DepthRule, GameDepth};
    /// let game = GameDepth::new(DepthRule::Fresh);
    /// assert_eq!(game.rule(), DepthRule::Fresh);
    /// assert_eq!(game.carried(shakmaty::Color::White), None);
    /// ```
    pub fn new(rule: DepthRule) -> GameDepth {
        GameDepth {
            rule,
            sides: [None, None],
        }
    }

    /// The rule.
    ///
    /// ```
    /// use sargon_core::game::{DepthRule, GameDepth};
    /// assert_eq!(GameDepth::new(DepthRule::default()).rule(), DepthRule::Carried);
    /// ```
    pub fn rule(&self) -> DepthRule {
        self.rule
    }

    /// Start a new game: the level again, PMATE 0 as the program's image has it, each
    /// side's memory a new game's.
    ///
    /// ```
    /// use sargon_core::game::{DepthRule, GameDepth};
    /// use sargon_core::{setup, Book, Engine, Hooks, SearchOptions};
    /// use shakmaty::Color;
    /// let pos = sargon_core::parse_position("7k/8/5K2/8/8/8/8/6R1 w - - 0 40")?;
    /// let mut port = sargon_port::Port::new();
    /// let mut game = GameDepth::new(DepthRule::Carried);
    /// port.search(&setup(&pos, Book::Off)?, &SearchOptions::depth(3), &mut Hooks::new())?;
    /// game.searched(&pos, &port);
    /// assert!(game.carried(Color::White).is_some());
    /// game.new_game();
    /// assert_eq!(game.carried(Color::White), None);
    /// assert_eq!(game.options(&pos, &SearchOptions::depth(3), 6).depth, 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new_game(&mut self) {
        self.sides = [None, None];
    }

    /// What the last search for the side `color` left, if it is carried.
    ///
    /// ```
    /// use sargon_core::game::{Carried, DepthRule, GameDepth};
    /// use sargon_core::{setup, Book, Engine, Hooks, SearchOptions};
    /// use shakmaty::Color;
    /// // White mates in two; the search finding it lowers PLYMAX from 3 to 1.
    /// let pos = sargon_core::parse_position("7k/8/5K2/8/8/8/8/6R1 w - - 0 40")?;
    /// let mut port = sargon_port::Port::new();
    /// port.search(&setup(&pos, Book::Off)?, &SearchOptions::depth(3), &mut Hooks::new())?;
    /// let mut game = GameDepth::new(DepthRule::Carried);
    /// game.searched(&pos, &port);
    /// assert_eq!(game.carried(Color::White).map(|c| c.plymax), Some(1));
    /// assert_eq!(game.carried(Color::Black), None);
    /// // Under the fresh rule nothing is carried.
    /// let mut fresh = GameDepth::new(DepthRule::Fresh);
    /// fresh.searched(&pos, &port);
    /// assert_eq!(fresh.carried(Color::White), None);
    /// # let _: Option<Carried> = None;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn carried(&self, color: Color) -> Option<Carried> {
        self.sides[side_index(color)].as_ref().and_then(|s| s.left)
    }

    /// `base` (the options at the level: its depth is the one the player picked) set up for
    /// the search of `pos`, by the side to move. Under [`DepthRule::Carried`]: when `pos`
    /// follows from the side's last search by one move of its own and one reply, the search
    /// continues the side's memory after that reply ([`Memory::Continue`]) with the depth
    /// and PMATE that search left; otherwise the side starts a new game
    /// ([`Memory::NewGame`]) at the level, PMATE 0. A carried PLYMAX the engine cannot
    /// search (0, or 254 and 255 after a mate that was found at depth 1 or 2 and then not
    /// played) starts a new game too, as a player answering INTERR again would: the
    /// original would search PLYMAX 0 as no depth at all, or never end.
    ///
    /// ```
    /// use sargon_core::engine::Memory;
    /// use sargon_core::game::{DepthRule, GameDepth};
    /// use sargon_core::SearchOptions;
    /// let start = sargon_core::parse_position("startpos")?;
    /// // Nothing carried yet: the level's depth, PMATE 0, a new game.
    /// let game = GameDepth::new(DepthRule::Carried);
    /// let opts = game.options(&start, &SearchOptions::depth(4), 6);
    /// assert_eq!((opts.depth, opts.pmate, opts.memory), (4, 0, Memory::NewGame));
    /// // Analysis: every position afresh.
    /// let fresh = GameDepth::new(DepthRule::Fresh).options(&start, &SearchOptions::depth(4), 6);
    /// assert_eq!(fresh.memory, Memory::Fresh);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn options(&self, pos: &Chess, base: &SearchOptions, max_depth: u8) -> SearchOptions {
        let mut opts = base.clone();
        opts.pmate = 0;
        if self.rule == DepthRule::Fresh {
            opts.memory = Memory::Fresh;
            return opts;
        }
        opts.memory = Memory::NewGame;
        let Some(last) = &self.sides[side_index(pos.turn())] else {
            return opts;
        };
        let Some(reply) = reply_since(&last.position, pos) else {
            return opts;
        };
        match last.left {
            Some(c) if (1..=max_depth).contains(&c.plymax) => {
                opts.depth = c.plymax;
                opts.pmate = c.pmate;
                opts.memory = Memory::Continue { reply };
            }
            // An engine that cannot say what its search left (another process's) keeps
            // its own memory: the position, at the level.
            None => opts.memory = Memory::Continue { reply },
            Some(_) => {}
        }
        opts
    }

    /// After the search of `pos` on `engine` ended: keep the position and what the search
    /// left, when the rule carries it and the engine can say
    /// ([`Engine::left_for_next_move`]).
    ///
    /// ```
    /// use sargon_core::game::{DepthRule, GameDepth};
    /// use sargon_core::{setup, Book, Engine, Hooks, SearchOptions};
    /// use shakmaty::Color;
    /// // No mate in sight: PLYMAX stays at the level.
    /// let pos = sargon_core::parse_position("startpos")?;
    /// let mut port = sargon_port::Port::new();
    /// port.search(&setup(&pos, Book::Off)?, &SearchOptions::depth(2), &mut Hooks::new())?;
    /// let mut game = GameDepth::new(DepthRule::Carried);
    /// game.searched(&pos, &port);
    /// assert_eq!(game.carried(Color::White).map(|c| c.plymax), Some(2));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn searched(&mut self, pos: &Chess, engine: &dyn Engine) {
        if self.rule == DepthRule::Carried {
            self.sides[side_index(pos.turn())] = Some(LastSearch {
                position: pos.clone(),
                left: engine.left_for_next_move(),
            });
        }
    }
}

/// The other side's move by which `now` follows from `before` after one move of the side
/// to move in `before`, as Sargon's squares (a castling by its king's), when there is
/// exactly one such pair of moves.
///
/// ```
/// use sargon_core::game::reply_since;
/// use sargon_core::position::read_position;
/// let before = read_position("startpos")?.position;
/// let now = read_position("startpos moves e2e4 c7c5")?.position;
/// let (from, to) = reply_since(&before, &now).unwrap();
/// assert_eq!((from.to_string(), to.to_string()), ("c7".into(), "c5".into()));
/// let later = read_position("startpos moves e2e4 c7c5 g1f3 d7d6")?.position;
/// assert_eq!(reply_since(&before, &later), None); // two moves each
/// # Ok::<(), sargon_core::position::PositionError>(())
/// ```
pub fn reply_since(before: &Chess, now: &Chess) -> Option<(Sq, Sq)> {
    if before.turn() != now.turn() {
        return None;
    }
    let mut found = None;
    for own in before.legal_moves() {
        let mut after = before.clone();
        after.play_unchecked(own);
        for reply in after.legal_moves() {
            let mut then = after.clone();
            then.play_unchecked(reply);
            if then.board() == now.board()
                && then.castles().castling_rights() == now.castles().castling_rights()
            {
                if found.is_some() {
                    return None;
                }
                found = Some(sargon_squares(&reply));
            }
        }
    }
    found
}

/// A move's from and to squares as Sargon names them: a castling is its king's move.
fn sargon_squares(m: &Move) -> (Sq, Sq) {
    match m.to_uci(CastlingMode::Standard) {
        shakmaty::uci::UciMove::Normal { from, to, .. } => {
            (Sq::from_shakmaty(from), Sq::from_shakmaty(to))
        }
        // A legal move of a position is never a drop or a null move.
        _ => (Sq::from_shakmaty(m.to()), Sq::from_shakmaty(m.to())),
    }
}

fn side_index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::read_position;

    fn last(position: &Chess, plymax: u8, pmate: u8) -> Option<LastSearch> {
        Some(LastSearch {
            position: position.clone(),
            left: Some(Carried { plymax, pmate }),
        })
    }

    #[test]
    fn carried_bytes_set_the_next_search() {
        let base = SearchOptions::depth(4);
        let before = read_position("startpos moves e2e4").unwrap().position;
        let now = read_position("startpos moves e2e4 e7e5 g1f3")
            .unwrap()
            .position;
        let mut game = GameDepth::new(DepthRule::Carried);
        let first = game.options(&now, &base, 6);
        assert_eq!((first.depth, first.pmate), (4, 0));
        game.sides[1] = last(&before, 2, 7);
        let next = game.options(&now, &base, 6);
        assert_eq!((next.depth, next.pmate), (2, 7));
        assert_eq!(
            next.memory,
            Memory::Continue {
                reply: (Sq(27), Sq(46))
            },
            "White's Ng1-f3 is the reply"
        );
        let white = read_position("startpos moves e2e4 e7e5").unwrap().position;
        assert_eq!(
            game.options(&white, &base, 6).depth,
            4,
            "White keeps its own"
        );
        for out_of_range in [0, 254, 7] {
            game.sides[1] = last(&before, out_of_range, 7);
            let opts = game.options(&now, &base, 6);
            assert_eq!(
                (opts.depth, opts.memory),
                (4, Memory::NewGame),
                "{out_of_range}"
            );
        }
        // A position that does not follow by one move each: a new game at the level.
        game.sides[1] = last(&before, 2, 7);
        let jumped = read_position("startpos moves d2d4 d7d5 c2c4")
            .unwrap()
            .position;
        let opts = game.options(&jumped, &base, 6);
        assert_eq!(
            (opts.depth, opts.pmate, opts.memory),
            (4, 0, Memory::NewGame)
        );
        game.new_game();
        assert_eq!(game.carried(Color::Black), None);
    }

    #[test]
    fn a_castling_reply_is_the_king_s_move() {
        let before = read_position("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1")
            .unwrap()
            .position;
        let now = read_position("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1 moves a8b8 e1g1")
            .unwrap()
            .position;
        let (from, to) = reply_since(&before, &now).unwrap();
        assert_eq!(
            (from.to_string(), to.to_string()),
            ("e1".into(), "g1".into())
        );
    }
}
