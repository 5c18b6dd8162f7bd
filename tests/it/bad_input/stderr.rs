//! A standard stream that cannot be written (issue 32, item 9): every subcommand of
//! `sargon`, with arguments that make it write to stdout, to stderr or to both (a result, a
//! note, progress, an error), run normally and then with stderr on /dev/full, stderr a
//! closed pipe, stdout a closed pipe, and both closed pipes. Never status 101, never a
//! panic message, always in bounded time; and the status is the one rule of
//! docs/reliability.md ("stderr (round three)"):
//!
//! - a closed pipe is no error: stdout closed ends the command with 0; stderr closed leaves
//!   the status what it would have been;
//! - any other failure (a full disk) is: the command's trouble status (1, or 2 for `diff`
//!   and `emulator`).

use std::fs::{self, OpenOptions};
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A run that takes longer has hung: far above the few seconds the slowest row takes.
const HANG: Duration = Duration::from_secs(60);

/// Where the command's stdout and stderr go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Setup {
    /// Both read to their end: what the command writes, and its status, for the others.
    Normal,
    StderrFull,
    StderrClosed,
    StdoutClosed,
    BothClosed,
}

const FAILING: [Setup; 4] = [
    Setup::StderrFull,
    Setup::StderrClosed,
    Setup::StdoutClosed,
    Setup::BothClosed,
];

/// Which streams a row's normal run writes to (checked: a row that stopped writing where
/// it claims would test nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Writes {
    Stdout,
    Stderr,
    Both,
}

struct Row {
    /// The subcommand, as its words (`rom list`).
    command: &'static str,
    args: Vec<String>,
    /// Fed to stdin (for `uci`); else stdin is empty.
    stdin: &'static str,
    writes: Writes,
    /// `serve`: runs until stopped; it is stopped once it has printed its address.
    server: bool,
}

fn row(command: &'static str, args: &[&str], writes: Writes) -> Row {
    Row {
        command,
        args: args.iter().map(|a| a.to_string()).collect(),
        stdin: "",
        writes,
        server: false,
    }
}

impl Row {
    fn shown(&self) -> String {
        format!("sargon {} {}", self.command, self.args.join(" "))
    }

    /// The status that means trouble for this command.
    fn trouble(&self) -> i32 {
        if self.command.starts_with("diff") || self.command.starts_with("emulator") {
            2
        } else {
            1
        }
    }
}

struct Outcome {
    /// `None` for a server stopped by the test.
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// A pipe whose reading end is closed before the command starts: every write fails.
fn closed_pipe() -> Stdio {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    Stdio::from(writer)
}

fn dev_full() -> Stdio {
    Stdio::from(
        OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full"),
    )
}

/// Read a child's stream into a buffer the test can look at while the child runs.
fn collect(stream: Option<impl Read + Send + 'static>) -> (Arc<Mutex<Vec<u8>>>, JoinHandle<()>) {
    let buffer = Arc::new(Mutex::new(Vec::new()));
    let kept = buffer.clone();
    let reader = std::thread::spawn(move || {
        let Some(mut stream) = stream else { return };
        let mut chunk = [0u8; 4096];
        while let Ok(n) = stream.read(&mut chunk) {
            if n == 0 {
                break;
            }
            kept.lock().unwrap().extend_from_slice(&chunk[..n]);
        }
    });
    (buffer, reader)
}

fn text(buffer: &Mutex<Vec<u8>>) -> String {
    String::from_utf8_lossy(&buffer.lock().unwrap()).into_owned()
}

fn run(dir: &Path, row: &Row, setup: Setup) -> Outcome {
    let (stdout, stderr) = match setup {
        Setup::Normal => (Stdio::piped(), Stdio::piped()),
        Setup::StderrFull => (Stdio::piped(), dev_full()),
        Setup::StderrClosed => (Stdio::piped(), closed_pipe()),
        Setup::StdoutClosed => (closed_pipe(), Stdio::piped()),
        Setup::BothClosed => (closed_pipe(), closed_pipe()),
    };
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sargon"))
        .args(row.command.split(' '))
        .args(&row.args)
        .env("SARGON_CACHE", dir.join("cache"))
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(stderr)
        .spawn()
        .expect("sargon starts");
    let mut stdin = child.stdin.take().unwrap();
    let script = row.stdin;
    // A command that ends before it has read everything closes the pipe: not our concern.
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(script.as_bytes());
    });
    let (out, out_reader) = collect(child.stdout.take());
    let (err, err_reader) = collect(child.stderr.take());
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if row.server && text(&out).contains("http://") {
            child.kill().unwrap();
            child.wait().unwrap();
            break None;
        }
        if started.elapsed() > HANG {
            child.kill().unwrap();
            panic!("{} ({setup:?}): still running after {HANG:?}", row.shown());
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    feeder.join().unwrap();
    out_reader.join().unwrap();
    err_reader.join().unwrap();
    Outcome {
        code,
        stdout: text(&out),
        stderr: text(&err),
    }
}

