//! Sharded `sargon diff` on a real Slurm cluster, submitted as a job array by
//! scripts/slurm/submit-diff.sh, must report exactly what one unsharded run reports.
//!
//! These tests need a cluster. With `SARGON_SLURM_TEST=1` they bring up the single-node one
//! of scripts/slurm/local-cluster.sh (installing Slurm with apt-get when run as root) and
//! stop it again at the end, unless it was already running; without it they use a cluster
//! that is already up (the local one, or whatever `sinfo` reaches), and otherwise print
//! `skipped: no Slurm cluster ...`. The tests share one cluster, so they take turns.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard, PoisonError};

use serde_json::Value;

const SKIP_NO_CLUSTER: &str =
    "skipped: no Slurm cluster (set SARGON_SLURM_TEST=1 or start scripts/slurm/local-cluster.sh)";

/// One test at a time on the cluster: each may start and stop it.
static CLUSTER_TURN: Mutex<()> = Mutex::new(());

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn local_cluster_script() -> PathBuf {
    repo().join("scripts/slurm/local-cluster.sh")
}

/// A reachable Slurm cluster for the length of one test, with the environment its client
/// commands need; stops the local cluster on drop if this test started it.
struct Cluster {
    env: Vec<(String, String)>,
    started_here: bool,
    _turn: MutexGuard<'static, ()>,
}

impl Cluster {
    /// The cluster to test on, or `None` after printing why the test is skipped.
    fn get(test: &str) -> Option<Cluster> {
        let turn = CLUSTER_TURN.lock().unwrap_or_else(PoisonError::into_inner);
        let local_running = Command::new(local_cluster_script())
            .arg("status")
            .output()
            .is_ok_and(|out| out.status.success());
        if std::env::var("SARGON_SLURM_TEST").as_deref() == Ok("1") {
            if !local_running {
                let out = run(Command::new(local_cluster_script()).arg("start"));
                assert!(
                    out.status.success(),
                    "local-cluster.sh start failed:\n{}",
                    text(&out)
                );
            }
            return Some(Cluster {
                env: local_cluster_env(),
                started_here: !local_running,
                _turn: turn,
            });
        }
        if local_running {
            return Some(Cluster {
                env: local_cluster_env(),
                started_here: false,
                _turn: turn,
            });
        }
        // Some other cluster this environment already points at.
        let answers = Command::new("sinfo")
            .arg("-h")
            .output()
            .is_ok_and(|out| out.status.success());
        if answers {
            return Some(Cluster {
                env: Vec::new(),
                started_here: false,
                _turn: turn,
            });
        }
        eprintln!("{SKIP_NO_CLUSTER} ({test})");
        None
    }

    /// A command that talks to this cluster.
    fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut command = Command::new(program);
        command.envs(self.env.iter().map(|(k, v)| (k, v)));
        command
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if self.started_here {
            let out = run(Command::new(local_cluster_script()).arg("stop"));
            if !out.status.success() {
                eprintln!("local-cluster.sh stop failed:\n{}", text(&out));
            }
        }
    }
}

/// The variables `local-cluster.sh env` exports (lines `export NAME=VALUE`).
fn local_cluster_env() -> Vec<(String, String)> {
    let out = run(Command::new(local_cluster_script()).arg("env"));
    assert!(out.status.success(), "{}", text(&out));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| line.strip_prefix("export ")?.split_once('='))
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect()
}

fn run(command: &mut Command) -> Output {
    command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"))
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A scratch directory under the target directory rather than /tmp: on a site cluster the
/// compute nodes are more likely to share it with this host.
fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("slurm-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap()
}

/// The jobs' own output (slurm-*.out in `dir`), to show with a failure.
fn job_logs(dir: &Path) -> String {
    let mut logs = String::new();
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| Some(e.ok()?.path())).collect())
        .unwrap_or_default();
    files.sort();
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("slurm-") && name.ends_with(".out") {
            let content = fs::read_to_string(&file).unwrap_or_default();
            logs += &format!("--- {name}\n{content}");
        }
    }
    logs
}

