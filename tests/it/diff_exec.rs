//! Another person's port, `exec:COMMAND` and `uci:COMMAND`: checked against the left engine
//! by `sargon diff --right`, and taken wherever the project takes an engine (`tree`,
//! `analyze`, `play`, `diff --left`; the explorer's tests are in tests/serve*.rs), with a
//! clear refusal where a command needs what such a port lacks. The left engine is mostly
//! our port (`--left port`), so these run without a ROM; one test checks the same against
//! the original when one is imported.
//! The "other ports" are our own port behind `sargon trace` and `sargon uci`, the Python
//! replayer of `examples/replay_port.py`, and shell lines that misbehave on purpose.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use sargon_core::position::Book;
use sargon_core::{parse_position, record, setup, Detail, SearchOptions};
use sargon_referee::diff_run::{self, SearchRecord, Verdict};
use shakmaty::Position;

const SARGON: &str = env!("CARGO_BIN_EXE_sargon");

/// Positions with a capture en passant, a promotion and castling rights on the board.
const POSITIONS: [&str; 3] = [
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 30",
    "r3k2r/1P6/8/8/8/8/6p1/R3K2R b KQkq - 0 20",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
];

/// `text` quoted for `sh`.
fn sh_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// Our own port as an `exec:` program: `sargon trace` in JSON Lines, with the book as asked.
fn our_port_command() -> String {
    format!(
        r#"{} trace "$SARGON_FEN" --depth "$SARGON_DEPTH" --format jsonl $([ "$SARGON_BOOK" = 0 ] && echo --no-book)"#,
        sh_quote(SARGON)
    )
}

