//! The original on two Z80 cores in lock-step (`sargon emulator crosscheck`), small enough
//! for CI: a few depth-1 and depth-2 searches, one with a move replayed through VALMOV,
//! agree instruction by instruction, and a fault put into the second core is caught and
//! named. The whole golden corpus is run by hand (docs/emulator.md has the numbers).

use crate::common;

use sargon_core::engine::SearchOptions;
use sargon_core::hooks::Hooks;
use sargon_core::position::Book;
use sargon_core::position::{parse_position, setup};
use sargon_core::Engine as _;
use sargon_original::emu::lockstep::{Crosscheck, Fault, Item, Options};
use sargon_original::emu::Emulator;

/// (FEN, book, depth): the initial position searched (book off), and the Sicilian with
/// its en passant square, which the harness sets up by replaying c7c5 through VALMOV.
const SEARCHES: [(&str, bool, u8); 3] = [
    ("startpos", false, 1),
    ("startpos", false, 2),
    (
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2",
        true,
        1,
    ),
];

#[test]
fn both_cores_agree_on_small_searches() {
    let Some(rom) = common::rom("both_cores_agree_on_small_searches") else {
        return;
    };
    let mut cc = Crosscheck::new(rom.clone(), Options::default()).unwrap();
    let mut emu = Emulator::new(rom).unwrap();
    for (fen, book, depth) in SEARCHES {
        let s = setup(&parse_position(fen).unwrap(), Book::from(book)).unwrap();
        let check = cc.search(&s, depth, 0).unwrap();
        if let Some(d) = &check.disagreement {
            panic!("{fen} depth {depth}: the cores disagree:\n{d}");
        }
        assert!(
            check.cycle_mismatches.is_empty(),
            "{fen} depth {depth}: T-states differ from the table: {:?}",
            check.cycle_mismatches
        );
        // The lock-step ran the very search the harness runs: as many instructions, the
        // set-up's calls included, and the table's T-states as the search reports.
        let outcome = emu
            .search(&s, &SearchOptions::depth(depth), &mut Hooks::new())
            .unwrap();
        assert_eq!(
            check.instructions,
            emu.instructions(),
            "{fen} depth {depth}"
        );
        assert_eq!(check.table_t_states, emu.t_states(), "{fen} depth {depth}");
        assert!(outcome.stats.z80_instructions.unwrap() <= check.instructions);
        assert_eq!(check.second_t_states, check.table_t_states);
    }
}

#[test]
fn a_fault_in_the_second_core_is_named() {
    let Some(rom) = common::rom("a_fault_in_the_second_core_is_named") else {
        return;
    };
    let s = setup(&parse_position("startpos").unwrap(), Book::Off).unwrap();
    let faults = [
        (Fault::Register { name: "DE", xor: 1 }, Item::Register("DE")),
        (Fault::Flags(0x01), Item::Flags { differing: 0x01 }),
    ];
    for (fault, named) in faults {
        let options = Options {
            fault: Some((5000, fault.clone())),
            ..Options::default()
        };
        let mut cc = Crosscheck::new(rom.clone(), options).unwrap();
        let check = cc.search(&s, 1, 0).unwrap();
        let d = check.disagreement.expect("the fault is caught");
        assert_eq!(d.index, 5000, "{fault:?}");
        assert_eq!(check.instructions, 5001);
        assert_eq!(d.items, vec![named], "{fault:?}");
        assert!(!d.place.is_empty() && !d.instruction.is_empty());
    }
}

#[test]
fn the_command_checks_an_epd_file() {
    let Some(_) = common::rom("the_command_checks_an_epd_file") else {
        return;
    };
    let epd = common::temp_file(".epd", "8/8/8/3k4/8/8/8/K1Q5 w - - 0 1\n");
    let out = common::sargon(&[
        "emulator",
        "crosscheck",
        epd.path().to_str().unwrap(),
        "--depths",
        "1-2",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    // A line per search, beside the progress bar on stderr.
    let err = String::from_utf8_lossy(&out.stderr);
    for d in ["d1", "d2"] {
        let line = format!("#1 {d}: ");
        assert!(err.contains(&line), "{err}");
    }
    assert!(err.contains("agree, T-states as the table"), "{err}");
    assert!(text.contains("2 of 2 searches"), "{text}");
    assert!(text.ends_with("0 disagreements\n"), "{text}");
}

#[test]
fn the_command_refuses_bad_input() {
    // Neither needs a ROM: the positions are read first.
    let out = common::sargon(&["emulator", "crosscheck", "/nonexistent/positions.epd"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot read /nonexistent/positions.epd"),
        "{err}"
    );
    let corpus = common::temp_file(".txt", "a | 1,9 | book | startpos\n");
    let out = common::sargon(&["emulator", "crosscheck", corpus.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("depth"), "{err}");
}
