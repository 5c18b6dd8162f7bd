//! Tests of single routines on small boards.

use super::state::{Machine, ATKLST, BACT, MLIST, POSK, POSQ, WACT};
use super::{Port, Scoring};
use sargon_core::engine::{Engine, SearchError, SearchOptions};
use sargon_core::hooks::Hooks;
use sargon_core::position::Book;
use sargon_core::position::{parse_position, setup};
use sargon_core::vocab::{flag, SMove, Sq, BLACK, KNIGHT, PAWN, QUEEN};

/// A machine set up for `fen` as before a search (book off), with MLPTRJ as the harness
/// leaves it (the scratch entry, or the replayed move).
fn prepared(fen: &str) -> Port {
    let pos = parse_position(fen).expect("position");
    let s = setup(&pos, Book::Off).expect("setup");
    let mut port = Port::new();
    port.prepare(&s, 2, 0, &mut Hooks::new()).expect("prepare");
    port
}

/// GENMOV for the side to move, as FNDMOV's first ply runs it.
fn root_moves(m: &mut Machine) -> Vec<SMove> {
    m.mlnxt = MLIST;
    m.mlptri = m.layout.plyix.wrapping_sub(2);
    m.color = m.kolor;
    m.genmov(&mut Hooks::new());
    m.list_from(m.mlptri)
}

fn ucis(moves: &[SMove]) -> Vec<String> {
    moves.iter().map(|m| m.uci()).collect()
}

#[test]
fn initial_position_has_twenty_moves_each() {
    let mut port = prepared("startpos");
    let m = &mut port.machine;
    assert_eq!(root_moves(m).len(), 20);
    assert_eq!(m.ckflg, 0);
    m.kolor = BLACK;
    let black = root_moves(m);
    assert_eq!(black.len(), 20);
    // Unmoved pieces: every move carries the first-move flag.
    assert!(black.iter().all(|mv| mv.flags & flag::FIRST_MOVE != 0));
    // The list lies at MLIST in 6-byte entries, linked from the ply table slot.
    assert_eq!(m.rd16(m.mlptri), MLIST);
    assert_eq!(m.mlnxt, MLIST + 6 * 20);
}

#[test]
fn castling_both_sides_when_free() {
    let mut port = prepared("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 12");
    let moves = root_moves(&mut port.machine);
    let all = ucis(&moves);
    assert!(
        all.contains(&"e1g1".into()) && all.contains(&"e1c1".into()),
        "{all:?}"
    );
    let oo = moves.iter().find(|m| m.uci() == "e1g1").unwrap();
    assert_eq!(oo.flags, flag::DOUBLE | flag::FIRST_MOVE);
    // Castling is listed once: the rook's half is not linked.
    assert_eq!(all.iter().filter(|m| m.starts_with("e1")).count(), 5 + 2);
}

#[test]
fn no_castling_through_attacked_squares_but_b1_is_not_checked() {
    // The bishop on d3 covers f1 (so no O-O) and b1 (which CASTLE does not test).
    let mut port = prepared("4k3/8/8/8/8/3b4/8/R3K2R w KQ - 0 12");
    let all = ucis(&root_moves(&mut port.machine));
    assert!(!all.contains(&"e1g1".into()), "{all:?}");
    assert!(all.contains(&"e1c1".into()), "{all:?}");
}

#[test]
fn no_castling_out_of_check_or_without_rights() {
    let mut port = prepared("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 12");
    let all = ucis(&root_moves(&mut port.machine));
    assert_eq!(port.machine.ckflg, 1);
    assert!(
        !all.contains(&"e1g1".into()) && !all.contains(&"e1c1".into()),
        "{all:?}"
    );
    let mut port = prepared("4k3/8/8/8/8/8/8/R3K2R w - - 0 12");
    let all = ucis(&root_moves(&mut port.machine));
    assert!(
        !all.contains(&"e1g1".into()) && !all.contains(&"e1c1".into()),
        "{all:?}"
    );
}

