//! Outputs never destroy inputs, are checked before any work, and results files are
//! locked (issue 32, items 2, 3 and 11; docs/reliability.md, "outputs (round three)").
//!
//! Every refusal here comes before the ROM is looked for: the commands that would run the
//! original get an empty store (`--roms` a fresh directory), so a refusal that came late
//! would fail with "no Sargon ROM imported" instead.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::{refused, sargon};

const GAME: &str = "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n";
const EPD: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n\
                   rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -\n";

/// A scratch directory with an empty ROM store, and files in it.
struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    fn new() -> Scratch {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("empty-store")).unwrap();
        Scratch { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn file(&self, name: &str, bytes: &[u8]) -> String {
        let path = self.path(name);
        std::fs::write(&path, bytes).unwrap();
        s(&path)
    }

    fn store(&self) -> String {
        s(&self.path("empty-store"))
    }
}

fn s(path: &Path) -> String {
    path.display().to_string()
}

/// `args` is refused as writing over an input, and `input` keeps its bytes.
fn refused_as_an_input(args: &[&str], code: i32, input: &str) {
    let before = std::fs::read(input).unwrap();
    refused(args, code, &["would destroy what is read"]);
    assert_eq!(
        std::fs::read(input).unwrap(),
        before,
        "sargon {}: the input changed",
        args.join(" ")
    );
}

/// The named reproductions of item 2: each command's output given as its own input.
#[test]
fn an_output_that_is_an_input_is_refused_and_the_input_kept() {
    let t = Scratch::new();
    let store = t.store();
    let pgn = t.file("match.pgn", GAME.as_bytes());
    refused_as_an_input(&["history", "strength", &pgn, "--plot", &pgn], 1, &pgn);

    let positions = t.file("p.txt", b"startpos\n");
    for option in ["--save", "--plot"] {
        refused_as_an_input(
            &[
                "--roms",
                &store,
                "history",
                "levels",
                "--max-level",
                "1",
                "--positions",
                &positions,
                option,
                &positions,
            ],
            1,
            &positions,
        );
    }

    refused_as_an_input(&["annotate", &pgn, "--depth", "1", "-o", &pgn], 1, &pgn);

    let epd = t.file("p.epd", EPD.as_bytes());
    for resume in [&[][..], &["--resume"][..]] {
        let mut args = vec![
            "diff", "--left", "port", "--epd", &epd, "--depth", "1", "--out", &epd,
        ];
        args.extend(resume);
        refused_as_an_input(&args, 2, &epd);
    }

    refused_as_an_input(
        &[
            "play",
            "--opponent",
            "sargon:depth=1",
            "--depth",
            "1",
            "--games",
            "1",
            "--openings",
            &pgn,
            "--pgn",
            &pgn,
        ],
        1,
        &pgn,
    );

    // history games: --out and --plot against --openings, --load and --calibration.
    let games = t.file(
        "games.jsonl",
        &std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/records/history/games.jsonl"
        ))
        .unwrap(),
    );
    for option in ["--out", "--plot"] {
        refused_as_an_input(
            &[
                "--roms",
                &store,
                "history",
                "games",
                "--levels",
                "1",
                "--games",
                "1",
                "--openings",
                &epd,
                option,
                &epd,
            ],
            1,
            &epd,
        );
    }
    refused_as_an_input(
        &["history", "games", "--load", &games, "--plot", &games],
        1,
        &games,
    );
    refused_as_an_input(
        &[
            "history",
            "games",
            "--estimate-levels",
            "1",
            "--calibration",
            &games,
            "--plot",
            &games,
        ],
        1,
        &games,
    );
}

