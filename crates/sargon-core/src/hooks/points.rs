//! The hook points, sets of them, and the registers an engine hands over at a point.

/// A named place in Sargon's search. See `docs/hooks.md` for each one's contract, and the
/// view of the same name in [`HookEvent`](super::HookEvent) for what a hook sees there.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum HookPoint {
    /// In MPIECE right after `CALL PATH`: PATH's verdict for the square tried, which a hook
    /// may replace to steer move generation ([`MovegenPath`](super::MovegenPath)).
    MovegenPath,
    /// In FNDMOV right after `CALL GENMOV`: the move list of ply NPLY is complete
    /// ([`MovegenDone`](super::MovegenDone)).
    MovegenDone,
    /// At the end of POINTS, before the score is stored: observe or replace it
    /// ([`PointsEnd`](super::PointsEnd)).
    PointsEnd,
    /// At FM37, before the node's score is compared with the score two plies above
    /// ([`AlphaBeta`](super::AlphaBeta)).
    AlphaBeta,
    /// After the negated score has been compared with the best one ply above ([`BestTest`](super::BestTest)).
    BestTest,
    /// After a new best score has been stored one ply above ([`BestConfirmed`](super::BestConfirmed)).
    BestConfirmed,
    /// On entry to ASCEND: the search goes back up one ply ([`Ascend`](super::Ascend)).
    Ascend,
    /// In BOOK right after `LD A,R`: the "random" byte whose bit 0 picks 1.e4 or 1.d4
    /// ([`BookRandom`](super::BookRandom)).
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
    ///
    /// ```
    /// use sargon_core::HookPoint;
    /// assert_eq!(HookPoint::PointsEnd.name(), "points.end");
    /// assert_eq!(HookPoint::BookRandom.name(), "book.random");
    /// ```
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
    ///
    /// ```
    /// use sargon_core::HookPoint;
    /// assert_eq!(HookPoint::from_name("search.alpha_beta"), Some(HookPoint::AlphaBeta));
    /// assert_eq!(HookPoint::from_name("nowhere"), None);
    /// ```
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
    ///
    /// ```
    /// use sargon_core::{HookMask, HookPoint};
    /// let mask = HookMask::of(&[HookPoint::PointsEnd]);
    /// assert!(mask.contains(HookPoint::PointsEnd) && !mask.contains(HookPoint::Ascend));
    /// ```
    pub fn contains(self, p: HookPoint) -> bool {
        self.0 & p.bit() != 0
    }
    /// The set with `p` added.
    ///
    /// ```
    /// use sargon_core::{HookMask, HookPoint};
    /// let mask = HookMask::default().with(HookPoint::Ascend);
    /// assert!(mask.contains(HookPoint::Ascend));
    /// assert_eq!(mask.with(HookPoint::Ascend), mask);
    /// ```
    pub fn with(self, p: HookPoint) -> HookMask {
        HookMask(self.0 | p.bit())
    }
    /// The set of these points.
    ///
    /// ```
    /// use sargon_core::{HookMask, HookPoint};
    /// let mask = HookMask::of(&[HookPoint::AlphaBeta, HookPoint::BestTest]);
    /// assert_eq!(mask, HookMask::default().with(HookPoint::AlphaBeta).with(HookPoint::BestTest));
    /// assert_eq!(HookMask::of(&[]), HookMask::default());
    /// ```
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
