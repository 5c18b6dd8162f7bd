//! The hooks' unit tests.

use super::*;
use crate::vocab::{Score, Side, Sq};

/// A tiny memory with a two-move list at ply 1 and a score table.
struct Toy {
    mem: Vec<u8>,
    nply: u8,
}

const PLYIX: u16 = 0x100;
const SCRIX: u16 = 0x200;
const BOARD: u16 = 0x300;
const LIST: u16 = 0x400;

impl SargonMemory for Toy {
    fn var(&self, var: Var) -> u8 {
        match var {
            Var::Nply => self.nply,
            Var::Plymax => 2,
            Var::Color => 0x80,
            Var::P1 => 0x81,
            Var::T1 => 0,
            Var::M1 => 85,
            Var::M2 => 75,
        }
    }
    fn pointer(&self, pointer: Pointer) -> u16 {
        match pointer {
            Pointer::Mlptri => PLYIX,
            Pointer::Mlptrj => LIST + 6,
            Pointer::Scrix => SCRIX,
        }
    }
    fn table(&self, table: Table) -> u16 {
        match table {
            Table::Board => BOARD,
            Table::PlyIndex => PLYIX,
        }
    }
    fn peek(&self, addr: u16) -> u8 {
        self.mem[addr as usize]
    }
}

fn toy(nply: u8) -> Toy {
    let mut mem = vec![0u8; 0x1000];
    // PLYIX slot 0 (ply 1's head) -> LIST -> LIST+6 -> null; ply 1's current move at
    // PLYIX+2.
    mem[PLYIX as usize..PLYIX as usize + 4].copy_from_slice(&[0x00, 0x04, 0x06, 0x04]);
    mem[LIST as usize..LIST as usize + 12]
        .copy_from_slice(&[0x06, 0x04, 35, 55, 0x10, 0, 0x00, 0x00, 34, 54, 0x10, 0]);
    mem[SCRIX as usize] = 0x70;
    mem[SCRIX as usize + 1] = 0x90;
    Toy { mem, nply }
}

#[test]
fn names_round_trip() {
    for p in HookPoint::ALL {
        assert_eq!(HookPoint::from_name(p.name()), Some(p));
    }
    assert_eq!(HookPoint::from_name("nope"), None);
}

#[test]
fn mask_collects_points() {
    let mut a = FnHook::new(&[HookPoint::PointsEnd], |_| {});
    let mut b = FnHook::new(&[HookPoint::Ascend, HookPoint::AlphaBeta], |_| {});
    let mut hooks = Hooks::new();
    hooks.add(&mut a).add(&mut b);
    let m = hooks.mask();
    assert!(m.contains(HookPoint::PointsEnd));
    assert!(m.contains(HookPoint::Ascend));
    assert!(!m.contains(HookPoint::MovegenPath));
}

