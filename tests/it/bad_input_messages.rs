//! Messages that quote what they refuse (issue 21, "Messy messages"): whatever a person
//! typed or another program sent is quoted through `sargon_core::input::echo` (cut at 100
//! characters, control characters escaped), each cause is said once, and the advice given
//! is one the command takes. None of these needs Sargon's code: where a ROM store is
//! needed, its ROMs are stand-ins of a few bytes.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A terminal escape sequence (clear the screen), as input that must not reach the
/// terminal raw.
const CLEAR: &str = "\u{1b}[2J";
/// The same, as `echo` quotes it.
const CLEAR_ECHOED: &str = "\\u{1b}[2J";

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Run `sargon args` with no ROM store of the caller's (tests that need one give `--roms`),
/// stopping it after a minute (a hang is a failure, not a stuck test).
fn sargon(args: &[&str]) -> Run {
    let started = Instant::now();
    let empty_store = std::env::temp_dir().join("sargon-bad-input-messages-no-store");
    let mut child = Command::new(env!("CARGO_BIN_EXE_sargon"))
        .env("SARGON_ROMS", &empty_store)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sargon starts");
    let read = |mut pipe: Box<dyn std::io::Read + Send>| {
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
            panic!(
                "sargon {:.200} still running after a minute",
                args.join(" ")
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        code: status.code(),
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    }
}

/// `args` is refused: exit `code`, one line on stderr starting `error:` (clap's blank line
/// and "For more information" hint aside) containing every needle, no raw escape, at most
/// `MAX_LINE` bytes, nothing on stdout. Returns the line.
fn refused(args: &[&str], code: i32, needles: &[&str]) -> String {
    let run = sargon(args);
    let shown = format!(
        "sargon {:.300}: {:?}",
        args.join(" "),
        &run.stderr[..run.stderr.len().min(2000)]
    );
    assert_eq!(run.code, Some(code), "{shown}");
    assert!(!run.stderr.contains("panicked"), "{shown}");
    let lines: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with("For more information"))
        .collect();
    assert_eq!(lines.len(), 1, "one line: {shown}");
    let line = lines[0];
    assert!(line.starts_with("error: "), "{shown}");
    for needle in needles {
        assert!(line.contains(needle), "`{needle}` in {shown}");
    }
    assert!(!line.contains('\u{1b}'), "a raw escape in {shown}");
    assert!(line.len() <= MAX_LINE, "{} bytes: {shown}", line.len());
    assert!(run.stdout.is_empty(), "{shown}: stdout {:?}", run.stdout);
    line.to_string()
}

/// A message quoting 100 KB of input once, cut to 100 characters, stays far under this.
const MAX_LINE: usize = 600;

/// 100 KB of one letter: an argument far longer than any message should quote.
fn long(c: char) -> String {
    c.to_string().repeat(100_000)
}

/// A ROM store in `dir` holding a stand-in for each of `names`: a directory with a
/// `rom.json`, which is all the store needs to list a ROM (loading it would check more;
/// these tests never get that far).
fn store_with(dir: &Path, names: &[&str]) -> String {
    let store = dir.join("store");
    for name in names {
        std::fs::create_dir_all(store.join(name)).unwrap();
        std::fs::write(store.join(name).join("rom.json"), "{}").unwrap();
    }
    store.display().to_string()
}

#[test]
fn an_unknown_rom_name_is_quoted_through_echo() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_with(dir.path(), &["mine"]);
    let escaped = format!("x{CLEAR}y");
    let long = long('r');
    for name in [escaped.as_str(), long.as_str()] {
        for args in [
            &["--roms", &store, "rom", "info", name][..],
            &["--roms", &store, "rom", "verify", name][..],
            &[
                "--roms", &store, "analyze", "startpos", "--engine", "emulator", "--depth", "1",
                "--rom", name,
            ][..],
        ] {
            refused(args, 1, &["no ROM named `", "(imported: mine)"]);
        }
    }
    refused(
        &["--roms", &store, "rom", "info", &escaped],
        1,
        &[&format!("`x{CLEAR_ECHOED}y`")],
    );
    refused(
        &["--roms", &store, "rom", "info", &long],
        1,
        &["(99900 more characters)"],
    );
    // A name to import under, the same way.
    let source = dir.path().join("x.asm");
    std::fs::write(&source, " LD A,1\n").unwrap();
    refused(
        &[
            "--roms",
            &store,
            "rom",
            "import",
            &source.display().to_string(),
            "--name",
            &escaped,
        ],
        1,
        &[&format!("invalid ROM name `x{CLEAR_ECHOED}y`")],
    );
}

