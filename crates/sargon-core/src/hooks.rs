//! Hook points: named places in Sargon's search where Rust code can watch and steer it.
//!
//! The same points exist in both engines. In the emulator a hook point is an address of the
//! imported program (a symbol plus a documented offset, see `docs/hooks.md`) and fires just
//! before the instruction there executes; in the native port it is the corresponding line
//! of the ported routine.
//!
//! # Why hooks see typed views, and why one memory trait
//!
//! What a register holds at a point depends on the point (A is a verdict at one, a score at
//! another, a random byte at a third), so a hook gets a [`HookEvent`]: one variant per point,
//! each a view with named accessors of the right types (a [`PathVerdict`], a [`Score`], a
//! [`Sq`], a [`Piece`]) and setters only for what the point lets a hook change.
//!
//! "A hook never cares which engine" holds by construction: every view reads the engine
//! through one small trait, [`SargonMemory`], which says where Sargon's variables and tables
//! are and reads a byte of its data area. Both engines implement only that; the path from
//! the root, the move-list walk (with one limit, [`MAX_LIST_WALK`]), the board, the scores
//! compared at the `search.*` points (through SCRIX, as the original's HL) are all written
//! once, here. The only things an engine hands over at a point are the registers A and B
//! ([`Registers`]), and it takes back what the hooks left in them.
//!
//! Nothing is built unless a hook asked for the point: engines test the [`HookMask`] bit
//! first, so an unhooked search pays one bit test per point.
//!
//! # Example: count the calls of POINTS
//!
//! ```
//! use sargon_core::{setup, Book, Engine, FnHook, HookEvent, HookPoint, Hooks, SearchOptions};
//!
//! let mut calls = 0;
//! let mut leaves_at_ply_2 = 0;
//! let mut count = FnHook::new(&[HookPoint::PointsEnd], |event| {
//!     if let HookEvent::PointsEnd(view) = event {
//!         calls += 1;
//!         if view.search().ply() == 2 {
//!             leaves_at_ply_2 += 1;
//!         }
//!     }
//! });
//! let mut hooks = Hooks::new();
//! hooks.add(&mut count);
//! let setup = setup(&shakmaty::Chess::default(), Book::Off)?;
//! // The port here; the original in the emulator (crate sargon-original) fires the same hook.
//! sargon_port::Port::new().search(&setup, &SearchOptions::depth(2), &mut hooks)?;
//! drop(hooks);
//! drop(count);
//! // The root, the 20 moves of White sorted, and Black's replies to them.
//! assert!(leaves_at_ply_2 > 0 && calls > 20 + leaves_at_ply_2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use crate::vocab::{Board, Piece, SMove, Score, Side, Sq, BOARD_SIZE};

// What an engine implements for its hooks has a module of its own, which the whole-state
// comparison (`crate::state`) uses too; its names stay where they always were, here.
pub use crate::memory::{Pointer, SargonMemory, Table, Var};

/// A named place in Sargon's search. See `docs/hooks.md` for each one's contract, and the
/// view of the same name in [`HookEvent`] for what a hook sees there.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum HookPoint {
    /// In MPIECE right after `CALL PATH`: PATH's verdict for the square tried, which a hook
    /// may replace to steer move generation ([`MovegenPath`]).
    MovegenPath,
    /// In FNDMOV right after `CALL GENMOV`: the move list of ply NPLY is complete
    /// ([`MovegenDone`]).
    MovegenDone,
    /// At the end of POINTS, before the score is stored: observe or replace it
    /// ([`PointsEnd`]).
    PointsEnd,
    /// At FM37, before the node's score is compared with the score two plies above
    /// ([`AlphaBeta`]).
    AlphaBeta,
    /// After the negated score has been compared with the best one ply above ([`BestTest`]).
    BestTest,
    /// After a new best score has been stored one ply above ([`BestConfirmed`]).
    BestConfirmed,
    /// On entry to ASCEND: the search goes back up one ply ([`Ascend`]).
    Ascend,
    /// In BOOK right after `LD A,R`: the "random" byte whose bit 0 picks 1.e4 or 1.d4
    /// ([`BookRandom`]).
    BookRandom,
}