/// The same file under another name: a hard link and a symbolic link to the input.
#[test]
fn an_input_reached_through_a_link_is_refused_too() {
    let t = Scratch::new();
    let pgn = t.file("match.pgn", GAME.as_bytes());
    let hard = t.path("hard.svg");
    std::fs::hard_link(&pgn, &hard).unwrap();
    let soft = t.path("soft.svg");
    std::os::unix::fs::symlink(&pgn, &soft).unwrap();
    for link in [&hard, &soft] {
        refused_as_an_input(&["history", "strength", &pgn, "--plot", &s(link)], 1, &pgn);
        refused_as_an_input(&["annotate", &pgn, "--depth", "1", "-o", &s(link)], 1, &pgn);
    }
    // Two outputs of one command on one file.
    let positions = t.file("p.txt", b"startpos\n");
    let out = s(&t.path("report"));
    refused(
        &[
            "--roms",
            &t.store(),
            "history",
            "levels",
            "--positions",
            &positions,
            "--save",
            &out,
            "--plot",
            &out,
        ],
        1,
        &["--save and --plot name the same file"],
    );
}

/// `tree -o` has no input file but the ROM store: an output inside it is refused.
#[test]
fn an_output_inside_the_rom_store_is_refused() {
    let t = Scratch::new();
    let store = t.store();
    let inside = s(&t.path("empty-store/tree.txt"));
    refused(
        &[
            "--roms", &store, "tree", "startpos", "--depth", "1", "-o", &inside,
        ],
        1,
        &["inside the ROM store"],
    );
    assert!(!Path::new(&inside).exists());
}

/// A whole-file output is replaced through a rename: the old file is whole until the new
/// one is (a second name of the old file still holds the old bytes: the new file is a new
/// inode, not the old one rewritten in place), a symbolic link keeps pointing at it, and no
/// temporary file is left.
#[test]
fn a_whole_file_output_is_replaced_at_once() {
    let t = Scratch::new();
    let pgn = t.file("match.pgn", GAME.as_bytes());
    let plot = t.file("real.svg", b"old plot");
    let old = t.path("old.svg");
    std::fs::hard_link(&plot, &old).unwrap();
    let link = t.path("plot.svg");
    std::os::unix::fs::symlink(&plot, &link).unwrap();
    let run = sargon(&["history", "strength", &pgn, "--plot", &s(&link)]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(std::fs::read_to_string(&plot).unwrap().starts_with("<svg"));
    assert_eq!(
        std::fs::read(&old).unwrap(),
        b"old plot",
        "rewritten in place"
    );
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let names: Vec<String> = std::fs::read_dir(t.dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("tmp"))
        .collect();
    assert!(names.is_empty(), "temporary files left: {names:?}");
}

/// Item 11: `history games --out` is checked before a game is played, and each refusal
/// names its real cause (all were "exists: add --resume").
#[test]
fn history_games_out_is_checked_first_with_the_real_cause() {
    let t = Scratch::new();
    let store = t.store();
    let games = |out: &str| -> Vec<String> {
        [
            "--roms", &store, "history", "games", "--levels", "1", "--games", "1", "--out", out,
        ]
        .iter()
        .map(|a| a.to_string())
        .collect()
    };
    let check = |out: &str, needles: &[&str]| {
        let args = games(out);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let line = refused(&args, 1, needles);
        assert!(!line.contains("add --resume"), "{line}");
    };
    check(
        "/nonexistent-sargon-dir/x.jsonl",
        &["there is no directory"],
    );
    let epd = t.file("p.epd", EPD.as_bytes());
    check(&epd, &["no games of `history games`"]);
    check(&s(t.dir.path()), &["is a directory"]);
    if Path::new("/dev/full").exists() {
        check("/dev/full", &["not a regular file"]);
    }
    // A file of games without --resume is still told to add it.
    let file = t.file(
        "games.jsonl",
        &std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/records/history/games.jsonl"
        ))
        .unwrap(),
    );
    let args = games(&file);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    refused(&args, 1, &["add --resume"]);
}

/// A `sargon` run in the background, its output discarded, stopped when the test ends
/// (also when an assertion fails: a run of minutes must not outlive its test).
struct Background(std::process::Child);