#[test]
fn castling_moves_king_and_rook_and_back() {
    let mut port = prepared("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 12");
    let m = &mut port.machine;
    root_moves(m);
    let before = m.board_array();
    let mut p = m.rd16(m.mlptri);
    while m.entry_move(p).uci() != "e1c1" {
        p = m.rd16(p);
    }
    m.mlptrj = p;
    m.move_();
    assert_eq!(m.board(23), sargon_core::vocab::KING | 0x08 | 0x10); // c1: moved, castled
    assert_eq!(m.board(24), sargon_core::vocab::ROOK | 0x08); // d1
    assert_eq!((m.board(21), m.board(25)), (0, 0));
    assert_eq!(m.rd(POSK), 23);
    m.unmove();
    assert_eq!(m.board_array(), before);
    assert_eq!(m.rd(POSK), 25);
}

#[test]
fn en_passant_after_the_replayed_double_push() {
    // d6 is the en passant square: the harness writes the position before d7-d5 and
    // replays the push, which leaves MLPTRJ on it.
    let mut port = prepared("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 30");
    let m = &mut port.machine;
    assert_eq!(m.entry_move(m.mlptrj).uci(), "d7d5");
    let moves = root_moves(m);
    let ep = moves
        .iter()
        .find(|mv| mv.uci() == "e5d6")
        .expect("en passant generated");
    assert_eq!(ep.flags & flag::DOUBLE, flag::DOUBLE);
    // The second half follows the first in memory: a dummy move d5-d5 carrying the pawn.
    let mut p = m.rd16(m.mlptri);
    while m.entry_move(p).uci() != "e5d6" {
        p = m.rd16(p);
    }
    let second = m.entry_move(p + 6);
    assert_eq!((second.from, second.to), (Sq(64), Sq(64)));
    assert_eq!(second.flags & 0x87, BLACK | PAWN);
    let before = m.board_array();
    m.mlptrj = p;
    m.move_();
    assert_eq!(m.board(64), 0, "captured pawn removed");
    assert_eq!(m.board(74), PAWN | 0x08);
    m.unmove();
    assert_eq!(m.board_array(), before);
}

#[test]
fn no_en_passant_without_the_double_push() {
    let mut port = prepared("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 30");
    let all = ucis(&root_moves(&mut port.machine));
    assert!(!all.contains(&"e5d6".into()), "{all:?}");
}

#[test]
fn promotion_is_always_to_a_queen() {
    let mut port = prepared("1n5k/P7/8/8/8/8/8/K7 w - - 0 40");
    let m = &mut port.machine;
    let moves = root_moves(m);
    for uci in ["a7a8q", "a7b8q"] {
        let mv = moves.iter().find(|mv| mv.uci() == uci).expect(uci);
        assert_ne!(mv.flags & flag::PROMOTE, 0);
    }
    let capture = moves.iter().find(|mv| mv.uci() == "a7b8q").unwrap();
    assert_eq!(capture.flags & 0x87, BLACK | KNIGHT);
    // MOVE turns the pawn into a queen but does not record it in POSQ.
    let before = m.board_array();
    let mut p = m.rd16(m.mlptri);
    while m.entry_move(p).uci() != "a7a8q" {
        p = m.rd16(p);
    }
    m.mlptrj = p;
    m.move_();
    assert_eq!(m.board(91), QUEEN | 0x08);
    assert_eq!(m.rd(POSQ), 0);
    m.unmove();
    assert_eq!(m.board_array(), before);
}

