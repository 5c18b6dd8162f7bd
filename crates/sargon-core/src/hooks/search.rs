//! What every hook point shows ([`Search`]): the ply, the depth, the side to move, the
//! path from the root, the board; and PATH's verdict.

use std::fmt;

use super::points::HookPoint;
use crate::memory::{Pointer, SargonMemory, Table, Var};
use crate::vocab::{Board, SMove, Score, Side, Sq, BOARD_SIZE};

/// What every hook point shows: the ply, the depth, the side to move, the moves from the
/// root and the board.
#[derive(Copy, Clone)]
pub struct Search<'a> {
    pub(super) point: HookPoint,
    pub(super) mem: &'a dyn SargonMemory,
}

impl<'a> Search<'a> {
    /// The point that fired.
    ///
    /// ```
    /// use sargon_core::{setup, Book, Engine, FnHook, HookPoint, Hooks, SearchOptions};
    ///
    /// let mut seen = Vec::new();
    /// let mut hook = FnHook::new(&[HookPoint::BestConfirmed], |e| seen.push(e.search().point()));
    /// let mut hooks = Hooks::new();
    /// hooks.add(&mut hook);
    /// let start = setup(&shakmaty::Chess::default(), Book::Off)?;
    /// sargon_port::Port::new().search(&start, &SearchOptions::depth(1), &mut hooks)?;
    /// drop(hooks);
    /// drop(hook);
    /// assert!(!seen.is_empty() && seen.iter().all(|&p| p == HookPoint::BestConfirmed));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn point(&self) -> HookPoint {
        self.point
    }

    /// NPLY: the current ply. 0 while the root is scored and while a set-up move is
    /// replayed, 1 for the root's moves; at the `movegen.*` points the ply whose moves are
    /// being generated; at `search.ascend` the ply being left.
    ///
    /// ```
    /// use sargon_core::{setup, Book, Engine, FnHook, HookPoint, Hooks, SearchOptions};
    ///
    /// let mut plies = std::collections::BTreeSet::new();
    /// let mut hook = FnHook::new(&[HookPoint::PointsEnd], |e| { plies.insert(e.search().ply()); });
    /// let mut hooks = Hooks::new();
    /// hooks.add(&mut hook);
    /// let start = setup(&shakmaty::Chess::default(), Book::Off)?;
    /// sargon_port::Port::new().search(&start, &SearchOptions::depth(2), &mut hooks)?;
    /// drop(hooks);
    /// drop(hook);
    /// assert_eq!(plies.into_iter().collect::<Vec<_>>(), [0, 1, 2]); // the root scored at ply 0
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn ply(&self) -> u8 {
        self.mem.var(Var::Nply)
    }

    /// PLYMAX: the nominal search depth (a check at the last ply searches one more).
    ///
    /// ```
    /// use sargon_core::{setup, Book, Engine, FnHook, HookPoint, Hooks, SearchOptions};
    ///
    /// let mut depth = None;
    /// let mut hook = FnHook::new(&[HookPoint::Ascend], |e| depth = Some(e.search().max_ply()));
    /// let mut hooks = Hooks::new();
    /// hooks.add(&mut hook);
    /// let start = setup(&shakmaty::Chess::default(), Book::Off)?;
    /// sargon_port::Port::new().search(&start, &SearchOptions::depth(3), &mut hooks)?;
    /// drop(hooks);
    /// drop(hook);
    /// assert_eq!(depth, Some(3));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_ply(&self) -> u8 {
        self.mem.var(Var::Plymax)
    }

    /// COLOR: the side to move at this ply.
    ///
    /// ```
    /// use sargon_core::vocab::Side;
    /// use sargon_core::{setup, Book, Engine, FnHook, HookPoint, Hooks, SearchOptions};
    ///
    /// let mut sides = Vec::new();
    /// let mut hook = FnHook::new(&[HookPoint::MovegenDone], |e| {
    ///     sides.push((e.search().ply(), e.search().side_to_move()));
    /// });
    /// let mut hooks = Hooks::new();
    /// hooks.add(&mut hook);
    /// let start = setup(&shakmaty::Chess::default(), Book::Off)?;
    /// sargon_port::Port::new().search(&start, &SearchOptions::depth(2), &mut hooks)?;
    /// drop(hooks);
    /// drop(hook);
    /// assert_eq!(sides[0], (1, Side::White)); // the root's moves are White's
    /// assert!(sides.contains(&(2, Side::Black)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn side_to_move(&self) -> Side {
        Side::of_byte(self.mem.var(Var::Color))
    }

    /// The moves from the root to the node the point concerns, empty for the root.
    ///
    /// At `movegen.path` and `movegen.done` that node is the one whose moves are being
    /// generated (NPLY - 1 moves: the current move of each ply above, from the ply
    /// table). Elsewhere it is the node of MLPTRJ's move, the move just scored or decided
    /// on (NPLY moves: the ply table's plies 1..NPLY-1, then MLPTRJ's move).
    ///
    /// ```
    /// use sargon_core::{setup, Book, Engine, FnHook, HookPoint, Hooks, SearchOptions};
    ///
    /// let mut paths = Vec::new();
    /// let mut hook = FnHook::new(&[HookPoint::PointsEnd], |e| {
    ///     let search = e.search();
    ///     paths.push((search.ply(), search.path()));
    /// });
    /// let mut hooks = Hooks::new();
    /// hooks.add(&mut hook);
    /// let start = setup(&shakmaty::Chess::default(), Book::Off)?;
    /// sargon_port::Port::new().search(&start, &SearchOptions::depth(2), &mut hooks)?;
    /// drop(hooks);
    /// drop(hook);
    /// // Away from the movegen points, the path holds one move per ply.
    /// assert!(paths.iter().all(|(ply, path)| path.len() == usize::from(*ply)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
    ///
    /// ```
    /// use sargon_core::state::DataState;
    /// use sargon_core::{setup, Book, Engine, FnHook, HookPoint, Hooks, SearchOptions};
    ///
    /// let mut first: Option<DataState> = None;
    /// let mut hook = FnHook::new(&[HookPoint::PointsEnd], |e| {
    ///     first.get_or_insert_with(|| e.search().state());
    /// });
    /// let mut hooks = Hooks::new();
    /// hooks.add(&mut hook);
    /// let start = setup(&shakmaty::Chess::default(), Book::Off)?;
    /// sargon_port::Port::new().search(&start, &SearchOptions::depth(1), &mut hooks)?;
    /// drop(hooks);
    /// drop(hook);
    /// let state = first.unwrap();
    /// assert_eq!(DataState::name(14), "MOVENO");
    /// assert_eq!(state.cells[14].to_string(), "02"); // Book::Off: move 2
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn state(&self) -> crate::state::DataState {
        crate::state::DataState::of(self.mem)
    }

    /// The board as it stands (with the moves of the path made).
    ///
    /// ```
    /// use sargon_core::vocab::PieceKind;
    /// use sargon_core::{setup, Book, Engine, FnHook, HookPoint, Hooks, SearchOptions, Sq};
    ///
    /// // At ply 1 the root's move is made on the board: after 1.e4, e4 holds a pawn.
    /// let mut e4_pawn = false;
    /// let mut hook = FnHook::new(&[HookPoint::PointsEnd], |e| {
    ///     let search = e.search();
    ///     if search.path().first().map(|m| m.uci()).as_deref() == Some("e2e4") && search.ply() == 1 {
    ///         e4_pawn = search.board().piece_at(Sq(55)).map(|p| p.kind) == Some(PieceKind::Pawn);
    ///     }
    /// });
    /// let mut hooks = Hooks::new();
    /// hooks.add(&mut hook);
    /// let start = setup(&shakmaty::Chess::default(), Book::Off)?;
    /// sargon_port::Port::new().search(&start, &SearchOptions::depth(1), &mut hooks)?;
    /// drop(hooks);
    /// drop(hook);
    /// assert!(e4_pawn);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
    pub(super) fn score_table(&self, offset: u16) -> Score {
        let at = self.mem.pointer(Pointer::Scrix).wrapping_add(offset);
        Score(self.mem.peek(at))
    }

    /// A little-endian word (a list link or a ply table pointer).
    pub(super) fn word(&self, addr: u16) -> u16 {
        u16::from_le_bytes([self.mem.peek(addr), self.mem.peek(addr.wrapping_add(1))])
    }

    /// The move of the list entry at `entry`: (link, link, from, to, flags, score).
    pub(super) fn entry(&self, entry: u16) -> SMove {
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
    pub(super) fn from_register(a: u8) -> PathVerdict {
        match a {
            0 => PathVerdict::Empty,
            1 => PathVerdict::Enemy,
            2 => PathVerdict::Own,
            _ => PathVerdict::OffBoard,
        }
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
