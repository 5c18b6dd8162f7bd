//! One view per hook point, each with the accessors of what a hook sees there and the
//! setters of what it may change.

use super::points::{Registers, MAX_LIST_WALK};
use super::search::{PathVerdict, Search};
use crate::memory::{Pointer, Var};
use crate::vocab::{Piece, SMove, Score, Sq};

// Every point's view carries the search state; one definition of its accessor serves all
// eight (each view's own fields follow with the view).
macro_rules! search_state_accessor {
    ($($view:ident),*) => {$(
        impl<'a> $view<'a> {
            /// The search state at the point.
            pub fn search(&self) -> &Search<'a> {
                &self.search
            }
        }
    )*};
}

search_state_accessor!(
    MovegenPath,
    MovegenDone,
    PointsEnd,
    AlphaBeta,
    BestTest,
    BestConfirmed,
    Ascend,
    BookRandom
);

/// `movegen.path`: MPIECE has asked PATH about the next square along a direction.
///
/// Replacing the verdict steers move generation: [`PathVerdict::Own`] (or `OffBoard`)
/// ends the direction without a move; with [`MovegenPath::set_directions_left`]`(1)` it
/// ends the piece's directions too ([`MovegenPath::stop_piece`]). Fires also while a
/// set-up move is replayed (VALMOV generates moves, at ply 0).
pub struct MovegenPath<'a> {
    pub(super) search: Search<'a>,
    pub(super) verdict: PathVerdict,
    pub(super) directions_left: u8,
}

