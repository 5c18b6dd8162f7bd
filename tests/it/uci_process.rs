//! `sargon uci` as a process: what the GUI sees when the engine cannot start, when its
//! input ends mid-search, and when the ROM store is empty. Runs the port (always there);
//! the emulator cases use an empty ROM store, so they need no ROM either.

use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

fn sargon(args: &[&str], roms: Option<&std::path::Path>) -> Child {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sargon"));
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(dir) = roms {
        cmd.env("SARGON_ROMS", dir);
    }
    cmd.spawn().expect("sargon starts")
}

/// Wait for the process to exit; how long it took after `since`, or panic after `limit`.
fn exit_within(child: &mut Child, since: Instant, limit: Duration) -> Duration {
    loop {
        if child.try_wait().unwrap().is_some() {
            return since.elapsed();
        }
        if since.elapsed() > limit {
            let _ = child.kill();
            panic!("sargon uci still running {limit:?} after its input closed");
        }
        thread::sleep(Duration::from_millis(10));
    }
}

fn read_all(mut r: impl Read) -> String {
    let mut s = String::new();
    r.read_to_string(&mut s).unwrap();
    s
}

#[test]
fn input_end_stops_any_search_within_a_second() {
    for go in ["go depth 100", "go infinite", "go movetime abc"] {
        let mut child = sargon(&["uci"], None);
        let mut stdin = child.stdin.take().unwrap();
        // A middlegame: no book move, and depth 20 of the port would take hours.
        writeln!(
            stdin,
            "position fen r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4\n{go}"
        )
        .unwrap();
        stdin.flush().unwrap();
        // Let the search get going, then close the input.
        thread::sleep(Duration::from_millis(500));
        drop(stdin);
        let t0 = Instant::now();
        let took = exit_within(&mut child, t0, Duration::from_secs(5));
        let out = read_all(child.stdout.take().unwrap());
        println!("{go}: exited {took:?} after the input closed\n{out}");
        assert!(took < Duration::from_millis(1500), "{go}: {took:?}");
        assert!(out.contains("bestmove "), "{go}: {out}");
    }
}

#[test]
fn emulator_without_a_rom_fails_before_uciok() {
    let empty = tempfile::tempdir().unwrap();
    let mut child = sargon(&["uci", "--engine", "emulator"], Some(empty.path()));
    let mut stdin = child.stdin.take().unwrap();
    let _ = writeln!(stdin, "uci");
    drop(stdin);
    let status = child.wait().unwrap();
    let out = read_all(child.stdout.take().unwrap());
    let err = read_all(child.stderr.take().unwrap());
    assert!(!status.success());
    assert!(!out.contains("uciok"), "{out}");
    assert!(err.contains("cannot start the emulator engine"), "{err}");
    assert!(err.contains("no Sargon ROM imported"), "{err}");
}

#[test]
fn choosing_the_emulator_without_a_rom_is_refused_until_a_working_engine() {
    let empty = tempfile::tempdir().unwrap();
    let mut child = sargon(&["uci"], Some(empty.path()));
    let mut stdin = child.stdin.take().unwrap();
    let script = "uci\nsetoption name Engine value emulator\nposition startpos moves e2e4 e7e5\n\
                  go depth 1\nisready\ngo depth 1\nisready\n\
                  setoption name Engine value port\ngo depth 1\n";
    stdin.write_all(script.as_bytes()).unwrap();
    drop(stdin);
    let status = child.wait().unwrap();
    let out = read_all(child.stdout.take().unwrap());
    println!("{out}");
    assert!(status.success());
    assert!(
        out.contains("info string setoption Engine emulator refused"),
        "{out}"
    );
    let answers: Vec<&str> = out.lines().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(answers.len(), 3, "{out}");
    assert_eq!(answers[0], "bestmove 0000");
    assert_eq!(answers[1], "bestmove 0000");
    assert_ne!(answers[2], "bestmove 0000", "the port plays once chosen");
}

#[test]
fn fixed_depth_beyond_the_engine_is_an_error() {
    let mut child = sargon(&["uci", "--fixed-depth", "99"], None);
    drop(child.stdin.take());
    let status = child.wait().unwrap();
    let err = read_all(child.stderr.take().unwrap());
    assert!(!status.success());
    assert!(err.contains("'--fixed-depth <FIXED_DEPTH>'"), "{err}");
    assert!(
        err.contains("expected a whole number from 0 to 20, got `99`"),
        "{err}"
    );
    // Within any engine's depths but beyond the emulator's: refused once the engine is known.
    let mut child = sargon(&["uci", "--fixed-depth", "9", "--engine", "emulator"], None);
    drop(child.stdin.take());
    let status = child.wait().unwrap();
    let err = read_all(child.stderr.take().unwrap());
    assert!(!status.success());
    assert!(err.contains("--fixed-depth 9"), "{err}");
}

/// `info currmove` lines start once a `go` has run a second: a quick search prints none,
/// a long one does.
#[test]
fn currmove_lines_only_in_a_long_search() {
    let middlegame = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let mut child = sargon(&["uci"], None);
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "position fen {middlegame}\ngo depth 2").unwrap();
    stdin.flush().unwrap();
    thread::sleep(Duration::from_millis(500));
    // `readyok` marks where the quick search's output ends.
    writeln!(stdin, "isready\ngo infinite").unwrap();
    stdin.flush().unwrap();
    thread::sleep(Duration::from_millis(2500));
    writeln!(stdin, "stop\nquit").unwrap();
    drop(stdin);
    exit_within(&mut child, Instant::now(), Duration::from_secs(10));
    let out = read_all(child.stdout.take().unwrap());
    let (quick, long) = out.split_once("readyok").expect("readyok");
    assert!(quick.contains("info depth 2 "), "{out}");
    assert!(!quick.contains("info currmove"), "{out}");
    assert!(long.contains("info currmove "), "{out}");
}
