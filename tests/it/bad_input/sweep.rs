//! The sweep: the kinds of cases tried again on the commands and options the issue
//! did not name (issue 32, "the rules hold for every command"). Each test here failed
//! before its fix.

use super::{refused, sargon, ITALIAN};

/// A file that is not there is named with its cause once, by every reader: the text-file
/// reader's I/O error had a `source()` too, so "No such file or directory" came twice.
#[test]
fn a_missing_file_says_its_cause_once() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing");
    let missing = missing.to_str().unwrap();
    // crosscheck, as diff, keeps exit 1 for a difference found.
    for (args, code) in [
        (&["analyze", "--epd", missing][..], 1),
        (&["annotate", missing][..], 1),
        (&["history", "strength", missing][..], 1),
        (&["history", "levels", "--positions", missing][..], 1),
        (&["history", "levels", "--load", missing][..], 1),
        (&["history", "games", "--load", missing][..], 1),
        (&["emulator", "crosscheck", missing][..], 2),
    ] {
        let message = refused(args, code, &[missing, "No such file or directory"]);
        assert_eq!(
            message.matches("No such file or directory").count(),
            1,
            "sargon {}: {message}",
            args.join(" ")
        );
    }
}

/// A Latin-1 EPD file is noted once: `emulator crosscheck` read its file twice (once to
/// tell the corpus format from EPD, once for the positions) and said the note twice. The
/// note comes before the ROM is looked for, so an empty store is enough here.
#[test]
fn crosscheck_notes_a_latin1_file_once() {
    let dir = tempfile::tempdir().unwrap();
    let epd = dir.path().join("latin1.epd");
    let mut line = format!("{ITALIAN} c0 \"D").into_bytes();
    line.extend_from_slice(b"\xfcrer\";\n");
    std::fs::write(&epd, line).unwrap();
    let roms = dir.path().join("roms");
    std::fs::create_dir(&roms).unwrap();
    let run = sargon(&[
        "--roms",
        roms.to_str().unwrap(),
        "emulator",
        "crosscheck",
        epd.to_str().unwrap(),
        "--depths",
        "1-1",
    ]);
    assert_eq!(
        run.stderr.matches("is not UTF-8").count(),
        1,
        "{:?}",
        run.stderr
    );
    assert!(!run.stderr.contains("panicked"), "{:?}", run.stderr);
}

/// `/dev/full` as a whole-file output is refused before any work: it was written directly
/// as a device, so the games were annotated (their summaries printed), the tree searched,
/// the levels run, and only the last write failed.
#[cfg(target_os = "linux")]
#[test]
fn dev_full_as_a_whole_output_is_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("g.pgn");
    std::fs::write(&pgn, "1. e4 e5 2. Nf3 Nc6 *\n").unwrap();
    let positions = dir.path().join("p.txt");
    std::fs::write(&positions, format!("{ITALIAN}\n")).unwrap();
    let (pgn, positions) = (pgn.to_str().unwrap(), positions.to_str().unwrap());
    for args in [
        &["annotate", pgn, "-d", "1", "-o", "/dev/full"][..],
        &["tree", "startpos", "-d", "1", "-o", "/dev/full"][..],
        &[
            "history",
            "levels",
            "--positions",
            positions,
            "--max-level",
            "1",
            "-q",
            "--save",
            "/dev/full",
        ][..],
    ] {
        refused(args, 1, &["cannot write", "/dev/full", "No space left"]);
    }
}

/// `profile` in a position with no legal move names no move: it printed Sargon's BESTM,
/// the last move the search tried and found illegal (`g4g5` out of checkmate, `h8g8`
/// into the queen's square in stalemate), as `analyze` already knew not to.
#[test]
fn profile_names_no_move_where_there_is_none() {
    let test = "profile_names_no_move_where_there_is_none";
    if crate::common::rom(test).is_none() {
        return;
    }
    for (fen, end) in [
        (
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            "checkmate",
        ),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "stalemate"),
    ] {
        let run = sargon(&["profile", fen, "-d", "1"]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        assert!(
            run.stdout.contains(&format!("best move none: {end}")),
            "{fen}: {}",
            run.stdout
        );
        let run = sargon(&["profile", fen, "-d", "1", "--format", "json"]);
        let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        assert!(json["best_move"].is_null(), "{fen}: {json}");
        assert_eq!(json["result"], end, "{fen}");
    }
}