impl<'a> MovegenPath<'a> {
    /// PATH's verdict on [`MovegenPath::to`] (as possibly replaced by an earlier hook).
    ///
    /// ```
    /// use sargon_core::hooks::PathVerdict;
    /// use sargon_core::{Book, FnHook, HookEvent, HookPoint};
    /// # fn search(h: &mut dyn sargon_core::Hook, d: u8, b: sargon_core::Book) -> Result<sargon_core::SearchOutcome, Box<dyn std::error::Error>> { use sargon_core::Engine; let mut hooks = sargon_core::Hooks::new(); hooks.add(h); Ok(sargon_port::Port::new().search(&sargon_core::setup(&shakmaty::Chess::default(), b)?, &sargon_core::SearchOptions::depth(d), &mut hooks)?) }
    /// // `search(hook, depth, book)`: the port searches the initial position with `hook`.
    /// let mut verdicts = Vec::new();
    /// let mut hook = FnHook::new(&[HookPoint::MovegenPath], |e| {
    ///     if let HookEvent::MovegenPath(v) = e { verdicts.push(v.verdict()) }
    /// });
    /// search(&mut hook, 1, Book::Off)?;
    /// drop(hook);
    /// // The rook on a1 looks up at its own pawn first.
    /// assert_eq!(verdicts[0], PathVerdict::Own);
    /// assert!(verdicts.contains(&PathVerdict::Empty) && verdicts.contains(&PathVerdict::OffBoard));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn verdict(&self) -> PathVerdict {
        self.verdict
    }

    /// Replace PATH's verdict (what the routine continues with).
    ///
    /// ```
    /// use sargon_core::hooks::PathVerdict;
    /// use sargon_core::vocab::PieceKind;
    /// use sargon_core::{Book, FnHook, HookEvent, HookPoint};
    /// # fn search(h: &mut dyn sargon_core::Hook, d: u8, b: sargon_core::Book) -> Result<sargon_core::SearchOutcome, Box<dyn std::error::Error>> { use sargon_core::Engine; let mut hooks = sargon_core::Hooks::new(); hooks.add(h); Ok(sargon_port::Port::new().search(&sargon_core::setup(&shakmaty::Chess::default(), b)?, &sargon_core::SearchOptions::depth(d), &mut hooks)?) }
    /// // `search(hook, depth, book)`: the port searches the initial position with `hook`.
    /// // Knights see their own men everywhere: White may move only its pawns.
    /// let mut hook = FnHook::new(&[HookPoint::MovegenPath], |e| {
    ///     if let HookEvent::MovegenPath(v) = e {
    ///         if v.piece().kind == PieceKind::Knight { v.set_verdict(PathVerdict::Own) }
    ///     }
    /// });
    /// let found = search(&mut hook, 1, Book::Off)?;
    /// drop(hook);
    /// let from = found.best.unwrap().from.to_string();
    /// assert!(from.ends_with('2')); // a pawn's move
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_verdict(&mut self, verdict: PathVerdict) {
        self.verdict = verdict;
    }

    /// Register B: the directions still to try for this piece, this one included (MPIECE
    /// counts down to 0; for pawns it also tells which of the four pawn moves this is).
    ///
    /// ```
    /// use sargon_core::{Book, FnHook, HookEvent, HookPoint};
    /// # fn search(h: &mut dyn sargon_core::Hook, d: u8, b: sargon_core::Book) -> Result<sargon_core::SearchOutcome, Box<dyn std::error::Error>> { use sargon_core::Engine; let mut hooks = sargon_core::Hooks::new(); hooks.add(h); Ok(sargon_port::Port::new().search(&sargon_core::setup(&shakmaty::Chess::default(), b)?, &sargon_core::SearchOptions::depth(d), &mut hooks)?) }
    /// // `search(hook, depth, book)`: the port searches the initial position with `hook`.
    /// let mut first = None;
    /// let mut hook = FnHook::new(&[HookPoint::MovegenPath], |e| {
    ///     if let HookEvent::MovegenPath(v) = e { first.get_or_insert(v.directions_left()); }
    /// });
    /// search(&mut hook, 1, Book::Off)?;
    /// drop(hook);
    /// assert_eq!(first, Some(4)); // the rook on a1: four directions to try
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn directions_left(&self) -> u8 {
        self.directions_left
    }

    /// Replace the count of directions left (register B).
    ///
    /// ```
    /// use sargon_core::hooks::PathVerdict;
    /// use sargon_core::{Book, FnHook, HookEvent, HookPoint};
    /// # fn search(h: &mut dyn sargon_core::Hook, d: u8, b: sargon_core::Book) -> Result<sargon_core::SearchOutcome, Box<dyn std::error::Error>> { use sargon_core::Engine; let mut hooks = sargon_core::Hooks::new(); hooks.add(h); Ok(sargon_port::Port::new().search(&sargon_core::setup(&shakmaty::Chess::default(), b)?, &sargon_core::SearchOptions::depth(d), &mut hooks)?) }
    /// // `search(hook, depth, book)`: the port searches the initial position with `hook`.
    /// // Every piece's first look is its last: no move at all.
    /// let mut root_moves = None;
    /// let mut hook = FnHook::new(&[HookPoint::MovegenPath, HookPoint::MovegenDone], |e| match e {
    ///     HookEvent::MovegenPath(v) => {
    ///         v.set_verdict(PathVerdict::Own);
    ///         v.set_directions_left(1);
    ///     }
    ///     HookEvent::MovegenDone(v) => { root_moves.get_or_insert(v.moves().len()); }
    ///     _ => {}
    /// });
    /// search(&mut hook, 1, Book::Off)?;
    /// drop(hook);
    /// assert_eq!(root_moves, Some(0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_directions_left(&mut self, count: u8) {
        self.directions_left = count;
    }

    /// Make this the piece's last square: no move here, no further direction. An unmoved
    /// king may still castle (CASTLE runs after the directions).
    ///
    /// ```
    /// use sargon_core::{Book, FnHook, HookEvent, HookPoint};
    /// # fn search(h: &mut dyn sargon_core::Hook, d: u8, b: sargon_core::Book) -> Result<sargon_core::SearchOutcome, Box<dyn std::error::Error>> { use sargon_core::Engine; let mut hooks = sargon_core::Hooks::new(); hooks.add(h); Ok(sargon_port::Port::new().search(&sargon_core::setup(&shakmaty::Chess::default(), b)?, &sargon_core::SearchOptions::depth(d), &mut hooks)?) }
    /// // `search(hook, depth, book)`: the port searches the initial position with `hook`.
    /// let mut root_moves = None;
    /// let mut hook = FnHook::new(&[HookPoint::MovegenPath, HookPoint::MovegenDone], |e| match e {
    ///     HookEvent::MovegenPath(v) => v.stop_piece(),
    ///     HookEvent::MovegenDone(v) => { root_moves.get_or_insert(v.moves().len()); }
    ///     _ => {}
    /// });
    /// search(&mut hook, 1, Book::Off)?;
    /// drop(hook);
    /// assert_eq!(root_moves, Some(0)); // no piece has a move
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn stop_piece(&mut self) {
        self.verdict = PathVerdict::Own;
        self.directions_left = 1;
    }

    /// The piece whose moves are being generated (P1, its board byte).
    ///
    /// ```
    /// use sargon_core::vocab::{PieceKind, Side};
    /// use sargon_core::{Book, FnHook, HookEvent, HookPoint};
    /// # fn search(h: &mut dyn sargon_core::Hook, d: u8, b: sargon_core::Book) -> Result<sargon_core::SearchOutcome, Box<dyn std::error::Error>> { use sargon_core::Engine; let mut hooks = sargon_core::Hooks::new(); hooks.add(h); Ok(sargon_port::Port::new().search(&sargon_core::setup(&shakmaty::Chess::default(), b)?, &sargon_core::SearchOptions::depth(d), &mut hooks)?) }
    /// // `search(hook, depth, book)`: the port searches the initial position with `hook`.
    /// let mut pieces = Vec::new();
    /// let mut hook = FnHook::new(&[HookPoint::MovegenPath], |e| {
    ///     if let HookEvent::MovegenPath(v) = e { pieces.push(v.piece()) }
    /// });
    /// search(&mut hook, 1, Book::Off)?;
    /// drop(hook);
    /// assert_eq!((pieces[0].kind, pieces[0].side), (PieceKind::Rook, Side::White)); // a1 first
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn piece(&self) -> Piece {
        Piece::from_board_byte(self.search.mem.var(Var::P1))
            .expect("MPIECE only runs for a square holding a piece")
    }

    /// T1 as MPIECE set it: the piece's row in Sargon's direction tables. That is the
    /// piece type 1-6, except 0 for a black pawn: MPIECE turns a black pawn into type 0 so
    /// that it gets its own, downward, pawn directions. ([`MovegenPath::piece`] gives the
    /// piece itself, a pawn of either colour.)
    ///
    /// ```
    /// use sargon_core::{Book, FnHook, HookEvent, HookPoint};
    /// # fn search(h: &mut dyn sargon_core::Hook, d: u8, b: sargon_core::Book) -> Result<sargon_core::SearchOutcome, Box<dyn std::error::Error>> { use sargon_core::Engine; let mut hooks = sargon_core::Hooks::new(); hooks.add(h); Ok(sargon_port::Port::new().search(&sargon_core::setup(&shakmaty::Chess::default(), b)?, &sargon_core::SearchOptions::depth(d), &mut hooks)?) }
    /// // `search(hook, depth, book)`: the port searches the initial position with `hook`.
    /// let mut rows = std::collections::BTreeSet::new();
    /// let mut hook = FnHook::new(&[HookPoint::MovegenPath], |e| {
    ///     if let HookEvent::MovegenPath(v) = e { rows.insert(v.direction_row()); }
    /// });
    /// search(&mut hook, 2, Book::Off)?;
    /// drop(hook);
    /// // 0 for Black's pawns (their own, downward, row), 1 for White's, then knight to king.
    /// assert_eq!(rows.into_iter().collect::<Vec<_>>(), [0, 1, 2, 3, 4, 5, 6]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn direction_row(&self) -> u8 {
        self.search.mem.var(Var::T1)
    }

    /// M1: the square the piece stands on.
    ///
    /// ```
    /// use sargon_core::{Book, FnHook, HookEvent, HookPoint, Sq};
    /// # fn search(h: &mut dyn sargon_core::Hook, d: u8, b: sargon_core::Book) -> Result<sargon_core::SearchOutcome, Box<dyn std::error::Error>> { use sargon_core::Engine; let mut hooks = sargon_core::Hooks::new(); hooks.add(h); Ok(sargon_port::Port::new().search(&sargon_core::setup(&shakmaty::Chess::default(), b)?, &sargon_core::SearchOptions::depth(d), &mut hooks)?) }
    /// // `search(hook, depth, book)`: the port searches the initial position with `hook`.
    /// let mut looks = Vec::new();
    /// let mut hook = FnHook::new(&[HookPoint::MovegenPath], |e| {
    ///     if let HookEvent::MovegenPath(v) = e { looks.push((v.from(), v.to())) }
    /// });
    /// search(&mut hook, 1, Book::Off)?;
    /// drop(hook);
    /// assert_eq!(looks[0], (Sq(21), Sq(31))); // from a1, up to a2
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from(&self) -> Sq {
        Sq(self.search.mem.var(Var::M1))
    }

    /// M2: the square PATH looked at (a border index when the verdict is `OffBoard`).
    ///
    /// ```
    /// use sargon_core::{Book, FnHook, HookEvent, HookPoint};
    /// # fn search(h: &mut dyn sargon_core::Hook, d: u8, b: sargon_core::Book) -> Result<sargon_core::SearchOutcome, Box<dyn std::error::Error>> { use sargon_core::Engine; let mut hooks = sargon_core::Hooks::new(); hooks.add(h); Ok(sargon_port::Port::new().search(&sargon_core::setup(&shakmaty::Chess::default(), b)?, &sargon_core::SearchOptions::depth(d), &mut hooks)?) }
    /// // `search(hook, depth, book)`: the port searches the initial position with `hook`.
    /// // Every square the knight on g1 looks at, on the board or off it.
    /// let mut targets = Vec::new();
    /// let mut hook = FnHook::new(&[HookPoint::MovegenPath], |e| {
    ///     if let HookEvent::MovegenPath(v) = e {
    ///         if v.from().to_string() == "g1" && v.search().ply() == 1 { targets.push(v.to().to_string()) }
    ///     }
    /// });
    /// search(&mut hook, 1, Book::Off)?;
    /// drop(hook);
    /// // Eight directions, five of them off the board (`#N`: a border index).
    /// let on_board: Vec<&str> = targets.iter().map(String::as_str).filter(|t| !t.starts_with('#')).collect();
    /// assert_eq!((targets.len(), on_board), (8, vec!["e2", "f3", "h3"]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to(&self) -> Sq {
        Sq(self.search.mem.var(Var::M2))
    }
}