#[test]
fn move_and_unmove_restore_every_position() {
    let mut port =
        prepared("r1bqk2r/pPpp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/P1PP1PPP/R1BQK2R w KQkq - 0 6");
    let m = &mut port.machine;
    let moves = root_moves(m);
    assert!(moves.len() > 30);
    let (board, royal) = (
        m.board_array(),
        [m.rd(POSK), m.rd(POSK + 1), m.rd(POSQ), m.rd(POSQ + 1)],
    );
    let mut p = m.rd16(m.mlptri);
    while p >> 8 != 0 {
        m.mlptrj = p;
        m.move_();
        m.unmove();
        assert_eq!(m.board_array(), board, "{}", m.entry_move(p));
        assert_eq!(
            [m.rd(POSK), m.rd(POSK + 1), m.rd(POSQ), m.rd(POSQ + 1)],
            royal
        );
        p = m.rd16(p);
    }
}

#[test]
fn royalt_finds_kings_and_queens() {
    let port = prepared("3qk3/8/8/8/8/8/8/3QK3 w - - 0 20");
    let m = &port.machine;
    assert_eq!(
        [m.rd(POSK), m.rd(POSK + 1), m.rd(POSQ), m.rd(POSQ + 1)],
        [25, 95, 24, 94]
    );
    let port = prepared("4k3/8/8/8/8/8/8/4K3 w - - 0 20");
    let m = &port.machine;
    assert_eq!([m.rd(POSQ), m.rd(POSQ + 1)], [0, 0]);
}

#[test]
fn inchk_sees_checks() {
    let mut port = prepared("4k3/8/8/8/8/8/4r3/4K3 w - - 0 20");
    let m = &mut port.machine;
    m.color = 0;
    assert_eq!(m.inchk(), 1);
    assert_eq!(m.inchk1(BLACK), 0);
    // A pawn attacks only forwards.
    let mut port = prepared("4k3/8/8/8/8/8/4p3/4K3 w - - 0 20");
    assert_eq!(port.machine.inchk1(0), 0);
    let mut port = prepared("4k3/8/8/8/8/8/3p4/4K3 w - - 0 20");
    assert_eq!(port.machine.inchk1(0), 1);
}

#[test]
fn attack_list_and_exchange() {
    // White pawn e4 attacked by a black knight on f6 and defended by nothing: losing it
    // costs 2 (a pawn, doubled).
    let mut port = prepared("4k3/8/5n2/8/4P3/8/8/4K3 w - - 0 20");
    let m = &mut port.machine;
    m.npins = 0;
    m.m3 = 55;
    m.p1 = m.board(55);
    m.t3 = PAWN;
    m.t1 = 7;
    m.clear_attack_list();
    assert_eq!(m.attack(), 0);
    assert_eq!((m.rd(WACT), m.rd(BACT)), (0, 1));
    assert_eq!(
        m.rd(BACT + u16::from(KNIGHT)),
        3,
        "knight's value in its slot"
    );
    assert_eq!(m.xchng(), (2, 2));
    // Defended by a pawn on d3: the knight would not take, nothing is lost.
    let mut port = prepared("4k3/8/5n2/8/4P3/3P4/8/4K3 w - - 0 20");
    let m = &mut port.machine;
    m.npins = 0;
    (m.m3, m.t3, m.t1) = (55, PAWN, 7);
    m.p1 = m.board(55);
    m.clear_attack_list();
    m.attack();
    assert_eq!((m.rd(WACT), m.rd(BACT)), (1, 1));
    assert_eq!(m.xchng(), (2, 0));
    assert!(
        (0..14).all(|i| m.rd(ATKLST + i) == 0 || i == 0 || i == 7),
        "values consumed"
    );
}

#[test]
fn attack_list_keeps_two_values_per_slot_then_spills() {
    // Three white rooks on the a-file attack a8 through each other (a battery): two go
    // into the rook slot, the third into the next (queen) slot.
    let mut port = prepared("r3k3/8/8/8/R7/R7/R7/4K3 w - - 0 20");
    let m = &mut port.machine;
    m.npins = 0;
    (m.m3, m.t1) = (91, 7);
    m.p1 = m.board(91);
    m.clear_attack_list();
    m.attack();
    assert_eq!(m.rd(WACT), 3);
    assert_eq!(m.rd(WACT + 4), 0x55);
    assert_eq!(m.rd(WACT + 5), 0x05);
}

