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
    pub(super) search: Search<'a>,
    pub(super) link_writes: Vec<LinkWrite>,
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
    pub(super) search: Search<'a>,
    pub(super) score: Score,
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
    pub(super) search: Search<'a>,
    pub(super) negated: Score,
    /// The decision, made before the point from the engine's own A.
    pub(super) accepted: bool,
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
    pub(super) search: Search<'a>,
    pub(super) score: Score,
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
