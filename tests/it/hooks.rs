//! The hook views on both engines: every accessor at every hook point, firing by firing.
//!
//! A hook must never care which engine runs it. These tests run searches with a hook armed
//! at every point that renders everything its view shows (the common part: point, ply,
//! depth, side to move, path, board; and each point's own values) and compare the
//! renderings of the port and of the original in the emulator one by one, observing and
//! steering (every setter used). Without an imported ROM only the port's part runs: the
//! views' own consistency (path lengths, the moving piece on its square, the decisions
//! matching the scores, ...).

use crate::common;

use sargon_core::engine::{Engine, SearchOptions};
use sargon_core::hooks::{FnHook, HookEvent, HookPoint, Hooks, PathVerdict};
use sargon_core::position::Book;
use sargon_core::position::{parse_position, setup};
use sargon_core::vocab::{PieceKind, SMove, Score, Side};
use sargon_port::Port;

/// Book, en passant replay (VALMOV's move generation at ply 0), a combination, a quiet
/// middlegame, Black to move with castling rights (black pawns: T1 = 0), a mate in one.
const POSITIONS: [&str; 6] = [
    "startpos",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 30",
    "r2n2k1/5ppp/b5q1/1P3N2/8/8/3Q1PPP/3R2K1 w - - 0 1",
    "3r2k1/1pq2ppp/pb1pp1b1/8/3B4/2N5/PPP1QPPP/4R1K1 w - - 0 1",
    "r3k2r/ppp2ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPP2PPP/R3K2R b KQkq - 0 8",
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 30",
];

const DEPTHS: std::ops::RangeInclusive<u8> = 1..=3;

fn ucis(moves: &[SMove]) -> String {
    moves.iter().map(|m| m.uci()).collect::<Vec<_>>().join(" ")
}

/// Everything the view of `e` shows, as one line.
fn render(e: &HookEvent) -> String {
    let s = e.search();
    let board: String = s.board().0.iter().map(|b| format!("{b:02x}")).collect();
    let common = format!(
        "{} ply {} max {} {:?} [{}] {board}",
        e.point().name(),
        s.ply(),
        s.max_ply(),
        s.side_to_move(),
        ucis(&s.path()),
    );
    let own = match e {
        HookEvent::MovegenPath(v) => format!(
            "verdict {:?} left {} piece {:?} row {} {}-{}",
            v.verdict(),
            v.directions_left(),
            v.piece(),
            v.direction_row(),
            v.from(),
            v.to()
        ),
        HookEvent::MovegenDone(v) => format!("moves [{}]", ucis(&v.moves())),
        HookEvent::PointsEnd(v) => format!("score {}", v.score()),
        HookEvent::AlphaBeta(v) => format!(
            "score {} two_up {} cutoff {}",
            v.score(),
            v.two_plies_up(),
            v.cutoff()
        ),
        HookEvent::BestTest(v) => format!(
            "negated {} one_up {} accepted {}",
            v.negated_score(),
            v.one_ply_up(),
            v.accepted()
        ),
        HookEvent::BestConfirmed(v) => format!("score {} one_up {}", v.score(), v.one_ply_up()),
        HookEvent::Ascend(_) => String::new(),
        HookEvent::BookRandom(v) => format!("byte {:#04x} d4 {}", v.byte(), v.picks_d4()),
    };
    format!("{common} | {own}")
}

/// A deterministic, arbitrary number from the path and a byte.
fn hash(path: &[SMove], byte: u8) -> u32 {
    path.iter().fold(u32::from(byte), |h, m| {
        h.wrapping_mul(31)
            .wrapping_add(u32::from(m.from.0) * 7 + u32::from(m.to.0))
    })
}