impl Background {
    fn start(args: &[&str]) -> Background {
        Background(
            Command::new(env!("CARGO_BIN_EXE_sargon"))
                .args(args)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("sargon starts"),
        )
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Wait until `path` exists (the first run has opened it), at most 30 s.
fn wait_for(path: &Path) {
    let started = Instant::now();
    while !path.exists() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{} never appeared",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Item 3: while one run appends to a results file, a second run on it is refused,
/// naming the first one's process, and the file is left to the first.
#[test]
fn a_second_writer_of_a_results_file_is_refused() {
    let t = Scratch::new();
    let many: String = std::iter::repeat_n(EPD, 200).collect();
    let epd = t.file("many.epd", many.as_bytes());
    let out = t.path("r.jsonl");
    let diff = |extra: &[&str]| -> Vec<String> {
        let mut args = vec![
            "diff",
            "--left",
            "port",
            "--right",
            "port",
            "--epd",
            &epd,
            "--depths",
            "1-6",
            "--no-book",
            "--out",
        ];
        let out = s(&out);
        args.push(&out);
        args.extend(extra);
        args.iter().map(|a| a.to_string()).collect()
    };
    let first_args = diff(&[]);
    let first = Background::start(&first_args.iter().map(String::as_str).collect::<Vec<_>>());
    wait_for(&out);
    let pid = first.0.id().to_string();
    for extra in [&["--resume"][..], &[][..]] {
        let args = diff(extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(&args, 2, &["is being written by another run", &pid]);
    }
    // play --pgn: the same lock.
    let pgn = t.path("match.pgn");
    let play = |pgn: &str| {
        vec![
            "play",
            "--opponent",
            "sargon:depth=3",
            "--depth",
            "3",
            "--games",
            "100",
            "--pgn",
            pgn,
        ]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>()
    };
    let play_args = play(&s(&pgn));
    let player = Background::start(&play_args.iter().map(String::as_str).collect::<Vec<_>>());
    wait_for(&pgn);
    let second = play(&s(&pgn));
    let second: Vec<&str> = second.iter().map(String::as_str).collect();
    refused(
        &second,
        1,
        &[
            "is being written by another run",
            &player.0.id().to_string(),
        ],
    );
    // history games --out: the same lock (on the port, estimating, so no ROM is needed).
    let games = t.path("games.jsonl");
    let history = |out: &str| {
        vec![
            "history",
            "games",
            "--estimate-levels",
            "1-6",
            "--games",
            "50",
            "--calibration",
            concat!(env!("CARGO_MANIFEST_DIR"), "/records/history/games.jsonl"),
            "--out",
            out,
        ]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>()
    };
    let history_args = history(&s(&games));
    let historian = Background::start(&history_args.iter().map(String::as_str).collect::<Vec<_>>());
    wait_for(&games);
    let second = history(&s(&games));
    let second: Vec<&str> = second.iter().map(String::as_str).collect();
    refused(
        &second,
        1,
        &[
            "is being written by another run",
            &historian.0.id().to_string(),
        ],
    );
}

/// A run that fails before its first result leaves no empty results file it created (the
/// file is created, and locked, when the run starts).
#[test]
fn a_failed_run_leaves_no_new_empty_results_file() {
    let t = Scratch::new();
    let pgn = t.path("new.pgn");
    let run = sargon(&[
        "play",
        "--opponent",
        "/nonexistent-sargon-engine",
        "--games",
        "1",
        "--pgn",
        &s(&pgn),
    ]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(!pgn.exists(), "{} left behind", pgn.display());
    let out = t.path("new.jsonl");
    let run = sargon(&[
        "--roms",
        &t.store(),
        "history",
        "games",
        "--levels",
        "1",
        "--games",
        "1",
        "--out",
        &s(&out),
    ]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(
        run.stderr.contains("no Sargon ROM imported"),
        "{}",
        run.stderr
    );
    assert!(!out.exists(), "{} left behind", out.display());
}
