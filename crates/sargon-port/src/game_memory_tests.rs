//! A game's memory kept between moves ([`Memory`]): what it keeps, and its refusals.

use super::Port;
use sargon_core::engine::{Engine, Memory, SearchError, SearchOptions};
use sargon_core::position::{parse_position, read_position, setup, Book};
use sargon_core::record;
use sargon_core::trace::Detail;
use sargon_core::vocab::Sq;
use shakmaty::{Chess, Position};

/// The search of `pos` at `depth` in `memory`, without a trace.
fn searched(
    port: &mut Port,
    pos: &Chess,
    depth: u8,
    memory: Memory,
) -> Result<sargon_core::engine::SearchOutcome, SearchError> {
    let opts = SearchOptions {
        memory,
        ..SearchOptions::depth(depth)
    };
    port.search(
        &setup(pos, Book::Off).unwrap(),
        &opts,
        &mut Default::default(),
    )
}

/// The search of `pos` at `depth` in `memory`: the trace's lines.
fn traced(port: &mut Port, pos: &Chess, depth: u8, memory: Memory) -> Vec<String> {
    let opts = SearchOptions {
        memory,
        ..SearchOptions::depth(depth)
    };
    let rec = record::search(
        port,
        &setup(pos, Book::Off).unwrap(),
        &opts,
        Detail::Full,
        &mut [],
    )
    .unwrap();
    rec.events.iter().map(|e| e.to_string()).collect()
}

/// The move a search chose, and its squares as Sargon's (the king's for a castling): the
/// reply the other side's machine is given.
fn chosen(port: &Port, pos: &Chess) -> (shakmaty::Move, (Sq, Sq)) {
    let best = port.machine.entry_move(port.machine.bestm);
    (best.to_chess(pos).unwrap(), (best.from, best.to))
}

/// Without a promotion (on the board or in a search), a man back on its home square or a
/// king left unmoved without castling rights, a game played in kept memory searches as
/// fresh searches of its positions do, every event but the root's own scoring (event 0):
/// that one reads BC0 and MV0 as the side's last search left them, where a fresh machine
/// has 0, and the kept memory's castled flag, which a set-up cannot write. Below the root
/// POINTS counts board control from the root's (BC0), so neither changes a decision.
/// White castles in these twelve plies: the flag is in its kept board.
#[test]
fn a_game_in_kept_memory_searches_as_fresh_searches() {
    let mut pos = read_position("startpos moves e2e4 e7e5 g1f3 b8c6")
        .unwrap()
        .position;
    let mut game = Port::new();
    let mut fresh = Port::new();
    let mut playing = [false; 2];
    let mut last = None;
    for ply in 0..12 {
        let side = usize::from(pos.turn() == shakmaty::Color::Black);
        let memory = match (playing[side], last) {
            (true, Some(reply)) => Memory::Continue { reply },
            _ => Memory::NewGame,
        };
        playing[side] = true;
        let kept = traced(&mut game, &pos, 2, memory);
        let afresh = traced(&mut fresh, &pos, 2, Memory::Fresh);
        assert_eq!(kept.len(), afresh.len(), "ply {ply}");
        assert_eq!(kept[1..], afresh[1..], "ply {ply}");
        let (m, reply) = chosen(&game, &pos);
        last = Some(reply);
        pos.play_unchecked(m);
    }
    let white = game.games[0].as_ref().unwrap();
    let king = (21..99).find(|&i| white.board(i) & 0x87 == 6).unwrap();
    assert_eq!(white.board(king) & 0x10, 0x10, "White's king castled");
}

