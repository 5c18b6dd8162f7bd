//! `sargon diff report` and the end of a `sargon diff --keep-going` run group the
//! divergences into likely causes, from the recorded events alone. The faults are planted
//! in an `exec:` port (our own port behind `sargon trace`, its trace altered by `awk` in
//! some positions), so the left side is our port and no ROM is needed; where a ROM is
//! imported, the report also lists the original's code at each cause's hook point.

use std::path::Path;
use std::process::{Command, Output};

const SARGON: &str = env!("CARGO_BIN_EXE_sargon");

/// `text` quoted for `sh`.
fn sh_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The first `n` positions of tests/positions/varied-200.epd.
fn positions(n: usize) -> Vec<String> {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/positions/varied-200.epd"),
    )
    .unwrap()
    .lines()
    .take(n)
    .map(String::from)
    .collect()
}

/// What a planted fault does to the port's trace (JSON Lines), as an awk program.
const RAISE_EVAL: &str = r#"/"event":"eval"/ { match($0, /"score":[0-9]+/); $0 = substr($0, 1, RSTART + 7) (substr($0, RSTART + 8, RLENGTH - 8) + 4) substr($0, RSTART + RLENGTH) } { print }"#;
const DROP_CREATED: &str = r#"/"event":"created"/ { c++; if (c == 3) next } { print }"#;
const FLIP_CUTOFF: &str = r#"/"event":"alpha_beta"/ && !done { if (!sub(/"cutoff":true/, "\"cutoff\":false")) sub(/"cutoff":false/, "\"cutoff\":true"); done = 1 } { print }"#;
const LOWER_BEST: &str = r#"/"event":"best"/ { match($0, /"score":[0-9]+/); $0 = substr($0, 1, RSTART + 7) (substr($0, RSTART + 8, RLENGTH - 8) - 2) substr($0, RSTART + RLENGTH) } { print }"#;

/// An `exec:` port: our port, with `faults[i].1` applied to its trace in position
/// `faults[i].0`'s searches, and untouched elsewhere.
fn planted(dir: &Path, faults: &[(&str, &str)]) -> String {
    let mut script = String::from("case \"$SARGON_FEN\" in\n");
    for (i, (fen, _)) in faults.iter().enumerate() {
        script += &format!("  {}) f={i} ;;\n", sh_quote(fen));
    }
    script += "  *) f=none ;;\nesac\n";
    script += &format!(
        "{} trace \"$SARGON_FEN\" --depth \"$SARGON_DEPTH\" --format jsonl --no-book > \"$0.$$\" || exit 1\n",
        sh_quote(SARGON)
    );
    script += "case $f in\n";
    for (i, (_, awk)) in faults.iter().enumerate() {
        script += &format!("  {i}) awk {} \"$0.$$\" ;;\n", sh_quote(awk));
    }
    script += "  *) cat \"$0.$$\" ;;\nesac\nrm -f \"$0.$$\"\n";
    let path = dir.join("planted.sh");
    std::fs::write(&path, script).unwrap();
    format!("exec:sh {}", sh_quote(&path.display().to_string()))
}

