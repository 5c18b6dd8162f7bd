//! The whole-state comparison: two engines on the same search, compared not only by their
//! events but by all of Sargon's data ([`sargon_core::state`]) at every point where an
//! event can arise.
//!
//! Both engines run at once on two threads, as in [`crate::diff`]. At each of the hook
//! points that make the trace's events (`movegen.done`, `points.end`, `alphabeta`,
//! `best.test`, `best.confirmed`, `ascend`) the first engine sends its state through a
//! bounded channel and the second compares its own with it, cell by cell. The first
//! difference outside the cells left out by name stops both.
//!
//! What may be left out, and why, is listed once in docs/port.md; the caller passes the
//! names ([`StateOptions::skip`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};

use sargon_core::engine::{Engine, SearchError, SearchOptions};
use sargon_core::hooks::{FnHook, HookEvent, HookPoint, Hooks};
use sargon_core::position::Setup;
use sargon_core::state::{Cell, DataState};
use sargon_core::vocab::SMove;

/// Snapshots in flight between the two engines.
const CHANNEL_DEPTH: usize = 256;

/// The points compared: those where the trace's events arise.
pub use sargon_core::trace::EVENT_POINTS as POINTS;

/// One snapshot: where it was taken, and the state.
struct Snapshot {
    point: HookPoint,
    path: Vec<SMove>,
    state: DataState,
}

/// Where two engines' states first differ.
#[derive(Clone, Debug)]
pub struct StateDifference {
    /// 0-based index of the snapshot (the hook firing) where they differ.
    pub snapshot: u64,
    /// The hook point it was taken at.
    pub point: HookPoint,
    /// The moves from the root to the node the point concerns.
    pub path: Vec<SMove>,
    /// The cell's name (`NPLY`, `BOARDA+21`, `MLIST+126 (entry 21, link)`).
    pub name: String,
    /// The first engine's cell.
    pub left: Cell,
    /// The second engine's cell.
    pub right: Cell,
    /// How many cells differ in that snapshot (outside those left out).
    pub cells_differing: usize,
    /// The first few of them: name, first engine's cell, second engine's.
    pub others: Vec<(String, Cell, Cell)>,
}

/// How many differing cells a difference lists.
const LISTED: usize = 16;

/// The outcome of one search compared state by state.
#[derive(Clone, Debug)]
pub struct StateComparison {
    /// Snapshots compared: all equal but the last when there is a difference (a search
    /// that differs at its first snapshot has compared 1, not 0).
    pub snapshots: u64,
    /// Cells in each snapshot.
    pub cells: usize,
    /// The first difference, if any.
    pub difference: Option<StateDifference>,
    /// Where the two engines' sequences of points parted (a different point or path at
    /// the same index), if they did before any cell differed.
    pub parted: Option<String>,
}

/// What to leave out of the comparison.
#[derive(Clone, Debug, Default)]
pub struct StateOptions {
    /// Names of cells, or of whole variables or areas (`VALM`, `MLIST`), not compared.
    pub skip: Vec<String>,
}

impl StateOptions {
    /// The cell indices left out, from [`StateOptions::skip`].
    fn skipped(&self, cells: usize) -> Vec<bool> {
        (0..cells)
            .map(|i| {
                let name = DataState::name(i);
                self.skip.iter().any(|s| is_part_of(&name, s))
            })
            .collect()
    }
}

/// Whether the cell called `cell` is `name` or part of the variable or area `name`
/// (`BOARDA+21` of `BOARDA`).
fn is_part_of(cell: &str, name: &str) -> bool {
    cell == name
        || cell
            .strip_prefix(name)
            .is_some_and(|rest| rest.starts_with('+') || rest.starts_with(' '))
}

/// How many cells a snapshot has: fixed by the layout, whatever the engine.
fn cell_count() -> usize {
    sargon_core::state::VARIABLES.len()
        + sargon_core::state::POINTERS.len()
        + (sargon_core::state::TABLE_AREA
            + sargon_core::state::BOOK_AREA
            + sargon_core::state::MOVE_LIST_AREA) as usize
}

/// Of `names`, those that leave out no cell: neither a cell's name nor a variable's or an
/// area's (`VALM`, `MLIST`, `PLYIX+32`). A name that matches nothing would compare what
/// the person meant to leave out, so callers refuse these.
///
/// ```
/// use sargon_referee::state_diff::unknown_names;
/// let names = ["VALM".to_string(), "MLIST".into(), "BOARDA+21".into(), "NOSUCH".into()];
/// assert_eq!(unknown_names(&names), ["NOSUCH"]);
/// ```
pub fn unknown_names(names: &[String]) -> Vec<&str> {
    let cells: Vec<String> = (0..cell_count()).map(DataState::name).collect();
    names
        .iter()
        .filter(|name| !cells.iter().any(|cell| is_part_of(cell, name)))
        .map(String::as_str)
        .collect()
}

