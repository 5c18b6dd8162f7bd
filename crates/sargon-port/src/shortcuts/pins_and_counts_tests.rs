//! Tests of PINFND by occupancy bits (`pins`) and of the memo's counted attackers of empty
//! squares (`count_attackers`): each against the original's steps.

use super::cache::Key;
use super::pins;
use crate::faithful::state::{Machine, BACT, POSK, POSQ, ROYAL_END, WACT};
use crate::{Port, Scoring};
use sargon_core::engine::{Engine, SearchOptions};
use sargon_core::hooks::Hooks;
use sargon_core::position::{parse_position, setup, Book};

/// The machine of a port set up for `fen` (book off), ready to search to depth 2.
fn machine(fen: &str) -> Machine {
    let pos = parse_position(fen).expect("position");
    let s = setup(&pos, Book::Off).expect("setup");
    let mut port = Port::with_scoring(Scoring::Shortcuts);
    port.prepare(&s, 2, 0, &mut Hooks::new()).expect("prepare");
    port.machine
}

/// PINFND by occupancy bits on `m`: whether it was done, and the machine it leaves.
fn fast_pinfnd(m: &Machine) -> (bool, Machine) {
    let mut fast = m.clone();
    let occ = pins::occupancy(Key::of(m).expect("cached").ranks()).expect("no border byte");
    (pins::pinfnd(&mut fast, occ), fast)
}

/// Pins on every kind of line, against kings and queens; a queen pinned by a queen, both
/// ways PF19's ATTACK decides it (Bf3 pinned to Qe4 by Qh1 with e4 attacked by more than
/// it is defended; Qe4 defended by the bishop it shields from Qa8); PF19's attack list
/// spilling into the pin list; and PF19 on the last line PINFND scans.
const PIN_POSITIONS: [&str; 8] = [
    "4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1",
    "4k3/8/8/b7/8/8/3N4/R3K2r w - - 0 1",
    "1k6/8/8/8/b7/8/2P5/3K4 w - - 0 1",
    "8/4r3/4r3/3qq3/3kQ3/5B2/1K6/7q b - - 0 60",
    "8/4r3/4r3/2Nqq1N1/3kQ3/2NP1B2/1K1N1N2/7q b - - 0 60",
    "q6k/8/8/3B4/4Q3/8/8/4K3 w - - 0 1",
    "4k3/4q3/8/4R3/8/8/8/3QK3 b - - 0 1",
    // PF19 on PINFND's very last line (Black's queen looking left past Nc5 to Qa5):
    // ATTACK's M2 is what PINFND leaves.
    "7k/8/8/Q1n1q3/8/8/8/7K w - - 0 1",
];

/// PINFND by occupancy bits leaves the machine exactly as PINFND's own steps do (the
/// pins, M2, M3, M4, P1, P2, T2, and after PF19 the attack list and T1), on positions with
/// pins of every kind and on 40 varied ones.
#[test]
fn pinfnd_by_occupancy_bits_leaves_what_pinfnd_leaves() {
    let epd = include_str!("../../../../tests/positions/varied-200.epd");
    let varied = epd
        .lines()
        .step_by(5)
        .map(|l| l.split(" bm ").next().unwrap_or(l));
    let mut pinned = 0;
    for fen in PIN_POSITIONS.into_iter().chain(varied) {
        let mut m = machine(fen);
        // Values PINFND overwrites, unlike anything it could leave.
        (m.m2, m.m4, m.p2, m.t2, m.t1) = (0x5A, 0x5A, 0x5A, 0x5A, 0x5A);
        let (done, fast) = fast_pinfnd(&m);
        assert!(done, "{fen}: done by occupancy bits");
        let mut slow = m.clone();
        slow.pinfnd();
        let diff = fast.differences(&slow);
        assert!(diff.is_empty(), "{fen}: {diff:?}");
        pinned += usize::from(slow.npins > 0);
    }
    // All the pin positions but the one whose PF19 finds the queen defended enough.
    assert!(
        pinned >= PIN_POSITIONS.len() - 1,
        "{pinned} positions with pins"
    );
}

/// Where PINFND would read past the royalty table (its end byte overwritten) or list more
/// than 10 pins (running into the royalty table), PINFND by occupancy bits writes nothing
/// and leaves it to PINFND's own steps.
#[test]
fn pinfnd_by_occupancy_bits_leaves_the_unusual_to_pinfnd() {
    let m = machine(PIN_POSITIONS[0]);
    let mut open_ended = m.clone();
    open_ended.wr(ROYAL_END, 0);
    let (done, fast) = fast_pinfnd(&open_ended);
    assert!(!done && fast.differences(&open_ended).is_empty());
    // Eight pins around the white king on e4, counted four times over.
    let mut crowded = machine("k3r3/1b5b/8/3PPP2/r2PKP1r/3PPP2/8/1b2r2b w - - 0 1");
    for at in [POSK, POSK + 1, POSQ, POSQ + 1] {
        crowded.wr(at, 55);
    }
    let (done, fast) = fast_pinfnd(&crowded);
    assert!(!done && fast.differences(&crowded).is_empty());
}

/// A search with the shortcuts of `fen` to `depth`, each scoring checked against the
/// original's steps by the verifying scorer (a difference panics): the memo's counts.
fn verified_counts(fen: &str, depth: u8) -> (crate::shortcuts::memo::SquareCounts, bool) {
    let pos = parse_position(fen).expect("position");
    let s = setup(&pos, Book::Off).expect("setup");
    let mut port = Port::with_scoring(Scoring::Verified);
    port.search(&s, &SearchOptions::depth(depth), &mut Hooks::new())
        .expect("search");
    let shortcuts = port.shortcuts().expect("shortcuts");
    (shortcuts.square_counts(), shortcuts.spilled())
}

/// Empty squares' attackers are counted without an attack list as ATKSAV counts them,
/// PNCK's verdicts on pinned attackers included: searches with pins, checked scoring by
/// scoring against the original's steps.
#[test]
fn an_empty_squares_attackers_are_counted_as_atksav_counts_them() {
    for fen in &PIN_POSITIONS[..3] {
        let (counts, _) = verified_counts(fen, 3);
        assert!(counts.counted > 0, "{fen}: {counts:?}");
    }
}

/// On e5, empty, White's queen's slot overflows into the king's (Qd4, Qe4, Re3 and Re2
/// behind it) and the king's value (Kd5) then goes into BACT: the square's attackers
/// cannot be counted, and ATKSAV's steps find the spill.
#[test]
fn an_empty_square_whose_kings_slot_spills_is_not_counted() {
    let fen = "k7/8/8/3K4/3QQ3/4R3/4R3/8 w - - 0 60";
    let mut m = machine(fen);
    (m.m3, m.p1) = (65, 0);
    m.clear_attack_list();
    m.t1 = 7;
    m.attack();
    assert_eq!(
        (m.rd(WACT), m.rd(BACT)),
        (5, 10),
        "the king's value in BACT"
    );
    let (_, spilled) = verified_counts(fen, 2);
    assert!(spilled, "the spill seen");
}