/// `sargon diff --left port --right EXEC --keep-going` over `fens` at depths 1-2.
fn run(dir: &Path, fens: &[String], exec: &str) -> (Output, std::path::PathBuf) {
    let epd = dir.join("positions.epd");
    std::fs::write(&epd, fens.join("\n") + "\n").unwrap();
    let out = dir.join("results.jsonl");
    let output = Command::new(SARGON)
        .args(["diff", "--left", "port", "--right", exec, "--no-book"])
        .arg("--epd")
        .arg(&epd)
        .args(["--depths", "1-2", "--keep-going", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    (output, out)
}

fn report(dir: &Path, results: &Path, format: &str) -> Output {
    Command::new(SARGON)
        .args([
            "diff", "report", "--depths", "1-2", "--format", format, "--epd",
        ])
        .arg(dir.join("positions.epd"))
        .arg(results)
        .output()
        .unwrap()
}

/// The causes of a JSON report: (event, field, change, searches) each, largest first.
fn causes(json: &serde_json::Value) -> Vec<(String, String, String, u64)> {
    json["causes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["event"].as_str().unwrap().to_string(),
                c["field"].as_str().unwrap().to_string(),
                c["change"].as_str().unwrap().to_string(),
                c["searches"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn three_planted_faults_of_three_kinds_make_three_causes_with_their_counts() {
    let dir = tempfile::tempdir().unwrap();
    let fens = positions(7);
    // Scores raised in three positions, a created move dropped in two, a cutoff flipped
    // in one; the seventh position is left alone.
    let faults = [
        (fens[0].as_str(), RAISE_EVAL),
        (fens[1].as_str(), DROP_CREATED),
        (fens[2].as_str(), RAISE_EVAL),
        (fens[3].as_str(), FLIP_CUTOFF),
        (fens[4].as_str(), DROP_CREATED),
        (fens[5].as_str(), RAISE_EVAL),
    ];
    let exec = planted(dir.path(), &faults);
    let (out, results) = run(dir.path(), &fens, &exec);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("divergences: 12"), "{stdout}");
    // The end of the --keep-going run names the causes.
    assert!(stdout.contains("LIKELY CAUSES (3,"), "{stdout}");
    // Score bytes for people are written as the listing writes them, with their pawns.
    assert!(stdout.contains("\n  port     eval 0 : 0x"), "{stdout}");
    assert!(
        stdout.contains(" pawns)\n  exec     eval 0 : 0x"),
        "{stdout}"
    );

    let json = report(dir.path(), &results, "json");
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(
        causes(&json),
        [
            (
                "eval".into(),
                "score".into(),
                "higher on the right".into(),
                6
            ),
            ("created".into(), "moves".into(), "differ".into(), 4),
            (
                "alpha_beta".into(),
                "cutoff".into(),
                "false on the left, true on the right".into(),
                2
            )
        ]
        .map(|(e, f, c, n): (String, String, String, u64)| (e, f, c, n))
    );
    let eval = &json["causes"][0];
    assert_eq!(eval["deltas"], serde_json::json!([4, 4]));
    assert_eq!(eval["hook_point"], "points.end");
    assert_eq!(eval["positions"], 3);
    assert_eq!(eval["example"]["position"], 0);
    assert_eq!(json["causes"][1]["hook_point"], "movegen.done");
    assert_eq!(json["causes"][2]["hook_point"], "search.alpha_beta");
    assert_eq!(json["causes"][2]["example"]["position"], 3);
    // JSON keeps the recorded events, with decimal numbers.
    assert!(eval["example"]["left"]["score"].is_u64(), "{eval}");

    // The text: one headline each, largest first, with its worked example.
    let text = report(dir.path(), &results, "text");
    let text = String::from_utf8_lossy(&text.stdout);
    let first = text
        .find("1. eval score higher on the right by +4")
        .expect(&text);
    let second = text.find("2. created moves differ").expect(&text);
    let third = text
        .find("3. alpha_beta cutoff false on the left, true on the right")
        .expect(&text);
    assert!(first < second && second < third, "{text}");
    assert!(
        text.contains("6 searches in 3 positions; first at position 0 depth 1"),
        "{text}"
    );
    assert!(
        text.contains(&format!("   position: {}", fens[0])),
        "{text}"
    );
    assert!(text.contains("   board:    "), "{text}");
    assert!(text.contains("\n   port      eval 0 : 0x"), "{text}");
    assert!(text.contains("\n  port     eval 0 : 0x"), "{text}");
    assert!(!text.contains("\"score\":"), "{text}");
    // docs/checking-your-port.md shows these three headlines as they are.
    let page = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/checking-your-port.md"),
    )
    .unwrap();
    let shown: Vec<&str> = page
        .lines()
        .filter(|l| l.len() > 3 && l.as_bytes()[0].is_ascii_digit() && l[1..].starts_with(". "))
        .filter(|l| l.contains("(hook point "))
        .collect();
    assert_eq!(shown.len(), 3, "{shown:?}");
    for line in shown {
        assert!(text.contains(&format!("\n{line}\n")), "{line}\n{text}");
    }
    // Where to look: the port's function always; the original's code at the hook point
    // from the user's import, when there is one.
    assert!(
        text.contains("crates/sargon-port/src/faithful/eval.rs:"),
        "{text}"
    );
    if crate::common::rom("three_planted_faults_of_three_kinds").is_some() {
        assert!(
            text.contains("where to look: the original at hook point points.end (0x")
                && text.contains("<- hook points.end")
                && text.contains("<- hook search.alpha_beta"),
            "{text}"
        );
    }
    // Without an imported ROM (an empty store), the port's side alone.
    let empty = tempfile::tempdir().unwrap();
    let bare = Command::new(SARGON)
        .env("SARGON_ROMS", empty.path())
        .args(["diff", "report", "--depths", "1-2", "--epd"])
        .arg(dir.path().join("positions.epd"))
        .arg(&results)
        .output()
        .unwrap();
    let bare = String::from_utf8_lossy(&bare.stdout);
    assert!(
        bare.contains("where to look: import a ROM")
            && bare.contains("POINTS: crates/sargon-port/src/faithful/eval.rs:")
            && !bare.contains("<- hook"),
        "{bare}"
    );
}

#[test]
fn two_score_faults_in_different_routines_make_two_causes() {
    let dir = tempfile::tempdir().unwrap();
    let fens = positions(3);
    let faults = [
        (fens[0].as_str(), RAISE_EVAL),
        (fens[1].as_str(), LOWER_BEST),
        (fens[2].as_str(), LOWER_BEST),
    ];
    let exec = planted(dir.path(), &faults);
    let (out, results) = run(dir.path(), &fens, &exec);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = report(dir.path(), &results, "json");
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(
        causes(&json),
        [
            (
                "best".into(),
                "score".into(),
                "lower on the right".into(),
                4
            ),
            (
                "eval".into(),
                "score".into(),
                "higher on the right".into(),
                2
            ),
        ]
        .map(|(e, f, c, n): (String, String, String, u64)| (e, f, c, n))
    );
    assert_eq!(json["causes"][0]["deltas"], serde_json::json!([-2, -2]));
    assert_eq!(json["causes"][0]["hook_point"], "search.best_confirmed");
}