/// Run the same search on both engines and compare Sargon's whole data at every point.
///
/// ```
/// use sargon_core::engine::{Capabilities, Engine, SearchError, SearchOptions, SearchOutcome};
/// use sargon_core::{setup, Book, Hooks, Setup};
/// use sargon_port::Port;
/// use sargon_referee::state_diff::{compare_state, StateOptions};
///
/// let start = setup(&shakmaty::Chess::default(), Book::Off)?;
/// let opts = SearchOptions::depth(1);
/// let same = compare_state(&mut Port::new(), &mut Port::new(), &start, &opts, &StateOptions::default())?;
/// assert!(same.difference.is_none() && same.parted.is_none() && same.snapshots > 0);
///
/// /// The port, told a later move number than the position's.
/// struct Later(Port);
/// impl Engine for Later {
///     fn id(&self) -> String { "later".into() }
///     fn max_depth(&self) -> u8 { self.0.max_depth() }
///     fn capabilities(&self) -> Capabilities { self.0.capabilities() }
///     fn search(&mut self, s: &Setup, o: &SearchOptions, h: &mut Hooks)
///         -> Result<SearchOutcome, SearchError> {
///         let later = Setup { moveno: s.moveno + 10, ..s.clone() };
///         self.0.search(&later, o, h)
///     }
/// }
/// let found = compare_state(&mut Port::new(), &mut Later(Port::new()), &start, &opts, &StateOptions::default())?;
/// let d = found.difference.expect("MOVENO differs");
/// assert_eq!((d.snapshot, d.name.as_str()), (0, "MOVENO"));
/// // Left out, MOVENO differs nowhere (at depth 1 its value changes no score).
/// let skip = StateOptions { skip: vec!["MOVENO".into()] };
/// let skipped = compare_state(&mut Port::new(), &mut Later(Port::new()), &start, &opts, &skip)?;
/// assert!(skipped.difference.is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn compare_state(
    left: &mut (dyn Engine + Send),
    right: &mut (dyn Engine + Send),
    setup: &Setup,
    opts: &SearchOptions,
    state_opts: &StateOptions,
) -> Result<StateComparison, SearchError> {
    let stop = Arc::new(AtomicBool::new(false));
    let mut opts = opts.clone();
    opts.stop = Some(stop.clone());
    let (tx, rx) = mpsc::sync_channel::<Snapshot>(CHANNEL_DEPTH);
    let cells = cell_count();
    let skipped = state_opts.skipped(cells);

    std::thread::scope(|scope| {
        let left_opts = opts.clone();
        let left_thread = scope.spawn(move || {
            let mut hook = FnHook::new(&POINTS, |event: &mut HookEvent<'_>| {
                let search = event.search();
                // A closed channel means the comparison is over.
                let _ = tx.send(Snapshot {
                    point: event.point(),
                    path: search.path(),
                    state: search.state(),
                });
            });
            let mut hooks = Hooks::new();
            hooks.add(&mut hook);
            left.search(setup, &left_opts, &mut hooks)
        });

        let mut snapshots = 0u64;
        let mut difference: Option<StateDifference> = None;
        let mut parted: Option<String> = None;
        let mut hook = FnHook::new(&POINTS, |event: &mut HookEvent<'_>| {
            if difference.is_some() || parted.is_some() {
                return;
            }
            let search = event.search();
            let (point, path) = (event.point(), search.path());
            let Ok(theirs) = rx.recv() else {
                parted = Some(format!(
                    "the first engine's search ended before the second's {} at snapshot {snapshots}",
                    point.name()
                ));
                stop.store(true, Ordering::Relaxed);
                return;
            };
            if theirs.point != point || theirs.path != path {
                parted = Some(format!(
                    "at snapshot {snapshots} the first engine is at {} {:?}, the second at {} {:?}",
                    theirs.point.name(),
                    theirs.path.iter().map(|m| m.uci()).collect::<Vec<_>>(),
                    point.name(),
                    path.iter().map(|m| m.uci()).collect::<Vec<_>>()
                ));
                stop.store(true, Ordering::Relaxed);
                return;
            }
            let mine = search.state();
            let skip = |i: usize| skipped[i];
            if let Some(i) = theirs.state.first_difference(&mine, &skip) {
                let differing: Vec<usize> = (0..mine.cells.len())
                    .filter(|&j| !skipped[j] && !theirs.state.same(&mine, j))
                    .collect();
                let cells_differing = differing.len();
                let others = differing
                    .iter()
                    .take(LISTED)
                    .map(|&j| (DataState::name(j), theirs.state.cells[j], mine.cells[j]))
                    .collect();
                difference = Some(StateDifference {
                    snapshot: snapshots,
                    point,
                    path,
                    name: DataState::name(i),
                    left: theirs.state.cells[i],
                    right: mine.cells[i],
                    cells_differing,
                    others,
                });
                // The differing snapshot was compared too.
                snapshots += 1;
                stop.store(true, Ordering::Relaxed);
                return;
            }
            snapshots += 1;
        });
        let right_result = {
            let mut hooks = Hooks::new();
            hooks.add(&mut hook);
            right.search(setup, &opts, &mut hooks)
        };
        drop(rx);
        let left_result = left_thread
            .join()
            .expect("the first engine's thread panicked");
        match (left_result, right_result) {
            (Err(e), _) | (_, Err(e)) if !matches!(e, SearchError::Stopped) => Err(e),
            _ => Ok(StateComparison {
                snapshots,
                cells,
                difference,
                parted,
            }),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sargon_core::position::Book;
    use shakmaty::Chess;

    #[test]
    fn two_ports_agree_state_by_state_and_a_skip_is_by_name() {
        let setup = sargon_core::position::setup(&Chess::default(), Book::Off).unwrap();
        let mut left = sargon_port::Port::new();
        let mut right = sargon_port::Port::new();
        let c = compare_state(
            &mut left,
            &mut right,
            &setup,
            &SearchOptions::depth(2),
            &StateOptions::default(),
        )
        .unwrap();
        assert!(c.difference.is_none(), "{:?}", c.difference);
        assert!(c.parted.is_none());
        assert!(c.snapshots > 300, "{}", c.snapshots);
        assert_eq!(c.cells, 28 + 6 + 263 + 12 + 2048);
        let opts = StateOptions {
            skip: vec!["MLIST".into(), "VALM".into(), "BOARDA".into()],
        };
        let skipped = opts.skipped(c.cells);
        let name_of = |i: usize| DataState::name(i);
        assert!(
            skipped[sargon_core::state::VARIABLES
                .iter()
                .position(|&v| v == "VALM")
                .unwrap()]
        );
        assert!(
            !skipped[sargon_core::state::VARIABLES
                .iter()
                .position(|&v| v == "NPLY")
                .unwrap()]
        );
        let board = (0..c.cells).find(|&i| name_of(i) == "BOARDA+21").unwrap();
        assert!(skipped[board]);
        let wact = (0..c.cells).find(|&i| name_of(i) == "WACT").unwrap();
        assert!(!skipped[wact]);
        assert!(skipped[c.cells - 1], "{}", name_of(c.cells - 1));
    }

    #[test]
    fn only_names_of_cells_variables_or_areas_are_known() {
        let names: Vec<String> = [
            "VALM",
            "MLIST",
            "PLYIX+32",
            "BOARDA+21",
            "NOSUCHCELL",
            "VAL",
            "",
            "MLIST+",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(unknown_names(&names), ["NOSUCHCELL", "VAL", "", "MLIST+"]);
    }

    /// The port, searching one ply deeper than asked.
    struct Deeper(sargon_port::Port);

    impl Engine for Deeper {
        fn id(&self) -> String {
            "deeper".into()
        }
        fn max_depth(&self) -> u8 {
            self.0.max_depth() - 1
        }
        fn capabilities(&self) -> sargon_core::Capabilities {
            self.0.capabilities()
        }
        fn search(
            &mut self,
            setup: &Setup,
            opts: &SearchOptions,
            hooks: &mut Hooks,
        ) -> Result<sargon_core::engine::SearchOutcome, SearchError> {
            let mut deeper = opts.clone();
            deeper.depth += 1;
            self.0.search(setup, &deeper, hooks)
        }
    }

    #[test]
    fn engines_that_part_are_caught_with_where() {
        // PLYMAX differs from the first snapshot on.
        let setup = sargon_core::position::setup(&Chess::default(), Book::Off).unwrap();
        let c = compare_state(
            &mut sargon_port::Port::new(),
            &mut Deeper(sargon_port::Port::new()),
            &setup,
            &SearchOptions::depth(1),
            &StateOptions::default(),
        )
        .unwrap();
        let d = c.difference.expect("PLYMAX differs");
        assert_eq!(d.name, "PLYMAX");
        assert_eq!((d.left, d.right), (Cell::Byte(1), Cell::Byte(2)));
        assert_eq!(d.snapshot, 0);
        // The differing snapshot counts as compared: "1 snapshot compared, 1 with a
        // difference", never "0 snapshots compared, 1 with a difference".
        assert_eq!(c.snapshots, 1);
        // Left out by name, the comparison goes on until the searches part.
        let c = compare_state(
            &mut sargon_port::Port::new(),
            &mut Deeper(sargon_port::Port::new()),
            &setup,
            &SearchOptions::depth(1),
            &StateOptions {
                skip: vec!["PLYMAX".into()],
            },
        )
        .unwrap();
        assert!(c.difference.is_some() || c.parted.is_some(), "{c:?}");
        if let Some(d) = &c.difference {
            assert_ne!(d.name, "PLYMAX");
        }
    }
}
