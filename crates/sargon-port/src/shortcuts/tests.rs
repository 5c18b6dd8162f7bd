//! Tests of what the shortcuts save (that they change nothing is `shortcuts_change_nothing`
//! and the golden traces).

use super::cache::{Entry, Key};
use super::memo::{index, SQUARES};
use super::Shortcuts;
use crate::faithful::state::{Machine, BOARDA};
use crate::scorer::Scorer;
use crate::{Port, Scoring};
use sargon_core::engine::{Engine, SearchOptions};
use sargon_core::hooks::Hooks;
use sargon_core::position::{parse_position, setup, Book};

const MIDDLEGAME: &str = "2r1nrk1/5pbp/1p2p1p1/8/p2B4/PqNR2P1/1P3P1P/1Q1R2K1 w - - 0 1";

/// The squares PTSCK names for a move to them, as far as one scoring tells: the one it
/// named (for tests that score by the original's steps and store the result).
fn checks_of(m: &Machine) -> u64 {
    index(m.ptsck).map_or(0, |k| 1 << k)
}

/// A port set up for `fen` (book off) and ready to search to `depth`.
fn prepared(fen: &str, depth: u8, scoring: Scoring) -> Port {
    let pos = parse_position(fen).expect("position");
    let s = setup(&pos, Book::Off).expect("setup");
    let mut port = Port::with_scoring(scoring);
    port.prepare(&s, depth, 0, &mut Hooks::new())
        .expect("prepare");
    port
}

/// A square whose scans found the same attackers as last time and whose piece is the same
/// keeps its terms: of the squares the memo looks at again, a good part is not worked
/// out again (checked against the original's steps by the verifying scorer).
#[test]
fn squares_that_found_the_same_attackers_are_not_worked_out_again() {
    let pos = parse_position(MIDDLEGAME).expect("position");
    let s = setup(&pos, Book::Off).expect("setup");
    let mut port = Port::with_scoring(Scoring::Verified);
    port.search(&s, &SearchOptions::depth(3), &mut Hooks::new())
        .expect("search");
    let counts = port.shortcuts().expect("shortcuts").square_counts();
    assert!(
        counts.worked_out * 10 < counts.looked_at * 9,
        "at least a tenth kept: {counts:?}"
    );
}

/// A cache entry (key and results) fits in two 64-byte cache lines: the table's writes,
/// to a slot no recent access has brought near, touch two lines.
#[test]
fn a_cache_entry_is_two_cache_lines() {
    assert_eq!(std::mem::size_of::<Entry>(), 128);
    assert_eq!(std::mem::align_of::<Entry>(), 64);
}

/// The key leaves the board's frame out, so a position whose frame is broken (a hook
/// can put a piece there) is not cached; one with its frame whole is, and a different
/// square makes a different key.
#[test]
fn the_cache_key_holds_the_squares_and_refuses_a_broken_frame() {
    let mut port = prepared(MIDDLEGAME, 2, Scoring::Shortcuts);
    let m = &mut port.machine;
    let key = Key::of(m).expect("a whole frame is cached");
    // a1 (board index 21) emptied: another key.
    let a1 = m.rd(BOARDA + 21);
    m.wr(BOARDA + 21, a1 ^ 0x01);
    assert!(Key::of(m).expect("cached") != key);
    m.wr(BOARDA + 21, a1);
    assert!(Key::of(m).expect("cached") == key);
    // The frame byte left of a1 (board index 20) holds a piece: not cached.
    m.wr(BOARDA + 20, 0x01);
    assert!(Key::of(m).is_none());
}

/// The cache has room for a deep search's transpositions: on the benchmark's heaviest
/// position at depth 5 (111,254 scorings), more than one in seven come from the cache
/// (16,517 with 2^18 slots and the move's to-square out of the key; 10,386 with the
/// to-square in the key, and 8,854 with 2^16 slots as well).
#[test]
fn a_deep_search_finds_its_transpositions_in_the_cache() {
    let pos = parse_position(MIDDLEGAME).expect("position");
    let s = setup(&pos, Book::Off).expect("setup");
    let mut port = Port::new();
    port.search(&s, &SearchOptions::depth(5), &mut Hooks::new())
        .expect("search");
    let shortcuts = port.shortcuts().expect("shortcuts");
    let (hits, scorings) = (shortcuts.cache_hits(), shortcuts.scorings());
    eprintln!("{hits} of {scorings} scorings from the cache");
    assert!(hits * 7 > scorings, "{hits} of {scorings}");
}

