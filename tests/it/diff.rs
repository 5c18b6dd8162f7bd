//! `sargon diff` end to end: the original and the port on the same searches.

use crate::common;

use std::process::Command;

fn sargon() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sargon"));
    command.env("SARGON_CACHE", common::test_cache_dir());
    command
}

#[test]
fn agreement_is_summarised_and_exits_zero() {
    if common::rom("agreement_is_summarised_and_exits_zero").is_none() {
        return;
    }
    let out = sargon()
        .args([
            "diff",
            "startpos",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 30",
            "--depths",
            "1-3",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = stdout.lines().last().unwrap();
    assert!(
        line.starts_with("positions: 2, searches: 6, events compared: "),
        "{line}"
    );
    assert!(line.ends_with("divergences: 0"), "{line}");
}

#[test]
fn bad_requests_get_clear_errors() {
    // Depth beyond the original's tables (this fails before any ROM is needed only for the
    // port; with the emulator it names the limit).
    let out = sargon()
        .args(["diff", "startpos", "--depths", "3-1"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad depth range"));
    let out = sargon()
        .args(["diff", "not a fen", "--depth", "1"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid FEN"));
    if common::rom("bad_requests_get_clear_errors (depth limit)").is_some() {
        let out = sargon()
            .args(["diff", "startpos", "--depth", "7"])
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("outside the emulator engine's range 1..=6"),
            "{err}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Long runs: shards, the results file, resume, keep-going and the report.

use std::collections::{BTreeSet, HashSet};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use sargon_core::engine::{Capabilities, Engine, SearchError, SearchOptions, SearchOutcome};
use sargon_core::hooks::{FnHook, HookEvent, HookPoint, Hooks};
use sargon_core::position::{self, Setup};
use sargon_core::vocab::Score;
use sargon_engines::engines::Side;
use sargon_port::Port;
use sargon_referee::diff_run::{
    self, InputPosition, ResultsFile, RunIdentity, RunSettings, SearchRecord, Shard, Verdict,
};

/// The first `n` positions of the 200 varied ones, as an EPD file in `dir`.
fn varied_epd(dir: &Path, n: usize) -> PathBuf {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/positions/varied-200.epd"),
    )
    .unwrap();
    let lines: Vec<&str> = text.lines().take(n).collect();
    let path = dir.join(format!("varied-{n}.epd"));
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

fn run_ok(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{cmd:?}\n{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

fn records(path: &Path) -> Vec<SearchRecord> {
    let read = diff_run::read_results(path).unwrap();
    assert_eq!(read.incomplete_tail, 0, "{}", path.display());
    read.records
}

/// The report's JSON without the times, which differ from run to run, and without the count
/// of searches read from the trace cache, which depends on what ran before.
fn report_without_times(epd: &Path, depths: &str, files: &[PathBuf]) -> (bool, serde_json::Value) {
    let out = sargon()
        .args([
            "diff", "report", "--format", "json", "--depths", depths, "--epd",
        ])
        .arg(epd)
        .args(files)
        .output()
        .unwrap();
    let mut json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    for row in json["by_depth"].as_array_mut().unwrap() {
        let row = row.as_object_mut().unwrap();
        row.retain(|key, _| !key.ends_with("_s"));
    }
    // Which run filled the trace cache decides which searches name their core.
    json["summary"].as_object_mut().unwrap().remove("cached");
    json["summary"].as_object_mut().unwrap().remove("cores");
    (out.status.success(), json)
}

/// Run `n` positions at `depths` once whole and once in three shards; the reports must be
/// equal but for the times.
fn three_shards_equal_one_run(dir: &Path, engines: &[&str], n: usize, depths: &str) {
    let epd = varied_epd(dir, n);
    let diff = |out: &Path, shard: Option<&str>| {
        let mut cmd = sargon();
        cmd.args(["diff", "--depths", depths, "--epd"]).arg(&epd);
        cmd.args(engines).arg("--out").arg(out);
        if let Some(shard) = shard {
            cmd.args(["--shard", shard]);
        }
        run_ok(&mut cmd)
    };
    let whole = dir.join("whole.jsonl");
    let stdout = diff(&whole, None);
    assert!(
        stdout.contains(&format!("positions: {n}, searches: ")),
        "{stdout}"
    );
    let shards: Vec<PathBuf> = (0..3)
        .map(|k| dir.join(format!("shard{k}.jsonl")))
        .collect();
    for (k, file) in shards.iter().enumerate() {
        diff(file, Some(&format!("{k}/3")));
    }
    let sharded: usize = shards.iter().map(|f| records(f).len()).sum();
    assert_eq!(sharded, records(&whole).len());
    let (ok_whole, whole_report) = report_without_times(&epd, depths, &[whole]);
    let (ok_sharded, sharded_report) = report_without_times(&epd, depths, &shards);
    assert!(ok_whole && ok_sharded, "{whole_report:#}");
    assert_eq!(whole_report, sharded_report);
    assert_eq!(whole_report["coverage"]["missing"], serde_json::json!([]));
    assert!(whole_report["summary"]["events"].as_u64().unwrap() > 0);
}

#[test]
fn three_port_shards_report_like_one_run() {
    let dir = tempfile::tempdir().unwrap();
    three_shards_equal_one_run(dir.path(), &["--left", "port"], 8, "1-3");
}

#[test]
fn three_shards_against_the_original_report_like_one_run() {
    if common::rom("three_shards_against_the_original_report_like_one_run").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    three_shards_equal_one_run(dir.path(), &[], 20, "1-2");
}

#[test]
fn the_report_finds_gaps_duplicates_mixed_roms_and_other_positions() {
    let dir = tempfile::tempdir().unwrap();
    let epd = varied_epd(dir.path(), 6);
    let shard = |k: usize| {
        let file = dir.path().join(format!("s{k}.jsonl"));
        run_ok(
            sargon()
                .args(["diff", "--left", "port", "--depths", "1-2", "--epd"])
                .arg(&epd)
                .args(["--shard", &format!("{k}/2"), "--out"])
                .arg(&file),
        );
        file
    };
    let (s0, s1) = (shard(0), shard(1));
    let report = |files: &[&PathBuf], epd: &Path| {
        let out = sargon()
            .args(["diff", "report", "--depths", "1-2", "--epd"])
            .arg(epd)
            .args(files)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).to_string(),
        )
    };
    let (code, text) = report(&[&s0, &s1], &epd);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("every search exactly once"), "{text}");
    assert!(text.contains("port cpu (left)"), "{text}");
    assert!(text.contains("ROM image: none"), "{text}");
    // A shard that never ran: positions 1, 3 and 5 are missing.
    let (code, text) = report(&[&s0], &epd);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("missing (6): position 1 depth 1, position 1 depth 2, position 3 depth 1"),
        "{text}"
    );
    assert!(
        text.contains("report: FAILED: 6 searches missing"),
        "{text}"
    );
    // A shard that ran twice.
    let (code, text) = report(&[&s0, &s1, &s1], &epd);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("duplicated (6): position 1 depth 1 (2 times)"),
        "{text}"
    );
    // A shard that ran on another ROM image.
    let mixed = dir.path().join("mixed.jsonl");
    let mut lines = String::new();
    for mut r in records(&s1) {
        r.rom = Some("other".into());
        r.rom_sha256 = Some("bb".repeat(32));
        lines.push_str(&r.to_line());
    }
    std::fs::write(&mixed, lines).unwrap();
    let (code, text) = report(&[&s0, &mixed], &epd);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("report: FAILED: 2 ROM images mixed"),
        "{text}"
    );
    // The same indices, other positions.
    let other = dir.path().join("other.epd");
    let shifted: Vec<String> = std::fs::read_to_string(varied_epd(dir.path(), 7))
        .unwrap()
        .lines()
        .skip(1)
        .map(String::from)
        .collect();
    std::fs::write(&other, shifted.join("\n")).unwrap();
    // The files' plan names the run's EPD file: another is refused at once.
    let (code, _) = report(&[&s0, &s1], &other);
    assert_eq!(code, Some(2));
    // Files without the plan line (an older sargon's) are checked position by position.
    let unplanned = |file: &PathBuf| {
        let text = std::fs::read_to_string(file).unwrap();
        let path = file.with_extension("old.jsonl");
        std::fs::write(&path, text.split_once('\n').unwrap().1).unwrap();
        path
    };
    let (old0, old1) = (unplanned(&s0), unplanned(&s1));
    let (code, text) = report(&[&old0, &old1], &other);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("12 records whose FEN differs from the input's"),
        "{text}"
    );
}

#[test]
fn a_shard_killed_mid_run_resumes_without_losing_or_repeating_a_search() {
    let dir = tempfile::tempdir().unwrap();
    let (n, depths) = (30, 4);
    let epd = varied_epd(dir.path(), n);
    let out = dir.path().join("run.jsonl");
    let args = |cmd: &mut Command| {
        cmd.args(["diff", "--left", "port", "--depths", "1-4", "--epd"])
            .arg(&epd)
            .arg("--out")
            .arg(&out);
    };
    let mut cmd = sargon();
    args(&mut cmd);
    let mut child = cmd
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Kill it (SIGKILL: no chance to clean up) once a few searches are on disk:
    // five records after the plan's header line.
    let started = Instant::now();
    loop {
        let lines = std::fs::read(&out)
            .map(|b| b.iter().filter(|&&c| c == b'\n').count())
            .unwrap_or(0);
        if lines > 5 {
            break;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it could be killed"
        );
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no results written"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(
        child.try_wait().unwrap().is_none(),
        "the run ended before it could be killed: make it longer"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    let before = std::fs::read(&out).unwrap();
    let kept = diff_run::read_results(&out).unwrap().records;
    assert!(kept.len() >= 5 && kept.len() < n * depths, "{}", kept.len());
    // And as if it had been killed in the middle of writing a line as well.
    let torn = kept[0].to_line();
    std::fs::OpenOptions::new()
        .append(true)
        .open(&out)
        .unwrap()
        .write_all(&torn.as_bytes()[..torn.len() / 2])
        .unwrap();

    // Without --resume the file is refused rather than appended to twice.
    let mut again = sargon();
    args(&mut again);
    let refused = again.output().unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("add --resume"));

    let mut resume = sargon();
    args(&mut resume);
    let done = resume.arg("--resume").output().unwrap();
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert!(done.status.success(), "{stderr}");
    assert!(
        stderr.contains("cut off an incomplete last line"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(
            "resuming: {} searches already recorded, {} to do",
            kept.len(),
            n * depths - kept.len()
        )),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&done.stdout);
    assert!(
        stdout.contains(&format!("positions: {n}, searches: {}, ", n * depths)),
        "{stdout}"
    );
    let after = std::fs::read(&out).unwrap();
    assert!(
        after.starts_with(&before),
        "the earlier records are kept as they were"
    );
    let all = records(&out);
    assert_eq!(all.len(), n * depths, "no search lost or repeated");
    let keys: HashSet<(usize, u8)> = all.iter().map(SearchRecord::key).collect();
    assert_eq!(keys.len(), n * depths);
    assert!(all.iter().all(|r| r.verdict == Verdict::Agree));
    // A second resume has nothing to do.
    let mut nothing = sargon();
    args(&mut nothing);
    let stdout = run_ok(nothing.arg("--resume"));
    assert!(
        stdout.contains(&format!("searches: {}", n * depths)),
        "{stdout}"
    );
    assert_eq!(records(&out).len(), n * depths);
}

/// The port with its evaluation nudged in some positions: an engine that diverges there,
/// and an engine of its own, neither the port nor the emulator (nothing in the libraries
/// knows it).
struct Nudged {
    port: Port,
    /// FENs of the positions where POINTS' score is changed.
    where_: HashSet<String>,
}

impl Engine for Nudged {
    fn id(&self) -> String {
        "nudged".into()
    }
    fn max_depth(&self) -> u8 {
        self.port.max_depth()
    }
    fn capabilities(&self) -> Capabilities {
        self.port.capabilities()
    }
    fn search(
        &mut self,
        setup: &Setup,
        opts: &SearchOptions,
        hooks: &mut Hooks,
    ) -> Result<SearchOutcome, SearchError> {
        if self.where_.contains(&position::fen_of(&setup.position)) {
            // `Hooks` borrows its hooks for as long as the caller's list lives, which a
            // local hook does not; a few leaked bytes per search are fine in a test.
            let nudge = FnHook::new(&[HookPoint::PointsEnd], |event| {
                if let HookEvent::PointsEnd(points) = event {
                    points.set_score(Score(points.score().0.wrapping_add(3)));
                }
            });
            hooks.add(Box::leak(Box::new(nudge)));
        }
        self.port.search(setup, opts, hooks)
    }
}

/// An engine the libraries have never heard of runs through the analysis and the
/// comparison as the built-in ones do: nothing in the libraries names it.
#[test]
fn an_engine_of_its_own_runs_through_analyze_and_diff() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let pos = position::parse_position(fen).unwrap();
    let setup = position::setup(&pos, position::Book::Off).unwrap();
    let opts = SearchOptions::depth(3);
    let mut plain = Nudged {
        port: Port::new(),
        where_: HashSet::new(),
    };
    let (mine, _) = sargon_views::analysis::analyse(&mut plain, &setup, &opts).unwrap();
    let (port, _) = sargon_views::analysis::analyse(&mut Port::new(), &setup, &opts).unwrap();
    assert_eq!(mine.engine, "nudged");
    assert_eq!(port.engine, "port");
    assert_eq!(
        (&mine.best_uci, mine.score_cp, &mine.pv_uci),
        (&port.best_uci, port.score_cp, &port.pv_uci)
    );
    assert!(plain
        .check_depth(21)
        .unwrap_err()
        .to_string()
        .contains("nudged engine"));

    // Compared event by event with the port: equal where it is not nudged, and caught where
    // it is.
    let same = sargon_referee::diff::compare(&mut plain, &mut Port::new(), &setup, &opts).unwrap();
    assert!(same.divergence.is_none() && same.events > 1000, "{same:?}");
    let mut nudged = Nudged {
        port: Port::new(),
        where_: [position::fen_of(&pos)].into_iter().collect(),
    };
    let caught =
        sargon_referee::diff::compare(&mut Port::new(), &mut nudged, &setup, &opts).unwrap();
    let divergence = caught.divergence.expect("the nudged scores are caught");
    assert!(divergence.left.is_some() && divergence.right.is_some());
    assert_ne!(divergence.left, divergence.right);
}

#[test]
fn keep_going_records_every_divergence() {
    let fens: Vec<String> = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/positions/varied-200.epd"),
    )
    .unwrap()
    .lines()
    .take(6)
    .map(String::from)
    .collect();
    let positions: Vec<InputPosition> = fens
        .iter()
        .enumerate()
        .map(|(i, f)| InputPosition::new(i, f, false).unwrap())
        .collect();
    let nudged_at = [1usize, 3, 4];
    let nudged = || {
        Side::Engine(Box::new(Nudged {
            port: Port::new(),
            where_: nudged_at
                .iter()
                .map(|&i| position::fen_of(&positions[i].setup.position))
                .collect(),
        }))
    };
    let port = || Side::Engine(Box::new(Port::new()));
    let identity = RunIdentity {
        left: "port".into(),
        right: "nudged".into(),
        rom: None,
        book: false,
        shard: Shard::ALL,
    };
    let searches = diff_run::plan(&positions, Shard::ALL, &[1, 2], &HashSet::new());
    let dir = tempfile::tempdir().unwrap();
    let plan = diff_run::RunPlan {
        epd_sha256: None,
        positions: positions.len(),
        depths: vec![1, 2],
        first: None,
        shard: Shard::ALL.to_string(),
    };

    // Stopping at the first divergence: position 1 at depth 1.
    let path = dir.path().join("first.jsonl");
    let mut out = ResultsFile::create(&path, &plan).unwrap();
    let outcome = diff_run::run(
        &mut port(),
        &mut nudged(),
        &searches,
        &identity,
        RunSettings {
            keep_going: false,
            cache: None,
        },
        Some(&mut out),
        &mut (),
    )
    .unwrap();
    assert_eq!(outcome.tally.divergences, 1);
    assert_eq!(outcome.left_undone, searches.len() - 3);
    let first = records(&path);
    assert_eq!(first.len(), 3);
    assert_eq!(first[2].verdict, Verdict::Diverge);

    // Going on: every search recorded, a divergence for each nudged one.
    let path = dir.path().join("all.jsonl");
    let mut out = ResultsFile::create(&path, &plan).unwrap();
    let outcome = diff_run::run(
        &mut port(),
        &mut nudged(),
        &searches,
        &identity,
        RunSettings {
            keep_going: true,
            cache: None,
        },
        Some(&mut out),
        &mut (),
    )
    .unwrap();
    assert_eq!(outcome.left_undone, 0);
    assert_eq!(outcome.tally.divergences, 6);
    assert!(!outcome.tally.all_agree());
    let all = records(&path);
    assert_eq!(all.len(), 12);
    let diverged: BTreeSet<(usize, u8)> = all
        .iter()
        .filter(|r| r.verdict == Verdict::Diverge)
        .map(SearchRecord::key)
        .collect();
    let expected: BTreeSet<(usize, u8)> =
        nudged_at.iter().flat_map(|&p| [(p, 1), (p, 2)]).collect();
    assert_eq!(diverged, expected);
    for r in all.iter().filter(|r| r.verdict == Verdict::Diverge) {
        let d = r.divergence.as_ref().unwrap();
        assert!(
            r.events == d.event,
            "events compared stop at the divergence"
        );
        let (left, right) = (d.left.as_ref().unwrap(), d.right.as_ref().unwrap());
        assert_ne!(left, right);
        assert!(left["event"].is_string(), "{left}");
        assert!(d.path.is_some() || left["event"] == "ascend" || left["event"] == "result");
    }
    // The report lists them all.
    let report = diff_run::report::build(
        &fens_as_read(&fens),
        &diff_run::report::DepthPlan::every(&[1, 2], fens.len()),
        &all,
        0,
    );
    assert_eq!(report.divergences.len(), 6);
    assert_eq!(report.problems, ["6 divergences"]);
}

/// The FENs as `read_positions` gives them (what the records hold).
fn fens_as_read(fens: &[String]) -> Vec<String> {
    diff_run::read_positions(&fens.join("\n")).unwrap()
}

#[test]
fn run_arguments_are_checked_before_any_search() {
    let dir = tempfile::tempdir().unwrap();
    let epd = varied_epd(dir.path(), 3);
    let out = dir.path().join("never.jsonl");
    let fails = |args: &[&str], expected: &str| {
        let o = sargon()
            .args(["diff", "--left", "port", "--epd"])
            .arg(&epd)
            .arg("--out")
            .arg(&out)
            .args(args)
            .env_remove("SLURM_ARRAY_TASK_ID")
            .env_remove("JOB_COMPLETION_INDEX")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        // As diff(1): 2 is trouble (1 would mean the engines differ).
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?} wrote results");
    };
    fails(
        &["--depths", "1-21"],
        "depth 21 is outside the port engine's range 1..=20",
    );
    fails(
        &["--depth", "2", "--shard", "3/3"],
        "K, the shard (numbered from 0): expected a whole number from 0 to 2, got `3`",
    );
    fails(&["--depth", "2", "--shard", "x"], "bad shard `x`");
    fails(
        &["--depth", "2", "--shard-from-env"],
        "neither SLURM_ARRAY_TASK_ID",
    );
    // `--shard-from-env` at depth 1 on the positions, with only the given scheduler
    // variables set.
    let from_env = |extra: &[&str], vars: &[(&str, &str)]| {
        let mut command = sargon();
        command
            .args(["diff", "--left", "port", "--depth", "1", "--shard-from-env"])
            .arg("--epd")
            .arg(&epd)
            .args(extra);
        for var in [
            "JOB_COMPLETION_INDEX",
            "SLURM_ARRAY_TASK_ID",
            "SLURM_ARRAY_TASK_MIN",
            "SLURM_ARRAY_TASK_MAX",
            "SLURM_ARRAY_TASK_COUNT",
        ] {
            command.env_remove(var);
        }
        command.envs(vars.iter().copied()).output().unwrap()
    };
    let o = from_env(&[], &[("JOB_COMPLETION_INDEX", "1")]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("--shards N"));
    // Kubernetes: index 1 of 2 takes positions 1 (of 0, 1, 2).
    let o = from_env(&["--shards", "2"], &[("JOB_COMPLETION_INDEX", "1")]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("positions: 1, searches: 1, "));
    // Slurm, --array=1-3: task 3 is shard 2 of 3 and takes position 2.
    let o = from_env(
        &["--out", out.to_str().unwrap()],
        &[
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let written = records(&out);
    assert_eq!(written.len(), 1);
    assert_eq!((written[0].position, written[0].shard.as_str()), (2, "2/3"));
    // --resume needs --out.
    let o = sargon()
        .args([
            "diff", "startpos", "--left", "port", "--depth", "1", "--resume",
        ])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--out"));
}

/// A deeper run over the first positions of a file (`diff --first N`) reports together
/// with the shallow run over all of them (`report --depths 1-2 --depths 3:N`).
#[test]
fn a_deeper_run_over_the_first_positions_reports_with_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let epd = varied_epd(dir.path(), 8);
    let shallow = dir.path().join("shallow.jsonl");
    let deep = dir.path().join("deep.jsonl");
    run_ok(
        sargon()
            .args(["diff", "--left", "port", "--depths", "1-2", "--epd"])
            .arg(&epd)
            .arg("--out")
            .arg(&shallow),
    );
    run_ok(
        sargon()
            .args([
                "diff", "--left", "port", "--depth", "3", "--first", "3", "--epd",
            ])
            .arg(&epd)
            .arg("--out")
            .arg(&deep),
    );
    let positions: Vec<usize> = records(&deep).iter().map(|r| r.position).collect();
    assert_eq!(positions, [0, 1, 2]);

    let report = |depths: &[&str]| {
        let mut cmd = sargon();
        cmd.args(["diff", "report", "--epd"]).arg(&epd);
        for d in depths {
            cmd.args(["--depths", d]);
        }
        cmd.arg(&shallow).arg(&deep).output().unwrap()
    };
    let ok = report(&["1-2", "3:3"]);
    let text = String::from_utf8_lossy(&ok.stdout);
    assert!(ok.status.success(), "{text}");
    assert!(
        text.starts_with("coverage: 8 positions at depths 1-2, the first 3 at depth 3: 19"),
        "{text}"
    );
    // Asking for one more position at depth 3 than was run is a gap.
    let gap = report(&["1-2", "3:4"]);
    assert_eq!(gap.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&gap.stdout).contains("missing (1): position 3 depth 3"));
    // `--first` beyond the input is refused before any search.
    let out = sargon()
        .args([
            "diff", "--left", "port", "--depth", "1", "--first", "9", "--epd",
        ])
        .arg(&epd)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--first 9: the input has only 8"));
}