/// `movegen.done`: GENMOV has filled the move list of ply NPLY (not yet sorted).
///
/// A hook may take moves out of the list ([`MovegenDone::keep_out`]): Sargon then never
/// sees them, at this node, as if GENMOV had not generated them. That is how a root move
/// is kept out of the search (UCI's `searchmoves` and `MultiPV`). The list is a chain of
/// links (SORTM and FNDMOV walk it from the word at MLPTRI), so a move is taken out by
/// linking its predecessor to its successor; the engine writes those links
/// ([`LinkWrite`]) after the hooks have run.
pub struct MovegenDone<'a> {
    pub(super) search: Search<'a>,
    pub(super) link_writes: Vec<LinkWrite>,
}

impl<'a> MovegenDone<'a> {
    /// The new ply's moves in list order (castling and en passant once, by their first
    /// entry: the king's or the capturing pawn's move), without those a hook kept out.
    /// Their parent is [`Search::path`].
    ///
    /// ```
    /// use sargon_core::{Book, FnHook, HookEvent, HookPoint};
    /// # fn search(h: &mut dyn sargon_core::Hook, d: u8, b: sargon_core::Book) -> Result<sargon_core::SearchOutcome, Box<dyn std::error::Error>> { use sargon_core::Engine; let mut hooks = sargon_core::Hooks::new(); hooks.add(h); Ok(sargon_port::Port::new().search(&sargon_core::setup(&shakmaty::Chess::default(), b)?, &sargon_core::SearchOptions::depth(d), &mut hooks)?) }
    /// // `search(hook, depth, book)`: the port searches the initial position with `hook`.
    /// let mut counts = Vec::new();
    /// let mut hook = FnHook::new(&[HookPoint::MovegenDone], |e| {
    ///     if let HookEvent::MovegenDone(v) = e { counts.push(v.moves().len()) }
    /// });
    /// search(&mut hook, 2, Book::Off)?;
    /// drop(hook);
    /// assert_eq!(counts[0], 20); // White's 20 moves, then Black's replies to each
    /// assert!(counts[1..].iter().all(|&n| n == 20));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn moves(&self) -> Vec<SMove> {
        self.entries().into_iter().map(|(_, m)| m).collect()
    }

    /// Take every move for which `out` is true out of the list; returns how many. A
    /// castling or en passant move is one entry in the chain (its second half follows
    /// it in memory, unlinked), so it goes as a whole.
    ///
    /// ```
    /// use sargon_core::{Book, FnHook, HookEvent, HookPoint};
    /// # fn search(h: &mut dyn sargon_core::Hook, d: u8, b: sargon_core::Book) -> Result<sargon_core::SearchOutcome, Box<dyn std::error::Error>> { use sargon_core::Engine; let mut hooks = sargon_core::Hooks::new(); hooks.add(h); Ok(sargon_port::Port::new().search(&sargon_core::setup(&shakmaty::Chess::default(), b)?, &sargon_core::SearchOptions::depth(d), &mut hooks)?) }
    /// // `search(hook, depth, book)`: the port searches the initial position with `hook`.
    /// // Only 1.Nf3 is searched at the root (as UCI's `searchmoves g1f3` asks).
    /// let mut removed = 0;
    /// let mut hook = FnHook::new(&[HookPoint::MovegenDone], |e| {
    ///     if let HookEvent::MovegenDone(v) = e {
    ///         if v.search().ply() == 1 { removed = v.keep_out(|m| m.uci() != "g1f3") }
    ///     }
    /// });
    /// let found = search(&mut hook, 2, Book::Off)?;
    /// drop(hook);
    /// assert_eq!((removed, found.best.unwrap().uci()), (19, "g1f3".to_string()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn keep_out(&mut self, mut out: impl FnMut(&SMove) -> bool) -> usize {
        let mut removed = 0;
        let mut prev = self.search.mem.pointer(Pointer::Mlptri);
        for (at, m) in self.entries() {
            if out(&m) {
                let next = self.link(at);
                self.link_writes.push(LinkWrite {
                    at: prev,
                    value: next,
                });
                removed += 1;
            } else {
                prev = at;
            }
        }
        removed
    }

    /// The link word at `at`, as the engine will see it once the links asked for so far
    /// are written.
    pub(super) fn link(&self, at: u16) -> u16 {
        match self.link_writes.iter().rev().find(|w| w.at == at) {
            Some(w) => w.value,
            None => self.search.word(at),
        }
    }

    /// The chain's entries (address, move), following the links asked for so far.
    pub(super) fn entries(&self) -> Vec<(u16, SMove)> {
        let mut out = Vec::new();
        let mut p = self.link(self.search.mem.pointer(Pointer::Mlptri));
        while p >> 8 != 0 && out.len() < MAX_LIST_WALK {
            out.push((p, self.search.entry(p)));
            p = self.link(p);
        }
        out
    }
}