/// Use every setter, on decisions taken from what the views show.
fn steer(e: &mut HookEvent) {
    let path = e.search().path();
    let ply = e.search().ply();
    match e {
        HookEvent::MovegenPath(v) => {
            if ply == 2 && v.piece().kind == PieceKind::Knight {
                v.stop_piece();
            } else if ply == 1 && v.piece().kind == PieceKind::Queen {
                if v.verdict() == PathVerdict::Enemy {
                    // No queen captures at the root.
                    v.set_verdict(PathVerdict::Own);
                }
            } else if ply == 3 && v.piece().kind == PieceKind::Rook && v.directions_left() > 2 {
                // Rooks at ply 3 try only their last two directions.
                v.set_directions_left(2);
            }
        }
        HookEvent::PointsEnd(v) => {
            let h = hash(&path, v.score().0);
            if h.is_multiple_of(3) {
                v.set_score(Score(0x70 + (h % 0x20) as u8));
            }
        }
        HookEvent::AlphaBeta(v) => {
            let h = hash(&path, v.score().0);
            if h.is_multiple_of(5) {
                v.set_score(Score(0x78 + (h % 0x10) as u8));
            }
        }
        HookEvent::BestTest(v) => {
            let h = hash(&path, v.negated_score().0);
            if h.is_multiple_of(4) {
                v.set_negated_score(Score(0x80 + (h % 0x10) as u8));
            }
        }
        HookEvent::BookRandom(v) => v.set_byte(v.byte() ^ 1),
        HookEvent::MovegenDone(_) | HookEvent::BestConfirmed(_) | HookEvent::Ascend(_) => {}
    }
}

/// What one search showed its hooks, and how it ended.
struct Run {
    renders: Vec<String>,
    outcome: String,
}

/// Search `fen` at `depth` with a hook at every point that renders each view (after the
/// steering hook, when `steering`) and checks it with `check`.
fn run(
    engine: &mut dyn Engine,
    fen: &str,
    depth: u8,
    steering: bool,
    check: &mut dyn FnMut(&HookEvent),
) -> Run {
    let s = setup(&parse_position(fen).expect("position"), Book::Allowed).expect("setup");
    let opts = SearchOptions {
        book_random: 0x40,
        ..SearchOptions::depth(depth)
    };
    let mut renders = Vec::new();
    let mut steerer = FnHook::new(&HookPoint::ALL, steer);
    let mut renderer = FnHook::new(&HookPoint::ALL, |e| {
        check(e);
        renders.push(render(e));
    });
    let mut hooks = Hooks::new();
    if steering {
        hooks.add(&mut steerer);
    }
    hooks.add(&mut renderer);
    let out = engine.search(&s, &opts, &mut hooks).expect("search");
    drop(hooks);
    Run {
        renders,
        outcome: format!("{:?} {}", out.best.map(|m| m.uci()), out.root_score),
    }
}

/// What the port's views must show whatever the search.
fn check_consistency(e: &HookEvent) {
    let s = e.search();
    let (ply, path, board) = (s.ply(), s.path(), s.board());
    let node_ply = match e {
        HookEvent::MovegenPath(_) | HookEvent::MovegenDone(_) => ply.saturating_sub(1),
        _ => ply,
    };
    assert_eq!(path.len(), node_ply as usize, "{}", render(e));
    match e {
        HookEvent::MovegenPath(v) => {
            let piece = v.piece();
            assert_eq!(board.piece_at(v.from()), Some(piece), "{}", render(e));
            assert_eq!(piece.side, s.side_to_move(), "{}", render(e));
            let row = match (piece.kind, piece.side) {
                (PieceKind::Pawn, Side::Black) => 0,
                (kind, _) => kind.code(),
            };
            assert_eq!(v.direction_row(), row, "{}", render(e));
            let verdict = match (board.byte(v.to()), board.piece_at(v.to())) {
                (0xff, _) => PathVerdict::OffBoard,
                (_, None) => PathVerdict::Empty,
                (_, Some(p)) if p.side == piece.side => PathVerdict::Own,
                _ => PathVerdict::Enemy,
            };
            assert_eq!(v.verdict(), verdict, "{}", render(e));
        }
        HookEvent::MovegenDone(v) => {
            let moves = v.moves();
            assert!(!moves.is_empty(), "{}", render(e));
            for m in moves {
                let mover = board.piece_at(m.from).map(|p| p.side);
                assert_eq!(mover, Some(s.side_to_move()), "{m} in {}", render(e));
            }
        }
        HookEvent::AlphaBeta(v) => assert_eq!(v.cutoff(), v.score() <= v.two_plies_up()),
        HookEvent::BestTest(v) => {
            assert_eq!(v.accepted(), v.negated_score() > v.one_ply_up())
        }
        HookEvent::BestConfirmed(v) => assert_eq!(v.score(), v.one_ply_up()),
        HookEvent::BookRandom(v) => assert_eq!(v.byte(), 0x40, "the harness's byte"),
        HookEvent::PointsEnd(_) | HookEvent::Ascend(_) => {}
    }
}

