//! The runner's unit tests: plans, identities, resumes and the run itself on the port.
use super::*;

fn positions(n: usize) -> Vec<InputPosition> {
    (0..n)
        .map(|i| InputPosition::new(i, "startpos", false).unwrap())
        .collect()
}

#[test]
fn a_plan_takes_the_shards_positions_at_every_depth_less_those_done() {
    let input = positions(7);
    let shard = Shard::new(1, 3).unwrap();
    let keys = |searches: &[Search]| -> Vec<(usize, u8)> {
        searches
            .iter()
            .map(|s| (s.position.index, s.depth))
            .collect()
    };
    let all = plan(&input, shard, &[1, 2], &HashSet::new());
    assert_eq!(keys(&all), [(1, 1), (1, 2), (4, 1), (4, 2)]);
    let done = [(1, 1), (4, 2), (2, 1)].into_iter().collect();
    assert_eq!(keys(&plan(&input, shard, &[1, 2], &done)), [(1, 2), (4, 1)]);
}

#[test]
fn a_record_names_the_core_its_search_ran_on_unless_read_from_the_cache() {
    let ran = EngineCost {
        cpu: None,
        z80_instructions: Some(10),
        cached: false,
    };
    let read = EngineCost {
        cached: true,
        ..ran.clone()
    };
    let emulator = |cost: &EngineCost, core| engine_record("emulator".into(), cost, core);
    assert_eq!(
        emulator(&ran, Some("z80emu")).core.as_deref(),
        Some("z80emu")
    );
    assert_eq!(emulator(&read, Some("z80emu")).core, None);
    assert_eq!(engine_record("port".into(), &ran, None).core, None);
    // Only the emulator has a core (tests/it/slurm.rs and tests/it/core_z80emu.rs see `iz80`
    // and `z80emu` written by real runs).
    assert_eq!(core_of(&sargon_port::Port::new()), None);
}

#[test]
fn positions_are_read_as_fens_with_their_index() {
    let text = "# a comment\n\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\
                4k3/8/8/8/8/8/8/4K3 b - - bm Kd7; id \"x\";\n";
    let fens = read_positions(text).unwrap();
    assert_eq!(fens.len(), 2);
    assert_eq!(fens[1], "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    let e = read_positions("8/8 w\n").unwrap_err().to_string();
    assert!(e.contains("line 1"), "{e}");
}

/// A bad position is refused when the file is read, named by its line and quoted as
/// written: it was "position 0: invalid FEN `... x 0 1`", counters nobody wrote.
#[test]
fn a_bad_position_is_named_by_its_line_and_quoted_as_written() {
    let line = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq x bm e4;";
    let e = read_positions(&format!("# a comment\n{line}\n"))
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with(&format!(
            "line 2: invalid FEN `{line}`: field 4 (en passant square)"
        )),
        "{e}"
    );
    let kingless = "8/8/8/8/8/8/8/8 w - -";
    let e = read_positions(&format!("startpos\n\n{kingless}\n"))
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with(&format!("line 3 `{kingless}`: Sargon cannot represent")),
        "{e}"
    );
    assert!(!e.contains(" 0 1"), "{e}");
}

#[test]
fn refusals_are_types_naming_the_line_or_the_index() {
    let e = read_positions("startpos\n8/8 w\n").unwrap_err();
    assert!(
        matches!(&e, PositionsError::NotAPosition { line: 2, text } if text == "8/8 w"),
        "{e:?}"
    );
    let kingless = "8/8/8/8/8/8/8/8 w - - 0 1";
    let e = InputPosition::new(4, kingless, false).unwrap_err();
    assert_eq!((e.index, e.text.as_deref()), (4, Some(kingless)));
    assert_eq!(
        sargon_core::causes::with_causes(&e),
        format!("position 4 `{kingless}`: {}", e.cause)
    );
}

#[test]
fn lines_with_moves_are_read_with_their_moves() {
    let text = "startpos moves e2e4\n\
                rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 moves e7e5\n";
    let fens = read_positions(text).unwrap();
    assert_eq!(
        fens,
        [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        ]
    );
    let e = read_positions("startpos\nstartpos moves e2e5\n")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("line 2: ") && e.contains("e2e5"), "{e}");
}

#[test]
fn depths_beyond_an_engine_are_refused_before_any_search() {
    let port = Box::new(sargon_port::Port::new());
    assert!(check_depths(&[port.as_ref()], &[1, 20]).is_ok());
    let e = check_depths(&[port.as_ref()], &[1, 21])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("depth 21 is outside the port engine's range 1..=20"),
        "{e}"
    );
}

#[test]
fn a_resumed_file_must_come_from_the_same_comparison() {
    let identity = RunIdentity {
        left: "emulator".into(),
        right: "port".into(),
        rom: Some(RomId {
            name: "sargon".into(),
            sha256: "aa".repeat(32),
            verified: true,
            allowed_differences: Vec::new(),
        }),
        book: true,
        shard: Shard::ALL,
    };
    let same = record::tests::record(0, 1);
    assert_eq!(identity.conflicts_with(&same), None);
    let mut other = same.clone();
    other.rom_sha256 = Some("bb".repeat(32));
    assert!(identity
        .conflicts_with(&other)
        .unwrap()
        .contains("ROM image"));
    let mut other = same.clone();
    other.shard = "1/2".into();
    assert!(identity
        .conflicts_with(&other)
        .unwrap()
        .contains("shard 1/2"));
    let mut other = same;
    other.right.engine = "emulator".into();
    assert!(identity
        .conflicts_with(&other)
        .unwrap()
        .contains("compares"));
}

#[test]
fn a_resumed_file_must_come_from_the_same_positions() {
    let identity = RunIdentity {
        left: "port".into(),
        right: "port".into(),
        rom: None,
        book: false,
        shard: Shard::ALL,
    };
    let input = positions(2);
    let mut r = record::tests::record(1, 1);
    r.left.engine = "port".into();
    r.rom = None;
    r.rom_sha256 = None;
    r.book = false;
    r.fen = input[1].fen.clone();
    assert!(check_resumable(&identity, &input, std::slice::from_ref(&r)).is_ok());
    let mut moved = r.clone();
    moved.fen = "8/8/8/8/8/8/8/8 w - - 0 1".into();
    let e = check_resumable(&identity, &input, &[moved])
        .unwrap_err()
        .to_string();
    assert!(e.contains("another position list: its position 1"), "{e}");
    r.position = 2;
    let e = check_resumable(&identity, &input, &[r])
        .unwrap_err()
        .to_string();
    assert!(e.contains("the input has 2 positions"), "{e}");
}