/// The ROM store's path is quoted as user text in every store error: `--roms` of 100 KB
/// was echoed whole ("cannot read the ROM store yyyy...: File name too long"), and one with
/// an escape sequence was printed raw.
#[test]
fn the_rom_store_path_is_echoed_escaped_and_cut() {
    let dir = tempfile::tempdir().unwrap();
    let escaped = dir.path().join("store\u{1b}[31m");
    std::fs::write(&escaped, "a file, not a store").unwrap();
    let long = "y".repeat(100_000);
    for (store, needle) in [
        (escaped.to_str().unwrap(), "\\u{1b}[31m"),
        (long.as_str(), "more characters"),
    ] {
        for args in [
            &["--roms", store, "rom", "list"][..],
            &[
                "--roms", store, "analyze", "startpos", "--engine", "emulator",
            ][..],
        ] {
            let message = refused(args, 1, &["ROM store", needle]);
            assert!(!message.contains('\u{1b}'), "{message:?}");
            assert!(message.len() < 1000, "{} bytes", message.len());
        }
    }
}

/// A file given twice to an option that adds files together (`history games --load`,
/// `history strength`), by its name or through a link, is refused: its games counted
/// twice (one game shown as 2, a match listed twice).
#[test]
fn a_file_given_twice_to_a_list_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("m.pgn");
    std::fs::write(
        &pgn,
        "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n",
    )
    .unwrap();
    let hard = dir.path().join("hard.pgn");
    std::fs::hard_link(&pgn, &hard).unwrap();
    let games = dir.path().join("g.jsonl");
    std::fs::write(&games, "").unwrap();
    let (pgn, hard, games) = (
        pgn.to_str().unwrap(),
        hard.to_str().unwrap(),
        games.to_str().unwrap(),
    );
    for args in [
        &["history", "strength", pgn, pgn][..],
        &["history", "strength", pgn, hard][..],
        &["history", "games", "--load", games, games][..],
    ] {
        refused(args, 1, &["would count twice"]);
    }
}

/// `sargon uci` given `input` (then the end of its input): its standard output.
fn uci_session(input: &str) -> String {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_sargon"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("sargon uci starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A `go` number out of range says the range (issue 32 item 17's rule, inside `uci`):
/// `go movetime 1e30` was "not a number 0 or more", `go wtime 99999999999999999999` "not a
/// time in milliseconds", `go depth 0` "not a depth 1-255".
#[test]
fn go_numbers_out_of_range_say_the_range() {
    for (go, range) in [
        (
            "go movetime 1e30",
            "not a whole number from 0 to 18446744073709551615",
        ),
        (
            "go nodes -1",
            "not a whole number from 0 to 18446744073709551615",
        ),
        (
            "go wtime 99999999999999999999",
            "not a whole number of milliseconds up to 9223372036854775807",
        ),
        ("go depth 0", "not a whole number of plies from 1 to 255"),
        ("go movestogo 0", "not a whole number from 1 to 4294967295"),
    ] {
        let out = uci_session(&format!("uci\nposition startpos\n{go}\nquit\n"));
        assert!(out.contains(range), "{go}: {out}");
        assert!(out.contains("bestmove"), "{go}: {out}");
    }
}

/// A file that never ends (`/dev/zero`) given as a text file is refused once it passes
/// the limit of a text file, in about a second, by every reader (the text-file reader and
/// `rom import`'s): each read it to the end, taking all the memory there was (16 GB in
/// 20 s for `rom import`).
#[cfg(target_os = "linux")]
#[test]
fn a_file_that_never_ends_is_refused_at_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let roms = dir.path().join("roms");
    for (args, code) in [
        (&["annotate", "/dev/zero"][..], 1),
        (
            &["diff", "--epd", "/dev/zero", "-d", "1", "--left", "port"][..],
            2,
        ),
        (
            &[
                "--roms",
                roms.to_str().unwrap(),
                "rom",
                "import",
                "/dev/zero",
            ][..],
            1,
        ),
    ] {
        refused(args, code, &["/dev/zero", "more than 1024 MiB"]);
    }
}

/// `setoption name FixedDepth` with a value that is no depth says the range the option
/// line advertised and what is kept: it said "not a number 0-255" of an option advertised
/// `min 0 max 20`, and not what stayed in force.
#[test]
fn a_bad_fixed_depth_says_the_advertised_range_and_what_is_kept() {
    let out = uci_session(
        "uci\nsetoption name FixedDepth value 3\nsetoption name FixedDepth value -1\nquit\n",
    );
    assert!(
        out.contains("option name FixedDepth type spin default 0 min 0 max 20"),
        "{out}"
    );
    assert!(
        out.contains(
            "setoption FixedDepth: `-1` is not a whole number from 0 (the clock decides) to 20 \
             (the port engine's deepest); kept 3"
        ),
        "{out}"
    );
}