#[test]
fn views_read_the_memory_and_hand_back_the_registers() {
    let mem = toy(2);
    let mut seen = Vec::new();
    let mut hook = FnHook::new(&HookPoint::ALL, |e| {
        let path: Vec<String> = e.search().path().iter().map(|m| m.uci()).collect();
        seen.push((e.point(), path.join(" ")));
        match e {
            HookEvent::MovegenPath(v) => {
                assert_eq!(v.piece().kind, crate::vocab::PieceKind::Pawn);
                assert_eq!(v.piece().side, Side::Black);
                assert_eq!(v.direction_row(), 0, "a black pawn's row");
                assert_eq!((v.from(), v.to()), (Sq(85), Sq(75)));
                assert_eq!(v.verdict(), PathVerdict::Empty);
                v.stop_piece();
            }
            HookEvent::MovegenDone(v) => {
                let moves: Vec<String> = v.moves().iter().map(|m| m.uci()).collect();
                assert_eq!(moves, ["e2e4", "d2d4"]);
            }
            HookEvent::AlphaBeta(v) => {
                assert_eq!(v.two_plies_up(), Score(0x70));
                assert!(!v.cutoff());
                v.set_score(Score(0x60));
                assert!(v.cutoff());
            }
            HookEvent::BestTest(v) => {
                assert_eq!(v.one_ply_up(), Score(0x90));
                assert!(v.accepted());
                v.set_negated_score(Score(0x10));
                assert!(v.accepted(), "the decision was taken before the point");
            }
            HookEvent::BookRandom(v) => v.set_byte(v.byte() ^ 1),
            _ => {}
        }
    });
    let mut hooks = Hooks::new();
    hooks.add(&mut hook);
    let regs = Registers { a: 0, b: 4 };
    let out = hooks.fire(HookPoint::MovegenPath, &mem, regs);
    assert_eq!(out, Registers { a: 2, b: 1 });
    hooks.fire(HookPoint::MovegenDone, &mem, regs);
    let out = hooks.fire(HookPoint::AlphaBeta, &mem, Registers { a: 0x80, b: 4 });
    assert_eq!(out, Registers { a: 0x60, b: 4 });
    let out = hooks.fire(HookPoint::BestTest, &mem, Registers { a: 0xa0, b: 4 });
    assert_eq!(out.a, 0x10);
    let out = hooks.fire(HookPoint::Ascend, &mem, Registers { a: 0x33, b: 4 });
    assert_eq!(out, Registers { a: 0x33, b: 4 }, "nothing to set at ascend");
    let out = hooks.fire(HookPoint::BookRandom, &mem, Registers { a: 0x40, b: 0 });
    assert_eq!(out.a, 0x41);
    drop(hooks);
    // At ply 2 the movegen points show the parent (ply 1's current move, from the ply
    // table); the other points add MLPTRJ's move.
    assert_eq!(seen[0], (HookPoint::MovegenPath, "d2d4".to_string()));
    assert_eq!(seen[1], (HookPoint::MovegenDone, "d2d4".to_string()));
    assert_eq!(seen[2], (HookPoint::AlphaBeta, "d2d4 d2d4".to_string()));
}

#[test]
fn keep_out_relinks_the_list() {
    let mem = toy(1);
    let mut hooks = Hooks::new();
    let mut kept = Vec::new();
    let mut hook = FnHook::new(&[HookPoint::MovegenDone], |e| {
        if let HookEvent::MovegenDone(v) = e {
            assert_eq!(v.keep_out(|m| m.uci() == "e2e4"), 1);
            // The list as the engine will see it, and a second look finds nothing more.
            kept = v.moves().iter().map(|m| m.uci()).collect();
            assert_eq!(v.keep_out(|m| m.uci() == "e2e4"), 0);
        }
    });
    hooks.add(&mut hook);
    let fired = hooks.fire_all(HookPoint::MovegenDone, &mem, Registers::default());
    drop(hooks);
    assert_eq!(kept, ["d2d4"]);
    // The head (the word at MLPTRI) now links to the second entry.
    assert_eq!(
        fired.link_writes,
        [LinkWrite {
            at: PLYIX,
            value: LIST + 6
        }]
    );
    // The last move: its predecessor's link takes the null.
    let mut hooks = Hooks::new();
    let mut hook = FnHook::new(&[HookPoint::MovegenDone], |e| {
        if let HookEvent::MovegenDone(v) = e {
            v.keep_out(|m| m.uci() == "d2d4");
        }
    });
    hooks.add(&mut hook);
    let fired = hooks.fire_all(HookPoint::MovegenDone, &mem, Registers::default());
    assert_eq!(fired.link_writes, [LinkWrite { at: LIST, value: 0 }]);
}

#[test]
fn a_looping_list_stops_at_the_walk_limit() {
    let mut mem = toy(1);
    // The second entry links back to the first.
    mem.mem[LIST as usize + 6] = 0x00;
    mem.mem[LIST as usize + 7] = 0x04;
    let mut n = 0;
    let mut hook = FnHook::new(&[HookPoint::MovegenDone], |e| {
        if let HookEvent::MovegenDone(v) = e {
            n = v.moves().len();
        }
    });
    let mut hooks = Hooks::new();
    hooks.add(&mut hook);
    hooks.fire(HookPoint::MovegenDone, &mem, Registers::default());
    drop(hooks);
    assert_eq!(n, MAX_LIST_WALK);
    let root = Search {
        point: HookPoint::MovegenDone,
        mem: &mem,
    };
    assert!(root.path().is_empty(), "ply 1's parent is the root");
}
