//! Bad input, through the `sargon` command: every refusal is a non-zero exit with one
//! clear line on stderr, before any work (so in bounded time), and never a panic. What is
//! accepted with assumptions says so on stderr. `docs/reliability.md` lists the same cases.
//!
//! Also here: the tree keeps a bounded number of nodes while it records, and a long search
//! on a terminal shows signs of life.
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const INITIAL: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
const ITALIAN: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

/// A refusal comes at once: far under this, however loaded the machine.
const REFUSAL_SECONDS: f64 = 10.0;

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    seconds: f64,
}

/// Run `sargon args`, stopping it after a minute (a hang is a failure, not a stuck test).
fn sargon(args: &[&str]) -> Run {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sargon"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sargon starts");
    let read = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            pipe.read_to_end(&mut bytes).unwrap();
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let stdout = read(Box::new(child.stdout.take().unwrap()));
    let stderr = read(Box::new(child.stderr.take().unwrap()));
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("sargon {} still running after a minute", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        code: status.code(),
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// The lines of a message, less clap's blank line and "For more information" hint.
fn message_lines(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with("For more information"))
        .collect()
}

/// `args` is refused: exit `code`, one line on stderr starting `error:` and containing every
/// needle, nothing on stdout, no panic, at once.
fn refused(args: &[&str], code: i32, needles: &[&str]) -> String {
    let run = sargon(args);
    let shown = format!("sargon {}: {:?}", args.join(" "), run.stderr);
    assert_eq!(run.code, Some(code), "{shown}");
    assert!(!run.stderr.contains("panicked"), "{shown}");
    let lines = message_lines(&run.stderr);
    assert_eq!(lines.len(), 1, "one line: {shown}");
    assert!(lines[0].starts_with("error: "), "{shown}");
    for needle in needles {
        assert!(lines[0].contains(needle), "`{needle}` in {shown}");
    }
    assert!(run.stdout.is_empty(), "{shown}: stdout {:?}", run.stdout);
    assert!(
        run.seconds < REFUSAL_SECONDS,
        "{shown}: refused after {:.1} s",
        run.seconds
    );
    lines[0].to_string()
}

/// `args` succeeds, with each of `notes` on stderr; returns stdout.
fn accepted(args: &[&str], notes: &[&str]) -> String {
    let run = sargon(args);
    let shown = format!("sargon {}: {}", args.join(" "), run.stderr);
    assert_eq!(run.code, Some(0), "{shown}");
    for note in notes {
        assert!(
            run.stderr
                .lines()
                .any(|l| l.starts_with("note: ") && l.contains(note)),
            "`{note}` in {shown}"
        );
    }
    run.stdout
}

#[test]
fn depths_outside_an_engines_range_are_refused_before_any_work() {
    // Clap's own one-line refusals (exit 2), for depths no engine takes.
    refused(
        &["analyze", "startpos", "--depth", "-1"],
        2,
        &["--depth", "at least 1 ply; -1 asked"],
    );
    refused(
        &["analyze", "startpos", "--depth", "0"],
        2,
        &["at least 1 ply"],
    );
    refused(
        &["analyze", "startpos", "--depth", "300"],
        2,
        &["deeper than either engine"],
    );
    refused(
        &["analyze", "startpos", "--depth", "three"],
        2,
        &["`three` is not a whole number of plies"],
    );
    // Each engine's own range (exit 1). The emulator's is checked before its ROM is
    // looked for, so these run without one.
    for command in ["analyze", "trace", "tree"] {
        refused(
            &[command, "startpos", "--depth", "21"],
            1,
            &["depth 21 is outside the port engine's range 1..=20"],
        );
        refused(
            &[command, "startpos", "--depth", "7", "--engine", "emulator"],
            1,
            &["depth 7 is outside the emulator engine's range 1..=6"],
        );
        refused(
            &[command, "startpos", "--depth", "-1"],
            2,
            &["at least 1 ply"],
        );
    }
    refused(
        &["profile", "startpos", "--depth", "7"],
        1,
        &["depth 7 is outside the emulator engine's range 1..=6"],
    );
    let epd = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(epd.path(), "startpos\n").unwrap();
    let epd = epd.path().to_str().unwrap();
    refused(
        &["analyze", "--epd", epd, "--depth", "21"],
        1,
        &["depth 21 is outside the port engine's range"],
    );
    refused(
        &["analyze", "--epd", epd, "--jobs", "0"],
        2,
        &["--jobs", "expected a whole number from 1 to 1024, got `0`"],
    );
    refused(
        &["diff", "startpos", "--depth", "-1"],
        2,
        &["at least 1 ply"],
    );
}