/// Run `row` normally, then in every failing set-up, checking each against the rule.
fn check(dir: &Path, row: &Row) {
    let normal = run(dir, row, Setup::Normal);
    let shown = format!("{}: {:?}", row.shown(), normal.stderr);
    assert!(!normal.stderr.contains("panicked"), "{shown}");
    assert_ne!(normal.code, Some(101), "{shown}");
    let (wrote_out, wrote_err) = (!normal.stdout.is_empty(), !normal.stderr.is_empty());
    let claimed = match row.writes {
        Writes::Stdout => (true, false),
        Writes::Stderr => (false, true),
        Writes::Both => (true, true),
    };
    assert_eq!(
        (wrote_out, wrote_err),
        claimed,
        "{shown}: (stdout, stderr) written, not {:?}; stdout {:?}",
        row.writes,
        normal.stdout
    );
    for setup in FAILING {
        let got = run(dir, row, setup);
        let shown = format!(
            "{} ({setup:?}): status {:?}, stdout {:?}, stderr {:?}",
            row.shown(),
            got.code,
            got.stdout,
            got.stderr
        );
        assert!(
            !got.stdout.contains("panicked") && !got.stderr.contains("panicked"),
            "{shown}"
        );
        assert_ne!(got.code, Some(101), "{shown}");
        let stdout_closed = matches!(setup, Setup::StdoutClosed | Setup::BothClosed);
        let expected = match setup {
            // The server runs on until stopped, unless its address cannot be printed.
            _ if row.server && !stdout_closed => None,
            Setup::StdoutClosed | Setup::BothClosed if wrote_out => Some(0),
            Setup::StderrFull if wrote_err => normal.code.map(|c| c.max(row.trouble())),
            _ => normal.code,
        };
        assert_eq!(got.code, expected, "{shown}");
        // A closed pipe is said nothing about.
        assert!(!got.stderr.contains("Broken pipe"), "{shown}");
    }
}

/// The files the rows read, in a directory of their own.
struct Fixtures {
    dir: tempfile::TempDir,
}