/// After a promotion the kept royalty table is MOVE's, not ROYALT's: White had no queen,
/// and MOVE records a queen's square only when a queen moves, so the game's memory still
/// says "no queen" (0) with one on b8, where a set-up of the position finds it (92).
#[test]
fn after_a_promotion_the_kept_royalty_table_is_move_s() {
    let pos = parse_position("8/1P3k2/8/8/8/8/5K2/8 w - - 0 40").unwrap();
    let mut game = Port::new();
    traced(&mut game, &pos, 2, Memory::NewGame);
    let (m, _) = chosen(&game, &pos);
    assert_eq!(m.to_string(), "b7-b8=Q", "White promotes");
    let kept = game.games[0].as_ref().expect("White's game is kept");
    assert_eq!(kept.board(92) & 7, 5, "a queen on b8");
    assert_eq!(kept.rd(super::state::POSQ), 0, "MOVE recorded no queen");
    let mut after = pos.clone();
    after.play_unchecked(m);
    let mut fresh = Port::new();
    fresh
        .prepare(
            &setup(&after, Book::Off).unwrap(),
            2,
            0,
            &mut Default::default(),
        )
        .unwrap();
    assert_eq!(fresh.machine.rd(super::state::POSQ), 92, "ROYALT finds it");
}

/// A search that promotes a pawn and then moves the new queen leaves the royalty table
/// naming a queen on the promotion square: MOVE makes the queen without writing the table,
/// her move writes her new square, UNMOVE of that move writes back the square she left
/// (b8), and UNMOVE of the promotion leaves the table as it is. In a game the next search
/// of that memory looks for pins against her (`docs/history.md`, the whole games).
#[test]
fn a_queen_promoted_and_moved_in_a_search_stays_in_the_royalty_table() {
    let pos = parse_position("8/1P3k2/8/8/8/8/5K2/8 w - - 0 40").unwrap();
    // Depth 3: the queen made at ply 1 moves at ply 3.
    let mut port = Port::new();
    searched(&mut port, &pos, 3, Memory::Fresh).unwrap();
    assert_eq!(port.machine.board(82) & 7, 1, "the root's pawn on b7 again");
    assert_eq!(port.machine.board(92), 0, "b8 empty");
    assert_eq!(
        port.machine.rd(super::state::POSQ),
        92,
        "the table names b8"
    );
    // Depth 2: the queen never moves in the tree, and the table stays "no queen".
    let mut shallow = Port::new();
    searched(&mut shallow, &pos, 2, Memory::Fresh).unwrap();
    assert_eq!(shallow.machine.rd(super::state::POSQ), 0);
}

#[test]
fn a_continuation_without_a_game_is_refused() {
    let pos = parse_position("startpos").unwrap();
    let reply = (Sq(35), Sq(55));
    let e = searched(&mut Port::new(), &pos, 1, Memory::Continue { reply }).unwrap_err();
    assert!(
        matches!(e, SearchError::NoGameInMemory { ref side } if side == "White"),
        "{e}"
    );
    let e = searched(&mut Port::new(), &pos, 1, Memory::NextGame).unwrap_err();
    assert!(matches!(e, SearchError::NoGameInMemory { .. }), "{e}");
}

/// A reply the kept board cannot take is refused by VALMOV; one that leads elsewhere than
/// the position asked for is named with the first square that differs.
#[test]
fn a_reply_that_does_not_lead_to_the_position_is_refused() {
    let start = parse_position("startpos").unwrap();
    let mut port = Port::new();
    traced(&mut port, &start, 1, Memory::NewGame);
    let (m, _) = chosen(&port, &start);
    let mut pos = start.clone();
    pos.play_unchecked(m);
    let reply = pos.legal_moves()[0];
    pos.play_unchecked(reply);
    let search = |port: &mut Port, reply| searched(port, &pos, 1, Memory::Continue { reply });
    // A black pawn two squares back: no move of Black's.
    let e = search(&mut port, (Sq(82), Sq(52))).unwrap_err();
    assert!(matches!(e, SearchError::ReplayRefused { .. }), "{e}");
    // The failed search left White no game.
    let e = search(&mut port, (Sq(82), Sq(72))).unwrap_err();
    assert!(matches!(e, SearchError::NoGameInMemory { .. }), "{e}");
    // A legal reply, but not the position's.
    let mut port = Port::new();
    traced(&mut port, &start, 1, Memory::NewGame);
    let other = (Sq(88), Sq(78)); // h7-h6
    let e = search(&mut port, other).unwrap_err();
    assert!(matches!(e, SearchError::KeptBoardDiffers { .. }), "{e}");
    assert!(
        e.to_string().starts_with("after the reply h7h6, the board"),
        "{e}"
    );
}