#[test]
fn bench_checks_its_arguments_before_it_measures() {
    // Refused at once, not after the port's part of the run.
    refused(
        &["bench", "--depth", "7"],
        1,
        &[
            "emulator",
            "depth 7 is outside the emulator engine's range 1..=6",
        ],
    );
    // Not silently run at depth 5.
    refused(
        &["bench", "--depth", "21", "--no-emulator", "--no-classic"],
        1,
        &["depth 21 is outside the port engine's range 1..=20"],
    );
    for n in ["0", "13"] {
        refused(
            &["bench", "--emulator-positions", n],
            2,
            &[
                "--emulator-positions",
                &format!("expected a whole number from 1 to 12, got `{n}`"),
            ],
        );
    }
}

#[test]
fn other_ranges_are_refused_by_clap() {
    refused(
        &["history", "levels", "--max-level", "0"],
        2,
        &["from 1 to 6"],
    );
    refused(
        &["history", "levels", "--max-level", "7"],
        2,
        &["from 1 to 6"],
    );
    refused(&["models", "--example", "6"], 2, &["from 1 to 5"]);
    refused(
        &["tree", "startpos", "--keep-nodes", "0"],
        2,
        &["from 1 to 50000000"],
    );
}

#[test]
fn what_is_not_a_standard_fen_is_refused_with_the_field_named() {
    for (fen, needles) in [
        (
            format!("{INITIAL}/8 w KQkq - 0 1"),
            &["field 1 (board)", "9 ranks; a board has 8"][..],
        ),
        (
            format!("{INITIAL}/QQ w KQkq - 0 1"),
            &["field 1 (board)", "crazyhouse pockets"],
        ),
        (
            format!("{INITIAL}[Qq] w KQkq - 0 1"),
            &["field 1 (board)", "crazyhouse pockets"],
        ),
        (
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            &["field 1 (board)", "rank 7", "covers 7 squares"],
        ),
        (
            format!("{INITIAL} white KQkq - 0 1"),
            &["field 2 (side to move)"],
        ),
        (
            format!("{INITIAL} w HAha - 0 1"),
            &["field 3 (castling rights)", "Chess960"],
        ),
        (
            format!("{INITIAL} w KQkq e5 0 1"),
            &["field 4 (en passant square)"],
        ),
        (
            format!("{INITIAL} w KQkq - 99999999999 1"),
            &["field 5 (half-move clock)", "out of the range 0..=20000"],
        ),
        (
            format!("{INITIAL} w KQkq - 0 99999999999"),
            &["field 6 (full-move number)", "out of the range 1..=10000"],
        ),
        (
            format!("{INITIAL} w KQkq - 0 0"),
            &["field 6", "starts at 1"],
        ),
        (
            format!("{INITIAL} w KQkq - 0"),
            &["field 6 (full-move number) is missing"],
        ),
        (
            format!("{INITIAL} w KQkq - 0 1 extra"),
            &["`extra` after field 6", "a FEN has 6 fields"],
        ),
        ("8/8/8/8/8/8/8/4K3 w - - 0 1".into(), &["a king is missing"]),
        (String::new(), &["nothing to read"]),
    ] {
        // Quoted as one argument.
        refused(&["analyze", &fen], 1, needles);
    }
    // As separate words, the same.
    let words: Vec<String> = format!("{INITIAL}/8 w KQkq - 0 1")
        .split(' ')
        .map(String::from)
        .collect();
    let mut args = vec!["trace"];
    args.extend(words.iter().map(String::as_str));
    refused(&args, 1, &["9 ranks"]);
}

