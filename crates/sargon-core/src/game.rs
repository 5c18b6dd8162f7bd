//! Whole games as the original plays them: what a search leaves for the program's next move.
//!
//! The original sets PLYMAX once, when the player picks the level (INTERR), and never again
//! in a game. FNDMOV lowers it by two when it finds a mate at the root (the mate is two
//! plies nearer at the next move) and, when the program plays Black, decrements PMATE; so in
//! a real game every search after a mate was found is two plies shallower. A [`GameDepth`]
//! carries those bytes from one search of a game to the next, on any engine that says what
//! its search left ([`Engine::left_for_next_move`]); [`DepthRule::Fresh`] sets the level's
//! depth afresh for every move instead, as analysis wants.
//!
//! `docs/how-sargon-works.md` ("Between two moves of a game") says what else the original's
//! main loop keeps between moves, and why the position set up for each search covers it.

use shakmaty::Color;

pub use crate::engine::Carried;
use crate::engine::{Engine, SearchOptions};

/// How the depth of each move of a game is set.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum DepthRule {
    /// As the original: the level's depth at the first move, then whatever the last search
    /// of the same side left (PLYMAX and PMATE).
    #[default]
    Carried,
    /// The level's depth afresh for every move (analysis; the project's games before
    /// issue 38).
    Fresh,
}

/// The depth of every search of one game for one engine, by [`DepthRule`].
///
/// Each colour has its own carried bytes: two programs playing each other are two machines,
/// each with its own PLYMAX, even when one engine here searches for both sides.
///
/// ```
/// use sargon_core::game::{DepthRule, GameDepth};
/// use shakmaty::Color;
/// use sargon_core::{setup, Book, Engine, Hooks, SearchOptions};
///
/// // White mates in two (Kf7 Kh7 Rh1#); Sargon sees it at level 3.
/// let pos = sargon_core::parse_position("7k/8/5K2/8/8/8/8/6R1 w - - 0 40")?;
/// let mut port = sargon_port::Port::new();
/// let mut game = GameDepth::new(DepthRule::Carried);
/// let level = SearchOptions::depth(3);
/// let opts = game.options(Color::White, &level, port.max_depth());
/// assert_eq!(opts.depth, 3);
/// let found = port.search(&setup(&pos, Book::Off)?, &opts, &mut Hooks::new())?;
/// assert!(found.mates());
/// game.searched(Color::White, &port);
/// // White's next search is two plies shallower; Black's is not.
/// assert_eq!(game.options(Color::White, &level, port.max_depth()).depth, 1);
/// assert_eq!(game.options(Color::Black, &level, port.max_depth()).depth, 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct GameDepth {
    rule: DepthRule,
    /// What the last search of each colour left: White's, then Black's.
    sides: [Option<Carried>; 2],
}

impl GameDepth {
    /// A new game, its depths set by `rule`.
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

    /// Start a new game: the level again, PMATE 0 as the program's image has it.
    ///
    /// ```
    /// use sargon_core::game::{DepthRule, GameDepth};
    /// use sargon_core::{setup, Book, Engine, Hooks, SearchOptions};
    /// use shakmaty::Color;
    /// let pos = sargon_core::parse_position("7k/8/5K2/8/8/8/8/6R1 w - - 0 40")?;
    /// let mut port = sargon_port::Port::new();
    /// let mut game = GameDepth::new(DepthRule::Carried);
    /// port.search(&setup(&pos, Book::Off)?, &SearchOptions::depth(3), &mut Hooks::new())?;
    /// game.searched(Color::White, &port);
    /// assert!(game.carried(Color::White).is_some());
    /// game.new_game();
    /// assert_eq!(game.carried(Color::White), None);
    /// assert_eq!(game.options(Color::White, &SearchOptions::depth(3), 6).depth, 3);
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
    /// game.searched(Color::White, &port);
    /// assert_eq!(game.carried(Color::White).map(|c| c.plymax), Some(1));
    /// assert_eq!(game.carried(Color::Black), None);
    /// // Under the fresh rule nothing is carried.
    /// let mut fresh = GameDepth::new(DepthRule::Fresh);
    /// fresh.searched(Color::White, &port);
    /// assert_eq!(fresh.carried(Color::White), None);
    /// # let _: Option<Carried> = None;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn carried(&self, color: Color) -> Option<Carried> {
        self.sides[side_index(color)]
    }

    /// `base` (the options at the level: its depth is the one the player picked) with the
    /// depth and PMATE of the next search for `color`. A carried PLYMAX the
    /// engine cannot search (0, or 254 and 255 after a mate that was found at depth 1 or 2
    /// and then not played) starts again from the level, as a player answering INTERR again
    /// would: the original would search PLYMAX 0 as no depth at all, or never end.
    ///
    /// ```
    /// use sargon_core::game::{DepthRule, GameDepth};
    /// use sargon_core::SearchOptions;
    /// use shakmaty::Color;
    /// // Nothing carried yet: the level's depth, PMATE 0.
    /// let game = GameDepth::new(DepthRule::Carried);
    /// let opts = game.options(Color::Black, &SearchOptions::depth(4), 6);
    /// assert_eq!((opts.depth, opts.pmate), (4, 0));
    /// ```
    pub fn options(&self, color: Color, base: &SearchOptions, max_depth: u8) -> SearchOptions {
        let mut opts = base.clone();
        opts.pmate = 0;
        if let Some(c) = self.carried(color) {
            opts.pmate = c.pmate;
            if (1..=max_depth).contains(&c.plymax) {
                opts.depth = c.plymax;
            }
        }
        opts
    }

    /// After a search for `color` on `engine` ended: keep what it left, when the rule
    /// carries it and the engine can say ([`Engine::left_for_next_move`]).
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
    /// game.searched(Color::White, &port);
    /// assert_eq!(game.carried(Color::White).map(|c| c.plymax), Some(2));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn searched(&mut self, color: Color, engine: &dyn Engine) {
        if self.rule == DepthRule::Carried {
            self.sides[side_index(color)] = engine.left_for_next_move();
        }
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

    /// The depth each rule gives, and the fallback to the level out of the engine's range.
    #[test]
    fn carried_bytes_set_the_next_search() {
        let base = SearchOptions::depth(4);
        let mut game = GameDepth::new(DepthRule::Carried);
        let first = game.options(Color::Black, &base, 6);
        assert_eq!((first.depth, first.pmate), (4, 0));
        game.sides[1] = Some(Carried {
            plymax: 2,
            pmate: 7,
        });
        let next = game.options(Color::Black, &base, 6);
        assert_eq!((next.depth, next.pmate), (2, 7));
        assert_eq!(
            game.options(Color::White, &base, 6).depth,
            4,
            "White keeps its own"
        );
        for out_of_range in [0, 254, 7] {
            game.sides[1] = Some(Carried {
                plymax: out_of_range,
                pmate: 7,
            });
            assert_eq!(
                game.options(Color::Black, &base, 6).depth,
                4,
                "{out_of_range}"
            );
        }
        game.new_game();
        assert_eq!(game.carried(Color::Black), None);
    }
}