fn diff(args: &[&str]) -> Output {
    Command::new(SARGON)
        .arg("diff")
        .args(["--left", "port"])
        .args(args)
        .output()
        .expect("sargon runs")
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn records(path: &Path) -> Vec<SearchRecord> {
    diff_run::read_results(path).unwrap().records
}

/// The summary's count of events compared.
fn events_compared(stdout: &str) -> u64 {
    let line = stdout.lines().last().expect("a summary line");
    let (_, after) = line
        .split_once("events compared: ")
        .unwrap_or_else(|| panic!("{line}"));
    after.split(',').next().unwrap().trim().parse().unwrap()
}

#[test]
fn our_port_behind_exec_agrees_event_for_event() {
    let exec = format!("exec:{}", our_port_command());
    for book in [&[][..], &["--no-book"][..]] {
        let mut args = vec!["startpos", POSITIONS[0], POSITIONS[1], POSITIONS[2]];
        args.extend(["--depths", "1-3", "--right", &exec]);
        args.extend(book);
        let out = diff(&args);
        let (stdout, stderr) = text(&out);
        assert!(out.status.success(), "{stdout}{stderr}");
        assert!(stdout.trim_end().ends_with("divergences: 0"), "{stdout}");
        // As many events as our two engines compare through their hooks.
        let mut args = args.clone();
        let right = args.iter().position(|a| *a == exec).unwrap();
        args[right] = "port";
        let (hooks_stdout, _) = text(&diff(&args));
        assert_eq!(events_compared(&stdout), events_compared(&hooks_stdout));
        assert!(events_compared(&stdout) > 1000, "{stdout}");
    }
}

/// The text-form traces of the first position at depths 1-3 in `dir`, as `d1.txt` ...
fn recorded_traces(dir: &Path, fen: &str) -> String {
    for depth in 1..=3 {
        let out = Command::new(SARGON)
            .args(["trace", fen, "--depth", &depth.to_string(), "--no-book"])
            .output()
            .unwrap();
        assert!(out.status.success());
        std::fs::write(dir.join(format!("d{depth}.txt")), out.stdout).unwrap();
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/replay_port.py");
    format!(
        "exec:python3 {} {}",
        sh_quote(&script.display().to_string()),
        sh_quote(&dir.join("d{depth}.txt").display().to_string())
    )
}

fn has_python(test: &str) -> bool {
    let has = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has {
        eprintln!("skipped: python3 not installed ({test})");
    }
    has
}

#[test]
fn the_python_replayer_agrees_and_an_altered_event_is_caught_at_its_index() {
    if !has_python("the_python_replayer_agrees") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let fen = POSITIONS[2];
    let exec = recorded_traces(dir.path(), fen);
    let run = |alter: Option<u64>, out: &Path| {
        let mut cmd = Command::new(SARGON);
        cmd.args([
            "diff",
            "--left",
            "port",
            fen,
            "--depths",
            "1-3",
            "--no-book",
        ])
        .args(["--right", &exec, "--keep-going", "--out"])
        .arg(out);
        if let Some(i) = alter {
            cmd.env("REPLAY_ALTER", i.to_string());
        }
        cmd.output().unwrap()
    };
    let out = run(None, &dir.path().join("clean.jsonl"));
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.trim_end().ends_with("divergences: 0"), "{stdout}");

    // Which event is where at depth 2, from the trace the replayer reads.
    let d2 = std::fs::read_to_string(dir.path().join("d2.txt")).unwrap();
    let d2: Vec<&str> = d2.lines().filter(|l| !l.starts_with('#')).collect();
    let first = |kind: &str| d2.iter().position(|l| l.starts_with(kind)).unwrap() as u64;
    let last = d2.len() as u64 - 1;
    let at = [
        first("created") + 3,
        first("eval 2"),
        first("alpha_beta"),
        first("best_test"),
        first("best "),
        first("ascend"),
        last,
    ];
    for (n, &index) in at.iter().enumerate() {
        let path = dir.path().join(format!("altered-{n}.jsonl"));
        let out = run(Some(index), &path);
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
        assert!(
            stdout.contains(&format!("at depth 2, event #{index}:")),
            "event {index} ({}): {stdout}",
            d2[index as usize]
        );
        // Every depth has an event at that index: each is caught there, none missed.
        let records = records(&path);
        assert_eq!(records.len(), 3);
        let d2_record = records.iter().find(|r| r.depth == 2).unwrap();
        assert_eq!(d2_record.verdict, Verdict::Diverge);
        let divergence = d2_record.divergence.as_ref().unwrap();
        assert_eq!(divergence.event, index);
        assert_ne!(divergence.left, divergence.right);
        assert_eq!(d2_record.right.engine, exec);
    }
}

/// Run a misbehaving `exec:` program on the start position at depth 1; it must fail with
/// exit status 1 and the one error line that names the search, which is returned.
fn failing(command: &str, extra: &[&str]) -> String {
    let exec = format!("exec:{command}");
    let mut args = vec!["startpos", "--depth", "1", "--no-book", "--right", &exec];
    args.extend(extra);
    let out = diff(&args);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{command}: {stdout}{stderr}");
    assert!(stdout.contains("errors: 1"), "{stdout}");
    let lines: Vec<&str> = stderr.lines().filter(|l| l.contains("ERROR")).collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    let line = lines[0];
    assert!(
        line.starts_with("ERROR in position 0 (startpos) at depth 1: exec: "),
        "{line}"
    );
    assert!(
        !line.contains('\u{1b}'),
        "no raw control characters: {line:?}"
    );
    line.to_string()
}

#[test]
fn a_program_that_misbehaves_gets_one_clear_error_naming_the_line() {
    let trace = our_port_command();
    let e = failing("true", &[]);
    assert!(e.ends_with("the program printed nothing on stdout"), "{e}");

    let e = failing("echo 'Sargon says: e2e4'", &[]);
    assert!(
        e.contains("line 1 of its output is not a trace event: not JSON")
            && e.ends_with("`Sargon says: e2e4`"),
        "{e}"
    );

    // Garbage after two good lines, with a terminal escape and a very long tail: quoted
    // safely, cut short.
    let garbage = format!(
        "{trace} | head -n 2; printf '\\033[2J{{\"event\":\"warp\"}}'; head -c 500 /dev/zero | tr '\\0' x; echo"
    );
    let e = failing(&garbage, &[]);
    assert!(
        e.contains("line 3 of its output is not a trace event"),
        "{e}"
    );
    assert!(e.contains("\\u{1b}[2J"), "{e}");
    assert!(e.contains("more characters)`"), "{e}");
    assert!(e.len() < 400, "{e}");

    let e = failing(r#"echo '{"event":"created","ply":2,"path":["e2e4"]}'"#, &[]);
    assert!(
        e.contains(
            "line 1 of its output is not a trace event: `ply` is 2 but the path has 1 moves"
        ),
        "{e}"
    );

    let e = failing("head -c 100000 /dev/zero | tr '\\0' x", &[]);
    assert!(
        e.contains("line 1 of its output is longer than 65536 bytes: `xxx"),
        "{e}"
    );

    // A crash in the middle of the trace.
    let e = failing(
        &format!("{trace} | head -n 5; echo 'segmentation fault' >&2; exit 139"),
        &[],
    );
    assert!(
        e.contains(
            "exited with status 139 after 5 lines of output; its stderr ends: segmentation fault"
        ),
        "{e}"
    );

    // A trace cut short with a clean exit.
    let e = failing(&format!("{trace} | head -n 5"), &[]);
    assert!(
        e.contains("its output ended after line 5 without the `result` event"),
        "{e}"
    );

    // A hang, after some output: the timeout ends it, and what it started.
    let started = Instant::now();
    let e = failing(
        &format!("{trace} | head -n 3; sleep 60"),
        &["--exec-timeout", "1"],
    );
    assert!(
        e.contains("no end of the trace within the timeout of 1 s (3 lines read)"),
        "{e}"
    );
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[test]
fn too_much_output_is_a_divergence_at_the_first_event_past_the_trace() {
    // The trace twice: the second copy's first event is past the end of the left trace.
    let trace = our_port_command();
    let exec = format!("exec:{trace}; {trace}");
    let out = diff(&["startpos", "--depth", "1", "--no-book", "--right", &exec]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    let clean = diff(&[
        "startpos",
        "--depth",
        "1",
        "--no-book",
        "--right",
        &format!("exec:{trace}"),
    ]);
    let n = events_compared(&text(&clean).0);
    assert!(
        stdout.contains(&format!("event #{n}:")) && stdout.contains("(trace ended)"),
        "{stdout}"
    );
}

#[test]
fn exec_runs_shard_record_resume_and_report_like_any_diff() {
    let dir = tempfile::tempdir().unwrap();
    let epd = dir.path().join("positions.epd");
    std::fs::write(&epd, POSITIONS.join("\n") + "\n").unwrap();
    let exec = format!("exec:{}", our_port_command());
    let shard = |k: usize, out: &Path, resume: bool| {
        let mut cmd = Command::new(SARGON);
        cmd.args(["diff", "--left", "port", "--right", &exec, "--no-book"])
            .arg("--epd")
            .arg(&epd)
            .args(["--depths", "1-2", "--shard", &format!("{k}/2"), "--out"])
            .arg(out);
        if resume {
            cmd.arg("--resume");
        }
        cmd.output().unwrap()
    };
    let files: Vec<PathBuf> = (0..2)
        .map(|k| dir.path().join(format!("shard-{k}.jsonl")))
        .collect();
    for (k, file) in files.iter().enumerate() {
        let out = shard(k, file, false);
        assert!(out.status.success(), "{:?}", text(&out));
    }
    assert_eq!(records(&files[0]).len() + records(&files[1]).len(), 6);
    assert!(records(&files[0]).iter().all(|r| r.right.engine == exec));

    // A resumed shard finds nothing left to do.
    let out = shard(0, &files[0], true);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(
        stderr.contains("4 searches already recorded, 0 to do"),
        "{stderr}"
    );

    // The report puts the shards together.
    let out = Command::new(SARGON)
        .args(["diff", "report", "--depths", "1-2", "--epd"])
        .arg(&epd)
        .args(&files)
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("compared: port with exec:"), "{stdout}");
    // The table names the program's column short, and does not pretend to know its time.
    let header = stdout.lines().find(|l| l.starts_with("depth")).unwrap();
    assert!(header.ends_with("port cpu       exec cpu"), "{header}");
    let depth_1 = stdout.lines().find(|l| l.starts_with("    1 ")).unwrap();
    assert!(depth_1.ends_with(" -"), "{depth_1}");

    // Another program is another run: its results cannot continue this one.
    let other = Command::new(SARGON)
        .args([
            "diff",
            "--left",
            "port",
            "--right",
            "exec:true",
            "--no-book",
        ])
        .arg("--epd")
        .arg(&epd)
        .args(["--depths", "1-2", "--shard", "0/2", "--out"])
        .arg(&files[0])
        .arg("--resume")
        .output()
        .unwrap();
    assert!(!other.status.success());
    assert!(
        text(&other).1.contains("it compares port with exec:"),
        "{:?}",
        text(&other)
    );
}

#[test]
fn bad_contenders_are_refused_before_any_search() {
    let out = diff(&["startpos", "--depth", "1", "--right", "exec:"]);
    assert!(!out.status.success());
    assert!(
        text(&out)
            .1
            .contains("`exec:` needs a command after the colon"),
        "{:?}",
        text(&out)
    );
    let out = diff(&["startpos", "--depth", "1", "--right", "zargon"]);
    assert!(text(&out).1.contains("or `exec:COMMAND` or `uci:COMMAND`"));
    let out = diff(&["startpos", "--depth", "1", "--right", "exec:true"])
        .status
        .code();
    assert_eq!(out, Some(1));
    let out = diff(&[
        "startpos",
        "--depth",
        "1",
        "--right",
        "exec:true",
        "--exec-timeout",
        "0",
    ]);
    assert!(text(&out)
        .1
        .contains("expected a number of seconds above 0"));
    // A UCI port that does not start is refused before any search.
    let out = diff(&["startpos", "--depth", "1", "--right", "uci:exit 3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out)
            .1
            .contains("cannot start the UCI port: exit 3 exited while"),
        "{:?}",
        text(&out)
    );
}

// ---------------------------------------------------------------------------------------
// UCI: the weaker check, answers only.

/// A `uci:` port: `sargon uci` with its answers edited by the sed expression `sed`.
fn uci_wrapper(sed: &str) -> String {
    format!(
        "uci:sh -c {}",
        sh_quote(&format!(
            "{} uci | sed -u {}",
            sh_quote(SARGON),
            sh_quote(sed)
        ))
    )
}

#[test]
fn uci_mode_agrees_with_sargon_uci() {
    let uci = format!("uci:{SARGON} uci");
    let out = diff(&[
        "startpos",
        POSITIONS[0],
        POSITIONS[1],
        POSITIONS[2],
        "--depths",
        "1-3",
        "--right",
        &uci,
    ]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert_eq!(
        stdout.lines().last().unwrap(),
        "positions: 4, searches: 12, events compared: 0, divergences: 0"
    );
    // The same through a wrapper that changes nothing: the pipe itself is not a difference.
    let out = diff(&[
        POSITIONS[2],
        "--depth",
        "2",
        "--right",
        &uci_wrapper("s/^$//"),
    ]);
    assert!(out.status.success(), "{:?}", text(&out));
}

#[test]
fn uci_mode_catches_a_changed_best_move_and_a_changed_score() {
    // The port's move at depth 2 in the third position, and another legal move.
    let pos = parse_position(POSITIONS[2]).unwrap();
    let run = record::search(
        &mut sargon_port::Port::new(),
        &setup(&pos, Book::Allowed).unwrap(),
        &SearchOptions::depth(2),
        Detail::BestOnly,
        &mut [],
    )
    .unwrap();
    let best = run.outcome.best.unwrap().uci();
    let other = pos
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string())
        .find(|m| *m != best)
        .unwrap();
    let changed = uci_wrapper(&format!("s/^bestmove {best}/bestmove {other}/"));
    let out = diff(&[
        POSITIONS[0],
        POSITIONS[2],
        "--depth",
        "2",
        "--keep-going",
        "--right",
        &changed,
    ]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.ends_with("divergences: 1\n"), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "DIFFERENT ANSWER in position 1 ({}) at depth 2:",
            POSITIONS[2]
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("uci      bestmove {other} score cp ")),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("port     bestmove {best} score cp ")),
        "{stdout}"
    );

    // A score one centipawn off is a difference too.
    let shifted = uci_wrapper(r"s/score cp \(-\?[0-9]*\)/score cp \11/");
    let out = diff(&[POSITIONS[2], "--depth", "2", "--right", &shifted]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("DIFFERENT ANSWER in position 0"),
        "{stdout}"
    );
}

// ---------------------------------------------------------------------------------------
// Against the original.

#[test]
fn our_port_behind_exec_agrees_with_the_original() {
    if common::rom("our_port_behind_exec_agrees_with_the_original").is_none() {
        return;
    }
    let exec = format!("exec:{}", our_port_command());
    let out = Command::new(SARGON)
        .args(["diff", "--left", "emulator", "--right", &exec])
        .args(["startpos", POSITIONS[0], POSITIONS[1], "--depths", "1-2"])
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.trim_end().ends_with("divergences: 0"), "{stdout}");
}

// ---------------------------------------------------------------------------------------
// Other people's ports wherever the project takes an engine (issue 33): not only `diff
// --right`, but `tree`, `analyze`, `play`, `diff --left`; and a clear refusal where a
// command needs what such a port lacks.

fn sargon(args: &[&str]) -> Output {
    Command::new(SARGON)
        .args(args)
        .output()
        .expect("sargon runs")
}

#[test]
fn tree_through_exec_draws_the_ports_tree_byte_for_byte() {
    let exec = format!("exec:{}", our_port_command());
    for fen in ["startpos", POSITIONS[2]] {
        for format in ["text", "dot"] {
            let args = |engine: &str| {
                sargon(&[
                    "tree",
                    fen,
                    "--depth",
                    "2",
                    "--no-book",
                    "--format",
                    format,
                    "--engine",
                    engine,
                ])
            };
            let (port, through) = (args("port"), args(&exec));
            assert!(port.status.success() && through.status.success());
            let (port, through) = (text(&port).0, text(&through).0);
            assert!(port.lines().count() > 20, "{port}");
            // The picture is the same; only the title names the engine that drew it (in
            // DOT, inside a quoted label).
            let named = match format {
                "dot" => format!("({} engine)", exec.replace('"', "\\\"")),
                _ => format!("({exec} engine)"),
            };
            assert!(through.contains(&named), "{through}");
            assert!(
                through.replace(&named, "(port engine)") == port,
                "{fen} as {format}: the pictures differ"
            );
        }
    }
}

#[test]
fn analyze_through_uci_gives_the_ports_move_and_score() {
    let uci = format!("uci:{} uci", sh_quote(SARGON));
    let fields = |out: &Output| -> serde_json::Value {
        let (stdout, stderr) = text(out);
        assert!(out.status.success(), "{stderr}");
        let a: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        // A book move has no search, so no score byte to compare.
        let byte = match a["from_book"].as_bool() {
            Some(false) => a["sargon_score"].clone(),
            _ => serde_json::Value::Null,
        };
        serde_json::json!([
            a["best_uci"],
            a["score_cp"],
            byte,
            a["mate"],
            a["from_book"]
        ])
    };
    for fen in ["startpos", POSITIONS[0], POSITIONS[1], POSITIONS[2]] {
        for depth in ["1", "3"] {
            let run = |engine: &str| {
                sargon(&[
                    "analyze", fen, "--depth", depth, "--format", "json", "--engine", engine,
                ])
            };
            let (port, through) = (run("port"), run(&uci));
            assert_eq!(fields(&through), fields(&port), "{fen} at depth {depth}");
            let engine = serde_json::from_slice::<serde_json::Value>(&through.stdout).unwrap()
                ["engine"]
                .clone();
            assert_eq!(engine, serde_json::json!(uci));
        }
    }
}

#[test]
fn diff_takes_another_port_on_the_left_too() {
    let exec = format!("exec:{}", our_port_command());
    let uci = format!("uci:{} uci", sh_quote(SARGON));
    // Trace against trace: every event compared, as with --right.
    let out = sargon(&[
        "diff",
        "--left",
        &exec,
        "--right",
        "port",
        "--depths",
        "1-2",
        "startpos",
        POSITIONS[2],
    ]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.trim_end().ends_with("divergences: 0"), "{stdout}");
    assert!(events_compared(&stdout) > 1000, "{stdout}");
    // A UCI port on the left: answers compared, and a changed answer caught.
    let out = sargon(&[
        "diff",
        "--left",
        &uci,
        "--right",
        &exec,
        "--depth",
        "2",
        POSITIONS[2],
    ]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.trim_end().ends_with("divergences: 0"), "{stdout}");
    let out = sargon(&[
        "diff",
        "--left",
        &uci_wrapper("s/^bestmove .*/bestmove a2a3/"),
        "--right",
        "port",
        "--depth",
        "2",
        POSITIONS[2],
    ]);
    assert_eq!(out.status.code(), Some(1), "{:?}", text(&out));
    assert!(
        text(&out).0.contains("DIFFERENT ANSWER"),
        "{:?}",
        text(&out)
    );
}

#[test]
fn what_a_port_lacks_is_refused_before_any_work_in_one_sentence() {
    let exec = format!("exec:{}", our_port_command());
    let uci = format!("uci:{} uci", sh_quote(SARGON));
    for (args, needs) in [
        (
            vec!["models", "--engine", &exec],
            "sargon models needs hooks",
        ),
        (
            vec!["profile", "startpos", "--engine", &exec],
            "sargon profile needs a Z80",
        ),
        (
            vec!["profile", "startpos", "--engine", "port"],
            "sargon profile needs a Z80",
        ),
        (
            vec!["trace", "startpos", "--depth", "1", "--engine", &uci],
            "sargon trace needs a trace of its search",
        ),
        (
            vec![
                "tree",
                "startpos",
                "--depth",
                "1",
                "--no-book",
                "--engine",
                &uci,
            ],
            "a tree of the search needs a trace of its search",
        ),
        (
            vec![
                "diff", "--state", "--left", "port", "--right", &exec, "--depth", "1", "startpos",
            ],
            "needs Sargon's data area",
        ),
    ] {
        let out = sargon(&args);
        let (stdout, stderr) = text(&out);
        assert!(!out.status.success(), "{args:?}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        let lines: Vec<&str> = stderr.lines().collect();
        assert_eq!(lines.len(), 1, "{args:?}: {stderr}");
        assert!(
            lines[0].starts_with("error: ") && lines[0].contains(needs),
            "{args:?}: {stderr}"
        );
        assert!(lines[0].ends_with("does not have"), "{stderr}");
    }
}

#[test]
fn a_uci_port_plays_a_match() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let uci = format!("uci:{} uci", sh_quote(SARGON));
    let out = sargon(&[
        "play",
        "--engine",
        &uci,
        "--depth",
        "2",
        "--opponent",
        "sargon:depth=1,engine=port",
        "--games",
        "2",
        "--max-moves",
        "6",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(!stdout.contains("the engine failed"), "{stdout}");
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[Result ").count(), 2, "{games}");
    assert!(
        games.contains(&format!("Sargon 1978 ({uci}, depth 2)")),
        "{games}"
    );
    // Every game went its 6 moves a side: every move was legal and searched.
    assert_eq!(
        games.matches("[Termination \"adjudication\"]").count(),
        2,
        "{games}"
    );
}