/// Submits `script` with `sbatch --parsable` and the given options; the job id.
fn submit(cluster: &Cluster, options: &[&str], script: &Path) -> String {
    let out = run(cluster
        .command("sbatch")
        .arg("--parsable")
        .args(options)
        .arg(script));
    assert!(out.status.success(), "sbatch failed:\n{}", text(&out));
    let id = String::from_utf8_lossy(&out.stdout);
    id.trim().split(';').next().unwrap().to_string()
}

/// Waits until none of `jobs` is pending or running any more.
fn wait_for(cluster: &Cluster, jobs: &[&str]) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    loop {
        let out = run(cluster
            .command("squeue")
            .args(["-h", "-o", "%i %T", "-j", &jobs.join(",")]));
        let listing = text(&out);
        if (out.status.success() && listing.trim().is_empty()) || listing.contains("Invalid job id")
        {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "jobs {jobs:?} still queued after 300 s:\n{listing}"
        );
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
}

/// The plumbing the diff runs rely on, with no Sargon in it: each task of a 4-task array
/// sees its own index and the array's size, and a job that depends on the array runs after
/// all of it.
#[test]
fn array_tasks_see_their_index_and_a_dependent_job_sees_them_all() {
    let Some(cluster) =
        Cluster::get("array_tasks_see_their_index_and_a_dependent_job_sees_them_all")
    else {
        return;
    };
    let dir = scratch();
    let task_script = dir.path().join("task.sh");
    fs::write(
        &task_script,
        "#!/bin/sh\n\
         echo \"$SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_TASK_COUNT\" > \"$DIR/task-$SLURM_ARRAY_TASK_ID.txt\"\n",
    )
    .unwrap();
    let join_script = dir.path().join("join.sh");
    fs::write(
        &join_script,
        "#!/bin/sh\ncat \"$DIR\"/task-0.txt \"$DIR\"/task-1.txt \"$DIR\"/task-2.txt \"$DIR\"/task-3.txt > \"$DIR/all.txt\"\n",
    )
    .unwrap();
    let dir_export = format!("--export=ALL,DIR={}", dir.path().display());
    let output = format!("--output={}/slurm-%A_%a.out", dir.path().display());
    let array = submit(
        &cluster,
        &["--array=0-3", &dir_export, &output],
        &task_script,
    );
    let after = format!("--dependency=afterok:{array}");
    let joined = submit(&cluster, &[&after, &dir_export, &output], &join_script);
    wait_for(&cluster, &[&array, &joined]);
    let all = fs::read_to_string(dir.path().join("all.txt"))
        .expect("the dependent job ran and wrote all.txt");
    assert_eq!(all, "0 of 4\n1 of 4\n2 of 4\n3 of 4\n");
}

/// `report.json` without the times (the runner's `..._s`, `..._ms`, `..._us` fields, e.g.
/// `left_cpu_s`, `wall_s`), which differ between any two runs of the same searches.
fn without_times(value: Value) -> Value {
    fn is_time(key: &str) -> bool {
        ["_s", "_ms", "_us"].iter().any(|unit| key.ends_with(unit))
    }
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(key, _)| !is_time(key))
                .map(|(key, value)| (key, without_times(value)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(without_times).collect()),
        other => other,
    }
}

#[test]
fn times_and_only_times_are_removed_from_reports() {
    let report = serde_json::json!({
        "summary": {"searches": 3, "divergences": 0},
        "coverage": {"duplicated": [{"position": 1, "depth": 2, "times": 2}]},
        "by_depth": [{"depth": 1, "events": 10, "left_cpu_s": 0.5, "right_cpu_s": 0.1, "wall_s": 0.7}],
    });
    let expected = serde_json::json!({
        "summary": {"searches": 3, "divergences": 0},
        "coverage": {"duplicated": [{"position": 1, "depth": 2, "times": 2}]},
        "by_depth": [{"depth": 1, "events": 10}],
    });
    assert_eq!(without_times(report), expected);
}