/// A move-list link a hook changed: the little-endian word at `at` becomes `value`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct LinkWrite {
    /// The address of the link word.
    pub at: u16,
    /// Its new value.
    pub value: u16,
}

/// What the hooks at a point hand back: the registers and any move-list links to write.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Fired {
    /// The registers A and B the engine continues with.
    pub registers: Registers,
    /// Links the engine writes before it goes on (only `movegen.done` asks for any).
    pub link_writes: Vec<LinkWrite>,
}

/// `points.end`: POINTS has computed a score and is about to store it.
///
/// Fires for the root evaluation (ply 0), for the evaluations that sort each ply below
/// PLYMAX, and for the leaves.
pub struct PointsEnd<'a> {
    pub(super) search: Search<'a>,
    pub(super) score: Score,
}

impl<'a> PointsEnd<'a> {
    /// The score of the node at [`Search::path`], from the point of view of the side that
    /// has just moved (see [`Score`]).
    ///
    /// ```
    /// use sargon_core::{Book, FnHook, HookEvent, HookPoint};
    /// # fn search(h: &mut dyn sargon_core::Hook, d: u8, b: sargon_core::Book) -> Result<sargon_core::SearchOutcome, Box<dyn std::error::Error>> { use sargon_core::Engine; let mut hooks = sargon_core::Hooks::new(); hooks.add(h); Ok(sargon_port::Port::new().search(&sargon_core::setup(&shakmaty::Chess::default(), b)?, &sargon_core::SearchOptions::depth(d), &mut hooks)?) }
    /// // `search(hook, depth, book)`: the port searches the initial position with `hook`.
    /// let mut root = None;
    /// let mut hook = FnHook::new(&[HookPoint::PointsEnd], |e| {
    ///     if let HookEvent::PointsEnd(v) = e { root.get_or_insert(v.score()); }
    /// });
    /// search(&mut hook, 1, Book::Off)?;
    /// drop(hook);
    /// assert_eq!(root.map(|s| s.pawns()), Some(0.0)); // the initial position is level
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn score(&self) -> Score {
        self.score
    }

