//! `sargon history`: the studies behind it (`studies::history`, `studies::game_times`),
//! called directly; the command's printed tables and messages are checked in
//! `tests/it/history.rs`.

use sargon_core::engine::{Engine, SearchOptions};
use sargon_core::hooks::Hooks;
use sargon_core::position;
use sargon_core::position::Book;

use super::rom_gate;
use crate::studies::game_times;
use crate::studies::history::{self, LevelProgress};

#[test]
fn manual_times_and_formatting() {
    assert_eq!(history::manual_seconds(1), Some(20.0));
    assert_eq!(history::manual_seconds(5), Some(2400.0));
    assert_eq!(history::manual_seconds(6), Some(4.0 * 3600.0));
    assert_eq!(history::manual_seconds(0), None);
    assert_eq!(history::manual_seconds(7), None);
    assert_eq!(history::duration(8.24), "8.2 s");
    assert_eq!(history::duration(120.0), "2 min");
    assert_eq!(history::duration(137.0), "2m17s");
    assert_eq!(history::duration(14400.0), "4 h");
    assert_eq!(history::duration(3.0 * 3600.0 + 41.0 * 60.0), "3h41m");
    assert_eq!(sargon_core::clock::trs80_seconds(1_774_000), 1.0);
    assert_eq!(sargon_core::clock::z80a_seconds(4_000_000), 1.0);
    let p = history::parse_positions("# a comment\n\nstartpos\n  8/8/8/8/8/8/8/K6k w - - 0 1 \n");
    assert_eq!(p, vec!["startpos", "8/8/8/8/8/8/8/K6k w - - 0 1"]);
    // The built-in set is legal, and searchable with the book off.
    let set = history::default_positions();
    assert_eq!(set.len(), 12);
    assert_eq!(set[0], history::BENCHMARK_POSITIONS[0]);
    assert_eq!(set[10], "startpos");
    for fen in set {
        let pos = position::parse_position(fen).unwrap();
        assert!(
            !position::setup(&pos, Book::Off).unwrap().plays_from_book(),
            "{fen}"
        );
    }
}

#[test]
fn two_positions_at_levels_1_and_2() {
    let Some(mut emu) = rom_gate::emulator("two_positions_at_levels_1_and_2") else {
        return;
    };
    let positions = vec![
        history::default_positions()[0].to_string(),
        "startpos".to_string(),
    ];
    let mut events = Vec::new();
    let report = history::run_levels(&mut emu, &positions, 2, &mut |p: &LevelProgress| {
        events.push((p.level, p.position, p.done.is_some()))
    })
    .unwrap();
    // Progress: a start and an end for every search.
    assert_eq!(events.len(), 2 * 2 * 2);
    assert_eq!(events[0], (1, 1, false));
    assert_eq!(events[7], (2, 2, true));
    assert_eq!(report.levels.len(), 2);
    assert_eq!(report.runs.len(), 4);
    for l in &report.levels {
        assert_eq!(l.positions, 2);
        let runs: Vec<_> = report.runs.iter().filter(|m| m.level == l.level).collect();
        let mean = runs.iter().map(|m| m.trs80_seconds).sum::<f64>() / 2.0;
        assert!((l.trs80_mean_seconds - mean).abs() < 1e-9);
        assert!(l.trs80_min_seconds <= l.trs80_mean_seconds);
        assert!(l.trs80_mean_seconds <= l.trs80_max_seconds);
        assert!((l.z80a_mean_seconds * 4.0e6 - l.trs80_mean_seconds * 1.774e6).abs() < 1e-3);
        let manual = history::manual_seconds(l.level).unwrap();
        assert_eq!(l.manual_seconds, Some(manual));
        assert!((l.ratio_to_manual.unwrap() - l.trs80_mean_seconds / manual).abs() < 1e-12);
    }
    // A deeper search costs more.
    assert!(report.levels[1].mean_t_states > report.levels[0].mean_t_states);
    // Each run's figures are those of the same search made without observation, book off.
    let m = &report.runs[3];
    assert_eq!((m.level, m.position), (2, 2));
    let setup = position::setup(&position::parse_position("startpos").unwrap(), Book::Off).unwrap();
    let plain = emu
        .search(&setup, &SearchOptions::depth(2), &mut Hooks::new())
        .unwrap();
    assert!(!plain.from_book);
    assert_eq!(plain.stats.z80_instructions, Some(m.z80_instructions));
    assert_eq!(plain.stats.t_states, Some(m.t_states));
    assert_eq!(plain.stats.iz80_t_states, Some(m.emulator_t_states));
    // Sargon's IX/IY instructions make the documented count the larger.
    assert!(m.t_states > m.emulator_t_states);
    assert_eq!(plain.best.map(|b| b.uci()), m.best_move);
    assert_eq!(
        m.trs80_seconds,
        sargon_core::clock::trs80_seconds(m.t_states)
    );

    let table = history::render_table(&report);
    assert_eq!(table.lines().count(), 2 + 2);
    assert!(table.contains("| 1 | 2 |") && table.contains("| 20 s |"));

    let svg = history::svg_plot(&report);
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<polyline").count(), 2, "two series");
    for text in [
        "TRS-80 manual",
        "estimate",
        "level (look-ahead",
        "time per move (log scale)",
        ">1 min<",
        ">4 h<",
    ] {
        assert!(svg.contains(text), "{text}");
    }
    assert_eq!(svg.matches("<text").count(), svg.matches("</text>").count());
}