#[test]
fn a_short_fen_and_an_epd_line_are_read_with_notes() {
    let out = accepted(
        &["analyze", INITIAL, "--depth", "1"],
        &["gives 1 of a FEN's 6 fields: assumed `w - - 0 1`"],
    );
    assert!(
        out.contains(&format!("Position   {INITIAL} w - - 0 1")),
        "{out}"
    );
    let out = accepted(
        &[
            "analyze",
            "r2n2k1/5ppp/b5q1/1P3N2/8/8/3Q1PPP/3R2K1 w - - bm Qxd8+; id \"mate\";",
            "--depth",
            "1",
        ],
        &[
            "read as EPD: its operations `bm Qxd8+; id \"mate\";` are ignored",
            "assumed `0 1`",
        ],
    );
    assert!(
        out.contains("r2n2k1/5ppp/b5q1/1P3N2/8/8/3Q1PPP/3R2K1 w - - 0 1"),
        "{out}"
    );
}

#[test]
fn moves_after_the_position_are_played_and_checked() {
    let out = accepted(
        &[
            "analyze", "startpos", "moves", "e2e4", "e7e5", "--depth", "1",
        ],
        &[],
    );
    assert!(
        out.contains("Position   rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"),
        "{out}"
    );
    let out = accepted(
        &["trace", &format!("{ITALIAN} moves e1g1"), "--depth", "1"],
        &[],
    );
    // Black to move after White castled: the root's moves are Black's.
    assert!(out.contains("created 1 c6b4"), "{out}");
    refused(
        &["analyze", "startpos moves e2e4 e2e4"],
        1,
        &["move 2 after `moves`, `e2e4`, is not legal in rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"],
    );
    refused(
        &["tree", "startpos moves e4"],
        1,
        &["move 1 after `moves`, `e4`, is not a move in UCI notation"],
    );
    refused(
        &["analyze", "startpos", "e2e4"],
        1,
        &["only `moves ...` may follow"],
    );
}

#[test]
fn checkmate_and_stalemate_are_named_apart() {
    let mate = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1";
    let stalemate = "7k/8/6QK/8/8/8/8/8 b - - 0 1";
    let text = accepted(&["analyze", mate], &[]);
    assert!(text.contains("Best move  none: checkmate"), "{text}");
    let text = accepted(&["analyze", stalemate], &[]);
    assert!(text.contains("Best move  none: stalemate"), "{text}");
    let json = |fen: &str| -> serde_json::Value {
        serde_json::from_str(&accepted(&["analyze", fen, "--format", "json"], &[])).unwrap()
    };
    assert_eq!(json(mate)["result"], "checkmate");
    assert_eq!(json(stalemate)["result"], "stalemate");
    assert_eq!(json("startpos")["result"], serde_json::Value::Null);
}