    /// Make the search see another score for this node.
    ///
    /// ```
    /// use sargon_core::{Book, FnHook, HookEvent, HookPoint, Score};
    /// # fn search(h: &mut dyn sargon_core::Hook, d: u8, b: sargon_core::Book) -> Result<sargon_core::SearchOutcome, Box<dyn std::error::Error>> { use sargon_core::Engine; let mut hooks = sargon_core::Hooks::new(); hooks.add(h); Ok(sargon_port::Port::new().search(&sargon_core::setup(&shakmaty::Chess::default(), b)?, &sargon_core::SearchOptions::depth(d), &mut hooks)?) }
    /// // `search(hook, depth, book)`: the port searches the initial position with `hook`.
    /// // Every position scored level: the search sees no difference between its moves.
    /// let mut level = FnHook::new(&[HookPoint::PointsEnd], |e| {
    ///     if let HookEvent::PointsEnd(v) = e { v.set_score(Score(0x80)) }
    /// });
    /// let found = search(&mut level, 2, Book::Off)?;
    /// drop(level);
    /// assert_eq!(found.score_for_mover().pawns(), 0.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_score(&mut self, score: Score) {
        self.score = score;
    }
}

/// `search.alpha_beta`: FM37 is about to compare the node's score with the score two plies
/// above; not greater is an alpha-beta cutoff.
pub struct AlphaBeta<'a> {
    pub(super) search: Search<'a>,
    pub(super) score: Score,
}