#[test]
fn limit_clamps_signed_bytes() {
    use crate::faithful::eval::limit;
    assert_eq!(limit(5, 30), 5);
    assert_eq!(limit(31, 30), 30);
    assert_eq!(limit(0x7F, 30), 30);
    assert_eq!(limit(0xFB, 30), 0xFB); // -5
    assert_eq!(limit(0xE1, 30), 0xE2); // -31 -> -30
    assert_eq!(limit(0x80, 6), 0xFA);
    assert_eq!(limit(0, 6), 0);
}

#[test]
fn points_of_the_initial_position_is_level() {
    let mut port = prepared("startpos");
    let m = &mut port.machine;
    m.color = 0;
    m.pinfnd();
    m.points(&mut Hooks::new());
    assert_eq!(m.valm, 0x80);
    assert_eq!(m.mtrl, 0);
    assert_eq!(m.brdc, 0);
}

#[test]
fn pinfnd_lists_a_pinned_knight() {
    // The knight on e2 is pinned to the white king by the rook on e8.
    let mut port = prepared("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 20");
    let m = &mut port.machine;
    m.pinfnd();
    assert_eq!(m.npins, 1);
    assert_eq!(m.rd(super::state::PLISTA), 35);
    assert_eq!(m.rd(super::state::PLISTA + 10), 10); // direction from the king: up
}

#[test]
fn replay_of_an_illegal_move_is_refused() {
    let pos = parse_position("startpos").unwrap();
    let mut s = setup(&pos, Book::Off).unwrap();
    s.replay = Some((Sq(35), Sq(65))); // e2e5
    let err = Port::new()
        .search(&s, &SearchOptions::depth(2), &mut Hooks::new())
        .unwrap_err();
    assert!(
        matches!(err, SearchError::ReplayRefused { ref uci } if uci == "e2e5"),
        "{err}"
    );
}

#[test]
fn admove_out_of_space_writes_through_the_difference() {
    let mut port = prepared("startpos");
    let m = &mut port.machine;
    m.mlnxt = m.layout.mlend + 6;
    m.mllst = MLIST;
    m.wr16(0xFFFA, 0xFFFF);
    m.admove();
    assert_eq!(m.rd16(0xFFFA), 0, "the original zeroes MLEND - MLNXT");
    assert_eq!(m.mlnxt, m.layout.mlend + 6, "nothing added");
}

#[test]
fn eight_queens_overflow_the_move_list_at_depth_4() {
    // 2040 bytes hold 340 entries: four queens a side fill them at depth 4 (plus the check
    // extension). ADMOVE then drops moves and zeroes the word at 0xFFFA.
    let pos = parse_position("qq2k1qq/8/8/8/8/8/8/QQ2K1QQ w - - 0 40").unwrap();
    let s = setup(&pos, Book::Off).unwrap();
    for (depth, overflows) in [(3, false), (4, true)] {
        let mut port = Port::new();
        port.prepare(&s, depth, 0, &mut Hooks::new()).unwrap();
        port.machine.wr16(0xFFFA, 0xFFFF);
        port.fndmov(&mut Hooks::new(), None);
        assert_eq!(port.machine.rd16(0xFFFA) == 0, overflows, "depth {depth}");
    }
}

/// A search of `fen` by the original's steps, or with the shortcuts and every PINFND +
/// POINTS checked against the original's steps (a difference panics), returning its trace
/// and the final machine.
fn verified_search(
    fen: &str,
    depth: u8,
    shortcuts: bool,
) -> (Vec<sargon_core::trace::Event>, Port) {
    use sargon_core::trace::{Detail, Recorder};
    let pos = parse_position(fen).expect("position");
    let s = setup(&pos, Book::Off).expect("setup");
    let mut port = Port::with_scoring(if shortcuts {
        Scoring::Verified
    } else {
        Scoring::OriginalSteps
    });
    let mut events = Vec::new();
    {
        let mut rec = Recorder::into_vec(Detail::Full, &mut events);
        let mut hooks = Hooks::new();
        hooks.add(&mut rec);
        let opts = SearchOptions {
            depth,
            ..SearchOptions::default()
        };
        port.search(&s, &opts, &mut hooks).expect("search");
    }
    (events, port)
}