#[test]
fn long_and_unprintable_input_is_cut_and_escaped_in_messages() {
    // An argument (the kernel takes up to 128 KiB).
    let long = format!("{INITIAL}/{} w KQkq - 0 1", "Q".repeat(100_000));
    let line = refused(&["analyze", &long], 1, &["more characters)"]);
    assert!(line.len() < 600, "{} bytes: {line}", line.len());
    let line = refused(
        &[
            "analyze",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\u{1b}[2J",
        ],
        1,
        &["\\u{1b}[2J"],
    );
    assert!(!line.contains('\u{1b}'), "{line:?}");
    // A 2 MB line of an EPD file.
    let mut epd = tempfile::NamedTempFile::new().unwrap();
    writeln!(epd, "{}", "x".repeat(2_000_000)).unwrap();
    let path = epd.path().to_str().unwrap().to_string();
    let line = refused(
        &["analyze", "--epd", &path],
        1,
        &["line 1", "more characters)"],
    );
    assert!(line.len() < 600, "{} bytes", line.len());
    // An EPD counter out of range is refused, not taken for an operation.
    let mut epd = tempfile::NamedTempFile::new().unwrap();
    writeln!(epd, "{INITIAL} w KQkq - 0 99999999999 bm e4;").unwrap();
    let path = epd.path().to_str().unwrap().to_string();
    refused(
        &["analyze", "--epd", &path],
        1,
        &["line 1", "field 6 (full-move number)"],
    );
    // A file of nothing.
    let mut epd = tempfile::NamedTempFile::new().unwrap();
    writeln!(epd, "# only a comment").unwrap();
    let path = epd.path().to_str().unwrap().to_string();
    refused(&["analyze", "--epd", &path], 1, &["no positions"]);
}

#[test]
fn the_tree_keeps_a_bounded_number_of_nodes_and_says_so() {
    let run = sargon(&["tree", ITALIAN, "--depth", "4", "--keep-nodes", "2000"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.seconds < 60.0);
    // The search created more than that; the tree holds at most 2000.
    let cut = run
        .stdout
        .lines()
        .find(|l| l.starts_with("Cut: the search created "))
        .unwrap_or_else(|| panic!("a cut note in {}", &run.stdout[..500]));
    let created: u64 = cut["Cut: the search created ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(created > 2000, "{cut}");
    assert!(cut.contains("more than the 2000 kept in memory"), "{cut}");
    assert!(cut.contains("down to ply "), "{cut}");
    // "Showing 200 of N nodes" or "Showing all N nodes": N is what the tree holds.
    let showing = run.stdout.lines().nth(1).unwrap();
    let held: usize = showing
        .split(' ')
        .skip_while(|w| *w != "of" && *w != "all")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{showing}"));
    assert!(held <= 2000, "{showing}");
    // Without a terminal, no ticker on stderr.
    assert!(!run.stderr.contains("searching to depth"), "{}", run.stderr);
    // Unbounded by default only up to 200,000 nodes: a small tree is whole.
    let run = sargon(&["tree", ITALIAN, "--depth", "2"]);
    assert_eq!(run.code, Some(0));
    assert!(!run.stdout.contains("Cut:"), "{}", run.stdout);
}

#[test]
fn a_long_search_on_a_terminal_shows_signs_of_life() {
    // `script` runs the command on a pseudo-terminal.
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: `script` (util-linux) is not installed");
        return;
    }
    let sargon = env!("CARGO_BIN_EXE_sargon");
    // A search far too long to finish: stopped after a few seconds (by `timeout`, or by
    // the test once the ticker has shown).
    let command = format!("timeout 8 {sargon} analyze '{ITALIAN}' --depth 12");
    let mut child = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    let started = Instant::now();
    let found = loop {
        let n = out.read(&mut buf).unwrap_or(0);
        if n == 0 {
            break false;
        }
        seen.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&seen);
        if text.contains("searching to depth 12:") && text.contains("positions evaluated") {
            break true;
        }
    };
    let _ = child.kill();
    let _ = child.wait();
    let text = String::from_utf8_lossy(&seen);
    assert!(found, "no ticker in {text:?}");
    // Not before the search has run for a second.
    assert!(started.elapsed() >= Duration::from_millis(900));
}

/// Run `sargon ARGS` for `seconds` with stderr a pipe, with `--progress` or without, and
/// check its progress lines (those containing `marker`): none without the flag; with it,
/// between one and `most`, each passing `each`, none with an escape sequence.
fn check_progress_lines(
    args: &str,
    seconds: u32,
    marker: &str,
    most: usize,
    each: fn(&str) -> bool,
) {
    let sargon = env!("CARGO_BIN_EXE_sargon");
    for forced in [false, true] {
        let progress = if forced { "--progress" } else { "" };
        let command = format!("timeout {seconds} {sargon} {progress} {args}");
        let out = Command::new("sh")
            .args(["-c", &command])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<&str> = err.lines().filter(|l| l.contains(marker)).collect();
        if forced {
            assert!(!lines.is_empty(), "{err:?}");
            assert!(lines.len() <= most, "too many lines: {err:?}");
            assert!(
                lines.iter().all(|l| each(l) && !l.contains('\x1b')),
                "{err:?}"
            );
        } else {
            assert!(lines.is_empty(), "{err:?}");
        }
    }
}

#[test]
fn progress_writes_a_line_a_second_where_stderr_is_no_terminal() {
    // A long search with stderr a pipe: silent, unless `--progress` is given; then one
    // plain line a second, for logs and CI.
    check_progress_lines(
        &format!("analyze '{ITALIAN}' --depth 12"),
        3,
        "searching to depth 12: ",
        3,
        |l| l.ends_with(" s"),
    );
}

#[test]
fn progress_writes_a_line_every_few_seconds_for_many_searches() {
    // A batch (`analyze --epd`): under `--progress`, a line every 5 s with the count done,
    // the time and the time left (12 s: room for two lines).
    check_progress_lines(
        "analyze --epd tests/positions/varied-200.epd --depth 6",
        12,
        "/200 positions, ",
        3,
        |l| l.contains(" left"),
    );
}

/// Standard output closed (`sargon ... | head -1` once `head` has gone): the command ends
/// quietly with status 0, as ripgrep does, not with a panic. `trace` writes through
/// `streams::Stdout`, `analyze` and `models` with `println!`: both go through the one
/// writer of `src/streams.rs` (every subcommand: `bad_input/stderr.rs`).
#[test]
fn a_closed_stdout_ends_the_command_quietly() {
    for args in [
        &["trace", "startpos", "--depth", "3", "--no-book"][..],
        &["analyze", "startpos", "--depth", "2"][..],
        &["models", "--format", "text"][..],
    ] {
        // A pipe whose reading end is closed before the command starts: its first write
        // fails, however large or small the output.
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_sargon"))
            .args(args)
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .expect("sargon runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(
            stderr.is_empty(),
            "{args:?}: nothing on stderr for a closed pipe: {stderr}"
        );
    }
}

/// Standard output on a full disk (`/dev/full`): one line on stderr and status 1.
#[test]
fn a_full_disk_is_one_line_not_a_panic() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("skipped: no /dev/full on this system");
        return;
    };
    let out = Command::new(env!("CARGO_BIN_EXE_sargon"))
        .args(["analyze", "startpos", "--depth", "2"])
        .stdout(Stdio::from(full))
        .stderr(Stdio::piped())
        .output()
        .expect("sargon runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(
        message_lines(&stderr),
        ["error: cannot write the output: No space left on device (os error 28)"],
        "{stderr}"
    );
}