#[test]
fn several_roms_get_advice_in_the_commands_own_syntax() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_with(dir.path(), &["first", "second"]);
    refused(
        &["--roms", &store, "rom", "info"],
        1,
        &[
            "several ROMs in ",
            "(first, second): choose one with sargon rom info NAME",
        ],
    );
    refused(
        &["--roms", &store, "rom", "verify"],
        1,
        &["(first, second): choose one with sargon rom verify NAME"],
    );
    refused(
        &[
            "--roms", &store, "analyze", "startpos", "--engine", "emulator", "--depth", "1",
        ],
        1,
        &["(first, second): choose one with --rom NAME"],
    );
}

#[test]
fn an_opponent_and_its_options_are_quoted_through_echo() {
    let escaped = format!("x{CLEAR}y");
    let long = long('o');
    for text in [escaped.as_str(), long.as_str()] {
        refused(
            &["play", "--opponent", text, "--games", "1"],
            1,
            &["starting the opponent: cannot start `"],
        );
        refused(
            &[
                "play",
                "--opponent",
                "sargon:depth=1",
                "--opponent-option",
                text,
                "--games",
                "1",
            ],
            1,
            &["--opponent-option `", "`: expected NAME=VALUE"],
        );
        refused(
            &[
                "play",
                "--opponent",
                &format!("sargon:depth={text}"),
                "--games",
                "1",
            ],
            1,
            &["--opponent: depth: expected a whole number from 1 to 255, got `"],
        );
    }
    refused(
        &["play", "--opponent", &escaped, "--games", "1"],
        1,
        &[&format!("cannot start `x{CLEAR_ECHOED}y`: ")],
    );
    // A command line that cannot be split is quoted once, by the error that names it.
    let line = refused(
        &["play", "--opponent", "engine 'unclosed", "--games", "1"],
        1,
        &["cannot start `engine 'unclosed`: unclosed '"],
    );
    assert_eq!(line.matches("engine 'unclosed").count(), 1, "{line}");
}