impl HookPoint {
    /// Every hook point, in `HookPoint as usize` order.
    pub const ALL: [HookPoint; 8] = [
        HookPoint::MovegenPath,
        HookPoint::MovegenDone,
        HookPoint::PointsEnd,
        HookPoint::AlphaBeta,
        HookPoint::BestTest,
        HookPoint::BestConfirmed,
        HookPoint::Ascend,
        HookPoint::BookRandom,
    ];

    /// The stable, dotted name used in docs and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            HookPoint::MovegenPath => "movegen.path",
            HookPoint::MovegenDone => "movegen.done",
            HookPoint::PointsEnd => "points.end",
            HookPoint::AlphaBeta => "search.alpha_beta",
            HookPoint::BestTest => "search.best_test",
            HookPoint::BestConfirmed => "search.best_confirmed",
            HookPoint::Ascend => "search.ascend",
            HookPoint::BookRandom => "book.random",
        }
    }

    /// The point with this name (as [`HookPoint::name`] gives it), if any.
    pub fn from_name(name: &str) -> Option<HookPoint> {
        HookPoint::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Bit of this point in a [`HookMask`].
    pub(crate) fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// A set of hook points, one bit each.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct HookMask(pub u8);

impl HookMask {
    /// Whether `p` is in the set.
    pub fn contains(self, p: HookPoint) -> bool {
        self.0 & p.bit() != 0
    }
    /// The set with `p` added.
    pub fn with(self, p: HookPoint) -> HookMask {
        HookMask(self.0 | p.bit())
    }
    /// The set of these points.
    pub fn of(points: &[HookPoint]) -> HookMask {
        points.iter().fold(HookMask(0), |m, &p| m.with(p))
    }
}

/// The registers a routine continues with after a hook point, which the views expose
/// under their meaning at that point (A: a verdict, a score or the book's byte; B: the
/// directions left at `movegen.path`). An engine passes in its values and takes back what
/// the hooks left.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Registers {
    /// Register A.
    pub a: u8,
    /// Register B.
    pub b: u8,
}

/// The longest move list a view walks. The list links are Sargon's own; the limit only
/// guards against a corrupted list looping forever. One ply's list never comes near it
/// (a position has at most a few hundred pseudo-legal moves, and the original's whole
/// 2048-byte list area holds 341 entries).
pub const MAX_LIST_WALK: usize = 1024;

/// What every hook point shows: the ply, the depth, the side to move, the moves from the
/// root and the board.
#[derive(Copy, Clone)]
pub struct Search<'a> {
    point: HookPoint,
    mem: &'a dyn SargonMemory,
}

impl<'a> Search<'a> {
    /// The point that fired.
    pub fn point(&self) -> HookPoint {
        self.point
    }

    /// NPLY: the current ply. 0 while the root is scored and while a set-up move is
    /// replayed, 1 for the root's moves; at the `movegen.*` points the ply whose moves are
    /// being generated; at `search.ascend` the ply being left.
    pub fn ply(&self) -> u8 {
        self.mem.var(Var::Nply)
    }

    /// PLYMAX: the nominal search depth (a check at the last ply searches one more).
    pub fn max_ply(&self) -> u8 {
        self.mem.var(Var::Plymax)
    }

    /// COLOR: the side to move at this ply.
    pub fn side_to_move(&self) -> Side {
        Side::of_byte(self.mem.var(Var::Color))
    }

    /// The moves from the root to the node the point concerns, empty for the root.
    ///
    /// At `movegen.path` and `movegen.done` that node is the one whose moves are being
    /// generated (NPLY - 1 moves: the current move of each ply above, from the ply
    /// table). Elsewhere it is the node of MLPTRJ's move, the move just scored or decided
    /// on (NPLY moves: the ply table's plies 1..NPLY-1, then MLPTRJ's move).
    pub fn path(&self) -> Vec<SMove> {
        let nply = self.ply();
        if nply == 0 {
            return Vec::new();
        }
        let table = self.mem.table(Table::PlyIndex);
        let mut path: Vec<SMove> = (1..u16::from(nply))
            .map(|k| self.entry(self.word(table.wrapping_add(4 * k - 2))))
            .collect();
        let generating = matches!(self.point, HookPoint::MovegenPath | HookPoint::MovegenDone);
        if !generating {
            // At the movegen points MLPTRJ is still the parent's move, already in the path.
            path.push(self.entry(self.mem.pointer(Pointer::Mlptrj)));
        }
        path
    }