impl<'a> AlphaBeta<'a> {
    /// The score of the node at [`Search::path`] (from the point of view of its mover).
    ///
    /// ```
    /// use sargon_core::{Book, FnHook, HookEvent, HookPoint};
    /// # fn search(h: &mut dyn sargon_core::Hook, d: u8, b: sargon_core::Book) -> Result<sargon_core::SearchOutcome, Box<dyn std::error::Error>> { use sargon_core::Engine; let mut hooks = sargon_core::Hooks::new(); hooks.add(h); Ok(sargon_port::Port::new().search(&sargon_core::setup(&shakmaty::Chess::default(), b)?, &sargon_core::SearchOptions::depth(d), &mut hooks)?) }
    /// // `search(hook, depth, book)`: the port searches the initial position with `hook`.
    /// let mut scores = Vec::new();
    /// let mut hook = FnHook::new(&[HookPoint::AlphaBeta], |e| {
    ///     if let HookEvent::AlphaBeta(v) = e { scores.push((v.score(), v.two_plies_up(), v.cutoff())) }
    /// });
    /// search(&mut hook, 3, Book::Off)?;
    /// drop(hook);
    /// // A cutoff is a score not above the bound two plies up.
    /// assert!(scores.iter().all(|&(score, bound, cutoff)| cutoff == (score <= bound)));
    /// assert!(scores.iter().any(|s| s.2) && scores.iter().any(|s| !s.2));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn score(&self) -> Score {
        self.score
    }

    /// Replace the score: the comparison, and what is negated and tested next, use it.
    ///
    /// ```
    /// use sargon_core::{Book, FnHook, HookEvent, HookPoint, Score};
    /// # fn search(h: &mut dyn sargon_core::Hook, d: u8, b: sargon_core::Book) -> Result<sargon_core::SearchOutcome, Box<dyn std::error::Error>> { use sargon_core::Engine; let mut hooks = sargon_core::Hooks::new(); hooks.add(h); Ok(sargon_port::Port::new().search(&sargon_core::setup(&shakmaty::Chess::default(), b)?, &sargon_core::SearchOptions::depth(d), &mut hooks)?) }
    /// // `search(hook, depth, book)`: the port searches the initial position with `hook`.
    /// let plain = search(&mut FnHook::new(&[], |_| {}), 2, Book::Off)?;
    /// // Every reply at ply 2 scores 0x90: so does the root.
    /// let mut hook = FnHook::new(&[HookPoint::AlphaBeta], |e| {
    ///     if let HookEvent::AlphaBeta(v) = e { if v.search().ply() == 2 { v.set_score(Score(0x90)) } }
    /// });
    /// let found = search(&mut hook, 2, Book::Off)?;
    /// drop(hook);
    /// assert_eq!((plain.root_score == Score(0x90), found.root_score), (false, Score(0x90)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_score(&mut self, score: Score) {
        self.score = score;
    }

    /// The score table byte two plies above, the bound the score is compared with.
    ///
    /// ```
    /// use sargon_core::{Book, FnHook, HookEvent, HookPoint};
    /// # fn search(h: &mut dyn sargon_core::Hook, d: u8, b: sargon_core::Book) -> Result<sargon_core::SearchOutcome, Box<dyn std::error::Error>> { use sargon_core::Engine; let mut hooks = sargon_core::Hooks::new(); hooks.add(h); Ok(sargon_port::Port::new().search(&sargon_core::setup(&shakmaty::Chess::default(), b)?, &sargon_core::SearchOptions::depth(d), &mut hooks)?) }
    /// // `search(hook, depth, book)`: the port searches the initial position with `hook`.
    /// let mut bounds = Vec::new();
    /// let mut hook = FnHook::new(&[HookPoint::AlphaBeta], |e| {
    ///     if let HookEvent::AlphaBeta(v) = e { bounds.push(v.two_plies_up()) }
    /// });
    /// search(&mut hook, 2, Book::Off)?;
    /// drop(hook);
    /// // At the first comparison no bound is set yet: the lowest score.
    /// assert_eq!(bounds.first().map(|b| b.0), Some(0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn two_plies_up(&self) -> Score {
        self.search.score_table(0)
    }

    /// The comparison about to be made: the score is not greater than the bound, so the
    /// rest of the ply is abandoned.
    ///
    /// ```
    /// use sargon_core::{Book, FnHook, HookEvent, HookPoint};
    /// # fn search(h: &mut dyn sargon_core::Hook, d: u8, b: sargon_core::Book) -> Result<sargon_core::SearchOutcome, Box<dyn std::error::Error>> { use sargon_core::Engine; let mut hooks = sargon_core::Hooks::new(); hooks.add(h); Ok(sargon_port::Port::new().search(&sargon_core::setup(&shakmaty::Chess::default(), b)?, &sargon_core::SearchOptions::depth(d), &mut hooks)?) }
    /// // `search(hook, depth, book)`: the port searches the initial position with `hook`.
    /// let (mut cutoffs, mut compared) = (0, 0);
    /// let mut hook = FnHook::new(&[HookPoint::AlphaBeta], |e| {
    ///     if let HookEvent::AlphaBeta(v) = e {
    ///         compared += 1;
    ///         cutoffs += usize::from(v.cutoff());
    ///     }
    /// });
    /// search(&mut hook, 3, Book::Off)?;
    /// drop(hook);
    /// assert!(cutoffs > 0 && cutoffs < compared);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cutoff(&self) -> bool {
        self.score <= self.two_plies_up()
    }
}

/// `search.best_test`: the negated score has just been compared with the best score one
/// ply above; greater makes it the new best.
pub struct BestTest<'a> {
    pub(super) search: Search<'a>,
    pub(super) negated: Score,
    /// The decision, made before the point from the engine's own A.
    pub(super) accepted: bool,
}