#[test]
fn port_views_are_consistent_at_every_point() {
    let mut port = Port::new();
    let mut fired = [0u64; 8];
    for fen in POSITIONS {
        for depth in DEPTHS {
            let mut check = |e: &HookEvent| {
                fired[e.point() as usize] += 1;
                check_consistency(e);
            };
            run(&mut port, fen, depth, false, &mut check);
        }
    }
    for p in HookPoint::ALL {
        assert!(fired[p as usize] > 0, "{} never fired", p.name());
    }
    println!("firings per point: {fired:?}");
}

/// The steering the comparison below relies on does steer: the setters reach the search.
#[test]
fn steering_changes_the_port_search() {
    let mut port = Port::new();
    let (mut searches, mut changed_firings, mut changed_outcomes) = (0, 0, 0);
    for fen in POSITIONS {
        for depth in DEPTHS {
            let plain = run(&mut port, fen, depth, false, &mut |_| {});
            let steered = run(&mut port, fen, depth, true, &mut |_| {});
            searches += 1;
            changed_firings += usize::from(plain.renders != steered.renders);
            changed_outcomes += usize::from(plain.outcome != steered.outcome);
        }
    }
    println!("of {searches} searches steering changed {changed_firings}, their result {changed_outcomes}");
    assert_eq!(changed_firings, searches);
    assert!(changed_outcomes > 0);
}

#[test]
fn every_view_is_the_same_on_both_engines() {
    let Some(mut emu) = common::emulator("every_view_is_the_same_on_both_engines") else {
        return;
    };
    let mut port = Port::new();
    let mut total = 0;
    for steering in [false, true] {
        for fen in POSITIONS {
            for depth in DEPTHS {
                let what = format!("{fen} depth {depth} steering {steering}");
                let e = run(&mut emu, fen, depth, steering, &mut |_| {});
                let p = run(&mut port, fen, depth, steering, &mut |_| {});
                if let Some(i) = (0..e.renders.len().max(p.renders.len()))
                    .find(|&i| e.renders.get(i) != p.renders.get(i))
                {
                    panic!(
                        "{what}: firing {i} differs\n  emulator: {:?}\n  port:     {:?}",
                        e.renders.get(i),
                        p.renders.get(i)
                    );
                }
                assert_eq!(e.outcome, p.outcome, "{what}");
                total += e.renders.len();
            }
        }
    }
    println!("{total} firings rendered alike on both engines");
}

/// The emulator on its two Z80 cores (`--core`): the hooks fire at the same points with the
/// same views, and what they steer (A and B, the book's byte, move-list links) steers
/// both cores alike (B too: `stop_piece` at ply 2). Steering only, to depth 2: the
/// searches as Sargon makes them are the golden corpus's, checked on z80emu in
/// `tests/it/core_z80emu.rs`.
#[test]
fn every_view_is_the_same_on_both_z80_cores() {
    let Some(rom) = common::rom("every_view_is_the_same_on_both_z80_cores") else {
        return;
    };
    use sargon_original::emu::{Core, Emulator};
    let mut iz80 = Emulator::with_core(rom.clone(), Core::Iz80).unwrap();
    let mut z80emu = Emulator::with_core(rom, Core::Z80emu).unwrap();
    let mut total = 0;
    for fen in POSITIONS {
        for depth in 1..=2 {
            let what = format!("{fen} depth {depth} steering");
            let a = run(&mut iz80, fen, depth, true, &mut |_| {});
            let b = run(&mut z80emu, fen, depth, true, &mut |_| {});
            if let Some(i) = (0..a.renders.len().max(b.renders.len()))
                .find(|&i| a.renders.get(i) != b.renders.get(i))
            {
                panic!(
                    "{what}: firing {i} differs\n  iz80:   {:?}\n  z80emu: {:?}",
                    a.renders.get(i),
                    b.renders.get(i)
                );
            }
            assert_eq!(a.outcome, b.outcome, "{what}");
            assert_eq!(iz80.instructions(), z80emu.instructions(), "{what}");
            total += a.renders.len();
        }
    }
    println!("{total} firings, steered, rendered alike on both Z80 cores");
}