#[test]
fn bad_levels_and_positions_are_refused() {
    let Some(mut emu) = rom_gate::emulator("bad_levels_and_positions_are_refused") else {
        return;
    };
    let mut quiet = |_: &LevelProgress| {};
    let one = vec!["startpos".to_string()];
    assert!(history::run_levels(&mut emu, &one, 7, &mut quiet).is_err());
    assert!(history::run_levels(&mut emu, &[], 1, &mut quiet).is_err());
    let bad = vec!["not a fen".to_string()];
    let err = history::run_levels(&mut emu, &bad, 1, &mut quiet).unwrap_err();
    assert!(err.to_string().contains("position 1"), "{err}");
}

/// `sargon history games`, run in this process: a short capped game per level runs, its
/// JSON lines read back, their summary holds the moves, book moves and mean they record,
/// a resumed run plays nothing more, and the book's first move is timed too. That the
/// command prints this summary as its table is checked from `tests/it/history.rs`
/// (`games_command_prints_the_table_of_its_lines`).
#[test]
fn games_command_writes_consistent_lines_and_table() {
    if rom_gate::rom("games_command_writes_consistent_lines_and_table").is_none() {
        return;
    }
    let dir =
        std::env::temp_dir().join(format!("sargon-history-games-unit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("games.jsonl");
    let plot = dir.join("games.svg");
    let _ = std::fs::remove_file(&out);
    let run = |extra: &[&str]| {
        let mut args = vec![
            "games",
            "--levels",
            "1-2",
            "--games",
            "1",
            "--max-moves",
            "3",
            "--seed",
            "5",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
            "--plot",
            plot.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        super::history(&args)
    };
    if let Err(e) = run(&[]) {
        panic!("{e:#}");
    }
    let text = std::fs::read_to_string(&out).unwrap();
    let games = game_times::read_games(&text).unwrap();
    assert_eq!(games.len(), 2, "one game per level");
    for (g, level) in games.iter().zip([1u8, 2]) {
        assert_eq!((g.level, g.game, g.seed), (level, 1, 5));
        assert_eq!(g.book_random, game_times::book_byte(5, level, 1));
        // The first built-in opening is the initial position: the book plays both sides'
        // first move, then the move cap (3 each) ends the game.
        assert_eq!(g.moves.len(), 6);
        assert!(g.moves[0].book && g.moves[1].book && !g.moves[2].book);
        assert_eq!(g.result, "1/2-1/2");
        for m in &g.moves {
            // (JSON keeps a float to within its last digit.)
            let exact = sargon_core::clock::trs80_seconds(m.t_states);
            assert!((m.trs80_seconds - exact).abs() <= 1e-12 * exact, "{m:?}");
        }
        assert!(g.moves[2].t_states > g.moves[0].t_states);
    }
    // White's book move follows bit 0 of the seeded byte.
    let e4_or_d4 = |g: &game_times::TimedGame| {
        if g.book_random & 1 == 0 {
            "e2e4"
        } else {
            "d2d4"
        }
    };
    assert_eq!(games[0].moves[0].uci, e4_or_d4(&games[0]));
    // The summary of those lines, which the command prints as its table.
    let summary = game_times::summarise(&games);
    assert_eq!(summary[0].moves, 6);
    assert_eq!(summary[0].book_moves, 2);
    let all: Vec<f64> = games[0].moves.iter().map(|m| m.trs80_seconds).collect();
    assert!((summary[0].mean_seconds - all.iter().sum::<f64>() / 6.0).abs() < 1e-9);
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.contains("median to dearest move") && svg.trim_end().ends_with("</svg>"));
    // Without --resume an existing file is refused; with it, nothing more is played.
    assert!(run(&[]).is_err());
    assert!(run(&["--resume"]).is_ok());
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `history games` counts every move's nodes and evaluations, without changing its
/// T-states, and the port replaying a recorded game counts the same; `--estimate-levels`
/// then times the port's games by their evaluations times the T-states per evaluation
/// measured at the calibration file's highest level, also when that file was written
/// before the counts were recorded. (Run in this process; what the command says on its way
/// and prints as its table is checked from `tests/it/history.rs`,
/// `estimated_levels_say_how_they_were_estimated`.)
#[test]
fn estimated_levels_from_counted_evaluations() {
    let Some(mut emu) = rom_gate::emulator("estimated_levels_from_counted_evaluations") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!(
        "sargon-history-estimate-unit-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let measured = dir.join("measured.jsonl");
    let run = |args: &[&str]| {
        let mut all = vec!["games", "--games", "1", "--seed", "5", "--quiet"];
        all.extend_from_slice(args);
        if let Err(e) = super::history(&all) {
            panic!("history {all:?}: {e:#}");
        }
    };
    let _ = std::fs::remove_file(&measured);
    run(&[
        "--levels",
        "1-2",
        "--max-moves",
        "3",
        "--out",
        measured.to_str().unwrap(),
    ]);
    let games = game_times::read_games(&std::fs::read_to_string(&measured).unwrap()).unwrap();
    let mut port = Box::new(sargon_port::Port::new());
    for g in &games {
        let counts: Vec<game_times::SearchCounts> = g
            .moves
            .iter()
            .map(|m| game_times::SearchCounts {
                nodes: m.nodes.unwrap(),
                evaluations: m.evaluations.unwrap(),
            })
            .collect();
        // Book moves create and evaluate nothing; searches do.
        assert_eq!(counts[0], game_times::SearchCounts::default());
        assert!(
            counts[2].nodes > 0 && counts[2].evaluations > 0,
            "{counts:?}"
        );
        assert_eq!(game_times::replay_counts(port.as_mut(), g).unwrap(), counts);
    }
    // The first searched move's T-states are those of the same search without the hook,
    // in the game's memory as the game had it: each side's book move kept in its own, and
    // Black's answer entered into White's (whose en passant test then reads it).
    let g = &games[1];
    let mut pos = position::parse_position(&g.start_fen).unwrap();
    let base = SearchOptions {
        book_random: g.book_random,
        ..SearchOptions::depth(g.level)
    };
    let mut game = sargon_core::game::GameDepth::new(sargon_core::game::DepthRule::Carried);
    let mut plain = None;
    for m in &g.moves[..3] {
        let opts = game.options(&pos, &base, emu.max_depth());
        let found = emu
            .search(
                &position::setup(&pos, Book::Allowed).unwrap(),
                &opts,
                &mut Hooks::new(),
            )
            .unwrap();
        game.searched(&pos, &emu);
        let mv = m
            .uci
            .parse::<shakmaty::uci::UciMove>()
            .unwrap()
            .to_move(&pos)
            .unwrap();
        shakmaty::Position::play_unchecked(&mut pos, mv);
        plain = Some(found);
    }
    let plain = plain.unwrap();
    assert_eq!(plain.stats.t_states, Some(g.moves[2].t_states));

    let expected = game_times::calibrate(&games, 2).unwrap();
    let estimate = |calibration: &std::path::Path, out: &std::path::Path| {
        let _ = std::fs::remove_file(out);
        run(&[
            "--estimate-levels",
            "3",
            "--calibration",
            calibration.to_str().unwrap(),
            "--max-moves",
            "2",
            "--out",
            out.to_str().unwrap(),
        ]);
        game_times::read_games(&std::fs::read_to_string(out).unwrap()).unwrap()
    };
    let estimated = dir.join("estimated.jsonl");
    let lines = estimate(&measured, &estimated);
    assert_eq!(lines.len(), 1);
    let e = lines[0].estimate.as_ref().unwrap();
    assert_eq!(e.calibration_level, 2);
    assert_eq!(e.calibration_moves, expected.moves);
    assert_eq!(
        e.t_states_per_evaluation,
        expected.t_states_per_evaluation()
    );
    assert_eq!(lines[0].level, 3);
    assert_eq!(lines[0].moves.len(), 4);
    for m in &lines[0].moves {
        let evaluations = m.evaluations.unwrap();
        assert_eq!(
            m.t_states,
            (evaluations as f64 * e.t_states_per_evaluation).round() as u64
        );
    }
    // Loaded together, measured and estimated levels share the plot, the estimate drawn
    // hollow and said to be one.
    let plot = dir.join("games.svg");
    run(&[
        "--load",
        measured.to_str().unwrap(),
        estimated.to_str().unwrap(),
        "--plot",
        plot.to_str().unwrap(),
    ]);
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.contains("estimate, not measured (level 3)"), "{svg}");
    assert!(
        svg.contains("12 moves timed by T-states / 1.774 MHz, 4 estimated"),
        "{svg}"
    );
    assert_eq!(
        svg.matches(r##"fill="white" stroke="#1f5fa8""##).count(),
        2,
        "point and legend"
    );
    // The same calibration from lines without counts: replayed on the port.
    let old = dir.join("old.jsonl");
    let stripped: String = games
        .iter()
        .map(|g| {
            let mut g = g.clone();
            for m in &mut g.moves {
                m.nodes = None;
                m.evaluations = None;
            }
            serde_json::to_string(&g).unwrap() + "\n"
        })
        .collect();
    assert!(!stripped.contains("nodes") && !stripped.contains("evaluations"));
    std::fs::write(&old, stripped).unwrap();
    let again = estimate(&old, &dir.join("again.jsonl"));
    assert_eq!(again[0].estimate, lines[0].estimate);
    assert_eq!(again[0].moves, lines[0].moves);
    let _ = std::fs::remove_dir_all(&dir);
}