/// A board alone: the commands say on stderr what they assumed (a note), and search.
const BOARD: &str = "4k3/8/8/8/8/8/8/4K2R";
const FEN: &str = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Fixtures {
    fn new() -> Fixtures {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| fs::write(dir.path().join(name), text).unwrap();
        write("one.fen", &format!("{FEN}\n"));
        write("two.epd", &format!("{FEN}\n{START}\n"));
        write("game.pgn", "[Event \"a\"]\n\n1. e4 e5 *\n");
        write("empty.jsonl", "");
        write("a-file", "not a directory\n");
        Fixtures { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// A file or directory of the fixtures, as an argument.
    fn arg(&self, name: &str) -> String {
        self.path().join(name).to_str().unwrap().to_string()
    }

    /// A ROM store with nothing in it: every command that needs the original refuses at once.
    fn no_store(&self) -> String {
        self.arg("no-store")
    }
}

/// Rows with the port alone, or refusals for want of the original: every subcommand.
fn rows_without_the_original(f: &Fixtures) -> Vec<Row> {
    use Writes::*;
    let none = f.no_store();
    let none = none.as_str();
    let (one, two, game) = (f.arg("one.fen"), f.arg("two.epd"), f.arg("game.pgn"));
    let (one, two, game) = (one.as_str(), two.as_str(), game.as_str());
    let (cache, a_file) = (f.arg("cache-dir"), f.arg("a-file"));
    let (cache, a_file) = (cache.as_str(), a_file.as_str());
    let uci = |args: &[&str], writes| Row {
        stdin: "uci\nisready\nquit\n",
        ..row("uci", args, writes)
    };
    vec![
        row("help", &[], Stdout),
        row("help", &["nosuch"], Stderr),
        row("rom", &[], Stderr),
        row("rom list", &["--roms", none], Stdout),
        row("rom list", &["--roms", a_file], Stderr),
        row("rom info", &["--roms", none], Stderr),
        row("rom import", &["nosuch.asm", "--roms", none], Stderr),
        row("rom verify", &["--roms", none], Stderr),
        row("rom coverage", &["--roms", none], Stderr),
        row("analyze", &[BOARD, "-d", "1"], Both),
        // Worker threads, with progress lines from them.
        row(
            "analyze",
            &["--epd", two, "-d", "1", "--jobs", "2", "--progress"],
            Both,
        ),
        row("trace", &[BOARD, "-d", "1"], Both),
        row("models", &["--example", "1"], Stdout),
        row("models", &["--engine", "emulator", "--roms", none], Stderr),
        row(
            "diff",
            &[
                "--epd",
                two,
                "-d",
                "1",
                "--left",
                "port",
                "--right",
                "port",
                "--no-cache",
                "--progress",
            ],
            Both,
        ),
        row(
            "diff report",
            &["--epd", one, "--depths", "1", &f.arg("empty.jsonl")],
            Stdout,
        ),
        row(
            "diff report",
            &["--epd", one, "--depths", "1", "nosuch.jsonl"],
            Stderr,
        ),
        row("cache", &[], Stderr),
        row("cache info", &["--cache-dir", cache], Stdout),
        row("cache info", &["--cache-dir", a_file], Stderr),
        row("cache clear", &["--cache-dir", cache], Stdout),
        row("cache clear", &["--cache-dir", a_file], Stderr),
        row(
            "bench",
            &["--no-emulator", "--no-classic", "--depth", "1"],
            Stdout,
        ),
        row("bench", &["--emulator-positions", "13"], Stderr),
        uci(&[], Stdout),
        uci(&["--engine", "emulator", "--roms", none], Stderr),
        row(
            "play",
            &[
                "--opponent",
                "sargon:depth=1",
                "-d",
                "1",
                "--games",
                "1",
                "--max-moves",
                "1",
            ],
            Both,
        ),
        row("annotate", &[game, "-d", "1"], Both),
        row("tree", &[BOARD, "-d", "1"], Both),
        row("profile", &[BOARD, "-d", "1", "--roms", none], Stderr),
        row("history", &[], Stderr),
        row(
            "history levels",
            &["--max-level", "1", "--roms", none],
            Stderr,
        ),
        row(
            "history games",
            &["--levels", "1", "--games", "1", "--roms", none],
            Stderr,
        ),
        row("history strength", &[game], Stdout),
        row("history strength", &["nosuch.pgn"], Stderr),
        row("listing", &["--roms", none], Stderr),
        row("emulator", &[], Stderr),
        row("emulator crosscheck", &[two, "--roms", none], Stderr),
        row("serve", &["--port", "0", "--bind", "192.0.2.1"], Stderr),
        Row {
            server: true,
            ..row("serve", &["--port", "0"], Stdout)
        },
    ]
}

#[test]
fn every_subcommand_survives_a_full_or_closed_stream() {
    let f = Fixtures::new();
    for row in rows_without_the_original(&f) {
        check(f.path(), &row);
    }
}

/// Rows that run the original: each writes both streams where it can, fast (depth 1).
#[test]
fn every_subcommand_on_the_original_survives_a_full_or_closed_stream() {
    if crate::common::rom("every_subcommand_on_the_original_survives_a_full_or_closed_stream")
        .is_none()
    {
        return;
    }
    use Writes::*;
    let f = Fixtures::new();
    let (one, two, game) = (f.arg("one.fen"), f.arg("two.epd"), f.arg("game.pgn"));
    let (one, two, game) = (one.as_str(), two.as_str(), game.as_str());
    let results = f.arg("results.jsonl");
    let emulator = ["--engine", "emulator"];
    fn with<'a>(args: &[&'a str]) -> Vec<&'a str> {
        [&["--engine", "emulator"][..], args].concat()
    }
    let rows = [
        row("rom list", &[], Stdout),
        row("rom info", &[], Stdout),
        row(
            "rom coverage",
            &["--corpus", one, "--depths", "1-1"],
            Stdout,
        ),
        row("analyze", &with(&[BOARD, "-d", "1"]), Both),
        row("trace", &with(&[BOARD, "-d", "1"]), Both),
        row("tree", &with(&[BOARD, "-d", "1"]), Both),
        row("profile", &[BOARD, "-d", "1"], Both),
        row("models", &with(&["--example", "1"]), Stdout),
        row("diff", &["--epd", two, "-d", "1", "--progress"], Both),
        row(
            "bench",
            &["--depth", "1", "--emulator-positions", "1", "--no-classic"],
            Stdout,
        ),
        Row {
            stdin: "uci\nisready\nquit\n",
            ..row("uci", &emulator, Stdout)
        },
        row(
            "play",
            &with(&[
                "--opponent",
                "sargon:depth=1",
                "-d",
                "1",
                "--games",
                "1",
                "--max-moves",
                "1",
            ]),
            Both,
        ),
        row("annotate", &with(&[game, "-d", "1"]), Both),
        row(
            "history levels",
            &["--max-level", "1", "--positions", one],
            Both,
        ),
        row(
            "history games",
            &["--levels", "1", "--games", "1", "--max-moves", "1"],
            Both,
        ),
        row("listing", &["NEXTAD"], Stdout),
        // Worker threads, each on its pair of cores.
        row(
            "emulator crosscheck",
            &[two, "--depths", "1-1", "--jobs", "2"],
            Both,
        ),
    ];
    for row in &rows {
        check(f.path(), row);
    }
    // A results file for the report.
    let wrote = run(
        f.path(),
        &row(
            "diff",
            &["--epd", two, "-d", "1", "--out", &results],
            Stdout,
        ),
        Setup::Normal,
    );
    assert_eq!(wrote.code, Some(0), "{}", wrote.stderr);
    check(
        f.path(),
        &row(
            "diff report",
            &["--epd", two, "--depths", "1", &results],
            Stdout,
        ),
    );
}

/// The tables above name every subcommand clap knows (`sargon help`, and each group's):
/// a new one without a row fails here.
#[test]
fn the_table_names_every_subcommand() {
    let f = Fixtures::new();
    let covered: Vec<&str> = rows_without_the_original(&f)
        .iter()
        .map(|r| r.command)
        .collect();
    let mut missing = Vec::new();
    let mut groups = vec![String::new()];
    while let Some(group) = groups.pop() {
        let out = Command::new(env!("CARGO_BIN_EXE_sargon"))
            .args(group.split_whitespace())
            .arg("--help")
            .output()
            .unwrap();
        for name in subcommands(&String::from_utf8_lossy(&out.stdout)) {
            // Each group's own `help` is clap's, as the top-level `help` row.
            if name == "help" && !group.is_empty() {
                continue;
            }
            let command = format!("{group} {name}").trim().to_string();
            if !covered.contains(&command.as_str()) {
                missing.push(command.clone());
            }
            groups.push(command);
        }
    }
    assert!(missing.is_empty(), "subcommands without a row: {missing:?}");
}

/// The names under "Commands:" in a help text.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}
