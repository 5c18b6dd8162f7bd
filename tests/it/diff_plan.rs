//! The plan line a results file starts with (issue 35): `sargon diff report RESULTS` needs
//! no `--epd` or `--depths`, sees what was planned but never ran, and `--resume` refuses a
//! file planned for another run. Port against port, so no ROM is needed.

use std::path::{Path, PathBuf};
use std::process::Command;

fn sargon() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sargon"))
}

/// (exit status, stdout, stderr).
fn run(cmd: &mut Command) -> (Option<i32>, String, String) {
    let out = cmd.output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// The first `n` positions of varied-200, in a file of their own.
fn epd(dir: &Path, n: usize) -> PathBuf {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/positions/varied-200.epd"),
    )
    .unwrap();
    let lines: Vec<&str> = text.lines().take(n).collect();
    let path = dir.join(format!("varied-{n}.epd"));
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// `sargon diff --left port --epd EPD --out OUT ARGS`, which must succeed.
fn diff(epd: &Path, out: &Path, args: &[&str]) {
    let (code, stdout, stderr) = run(sargon()
        .args(["diff", "--left", "port", "--epd"])
        .arg(epd)
        .arg("--out")
        .arg(out)
        .args(args));
    assert_eq!(code, Some(0), "{stdout}{stderr}");
}

fn report(files: &[&PathBuf], flags: &[&str]) -> (Option<i32>, String, String) {
    run(sargon().args(["diff", "report"]).args(flags).args(files))
}

#[test]
fn a_report_reads_the_runs_plan_from_its_results_files() {
    let dir = tempfile::tempdir().unwrap();
    let epd = epd(dir.path(), 6);
    let s0 = dir.path().join("s0.jsonl");
    let s1 = dir.path().join("s1.jsonl");
    diff(&epd, &s0, &["--depths", "1-2", "--shard", "0/2"]);
    diff(&epd, &s1, &["--depths", "1-2", "--shard", "1/2"]);
    // The deeper part of the run, on the first 3 positions.
    let deep = dir.path().join("deep.jsonl");
    diff(&epd, &deep, &["--depth", "3", "--first", "3"]);

    // From the files alone, the report the flags give.
    let epd_flag = epd.to_str().unwrap();
    let flags = ["--epd", epd_flag, "--depths", "1-2", "--depths", "3:3"];
    let (code, with_flags, err) = report(&[&s0, &s1, &deep], &flags);
    assert_eq!(code, Some(0), "{with_flags}{err}");
    let (code, alone, err) = report(&[&s0, &s1, &deep], &[]);
    assert_eq!(code, Some(0), "{alone}{err}");
    assert_eq!(alone, with_flags);
    assert!(alone.contains("every search exactly once"), "{alone}");

    // What was planned but never ran is seen: shard 1 of 2 is missing.
    let (code, text, _) = report(&[&s0], &[]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("missing (6): position 1 depth 1, position 1 depth 2, position 3 depth 1"),
        "{text}"
    );

    // Another EPD file than the run's is refused, naming both.
    let other = dir.path().join("other.epd");
    std::fs::write(
        &other,
        std::fs::read_to_string(&epd).unwrap() + "startpos\n",
    )
    .unwrap();
    let (code, _, err) = report(
        &[&s0, &s1],
        &["--epd", other.to_str().unwrap(), "--depths", "1-2"],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("is not the file the run searched"), "{err}");

    // A file without the plan line (made by an older sargon) still needs the flags.
    let old = dir.path().join("old.jsonl");
    let text = std::fs::read_to_string(&s0).unwrap();
    let (first, rest) = text.split_once('\n').unwrap();
    assert!(first.starts_with("{\"plan\":"), "{first}");
    std::fs::write(&old, rest).unwrap();
    let (code, _, err) = report(&[&old, &s1], &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("old.jsonl has no plan line")
            && err.contains("give the run's --epd and --depths"),
        "{err}"
    );
    let (code, text, err) = report(&[&old, &s1], &["--epd", epd_flag, "--depths", "1-2"]);
    assert_eq!(code, Some(0), "{text}{err}");
}

#[test]
fn resume_goes_on_with_its_own_plan_and_refuses_another() {
    let dir = tempfile::tempdir().unwrap();
    let epd = epd(dir.path(), 3);
    let out = dir.path().join("run.jsonl");
    diff(&epd, &out, &["--depths", "1-2"]);
    // The same plan: nothing left to do.
    let (code, _, err) = run(sargon()
        .args([
            "diff", "--left", "port", "--depths", "1-2", "--resume", "--epd",
        ])
        .arg(&epd)
        .arg("--out")
        .arg(&out));
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("resuming: 6 searches already recorded, 0 to do"),
        "{err}"
    );
    // Other depths: refused, saying what differs, and the file left as it was.
    let before = std::fs::read(&out).unwrap();
    let (code, _, err) = run(sargon()
        .args([
            "diff", "--left", "port", "--depths", "1-3", "--resume", "--epd",
        ])
        .arg(&epd)
        .arg("--out")
        .arg(&out));
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("the results file was made for another plan: its depths are [1, 2], these are [1, 2, 3]"),
        "{err}"
    );
    assert_eq!(std::fs::read(&out).unwrap(), before);
    // Another --first: refused too.
    let (code, _, err) = run(sargon()
        .args([
            "diff", "--left", "port", "--depths", "1-2", "--first", "2", "--resume", "--epd",
        ])
        .arg(&epd)
        .arg("--out")
        .arg(&out));
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("it searches all positions, this run the first 2"),
        "{err}"
    );
}