#[test]
fn a_timeout_no_duration_can_hold_is_refused() {
    refused(
        &[
            "play",
            "--opponent",
            "sargon:depth=1",
            "--move-timeout",
            "1e20",
            "--games",
            "1",
        ],
        2,
        &["--move-timeout", "at most 604800, got `1e20`"],
    );
}

/// A file of the right name holding no position or game is an error on every command
/// that reads one, not an empty run that exits 0.
#[test]
fn empty_or_garbage_input_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let empty_epd = write("empty.epd", "# only a comment\n\n");
    let prose = write("prose.pgn", "this is not a game of chess\n");
    let empty_pgn = write("empty.pgn", "");
    let empty_jsonl = write("empty.jsonl", "");
    refused(
        &["diff", "--epd", &empty_epd, "--depth", "1"],
        2,
        &["no positions"],
    );
    refused(
        &["annotate", &prose, "--depth", "1"],
        1,
        &["game 1, line 1: `this` is not a move"],
    );
    refused(
        &[
            "play",
            "--opponent",
            "sargon:depth=1",
            "--openings",
            &prose,
            "--games",
            "1",
        ],
        1,
        &["game 1, line 1: `this` is not a move"],
    );
    refused(&["history", "strength", &empty_pgn], 1, &["no games"]);
    refused(
        &["history", "games", "--load", &empty_jsonl],
        1,
        &["no games"],
    );
    refused(
        &["history", "games", "--games", "0"],
        2,
        &["from 1 to 1000000"],
    );
    // A ROM named but not there (in an empty store here): an error before any measuring.
    let store = dir.path().display().to_string();
    let run = sargon(&[
        "--roms",
        &store,
        "bench",
        "--rom",
        "no-such-rom",
        "--depth",
        "1",
    ]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(
        run.stderr.starts_with("error: no Sargon ROM imported"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty(), "nothing measured: {}", run.stdout);
}

/// An output file that cannot be written is refused before the work that would fill it
/// (it was refused after a search of seconds or minutes, the result lost).
#[test]
fn unwritable_outputs_are_refused_before_any_work() {
    let nowhere = "/nonexistent-sargon-dir/out";
    for args in [
        &["tree", "startpos", "--depth", "7", "-o", nowhere][..],
        &["history", "levels", "--max-level", "3", "--save", nowhere][..],
        &[
            "play",
            "--opponent",
            "sargon:depth=1",
            "--games",
            "1",
            "--pgn",
            nowhere,
        ][..],
    ] {
        refused(args, 1, &["cannot write", nowhere]);
    }
}

// Each area's cases (issue 32) in a file of its own under tests/it/bad_input/.
mod cache;
mod emulator;
mod files;
mod numbers;
mod outputs;
mod stderr;
mod sweep;
mod uci;