impl<'a> BestTest<'a> {
    /// The node's score negated: the parent's point of view.
    ///
    /// ```
    /// use sargon_core::{Book, FnHook, HookEvent, HookPoint};
    /// # fn search(h: &mut dyn sargon_core::Hook, d: u8, b: sargon_core::Book) -> Result<sargon_core::SearchOutcome, Box<dyn std::error::Error>> { use sargon_core::Engine; let mut hooks = sargon_core::Hooks::new(); hooks.add(h); Ok(sargon_port::Port::new().search(&sargon_core::setup(&shakmaty::Chess::default(), b)?, &sargon_core::SearchOptions::depth(d), &mut hooks)?) }
    /// // `search(hook, depth, book)`: the port searches the initial position with `hook`.
    /// let mut tests = Vec::new();
    /// let mut hook = FnHook::new(&[HookPoint::BestTest], |e| {
    ///     if let HookEvent::BestTest(v) = e { tests.push((v.negated_score(), v.one_ply_up(), v.accepted())) }
    /// });
    /// search(&mut hook, 1, Book::Off)?;
    /// drop(hook);
    /// // The first of the root's moves is always accepted: there is no best yet.
    /// assert!(tests[0].2);
    /// assert!(tests.iter().all(|&(negated, best, accepted)| accepted == (negated > best)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn negated_score(&self) -> Score {
        self.negated
    }

    /// Replace what is stored as the new best if the node is accepted (the comparison has
    /// already been made: the decision stays).
    ///
    /// ```
    /// use sargon_core::{Book, FnHook, HookEvent, HookPoint, Score};
    /// # fn search(h: &mut dyn sargon_core::Hook, d: u8, b: sargon_core::Book) -> Result<sargon_core::SearchOutcome, Box<dyn std::error::Error>> { use sargon_core::Engine; let mut hooks = sargon_core::Hooks::new(); hooks.add(h); Ok(sargon_port::Port::new().search(&sargon_core::setup(&shakmaty::Chess::default(), b)?, &sargon_core::SearchOptions::depth(d), &mut hooks)?) }
    /// // `search(hook, depth, book)`: the port searches the initial position with `hook`.
    /// // What is stored as the best changes; the decision does not.
    /// let mut stored = Vec::new();
    /// let mut change = FnHook::new(&[HookPoint::BestTest, HookPoint::BestConfirmed], |e| match e {
    ///     HookEvent::BestTest(v) => v.set_negated_score(Score(0x90)),
    ///     HookEvent::BestConfirmed(v) => stored.push(v.score()),
    ///     _ => {}
    /// });
    /// search(&mut change, 1, Book::Off)?;
    /// drop(change);
    /// assert!(!stored.is_empty() && stored.iter().all(|&s| s == Score(0x90)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_negated_score(&mut self, score: Score) {
        self.negated = score;
    }

    /// The best score so far one ply above.
    ///
    /// ```
    /// use sargon_core::{Book, FnHook, HookEvent, HookPoint};
    /// # fn search(h: &mut dyn sargon_core::Hook, d: u8, b: sargon_core::Book) -> Result<sargon_core::SearchOutcome, Box<dyn std::error::Error>> { use sargon_core::Engine; let mut hooks = sargon_core::Hooks::new(); hooks.add(h); Ok(sargon_port::Port::new().search(&sargon_core::setup(&shakmaty::Chess::default(), b)?, &sargon_core::SearchOptions::depth(d), &mut hooks)?) }
    /// // `search(hook, depth, book)`: the port searches the initial position with `hook`.
    /// let mut bests = Vec::new();
    /// let mut hook = FnHook::new(&[HookPoint::BestTest], |e| {
    ///     if let HookEvent::BestTest(v) = e { if v.search().ply() == 1 { bests.push(v.one_ply_up()) } }
    /// });
    /// search(&mut hook, 1, Book::Off)?;
    /// drop(hook);
    /// // The best so far at the root only rises.
    /// assert!(bests.windows(2).all(|w| w[0] <= w[1]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn one_ply_up(&self) -> Score {
        self.search.score_table(1)
    }

    /// The decision: the negated score (as it was at the comparison) beat the best.
    ///
    /// ```
    /// use sargon_core::{Book, FnHook, HookEvent, HookPoint};
    /// # fn search(h: &mut dyn sargon_core::Hook, d: u8, b: sargon_core::Book) -> Result<sargon_core::SearchOutcome, Box<dyn std::error::Error>> { use sargon_core::Engine; let mut hooks = sargon_core::Hooks::new(); hooks.add(h); Ok(sargon_port::Port::new().search(&sargon_core::setup(&shakmaty::Chess::default(), b)?, &sargon_core::SearchOptions::depth(d), &mut hooks)?) }
    /// // `search(hook, depth, book)`: the port searches the initial position with `hook`.
    /// let (mut accepted, mut confirmed) = (0, 0);
    /// let mut hook = FnHook::new(&[HookPoint::BestTest, HookPoint::BestConfirmed], |e| match e {
    ///     HookEvent::BestTest(v) => accepted += usize::from(v.accepted()),
    ///     HookEvent::BestConfirmed(_) => confirmed += 1,
    ///     _ => {}
    /// });
    /// search(&mut hook, 2, Book::Off)?;
    /// drop(hook);
    /// assert!(accepted > 0);
    /// assert_eq!(accepted, confirmed); // each accepted node is confirmed
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn accepted(&self) -> bool {
        self.accepted
    }
}

/// `search.best_confirmed`: the node's negated score has been stored as the new best one
/// ply above (and at ply 1 its move is about to become BESTM).
pub struct BestConfirmed<'a> {
    pub(super) search: Search<'a>,
    pub(super) score: Score,
}

impl<'a> BestConfirmed<'a> {
    /// The new best score, from the parent's point of view.
    ///
    /// ```
    /// use sargon_core::{Book, FnHook, HookEvent, HookPoint};
    /// # fn search(h: &mut dyn sargon_core::Hook, d: u8, b: sargon_core::Book) -> Result<sargon_core::SearchOutcome, Box<dyn std::error::Error>> { use sargon_core::Engine; let mut hooks = sargon_core::Hooks::new(); hooks.add(h); Ok(sargon_port::Port::new().search(&sargon_core::setup(&shakmaty::Chess::default(), b)?, &sargon_core::SearchOptions::depth(d), &mut hooks)?) }
    /// // `search(hook, depth, book)`: the port searches the initial position with `hook`.
    /// let mut root_bests = Vec::new();
    /// let mut hook = FnHook::new(&[HookPoint::BestConfirmed], |e| {
    ///     if let HookEvent::BestConfirmed(v) = e {
    ///         if v.search().ply() == 1 { root_bests.push(v.score()) }
    ///     }
    /// });
    /// let found = search(&mut hook, 2, Book::Off)?;
    /// drop(hook);
    /// // The last best confirmed at the root is the search's score.
    /// assert_eq!(root_bests.last(), Some(&found.root_score));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn score(&self) -> Score {
        self.score
    }

    /// The score table byte one ply above, read back (equal to [`BestConfirmed::score`]).
    ///
    /// ```
    /// use sargon_core::{Book, FnHook, HookEvent, HookPoint};
    /// # fn search(h: &mut dyn sargon_core::Hook, d: u8, b: sargon_core::Book) -> Result<sargon_core::SearchOutcome, Box<dyn std::error::Error>> { use sargon_core::Engine; let mut hooks = sargon_core::Hooks::new(); hooks.add(h); Ok(sargon_port::Port::new().search(&sargon_core::setup(&shakmaty::Chess::default(), b)?, &sargon_core::SearchOptions::depth(d), &mut hooks)?) }
    /// // `search(hook, depth, book)`: the port searches the initial position with `hook`.
    /// let mut read_back = true;
    /// let mut hook = FnHook::new(&[HookPoint::BestConfirmed], |e| {
    ///     if let HookEvent::BestConfirmed(v) = e { read_back &= v.one_ply_up() == v.score() }
    /// });
    /// search(&mut hook, 2, Book::Off)?;
    /// drop(hook);
    /// assert!(read_back);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn one_ply_up(&self) -> Score {
        self.search.score_table(1)
    }
}