    /// Sargon's whole data state as it stands ([`crate::state`]).
    pub fn state(&self) -> crate::state::DataState {
        crate::state::DataState::of(self.mem)
    }

    /// The board as it stands (with the moves of the path made).
    pub fn board(&self) -> Board {
        let at = self.mem.table(Table::Board);
        let mut bytes = [0u8; BOARD_SIZE];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = self.mem.peek(at.wrapping_add(i as u16));
        }
        Board(bytes)
    }

    /// The score table byte at SCRIX + `offset`: two plies above the current ply for 0, one
    /// ply above for 1 (where the original's HL points at FM37).
    fn score_table(&self, offset: u16) -> Score {
        let at = self.mem.pointer(Pointer::Scrix).wrapping_add(offset);
        Score(self.mem.peek(at))
    }

    /// A little-endian word (a list link or a ply table pointer).
    fn word(&self, addr: u16) -> u16 {
        u16::from_le_bytes([self.mem.peek(addr), self.mem.peek(addr.wrapping_add(1))])
    }

    /// The move of the list entry at `entry`: (link, link, from, to, flags, score).
    fn entry(&self, entry: u16) -> SMove {
        SMove {
            from: Sq(self.mem.peek(entry.wrapping_add(2))),
            to: Sq(self.mem.peek(entry.wrapping_add(3))),
            flags: self.mem.peek(entry.wrapping_add(4)),
        }
    }
}

/// PATH's verdict on the square it looked at (register A at `movegen.path`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum PathVerdict {
    /// An empty square: a move there, and a sliding piece goes on.
    Empty = 0,
    /// An enemy piece: a capture, and the direction ends.
    Enemy = 1,
    /// One of the mover's own pieces: no move, the direction ends.
    Own = 2,
    /// The border: no move, the direction ends.
    OffBoard = 3,
}

impl PathVerdict {
    /// PATH returns only 0-3 (anything from 2 up makes MPIECE take the next direction).
    fn from_register(a: u8) -> PathVerdict {
        match a {
            0 => PathVerdict::Empty,
            1 => PathVerdict::Enemy,
            2 => PathVerdict::Own,
            _ => PathVerdict::OffBoard,
        }
    }
}

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
    search: Search<'a>,
    verdict: PathVerdict,
    directions_left: u8,
}

impl<'a> MovegenPath<'a> {
    /// PATH's verdict on [`MovegenPath::to`] (as possibly replaced by an earlier hook).
    pub fn verdict(&self) -> PathVerdict {
        self.verdict
    }

    /// Replace PATH's verdict (what the routine continues with).
    pub fn set_verdict(&mut self, verdict: PathVerdict) {
        self.verdict = verdict;
    }

    /// Register B: the directions still to try for this piece, this one included (MPIECE
    /// counts down to 0; for pawns it also tells which of the four pawn moves this is).
    pub fn directions_left(&self) -> u8 {
        self.directions_left
    }

    /// Replace the count of directions left (register B).
    pub fn set_directions_left(&mut self, count: u8) {
        self.directions_left = count;
    }

    /// Make this the piece's last square: no move here, no further direction. An unmoved
    /// king may still castle (CASTLE runs after the directions).
    pub fn stop_piece(&mut self) {
        self.verdict = PathVerdict::Own;
        self.directions_left = 1;
    }

    /// The piece whose moves are being generated (P1, its board byte).
    pub fn piece(&self) -> Piece {
        Piece::from_board_byte(self.search.mem.var(Var::P1))
            .expect("MPIECE only runs for a square holding a piece")
    }

