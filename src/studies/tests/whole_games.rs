//! Whole games as the original plays them (issue 38): after Sargon finds a mate at the
//! root, FNDMOV leaves PLYMAX two lower, and the original never sets it again in the game,
//! so that side's next search is two plies shallower. `history games` carries it so, on the
//! port and on the emulator, unless `--fresh-depth`.

use sargon_chess::play::Opening;
use sargon_core::engine::{Engine, SearchOptions};
use sargon_core::game::DepthRule;
use sargon_core::hooks::Hooks;
use sargon_core::position::{self, Book};

use super::rom_gate;
use crate::studies::game_times::{self, TimeEstimate, TimedGame, Timing};

/// White mates in two, and Sargon sees it at level 3 (not at 2): 1.Kf7 (PLYMAX 3 -> 1)
/// Kh7 2.Rh1#. At level 4 the same mate leaves PLYMAX 2.
const MATE_IN_TWO: &str = "7k/8/5K2/8/8/8/8/6R1 w - - 0 40";
const MOVES: [&str; 3] = ["f6f7", "h8h7", "g1h1"];

fn opening() -> Opening {
    Opening {
        start: position::parse_position(MATE_IN_TWO).unwrap(),
        moves: Vec::new(),
        name: Some("mate in two".to_string()),
    }
}

/// A timing the port can give: its evaluations at a fixed cost each.
fn estimated() -> Timing {
    Timing::Estimated(TimeEstimate {
        t_states_per_evaluation: 600_000.0,
        calibration_level: 3,
        calibration_moves: 1,
    })
}

fn play(engine: &mut dyn Engine, level: u8, timing: &Timing, rule: DepthRule) -> TimedGame {
    game_times::play_game(engine, level, 1, 1978, &opening(), None, timing, rule).unwrap()
}

fn moves(g: &TimedGame) -> Vec<&str> {
    g.moves.iter().map(|m| m.uci.as_str()).collect()
}

fn depths(g: &TimedGame) -> Vec<Option<u8>> {
    g.moves.iter().map(|m| m.depth).collect()
}

/// The position before the game's last move (White's mating move).
fn before_last(g: &TimedGame) -> shakmaty::Chess {
    let mut pos = position::parse_position(&g.start_fen).unwrap();
    for m in &g.moves[..g.moves.len() - 1] {
        let mv = m.uci.parse::<shakmaty::uci::UciMove>().unwrap();
        let mv = mv.to_move(&pos).unwrap();
        shakmaty::Position::play_unchecked(&mut pos, mv);
    }
    pos
}

/// A search of `pos` at `depth` by itself, as the original would make it with PLYMAX
/// `depth` in its memory: its T-states (emulator) and the nodes it created.
fn alone(engine: &mut dyn Engine, pos: &shakmaty::Chess, depth: u8) -> (Option<u64>, u64) {
    struct Nodes(u64);
    impl sargon_core::Hook for Nodes {
        fn points(&self) -> sargon_core::HookMask {
            sargon_core::HookMask::of(&[sargon_core::HookPoint::MovegenDone])
        }
        fn at(&mut self, event: &mut sargon_core::HookEvent<'_>) {
            if let sargon_core::HookEvent::MovegenDone(v) = event {
                self.0 += v.moves().len() as u64;
            }
        }
    }
    let mut nodes = Nodes(0);
    let mut hooks = Hooks::new();
    hooks.add(&mut nodes);
    let opts = SearchOptions::depth(depth);
    let found = engine
        .search(
            &position::setup(pos, Book::Allowed).unwrap(),
            &opts,
            &mut hooks,
        )
        .unwrap();
    drop(hooks);
    (found.stats.t_states, nodes.0)
}

/// On the port: after the mate is found at level 3 White's next search has depth 1, at
/// level 4 depth 2 (Black, who found no mate, keeps the level); the moves are the same as
/// with a fresh depth, and the mating move's search is the one at the lower depth: its
/// nodes are that search's, not those at the level. (Its evaluations, from which the
/// port's TRS-80 time is estimated, are the same 20 at either depth here: the root's moves
/// are all scored before the mate is seen; the emulator's T-states differ, see below.)
#[test]
fn the_port_searches_two_plies_less_after_finding_a_mate() {
    let mut port = sargon_port::Port::new();
    for (level, after) in [(3, 1), (4, 2)] {
        let carried = play(&mut port, level, &estimated(), DepthRule::Carried);
        let fresh = play(&mut port, level, &estimated(), DepthRule::Fresh);
        assert_eq!(moves(&carried), MOVES, "level {level}");
        assert_eq!(moves(&fresh), MOVES, "level {level}");
        assert_eq!(carried.ending, "White mates");
        assert_eq!(
            depths(&carried),
            [Some(level), Some(level), Some(after)],
            "level {level}"
        );
        assert_eq!(depths(&fresh), [Some(level); 3]);
        assert!(carried.carried_depth && !fresh.carried_depth);
        let pos = before_last(&carried);
        let (_, at_after) = alone(&mut port, &pos, after);
        let (_, at_level) = alone(&mut port, &pos, level);
        assert_eq!(carried.moves[2].nodes, Some(at_after), "level {level}");
        assert_eq!(fresh.moves[2].nodes, Some(at_level), "level {level}");
        // At level 3 depth 1 extends every checking move and finds the mate later than
        // depth 3, which sorts the root first; at level 4 depths 2 and 4 both sort and
        // stop at the mate, creating the same nodes (only the T-states of clearing the
        // score table tell them apart, on the emulator).
        if level == 3 {
            assert_ne!(at_after, at_level);
        }
        // The moves before it are the same searches either way.
        for i in 0..2 {
            assert_eq!(carried.moves[i], fresh.moves[i], "level {level} move {i}");
        }
        // A recorded game replays with its own depths.
        let counts = game_times::replay_counts(&mut port, &carried).unwrap();
        assert_eq!(Some(counts[2].nodes), carried.moves[2].nodes);
    }
}

