//! Edge cases of other people's ports (issue 35, item 7): a program that leaves a process
//! holding its stdout, a UCI handshake slower than `--exec-timeout`, a search that ended in
//! an error and is retried by `--resume`, and output that starts with a byte-order mark.
//! Our port on the left and behind the `exec:`/`uci:` wrapper, so no ROM is needed.

use std::process::{Command, Output};
use std::time::{Duration, Instant};

const SARGON: &str = env!("CARGO_BIN_EXE_sargon");

/// Our own port as an `exec:` program (as in diff_exec.rs).
fn our_port_command() -> String {
    format!(
        r#"'{SARGON}' trace "$SARGON_FEN" --depth "$SARGON_DEPTH" --format jsonl $([ "$SARGON_BOOK" = 0 ] && echo --no-book)"#
    )
}

/// `sargon diff --left port ARGS`.
fn diff(args: &[&str]) -> Output {
    Command::new(SARGON)
        .args(["diff", "--left", "port"])
        .args(args)
        .output()
        .expect("sargon runs")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn a_program_that_leaves_a_process_holding_stdout_ends_at_its_result() {
    // The trace, then a process in the background that keeps the output open for 60 s.
    let exec = format!("exec:{}; sleep 60 &", our_port_command());
    let started = Instant::now();
    let out = diff(&[
        "startpos",
        "--depth",
        "1",
        "--no-book",
        "--exec-timeout",
        "10",
        "--right",
        &exec,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "took {:?}",
        started.elapsed()
    );
}

#[test]
fn the_uci_handshake_waits_no_longer_than_the_exec_timeout() {
    let uci = format!("uci:sleep 5; '{SARGON}' uci");
    let started = Instant::now();
    let out = diff(&[
        "startpos",
        "--depth",
        "1",
        "--exec-timeout",
        "1",
        "--right",
        &uci,
    ]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("error: --right uci:"), "{said}");
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "took {:?}: {said}",
        started.elapsed()
    );
}

#[test]
fn resume_retries_the_searches_that_ended_in_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("failed-once");
    // Fails its first search (depth 1), then behaves.
    let exec = format!(
        "exec:if [ \"$SARGON_DEPTH\" = 1 ] && [ ! -e '{m}' ]; then touch '{m}'; exit 3; fi; {}",
        our_port_command(),
        m = marker.display()
    );
    let out_file = dir.path().join("run.jsonl");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "startpos",
            "--depths",
            "1-2",
            "--no-book",
            "--keep-going",
            "--right",
            &exec,
            "--out",
            out_file.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        diff(&args)
    };
    let first = run(&[]);
    assert_eq!(first.status.code(), Some(1), "{}", text(&first));
    assert!(text(&first).contains("errors: 1"), "{}", text(&first));
    let again = run(&["--resume"]);
    let said = text(&again);
    assert_eq!(again.status.code(), Some(0), "{said}");
    assert!(
        said.contains("resuming: 1 searches already recorded, 1 to do (1 of them ended in an error before and are tried again)"),
        "{said}"
    );
    // The report counts the retry, not the error it supersedes.
    let report = Command::new(SARGON)
        .args(["diff", "report"])
        .arg(&out_file)
        .output()
        .unwrap();
    let said = text(&report);
    assert_eq!(report.status.code(), Some(0), "{said}");
    assert!(said.contains("every search exactly once"), "{said}");
    assert!(said.contains("1 error records left out"), "{said}");
}

#[test]
fn output_that_starts_with_a_byte_order_mark_is_read() {
    let exec = format!(r"exec:printf '\357\273\277'; {}", our_port_command());
    let out = diff(&["startpos", "--depth", "2", "--no-book", "--right", &exec]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // A mark anywhere else is still refused.
    let exec = format!(r"exec:{} | sed '2s/^/\xef\xbb\xbf/'", our_port_command());
    let out = diff(&["startpos", "--depth", "1", "--no-book", "--right", &exec]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
}