/// An engine that answers the handshake as `name` and every `go` with `bestmove`
/// followed by `answer` (a shell script; `None` where there is no /bin/sh).
fn liar(dir: &Path, name: &str, answer: &str) -> Option<String> {
    if !Path::new("/bin/sh").exists() {
        return None;
    }
    let script = dir.join("liar.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\n\
             while read -r line; do\n\
             case \"$line\" in\n\
             uci) printf 'id name {name}\\nuciok\\n';;\n\
             isready) echo readyok;;\n\
             go*) printf 'bestmove %s\\n' \"{answer}\";;\n\
             quit) exit 0;;\n\
             esac\n\
             done\n"
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    Some(script.display().to_string())
}

#[test]
fn an_engines_illegal_move_and_name_are_quoted_through_echo() {
    let dir = tempfile::tempdir().unwrap();
    let long_move = "e2e5".repeat(25_000);
    for (name, answer, shown) in [
        (
            format!("liar{CLEAR}"),
            format!("e2e5{CLEAR}"),
            format!("liar{CLEAR_ECHOED} answered `bestmove e2e5{CLEAR_ECHOED}`"),
        ),
        (
            "liar".to_string(),
            long_move.clone(),
            "(99900 more characters)`, which is not a legal move".to_string(),
        ),
    ] {
        let Some(engine) = liar(dir.path(), &name, &answer) else {
            eprintln!("skipped: no /bin/sh to run a stand-in engine");
            return;
        };
        let run = sargon(&[
            "play",
            "--opponent",
            &engine,
            "--games",
            "1",
            "--depth",
            "1",
        ]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let failed = run
            .stderr
            .lines()
            .find(|l| l.starts_with("  the engine failed: "))
            .unwrap_or_else(|| panic!("no failure in {:.2000}", run.stderr));
        assert!(failed.contains(&shown), "`{shown}` in {failed:.2000}");
        assert!(
            failed.len() < MAX_LINE,
            "{} bytes: {failed:.2000}",
            failed.len()
        );
        for out in [&run.stdout, &run.stderr] {
            assert!(!out.contains('\u{1b}'), "a raw escape in {out}");
        }
    }
}

#[test]
fn an_epd_path_is_quoted_through_echo() {
    let escaped = format!("/nonexistent-{CLEAR}/positions.epd");
    let long = format!("/nonexistent/{}.epd", "p".repeat(5_000));
    for path in [&escaped, &long] {
        for args in [
            &["analyze", "--epd", path][..],
            &["diff", "--epd", path, "--depth", "1"][..],
            &[
                "diff",
                "report",
                "--epd",
                path,
                "--depths",
                "1",
                "results.jsonl",
            ][..],
        ] {
            let code = if args[0] == "diff" { 2 } else { 1 };
            refused(args, code, &["/nonexistent"]);
        }
    }
    refused(
        &["analyze", "--epd", &escaped],
        1,
        &[&format!(
            "reading /nonexistent-{CLEAR_ECHOED}/positions.epd: No such file or directory"
        )],
    );
    refused(
        &["diff", "--epd", &long, "--depth", "1"],
        2,
        &["cannot read /nonexistent/ppp", "(4917 more characters)"],
    );
}

/// Clap's own refusals quote the value through echo too: `invalid value '...' for
/// '--depth <DEPTH>'` quoted a 100 KB value whole, and an escape raw.
#[test]
fn what_clap_refuses_is_quoted_through_echo() {
    let digits = "7".repeat(100_000);
    let letters = long('a');
    for value in [digits.as_str(), letters.as_str()] {
        let line = refused(
            &["analyze", "startpos", "--depth", value],
            2,
            &[
                "invalid value '",
                "... (99900 more characters)' for '--depth <DEPTH>'",
            ],
        );
        assert!(line.len() < 500, "{} bytes: {line}", line.len());
    }
    refused(
        &["analyze", "startpos", "--depth", CLEAR],
        2,
        &[&format!(
            "invalid value '{CLEAR_ECHOED}' for '--depth <DEPTH>'"
        )],
    );
    refused(
        &["analyze", "startpos", "--engine", CLEAR],
        2,
        &[&format!(
            "invalid value '{CLEAR_ECHOED}' for '--engine <ENGINE>'"
        )],
    );
    // Refusals with a tip and a usage line after the message: each line is clean.
    let unknown = format!("--x{CLEAR}");
    for args in [
        &["analyze", "startpos", &unknown][..],
        &[CLEAR][..],
        &["analyze", "startpos", &format!("--{letters}")][..],
    ] {
        let run = sargon(args);
        assert_eq!(run.code, Some(2), "{:.2000}", run.stderr);
        assert!(run.stderr.starts_with("error: "), "{:.2000}", run.stderr);
        assert!(!run.stderr.contains('\u{1b}'), "{:?}", run.stderr);
        assert!(run.stderr.len() < 1000, "{:.2000}", run.stderr);
    }
}

/// A store holding one ROM named `name` that is no Sargon: three bytes (`LD A,1`, `RET`)
/// under the label `START`, stored unverified through the library as an import stores.
fn store_with_a_stand_in(dir: &Path, name: &str) -> String {
    use sargon_original::rom::RomStore;
    let source = dir.join("stand-in.asm");
    std::fs::write(&source, "START:\tLD A,1\n\tRET\n").unwrap();
    let store = RomStore::new(dir.join("store"));
    let candidate = store.prepare(&source, name, false).unwrap();
    store
        .store(
            candidate,
            false,
            sargon_original::rom::Verdict {
                verified: false,
                summary: "a stand-in for tests".into(),
                allowed_differences: Vec::new(),
            },
        )
        .unwrap();
    store.dir().display().to_string()
}

#[test]
fn an_unknown_routine_is_quoted_through_echo() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_with_a_stand_in(dir.path(), "tiny");
    let escaped = format!("x{CLEAR}y");
    refused(
        &["--roms", &store, "listing", &escaped],
        1,
        &[&format!("no symbol `x{CLEAR_ECHOED}y` in the image")],
    );
    // Also at once: the names close to it are not looked for by edit distance.
    let long = format!("START{}", long('q'));
    refused(
        &["--roms", &store, "listing", &long, "--port"],
        1,
        &["(99905 more characters)` in the image; close names: START"],
    );
}

/// `history levels --positions FILE`: a bad line is refused before the ROM is looked for,
/// its cause said once and the position quoted once (the cause came twice, as the message
/// and again as its source).
#[test]
fn a_bad_level_position_is_said_once() {
    let dir = tempfile::tempdir().unwrap();
    let bad_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0";
    let file = dir.path().join("positions.txt");
    std::fs::write(&file, format!("# two positions\nstartpos\n{bad_fen}\n")).unwrap();
    let file = file.display().to_string();
    let line = refused(
        &[
            "history",
            "levels",
            "--positions",
            &file,
            "--max-level",
            "1",
        ],
        1,
        &[&format!(
            "{file}: position 2: invalid FEN `{bad_fen}`: field 6 (full-move number)"
        )],
    );
    assert_eq!(line.matches("field 6").count(), 1, "{line}");
    assert_eq!(line.matches(bad_fen).count(), 1, "{line}");
    // A position Sargon cannot hold: its cause does not quote it, so the message does.
    let kingless = "8/8/8/8/8/8/8/4K3 w - - 0 1";
    std::fs::write(&file, format!("{kingless}\n")).unwrap();
    let line = refused(
        &[
            "history",
            "levels",
            "--positions",
            &file,
            "--max-level",
            "1",
        ],
        1,
        &[&format!(
            "position 1 `{kingless}`: Sargon cannot represent this position"
        )],
    );
    assert_eq!(line.matches("king is missing").count(), 1, "{line}");
}

/// PGN: a malformation is said once, with the game and the line it is in (it was
/// "reading PGN: unterminated comment: unterminated comment"); a tag of megabytes, well
/// formed, is read (the reader of old refused any tag line past its buffer).
#[test]
fn a_pgn_the_reader_refuses_is_named_once() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let open = write("open.pgn", "[Event \"x\"]\n\n1. e4 {never closed e5\n");
    let line = refused(
        &["annotate", &open, "--depth", "1"],
        1,
        &[&format!(
            "{open}: game 1, line 3: a comment `{{` that is never closed"
        )],
    );
    assert_eq!(line.matches("never closed").count(), 1, "{line}");
    let huge = write(
        "huge.pgn",
        &format!("[Event \"{}\"]\n\n1. e4 e5 *\n", "x".repeat(3_000_000)),
    );
    let run = sargon(&["annotate", &huge, "--depth", "1"]);
    assert_eq!(run.code, Some(0), "{:.2000}", run.stderr);
    assert!(run.stdout.contains(&"x".repeat(3_000_000)));
}