/// The memo and the cache leave the machine exactly as the original's steps would, after
/// every PINFND + POINTS, on 40 varied positions at depth 3 and the benchmark's heaviest
/// position at depth 4; the searches' traces and final states are those of the original's
/// steps.
#[test]
fn shortcuts_change_nothing() {
    let epd = include_str!("../../../tests/positions/varied-200.epd");
    let mut fens: Vec<(String, u8)> = epd
        .lines()
        .step_by(5)
        .map(|l| (l.split(" bm ").next().unwrap_or(l).to_string(), 3))
        .collect();
    fens.push((
        "2r1nrk1/5pbp/1p2p1p1/8/p2B4/PqNR2P1/1P3P1P/1Q1R2K1 w - - 0 1".into(),
        4,
    ));
    let mut hits = 0;
    for (fen, depth) in &fens {
        let (fast, fast_port) = verified_search(fen, *depth, true);
        let (slow, slow_port) = verified_search(fen, *depth, false);
        assert!(fast == slow, "{fen}: traces differ");
        let diff = fast_port.machine.differences(&slow_port.machine);
        assert!(diff.is_empty(), "{fen}: final states differ: {diff:?}");
        assert!(slow_port.shortcuts().is_none());
        hits += fast_port.shortcuts().expect("shortcuts").cache_hits();
    }
    assert!(hits > 0, "the cache was never used");
}

/// Black's queen slot overflows into the king's slot and the king's value into the pin
/// list (ATKSAV's seventh slot) while POINTS scores e4 at the root: from then on the
/// search runs the original's steps, and agrees with them.
#[test]
fn an_attack_list_spilling_into_the_pin_list_turns_the_shortcuts_off() {
    // On e4: Qd5 (queen slot), Qe5 then Re6, Re7 behind it (queen slot, overflowing into
    // the king's slot), then the king on d4 (a full king's slot: the spill).
    let fen = "8/4r3/4r3/3qq3/3k4/8/8/K5N1 w - - 0 60";
    let (fast, fast_port) = verified_search(fen, 2, true);
    assert!(
        fast_port.shortcuts().expect("shortcuts").spilled(),
        "the position must spill"
    );
    let (slow, slow_port) = verified_search(fen, 2, false);
    assert!(fast == slow);
    assert!(fast_port.machine.differences(&slow_port.machine).is_empty());
}

/// ATTACK on the white queen's square e4 for PINFND's queen test (PF19) sends Black's king
/// into the pin list (after Qd5; Qe5, Re6, Re7 on the e-file have filled the queen's and
/// the king's slots), and then the pin of Bf3 to the queen by Qh1 overwrites that byte.
/// Nothing of the spill is left that the shortcuts cannot follow: they stay on for that
/// scoring, and a search agrees with the original's steps.
#[test]
fn a_spill_in_pinfnd_that_a_pin_overwrites_leaves_the_shortcuts_on() {
    use super::{Scorer, Shortcuts};
    let fen = "8/4r3/4r3/3qq3/3kQ3/5B2/1K6/7q b - - 0 60";
    let mut port = prepared(fen);
    let m = &mut port.machine;
    // The spill: PF19's attack list of e4 keeps Black's five attackers, two rook values in
    // the king's slot, and no king's value in it.
    let mut original = m.clone();
    original.pinfnd();
    assert_eq!(original.npins, 1);
    assert_eq!(original.rd(super::state::PLISTA), 46, "the pin of f3");
    assert_eq!((original.rd(BACT), original.rd(BACT + 6)), (5, 0x55));
    original.points(&mut Hooks::new());
    let mut shortcuts = Shortcuts::new();
    shortcuts.pinfnd_points(m, &mut Hooks::new());
    assert!(!shortcuts.spilled());
    assert!(m.differences(&original).is_empty());
    let (fast, fast_port) = verified_search(fen, 3, true);
    let (slow, slow_port) = verified_search(fen, 3, false);
    assert!(fast == slow);
    assert!(fast_port.machine.differences(&slow_port.machine).is_empty());
}