    /// T1 as MPIECE set it: the piece's row in Sargon's direction tables. That is the
    /// piece type 1-6, except 0 for a black pawn: MPIECE turns a black pawn into type 0 so
    /// that it gets its own, downward, pawn directions. ([`MovegenPath::piece`] gives the
    /// piece itself, a pawn of either colour.)
    pub fn direction_row(&self) -> u8 {
        self.search.mem.var(Var::T1)
    }

    /// M1: the square the piece stands on.
    pub fn from(&self) -> Sq {
        Sq(self.search.mem.var(Var::M1))
    }

    /// M2: the square PATH looked at (a border index when the verdict is `OffBoard`).
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
    search: Search<'a>,
    link_writes: Vec<LinkWrite>,
}

impl<'a> MovegenDone<'a> {
    /// The new ply's moves in list order (castling and en passant once, by their first
    /// entry: the king's or the capturing pawn's move), without those a hook kept out.
    /// Their parent is [`Search::path`].
    pub fn moves(&self) -> Vec<SMove> {
        self.entries().into_iter().map(|(_, m)| m).collect()
    }

    /// Take every move for which `out` is true out of the list; returns how many. A
    /// castling or en passant move is one entry in the chain (its second half follows
    /// it in memory, unlinked), so it goes as a whole.
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
    fn link(&self, at: u16) -> u16 {
        match self.link_writes.iter().rev().find(|w| w.at == at) {
            Some(w) => w.value,
            None => self.search.word(at),
        }
    }

    /// The chain's entries (address, move), following the links asked for so far.
    fn entries(&self) -> Vec<(u16, SMove)> {
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
    search: Search<'a>,
    score: Score,
}

impl<'a> PointsEnd<'a> {
    /// The score of the node at [`Search::path`], from the point of view of the side that
    /// has just moved (see [`Score`]).
    pub fn score(&self) -> Score {
        self.score
    }

    /// Make the search see another score for this node.
    pub fn set_score(&mut self, score: Score) {
        self.score = score;
    }
}

/// `search.alpha_beta`: FM37 is about to compare the node's score with the score two plies
/// above; not greater is an alpha-beta cutoff.
pub struct AlphaBeta<'a> {
    search: Search<'a>,
    score: Score,
}

impl<'a> AlphaBeta<'a> {
    /// The score of the node at [`Search::path`] (from the point of view of its mover).
    pub fn score(&self) -> Score {
        self.score
    }

    /// Replace the score: the comparison, and what is negated and tested next, use it.
    pub fn set_score(&mut self, score: Score) {
        self.score = score;
    }

    /// The score table byte two plies above, the bound the score is compared with.
    pub fn two_plies_up(&self) -> Score {
        self.search.score_table(0)
    }

    /// The comparison about to be made: the score is not greater than the bound, so the
    /// rest of the ply is abandoned.
    pub fn cutoff(&self) -> bool {
        self.score <= self.two_plies_up()
    }
}

/// `search.best_test`: the negated score has just been compared with the best score one
/// ply above; greater makes it the new best.
pub struct BestTest<'a> {
    search: Search<'a>,
    negated: Score,
    /// The decision, made before the point from the engine's own A.
    accepted: bool,
}

impl<'a> BestTest<'a> {
    /// The node's score negated: the parent's point of view.
    pub fn negated_score(&self) -> Score {
        self.negated
    }

    /// Replace what is stored as the new best if the node is accepted (the comparison has
    /// already been made: the decision stays).
    pub fn set_negated_score(&mut self, score: Score) {
        self.negated = score;
    }

    /// The best score so far one ply above.
    pub fn one_ply_up(&self) -> Score {
        self.search.score_table(1)
    }

    /// The decision: the negated score (as it was at the comparison) beat the best.
    pub fn accepted(&self) -> bool {
        self.accepted
    }
}

/// `search.best_confirmed`: the node's negated score has been stored as the new best one
/// ply above (and at ply 1 its move is about to become BESTM).
pub struct BestConfirmed<'a> {
    search: Search<'a>,
    score: Score,
}

impl<'a> BestConfirmed<'a> {
    /// The new best score, from the parent's point of view.
    pub fn score(&self) -> Score {
        self.score
    }