/// `diff`: a bad position is quoted once (by the FEN error, or by the message when the
/// error does not quote it), and a directory given to `--out` is called a directory (it was
/// said to "already have results", even empty).
#[test]
fn diff_quotes_a_position_once_and_names_a_directory() {
    let port_against_port = ["--depth", "1", "--left", "port", "--right", "port"];
    let bad_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0";
    let kingless = "8/8/8/8/8/8/8/4K3 w - - 0 1";
    for (fen, needle) in [
        (
            bad_fen,
            format!("position 0: invalid FEN `{bad_fen}`: field 6"),
        ),
        (
            kingless,
            format!("position 0 `{kingless}`: Sargon cannot represent this position"),
        ),
    ] {
        let mut args = vec!["diff", fen];
        args.extend(port_against_port);
        let line = refused(&args, 2, &[&needle]);
        assert_eq!(line.matches(fen).count(), 1, "{line}");
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().display().to_string();
    for resume in [false, true] {
        let mut args = vec!["diff", "startpos", "--out", &out];
        args.extend(port_against_port);
        if resume {
            args.push("--resume");
        }
        refused(
            &args,
            2,
            &[&format!(
                "error: {out} is a directory: the results go to a file"
            )],
        );
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// What the program writes it reads: the FEN `analyze` gives for a position past the
/// 75-move rule's 150 half-moves (`... - 154 78`) was refused when given back.
#[test]
fn the_fen_analyze_writes_reads_back() {
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let moves: Vec<&str> = cycle.iter().copied().cycle().take(154).collect();
    let shuffled = format!("startpos moves {}", moves.join(" "));
    let run = sargon(&["analyze", &shuffled, "--depth", "1", "--format", "json"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let fen = json["fen"].as_str().unwrap().to_string();
    assert!(fen.ends_with(" w KQkq - 154 78"), "{fen}");
    // Given back as a position, and as a line of a file of positions (the strict reader).
    let run = sargon(&["analyze", &fen, "--depth", "1", "--format", "json"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let again: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(again["fen"], fen.as_str());
    let dir = tempfile::tempdir().unwrap();
    let epd = dir.path().join("back.epd");
    std::fs::write(&epd, format!("{fen}\n")).unwrap();
    let run = sargon(&[
        "analyze",
        "--epd",
        &epd.display().to_string(),
        "--depth",
        "1",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
}

/// `rom verify` where the verdict cannot be recorded: refused at once, before the check
/// (issue 21 item 7). The ROM's directory is made immutable (`chattr +i`), which stops
/// root too; where chattr cannot, the test says it is skipped.
#[test]
fn rom_verify_on_a_store_it_cannot_write_is_refused_before_the_check() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_with_a_stand_in(dir.path(), "tiny");
    let rom_dir = Path::new(&store).join("tiny");
    let chattr = |flag: &str| {
        std::process::Command::new("chattr")
            .arg(flag)
            .arg(&rom_dir)
            .status()
            .is_ok_and(|s| s.success())
    };
    if !chattr("+i") || std::fs::write(rom_dir.join("probe"), b"").is_ok() {
        chattr("-i");
        eprintln!("skipped: cannot make a directory unwritable here (chattr +i)");
        return;
    }
    let t = std::time::Instant::now();
    let run = sargon(&["--roms", &store, "rom", "verify", "tiny"]);
    chattr("-i");
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with(&format!("error: cannot write to the ROM store {store}: ")),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains(".sargon-probe-"), "{}", run.stderr);
    assert!(t.elapsed() < std::time::Duration::from_secs(5));
}

/// Output paths given by the user are quoted through echo too (`-o`, `--pgn`, `--save`).
#[test]
fn an_output_path_is_quoted_through_echo() {
    let bad = format!("/nonexistent-{CLEAR}/out.txt");
    for args in [
        &["tree", "startpos", "--depth", "1", "-o", &bad][..],
        &[
            "play",
            "--opponent",
            "sargon:depth=1",
            "--games",
            "1",
            "--pgn",
            &bad,
        ][..],
    ] {
        let run = sargon(args);
        assert_eq!(run.code, Some(1), "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.contains("/nonexistent-\\u{1b}[2J/out.txt"),
            "{args:?}: {:?}",
            run.stderr
        );
        assert!(!run.stderr.contains('\u{1b}'), "{:?}", run.stderr);
    }
}