/// The same spill in PINFND, with enough white defenders of e4 that Bf3 is not pinned:
/// the spilled byte stays in the pin list, and the shortcuts step aside.
#[test]
fn a_spill_in_pinfnd_that_stays_turns_the_shortcuts_off() {
    use super::{Scorer, Shortcuts};
    let fen = "8/4r3/4r3/2Nqq1N1/3kQ3/2NP1B2/1K1N1N2/7q b - - 0 60";
    let mut port = prepared(fen);
    let m = &mut port.machine;
    // With the board's frame broken (a pawn on the border, where a hook could have put
    // it), the memo steps aside and POINTS runs by the original's steps: the spill must be
    // seen all the same, and the position not cached.
    m.set_board(0, PAWN);
    let mut original = m.clone();
    original.pinfnd();
    assert_eq!(original.npins, 0);
    assert_eq!(
        original.rd(super::state::PLISTA),
        0x0A,
        "the black king's value"
    );
    original.points(&mut Hooks::new());
    let mut shortcuts = Shortcuts::new();
    shortcuts.pinfnd_points(m, &mut Hooks::new());
    assert!(shortcuts.spilled());
    assert!(m.differences(&original).is_empty());
    let (fast, fast_port) = verified_search(fen, 3, true);
    assert!(fast_port.shortcuts().expect("shortcuts").spilled());
    let (slow, slow_port) = verified_search(fen, 3, false);
    assert!(fast == slow);
    assert!(fast_port.machine.differences(&slow_port.machine).is_empty());
}

#[test]
fn attack_scans_through_a_byte_without_a_type_as_path_does() {
    // PATH calls a square empty when its type bits are 0, whatever its other bits: a byte
    // like 0x80 (met off the board's 120 bytes, when an overflowing pin list has written a
    // direction into POSK) lets ATTACK's scan go on. Here such a byte on e4 stands between
    // e2 and a black rook on e8.
    let mut port = prepared("4r2k/8/8/8/8/8/8/K7 w - - 0 20");
    let m = &mut port.machine;
    m.npins = 0;
    m.set_board(55, 0x80);
    (m.m3, m.p1, m.t1) = (35, 0, 7);
    m.clear_attack_list();
    assert_eq!(m.attack(), 0);
    assert_eq!(
        (m.rd(WACT), m.rd(BACT)),
        (0, 1),
        "the rook behind e4 counted"
    );
    // As INCHK runs it (T1 a king's): the rook is an attacker of the other colour.
    (m.m3, m.p1, m.t1) = (35, 0x0E, 6);
    assert_eq!(m.attack(), 1);
}

#[test]
fn the_ply_table_reads_as_the_original_s_through_a_board_index() {
    // A board index reaches the ply table (PLYIX is BOARDA+171) from a king square that an
    // overflowing pin list wrote. Its slots hold move-list pointers, so their high bytes
    // must be the original's (the move list at 300H): 0x03, a white bishop to PATH.
    let mut port = Port::new();
    let pos = parse_position("startpos").expect("position");
    let s = setup(&pos, Book::Off).expect("setup");
    port.search(&s, &SearchOptions::depth(1), &mut Hooks::new())
        .expect("search");
    let m = &port.machine;
    assert_eq!(
        m.rd16(m.layout.plyix),
        MLIST,
        "ply 1's list starts the move list"
    );
    assert_eq!(m.board(172), 0x03);
}