/// On the emulator, the original's own FNDMOV lowers PLYMAX: the game has the port's
/// moves, depths and evaluations, and its mating move's T-states (the TRS-80 time) are
/// those of a search at the lower depth, within a few hundred: that search runs in the
/// game's kept memory, whose last move (VALMOV's entry, which the en passant test reads)
/// and men's flags are the game's, not those a set-up of the position writes.
#[test]
fn the_original_searches_two_plies_less_after_finding_a_mate() {
    let Some(mut emu) =
        rom_gate::emulator("the_original_searches_two_plies_less_after_finding_a_mate")
    else {
        return;
    };
    let mut port = sargon_port::Port::new();
    for (level, after) in [(3, 1), (4, 2)] {
        let original = play(&mut emu, level, &Timing::Measured, DepthRule::Carried);
        let ported = play(&mut port, level, &estimated(), DepthRule::Carried);
        assert_eq!(moves(&original), MOVES, "level {level}");
        assert_eq!(
            depths(&original),
            [Some(level), Some(level), Some(after)],
            "level {level}"
        );
        assert_eq!(depths(&original), depths(&ported));
        for (o, p) in original.moves.iter().zip(&ported.moves) {
            assert_eq!((o.nodes, o.evaluations), (p.nodes, p.evaluations));
        }
        let pos = before_last(&original);
        let (t_after, _) = alone(&mut emu, &pos, after);
        let (t_level, _) = alone(&mut emu, &pos, level);
        let (t_game, t_after, t_level) = (
            original.moves[2].t_states as f64,
            t_after.unwrap() as f64,
            t_level.unwrap() as f64,
        );
        assert!(
            (t_game - t_after).abs() < t_after * 0.001,
            "level {level}: {t_game} in the game, {t_after} alone at depth {after}"
        );
        assert!(
            (t_game - t_after).abs() < (t_game - t_level).abs(),
            "level {level}: {t_game} nearer {t_level} (depth {level}) than {t_after}"
        );
        let fresh = play(&mut emu, level, &Timing::Measured, DepthRule::Fresh);
        assert_eq!(fresh.moves[2].t_states as f64, t_level, "level {level}");
    }
}

/// What a search that finds a mate leaves for the next move, on the port and (with a
/// ROM) on the emulator: PLYMAX two lower, and PMATE the move number at which the mate was
/// seen, one lower when the program plays Black (only FCDMAT's "mate in N" reads it).
#[test]
fn both_engines_leave_plymax_and_pmate_alike() {
    use sargon_core::engine::Carried;
    let mut emu = rom_gate::emulator("both_engines_leave_plymax_and_pmate_alike");
    let mut port = sargon_port::Port::new();
    // White, then Black (the same mate, colours swapped), mates in two at move 40; and a
    // search that finds no mate leaves both bytes as they were given.
    let cases = [
        (
            MATE_IN_TWO,
            7,
            Carried {
                plymax: 1,
                pmate: 41,
            },
        ),
        (
            "6r1/8/8/8/8/5k2/8/7K b - - 0 40",
            7,
            Carried {
                plymax: 1,
                pmate: 41,
            },
        ),
        (
            "7k/8/8/8/8/8/8/K7 w - - 0 40",
            7,
            Carried {
                plymax: 3,
                pmate: 7,
            },
        ),
    ];
    for (fen, pmate, left) in cases {
        let setup = position::setup(&position::parse_position(fen).unwrap(), Book::Off).unwrap();
        let opts = SearchOptions {
            pmate,
            ..SearchOptions::depth(3)
        };
        port.search(&setup, &opts, &mut Hooks::new()).unwrap();
        assert_eq!(port.left_for_next_move(), Some(left), "port: {fen}");
        if let Some(emu) = emu.as_mut() {
            emu.search(&setup, &opts, &mut Hooks::new()).unwrap();
            assert_eq!(emu.left_for_next_move(), Some(left), "emulator: {fen}");
        }
    }
}