/// `search.ascend`: the search is about to go up from ply NPLY, taking back the move of
/// [`Search::path`].
pub struct Ascend<'a> {
    pub(super) search: Search<'a>,
}

/// `book.random`: BOOK has read its "random" byte; bit 0 picks White's first move.
///
/// The engines set the byte to [`crate::engine::SearchOptions::book_random`] before
/// any hook runs (the original reads the Z80 refresh register here).
pub struct BookRandom<'a> {
    pub(super) search: Search<'a>,
    pub(super) byte: u8,
}

impl<'a> BookRandom<'a> {
    /// The "random" byte BOOK read.
    ///
    /// ```
    /// use sargon_core::{Book, FnHook, HookEvent, HookPoint};
    /// # fn search(h: &mut dyn sargon_core::Hook, d: u8, b: sargon_core::Book) -> Result<sargon_core::SearchOutcome, Box<dyn std::error::Error>> { use sargon_core::Engine; let mut hooks = sargon_core::Hooks::new(); hooks.add(h); Ok(sargon_port::Port::new().search(&sargon_core::setup(&shakmaty::Chess::default(), b)?, &sargon_core::SearchOptions::depth(d), &mut hooks)?) }
    /// // `search(hook, depth, book)`: the port searches the initial position with `hook`.
    /// let mut read = None;
    /// let mut hook = FnHook::new(&[HookPoint::BookRandom], |e| {
    ///     if let HookEvent::BookRandom(v) = e { read = Some(v.byte()) }
    /// });
    /// search(&mut hook, 1, Book::Allowed)?;
    /// drop(hook);
    /// assert_eq!(read, Some(0)); // SearchOptions::book_random's default
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn byte(&self) -> u8 {
        self.byte
    }

    /// Replace the "random" byte (what BOOK continues with).
    ///
    /// ```
    /// use sargon_core::{Book, FnHook, HookEvent, HookPoint};
    /// # fn search(h: &mut dyn sargon_core::Hook, d: u8, b: sargon_core::Book) -> Result<sargon_core::SearchOutcome, Box<dyn std::error::Error>> { use sargon_core::Engine; let mut hooks = sargon_core::Hooks::new(); hooks.add(h); Ok(sargon_port::Port::new().search(&sargon_core::setup(&shakmaty::Chess::default(), b)?, &sargon_core::SearchOptions::depth(d), &mut hooks)?) }
    /// // `search(hook, depth, book)`: the port searches the initial position with `hook`.
    /// let mut odd = FnHook::new(&[HookPoint::BookRandom], |e| {
    ///     if let HookEvent::BookRandom(v) = e { v.set_byte(1) }
    /// });
    /// let found = search(&mut odd, 1, Book::Allowed)?;
    /// drop(odd);
    /// assert_eq!(found.best.unwrap().uci(), "d2d4");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_byte(&mut self, byte: u8) {
        self.byte = byte;
    }

    /// The move the byte picks: bit 0 clear is 1.e4, set is 1.d4.
    ///
    /// ```
    /// use sargon_core::{Book, FnHook, HookEvent, HookPoint};
    /// # fn search(h: &mut dyn sargon_core::Hook, d: u8, b: sargon_core::Book) -> Result<sargon_core::SearchOutcome, Box<dyn std::error::Error>> { use sargon_core::Engine; let mut hooks = sargon_core::Hooks::new(); hooks.add(h); Ok(sargon_port::Port::new().search(&sargon_core::setup(&shakmaty::Chess::default(), b)?, &sargon_core::SearchOptions::depth(d), &mut hooks)?) }
    /// // `search(hook, depth, book)`: the port searches the initial position with `hook`.
    /// let mut d4 = None;
    /// let mut hook = FnHook::new(&[HookPoint::BookRandom], |e| {
    ///     if let HookEvent::BookRandom(v) = e { d4 = Some(v.picks_d4()) }
    /// });
    /// let found = search(&mut hook, 1, Book::Allowed)?;
    /// drop(hook);
    /// assert_eq!((d4, found.best.unwrap().uci()), (Some(false), "e2e4".to_string()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn picks_d4(&self) -> bool {
        self.byte & 1 != 0
    }
}