    /// The score table byte one ply above, read back (equal to [`BestConfirmed::score`]).
    pub fn one_ply_up(&self) -> Score {
        self.search.score_table(1)
    }
}

/// `search.ascend`: the search is about to go up from ply NPLY, taking back the move of
/// [`Search::path`].
pub struct Ascend<'a> {
    search: Search<'a>,
}

/// `book.random`: BOOK has read its "random" byte; bit 0 picks White's first move.
///
/// The engines set the byte to [`crate::engine::SearchOptions::book_random`] before
/// any hook runs (the original reads the Z80 refresh register here).
pub struct BookRandom<'a> {
    search: Search<'a>,
    byte: u8,
}

impl<'a> BookRandom<'a> {
    /// The "random" byte BOOK read.
    pub fn byte(&self) -> u8 {
        self.byte
    }

    /// Replace the "random" byte (what BOOK continues with).
    pub fn set_byte(&mut self, byte: u8) {
        self.byte = byte;
    }

    /// The move the byte picks: bit 0 clear is 1.e4, set is 1.d4.
    pub fn picks_d4(&self) -> bool {
        self.byte & 1 != 0
    }
}

/// What a hook sees when a point fires: one view per point.
pub enum HookEvent<'a> {
    /// At `movegen.path`.
    MovegenPath(MovegenPath<'a>),
    /// At `movegen.done`.
    MovegenDone(MovegenDone<'a>),
    /// At `points.end`.
    PointsEnd(PointsEnd<'a>),
    /// At `alphabeta`.
    AlphaBeta(AlphaBeta<'a>),
    /// At `best.test`.
    BestTest(BestTest<'a>),
    /// At `best.confirmed`.
    BestConfirmed(BestConfirmed<'a>),
    /// At `ascend`.
    Ascend(Ascend<'a>),
    /// At `book.random`.
    BookRandom(BookRandom<'a>),
}

impl<'a> HookEvent<'a> {
    /// The view of `point` over an engine's memory and registers.
    fn new(point: HookPoint, mem: &'a dyn SargonMemory, regs: Registers) -> HookEvent<'a> {
        let search = Search { point, mem };
        match point {
            HookPoint::MovegenPath => HookEvent::MovegenPath(MovegenPath {
                search,
                verdict: PathVerdict::from_register(regs.a),
                directions_left: regs.b,
            }),
            HookPoint::MovegenDone => HookEvent::MovegenDone(MovegenDone {
                search,
                link_writes: Vec::new(),
            }),
            HookPoint::PointsEnd => HookEvent::PointsEnd(PointsEnd {
                search,
                score: Score(regs.a),
            }),
            HookPoint::AlphaBeta => HookEvent::AlphaBeta(AlphaBeta {
                search,
                score: Score(regs.a),
            }),
            HookPoint::BestTest => {
                let mut view = BestTest {
                    search,
                    negated: Score(regs.a),
                    accepted: false,
                };
                view.accepted = view.negated > view.one_ply_up();
                HookEvent::BestTest(view)
            }
            HookPoint::BestConfirmed => HookEvent::BestConfirmed(BestConfirmed {
                search,
                score: Score(regs.a),
            }),
            HookPoint::Ascend => HookEvent::Ascend(Ascend { search }),
            HookPoint::BookRandom => HookEvent::BookRandom(BookRandom {
                search,
                byte: regs.a,
            }),
        }
    }

    /// The registers the engine continues with: `regs` with the views' settable values.
    fn registers(&self, regs: Registers) -> Registers {
        match self {
            HookEvent::MovegenPath(v) => Registers {
                a: v.verdict as u8,
                b: v.directions_left,
            },
            HookEvent::PointsEnd(v) => Registers {
                a: v.score.0,
                ..regs
            },
            HookEvent::AlphaBeta(v) => Registers {
                a: v.score.0,
                ..regs
            },
            HookEvent::BestTest(v) => Registers {
                a: v.negated.0,
                ..regs
            },
            HookEvent::BookRandom(v) => Registers { a: v.byte, ..regs },
            HookEvent::MovegenDone(_) | HookEvent::BestConfirmed(_) | HookEvent::Ascend(_) => regs,
        }
    }

    /// What every point shows.
    pub fn search(&self) -> &Search<'a> {
        match self {
            HookEvent::MovegenPath(v) => &v.search,
            HookEvent::MovegenDone(v) => &v.search,
            HookEvent::PointsEnd(v) => &v.search,
            HookEvent::AlphaBeta(v) => &v.search,
            HookEvent::BestTest(v) => &v.search,
            HookEvent::BestConfirmed(v) => &v.search,
            HookEvent::Ascend(v) => &v.search,
            HookEvent::BookRandom(v) => &v.search,
        }
    }

    /// The point that fired.
    pub fn point(&self) -> HookPoint {
        self.search().point
    }
}

impl fmt::Debug for Search<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path: Vec<String> = self.path().iter().map(|m| m.uci()).collect();
        f.debug_struct("Search")
            .field("point", &self.point.name())
            .field("ply", &self.ply())
            .field("max_ply", &self.max_ply())
            .field("side_to_move", &self.side_to_move())
            .field("path", &path)
            .finish_non_exhaustive()
    }
}

/// Something that wants to run at hook points: a trace recorder, a score injector, ...
pub trait Hook {
    /// The points this hook wants; the engine arms only these.
    fn points(&self) -> HookMask;
    /// Called at each armed point; may change what the point's view lets it change.
    fn at(&mut self, event: &mut HookEvent<'_>);
}

/// A hook from a closure, for one-off uses and tests.
pub struct FnHook<F: FnMut(&mut HookEvent<'_>)> {
    mask: HookMask,
    f: F,
}

impl<F: FnMut(&mut HookEvent<'_>)> FnHook<F> {
    /// A hook calling `f` at `points`.
    pub fn new(points: &[HookPoint], f: F) -> Self {
        FnHook {
            mask: HookMask::of(points),
            f,
        }
    }
}

impl<F: FnMut(&mut HookEvent<'_>)> Hook for FnHook<F> {
    fn points(&self) -> HookMask {
        self.mask
    }
    fn at(&mut self, event: &mut HookEvent<'_>) {
        (self.f)(event)
    }
}

/// The hooks attached to one search, run in the order they were added.
#[derive(Default)]
pub struct Hooks<'a> {
    list: Vec<&'a mut dyn Hook>,
    mask: HookMask,
}

impl<'a> Hooks<'a> {
    /// No hooks.
    pub fn new() -> Self {
        Hooks::default()
    }

    /// Add a hook, run after those already added.
    pub fn add(&mut self, hook: &'a mut dyn Hook) -> &mut Self {
        self.mask = HookMask(self.mask.0 | hook.points().0);
        self.list.push(hook);
        self
    }

    /// The union of the points every hook wants.
    pub fn mask(&self) -> HookMask {
        self.mask
    }

    /// Whether no hook was added.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Run every hook that wants `point`, showing it the engine's `memory` and `registers`;
    /// returns the registers as the hooks left them. Engines call this only when
    /// [`Hooks::mask`] contains the point.
    pub fn fire(
        &mut self,
        point: HookPoint,
        memory: &dyn SargonMemory,
        registers: Registers,
    ) -> Registers {
        self.fire_all(point, memory, registers).registers
    }

    /// [`Hooks::fire`], with the move-list links the hooks asked for, which the engine
    /// writes (in order) before it goes on.
    pub fn fire_all(
        &mut self,
        point: HookPoint,
        memory: &dyn SargonMemory,
        registers: Registers,
    ) -> Fired {
        let mut event = HookEvent::new(point, memory, registers);
        for h in self.list.iter_mut() {
            if h.points().contains(point) {
                h.at(&mut event);
            }
        }
        let link_writes = match &mut event {
            HookEvent::MovegenDone(v) => std::mem::take(&mut v.link_writes),
            _ => Vec::new(),
        };
        Fired {
            registers: event.registers(registers),
            link_writes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny memory with a two-move list at ply 1 and a score table.
    struct Toy {
        mem: Vec<u8>,
        nply: u8,
    }

    const PLYIX: u16 = 0x100;
    const SCRIX: u16 = 0x200;
    const BOARD: u16 = 0x300;
    const LIST: u16 = 0x400;

    impl SargonMemory for Toy {
        fn var(&self, var: Var) -> u8 {
            match var {
                Var::Nply => self.nply,
                Var::Plymax => 2,
                Var::Color => 0x80,
                Var::P1 => 0x81,
                Var::T1 => 0,
                Var::M1 => 85,
                Var::M2 => 75,
            }
        }
        fn pointer(&self, pointer: Pointer) -> u16 {
            match pointer {
                Pointer::Mlptri => PLYIX,
                Pointer::Mlptrj => LIST + 6,
                Pointer::Scrix => SCRIX,
            }
        }
        fn table(&self, table: Table) -> u16 {
            match table {
                Table::Board => BOARD,
                Table::PlyIndex => PLYIX,
            }
        }
        fn peek(&self, addr: u16) -> u8 {
            self.mem[addr as usize]
        }
    }

    fn toy(nply: u8) -> Toy {
        let mut mem = vec![0u8; 0x1000];
        // PLYIX slot 0 (ply 1's head) -> LIST -> LIST+6 -> null; ply 1's current move at
        // PLYIX+2.
        mem[PLYIX as usize..PLYIX as usize + 4].copy_from_slice(&[0x00, 0x04, 0x06, 0x04]);
        mem[LIST as usize..LIST as usize + 12]
            .copy_from_slice(&[0x06, 0x04, 35, 55, 0x10, 0, 0x00, 0x00, 34, 54, 0x10, 0]);
        mem[SCRIX as usize] = 0x70;
        mem[SCRIX as usize + 1] = 0x90;
        Toy { mem, nply }
    }

    #[test]
    fn names_round_trip() {
        for p in HookPoint::ALL {
            assert_eq!(HookPoint::from_name(p.name()), Some(p));
        }
        assert_eq!(HookPoint::from_name("nope"), None);
    }

    #[test]
    fn mask_collects_points() {
        let mut a = FnHook::new(&[HookPoint::PointsEnd], |_| {});
        let mut b = FnHook::new(&[HookPoint::Ascend, HookPoint::AlphaBeta], |_| {});
        let mut hooks = Hooks::new();
        hooks.add(&mut a).add(&mut b);
        let m = hooks.mask();
        assert!(m.contains(HookPoint::PointsEnd));
        assert!(m.contains(HookPoint::Ascend));
        assert!(!m.contains(HookPoint::MovegenPath));
    }

    #[test]
    fn views_read_the_memory_and_hand_back_the_registers() {
        let mem = toy(2);
        let mut seen = Vec::new();
        let mut hook = FnHook::new(&HookPoint::ALL, |e| {
            let path: Vec<String> = e.search().path().iter().map(|m| m.uci()).collect();
            seen.push((e.point(), path.join(" ")));
            match e {
                HookEvent::MovegenPath(v) => {
                    assert_eq!(v.piece().kind, crate::vocab::PieceKind::Pawn);
                    assert_eq!(v.piece().side, Side::Black);
                    assert_eq!(v.direction_row(), 0, "a black pawn's row");
                    assert_eq!((v.from(), v.to()), (Sq(85), Sq(75)));
                    assert_eq!(v.verdict(), PathVerdict::Empty);
                    v.stop_piece();
                }
                HookEvent::MovegenDone(v) => {
                    let moves: Vec<String> = v.moves().iter().map(|m| m.uci()).collect();
                    assert_eq!(moves, ["e2e4", "d2d4"]);
                }
                HookEvent::AlphaBeta(v) => {
                    assert_eq!(v.two_plies_up(), Score(0x70));
                    assert!(!v.cutoff());
                    v.set_score(Score(0x60));
                    assert!(v.cutoff());
                }
                HookEvent::BestTest(v) => {
                    assert_eq!(v.one_ply_up(), Score(0x90));
                    assert!(v.accepted());
                    v.set_negated_score(Score(0x10));
                    assert!(v.accepted(), "the decision was taken before the point");
                }
                HookEvent::BookRandom(v) => v.set_byte(v.byte() ^ 1),
                _ => {}
            }
        });
        let mut hooks = Hooks::new();
        hooks.add(&mut hook);
        let regs = Registers { a: 0, b: 4 };
        let out = hooks.fire(HookPoint::MovegenPath, &mem, regs);
        assert_eq!(out, Registers { a: 2, b: 1 });
        hooks.fire(HookPoint::MovegenDone, &mem, regs);
        let out = hooks.fire(HookPoint::AlphaBeta, &mem, Registers { a: 0x80, b: 4 });
        assert_eq!(out, Registers { a: 0x60, b: 4 });
        let out = hooks.fire(HookPoint::BestTest, &mem, Registers { a: 0xa0, b: 4 });
        assert_eq!(out.a, 0x10);
        let out = hooks.fire(HookPoint::Ascend, &mem, Registers { a: 0x33, b: 4 });
        assert_eq!(out, Registers { a: 0x33, b: 4 }, "nothing to set at ascend");
        let out = hooks.fire(HookPoint::BookRandom, &mem, Registers { a: 0x40, b: 0 });
        assert_eq!(out.a, 0x41);
        drop(hooks);
        // At ply 2 the movegen points show the parent (ply 1's current move, from the ply
        // table); the other points add MLPTRJ's move.
        assert_eq!(seen[0], (HookPoint::MovegenPath, "d2d4".to_string()));
        assert_eq!(seen[1], (HookPoint::MovegenDone, "d2d4".to_string()));
        assert_eq!(seen[2], (HookPoint::AlphaBeta, "d2d4 d2d4".to_string()));
    }

    #[test]
    fn keep_out_relinks_the_list() {
        let mem = toy(1);
        let mut hooks = Hooks::new();
        let mut kept = Vec::new();
        let mut hook = FnHook::new(&[HookPoint::MovegenDone], |e| {
            if let HookEvent::MovegenDone(v) = e {
                assert_eq!(v.keep_out(|m| m.uci() == "e2e4"), 1);
                // The list as the engine will see it, and a second look finds nothing more.
                kept = v.moves().iter().map(|m| m.uci()).collect();
                assert_eq!(v.keep_out(|m| m.uci() == "e2e4"), 0);
            }
        });
        hooks.add(&mut hook);
        let fired = hooks.fire_all(HookPoint::MovegenDone, &mem, Registers::default());
        drop(hooks);
        assert_eq!(kept, ["d2d4"]);
        // The head (the word at MLPTRI) now links to the second entry.
        assert_eq!(
            fired.link_writes,
            [LinkWrite {
                at: PLYIX,
                value: LIST + 6
            }]
        );
        // The last move: its predecessor's link takes the null.
        let mut hooks = Hooks::new();
        let mut hook = FnHook::new(&[HookPoint::MovegenDone], |e| {
            if let HookEvent::MovegenDone(v) = e {
                v.keep_out(|m| m.uci() == "d2d4");
            }
        });
        hooks.add(&mut hook);
        let fired = hooks.fire_all(HookPoint::MovegenDone, &mem, Registers::default());
        assert_eq!(fired.link_writes, [LinkWrite { at: LIST, value: 0 }]);
    }

    #[test]
    fn a_looping_list_stops_at_the_walk_limit() {
        let mut mem = toy(1);
        // The second entry links back to the first.
        mem.mem[LIST as usize + 6] = 0x00;
        mem.mem[LIST as usize + 7] = 0x04;
        let mut n = 0;
        let mut hook = FnHook::new(&[HookPoint::MovegenDone], |e| {
            if let HookEvent::MovegenDone(v) = e {
                n = v.moves().len();
            }
        });
        let mut hooks = Hooks::new();
        hooks.add(&mut hook);
        hooks.fire(HookPoint::MovegenDone, &mem, Registers::default());
        drop(hooks);
        assert_eq!(n, MAX_LIST_WALK);
        let root = Search {
            point: HookPoint::MovegenDone,
            mem: &mem,
        };
        assert!(root.path().is_empty(), "ply 1's parent is the root");
    }
}