/// The first 40 positions of tests/positions/varied-200.epd at depths 1-2, as a 4-task array
/// on the cluster and as one run here: the two reports agree, times aside. (Depths 1-2 make
/// the point; depth 3 would only multiply the time by five.)
#[test]
fn sharded_array_reports_what_one_run_reports() {
    let test = "sharded_array_reports_what_one_run_reports";
    if common::rom(test).is_none() {
        return;
    }
    let Some(cluster) = Cluster::get(test) else {
        return;
    };
    let dir = scratch();
    let epd = dir.path().join("first-40.epd");
    let positions = fs::read_to_string(repo().join("tests/positions/varied-200.epd")).unwrap();
    let first_40: Vec<&str> = positions.lines().take(40).collect();
    assert_eq!(first_40.len(), 40);
    fs::write(&epd, first_40.join("\n") + "\n").unwrap();
    let sargon = env!("CARGO_BIN_EXE_sargon");

    // The array's tasks keep the original's traces in one cache (sbatch passes the
    // environment on); the single run below then reads them all from it, so the two
    // reports agreeing also shows that traces kept by other processes are read right.
    let cache = dir.path().join("trace-cache");
    let sharded = dir.path().join("sharded");
    let out = run(cluster
        .command(repo().join("scripts/slurm/submit-diff.sh"))
        .env("SARGON_CACHE", &cache)
        .arg("--epd")
        .arg(&epd)
        .args(["--depths", "1-2", "--tasks", "4", "--out"])
        .arg(&sharded)
        .args(["--bin", sargon, "--wait"]));
    assert!(
        out.status.success(),
        "submit-diff.sh --wait failed:\n{}{}",
        text(&out),
        job_logs(&sharded)
    );
    for task in 0..4 {
        let shard = sharded.join(format!("shard-{task}.jsonl"));
        let len = fs::metadata(&shard)
            .unwrap_or_else(|e| panic!("{}: {e}", shard.display()))
            .len();
        assert!(len > 0, "{} is empty", shard.display());
    }

    let single = dir.path().join("single.jsonl");
    let out = run(Command::new(sargon)
        .env("SARGON_CACHE", &cache)
        .args(["diff", "--epd"])
        .arg(&epd)
        .args(["--depths", "1-2", "--out"])
        .arg(&single));
    assert!(
        out.status.success(),
        "unsharded diff failed:\n{}",
        text(&out)
    );
    assert!(
        text(&out).contains("the original's traces: 80 read from the cache, 0 searched"),
        "{}",
        text(&out)
    );
    let out = run(Command::new(sargon)
        .args(["diff", "report", "--epd"])
        .arg(&epd)
        .args(["--depths", "1-2", "--format", "json"])
        .arg(&single));
    assert!(
        out.status.success(),
        "report on the unsharded run failed:\n{}",
        text(&out)
    );

    let single_report: Value = serde_json::from_slice(&out.stdout).expect("report --format json");
    let sharded_report: Value =
        serde_json::from_str(&fs::read_to_string(sharded.join("report.json")).unwrap())
            .expect("the report job's report.json");
    // The array searched every trace and kept it; the single run read every one back.
    assert_eq!(sharded_report["summary"]["cached"], 0, "{sharded_report}");
    assert_eq!(single_report["summary"]["cached"], 80, "{single_report}");
    // The array's tasks name the core they ran on; a trace read back names none.
    assert_eq!(
        sharded_report["summary"]["cores"],
        serde_json::json!({"iz80": 80}),
        "{sharded_report}"
    );
    assert!(
        single_report["summary"].get("cores").is_none(),
        "{single_report}"
    );
    let cost_aside = |mut report: Value| {
        report["summary"].as_object_mut().unwrap().remove("cached");
        report["summary"].as_object_mut().unwrap().remove("cores");
        without_times(report)
    };
    assert_eq!(cost_aside(sharded_report), cost_aside(single_report));
}