/// The cache is emptied for each search by the search's number, not by writing the table:
/// an entry stored in one search answers in that search only, and the numbers run from 1
/// to 0x7fff and round again, never 0 (the empty slots' keys hold 0 there).
#[test]
fn an_entry_answers_in_its_own_search_only() {
    use super::cache::EvalCache;
    let mut port = prepared(MIDDLEGAME, 2, Scoring::Shortcuts);
    let m = &mut port.machine;
    let mut cache = EvalCache::default();
    cache.clear();
    assert_eq!(cache.search(), 1);
    let key = Key::of(m).expect("cached");
    let place = EvalCache::place(&key);
    m.pinfnd();
    m.points_squares();
    let scored = m.clone();
    cache.store(m, key, place, checks_of(m));
    m.mtrl ^= 0x55;
    assert!(cache.restore(m, &key, place), "found in its search");
    assert!(
        m.differences(&scored).is_empty(),
        "the results written back"
    );
    cache.clear();
    assert!(!cache.restore(m, &key, place), "not found in the next");
    for _ in 0..0x7FFE {
        cache.clear();
    }
    assert_eq!(cache.search(), 1, "round again after 0x7fff, past 0");
}

/// The shortcuts run PINFND before they look the position up (the entry's slot is
/// prefetched and comes meanwhile), so an entry found is written over what PINFND left:
/// the machine must come out as PINFND and POINTS leave it, pins and all.
#[test]
fn an_entry_written_after_pinfnd_leaves_what_pinfnd_and_points_leave() {
    use super::cache::EvalCache;
    // The bishop on e2 is pinned by the rook on e8.
    let mut port = prepared("4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1", 2, Scoring::Shortcuts);
    let m = &mut port.machine;
    let start = m.clone();
    let mut cache = EvalCache::default();
    cache.clear();
    let key = Key::of(m).expect("cached");
    let place = EvalCache::place(&key);
    cache.prefetch(place);
    m.pinfnd();
    assert!(m.npins > 0, "a pin found");
    m.points_squares();
    let scored = m.clone();
    cache.store(m, key, place, checks_of(m));
    *m = start;
    cache.prefetch(place);
    m.pinfnd();
    assert!(cache.restore(m, &key, place), "found");
    assert!(
        m.differences(&scored).is_empty(),
        "as PINFND and POINTS leave it: {:?}",
        m.differences(&scored)
    );
}

/// The cache's key leaves out the move's to-square: an entry keeps the squares PTSCK
/// would name had the move gone to them, so the position scored once (by the memo) is
/// written back for a move to any of the 64 squares exactly as the original's steps
/// score it, PTSCK included.
#[test]
fn an_entry_serves_a_move_to_any_square() {
    // Pieces of both sides stand attacked, so that whichever side moved can lose one on
    // several squares (the largest loss decides which square PTSCK may name).
    let mut port = prepared(
        "b3k3/8/2Rp4/4N3/1p6/P7/8/4K3 w - - 0 1",
        2,
        Scoring::Shortcuts,
    );
    let m = &mut port.machine;
    let to = m.mlptrj.wrapping_add(3);
    let start = m.clone();
    let mut shortcuts = Shortcuts::new();
    shortcuts.new_search();
    shortcuts.pinfnd_points_squares(m);
    let mut named = 0;
    for sq in SQUARES {
        *m = start.clone();
        m.wr(to, sq);
        let mut original = m.clone();
        original.pinfnd();
        original.points_squares();
        shortcuts.pinfnd_points_squares(m);
        let diff = m.differences(&original);
        assert!(diff.is_empty(), "a move to {sq}: {diff:?}");
        named += u32::from(original.ptsck != 0);
    }
    assert_eq!(shortcuts.cache_hits(), 64, "every one from the entry");
    assert!(named >= 2, "PTSCK named {named} of the squares");
}
