//! Tests of the report: coverage, consistency, counts and the text.

use std::collections::BTreeMap;

use super::*;
use crate::diff_run::record::tests::record;
use crate::diff_run::record::DivergenceRecord;
use crate::diff_run::record::{SearchRecord, Verdict};

fn fens(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("fen {i}")).collect()
}

/// Every position of `n` at depths 1 and 2.
fn complete(n: usize) -> Vec<SearchRecord> {
    (0..n).flat_map(|p| [1, 2].map(|d| record(p, d))).collect()
}

#[test]
fn a_deeper_run_over_the_first_positions_is_covered_by_its_plan() {
    let plan = [
        DepthPlan {
            depth: 1,
            positions: 6,
        },
        DepthPlan {
            depth: 2,
            positions: 6,
        },
        DepthPlan {
            depth: 3,
            positions: 2,
        },
    ];
    let mut records = complete(6);
    records.extend([record(0, 3), record(1, 3)]);
    let report = build(&fens(6), &plan, &records, 0);
    assert!(report.ok, "{:?}", report.problems);
    assert_eq!(report.coverage.expected_searches, 14);
    assert!(report
        .to_text()
        .starts_with("coverage: 6 positions at depths 1-2, the first 2 at depth 3: 14"));

    // Depth 3 on a position past the first two is not part of the run; one of the
    // first two missing at depth 3 is a gap.
    records.pop();
    records.push(record(4, 3));
    let report = build(&fens(6), &plan, &records, 0);
    assert!(!report.ok);
    assert_eq!(
        report.coverage.missing,
        [SearchKey {
            position: 1,
            depth: 3
        }]
    );
    assert_eq!(report.coverage.unexpected.len(), 1);
    assert_eq!(report.coverage.unexpected[0].position, 4);
}

#[test]
fn a_complete_consistent_run_is_ok() {
    let report = build(&fens(5), &DepthPlan::every(&[1, 2], 5), &complete(5), 0);
    assert_eq!(report.summary.unverified, 0);
    assert!(report.ok, "{:?}", report.problems);
    assert_eq!(
        report.summary_line(),
        "positions: 5, searches: 10, events compared: 1000, divergences: 0"
    );
    assert_eq!(report.by_depth.len(), 2);
    assert_eq!(report.by_depth[0].searches, 5);
    assert!((report.by_depth[0].left_cpu_s - 0.01).abs() < 1e-9);
    let text = report.to_text();
    assert!(text.contains("every search exactly once"), "{text}");
    assert!(text.contains("emulator cpu"), "{text}");
    assert!(text.ends_with("report: OK\n"), "{text}");
}

#[test]
fn searches_read_from_the_trace_cache_are_counted_and_said() {
    let mut records = complete(3);
    assert!(!build(&fens(3), &DepthPlan::every(&[1, 2], 3), &records, 0)
        .to_text()
        .contains("cache"));
    records[0].left.cached = true;
    records[4].left.cached = true;
    let report = build(&fens(3), &DepthPlan::every(&[1, 2], 3), &records, 0);
    assert_eq!(report.summary.cached, 2);
    assert!(report.ok, "a cached search is as good as a searched one");
    let text = report.to_text();
    assert!(
        text.contains("2 searches read from the cache of the original's traces"),
        "{text}"
    );
}

#[test]
fn the_cores_are_counted_and_another_than_iz80_is_named() {
    let mut records = complete(3);
    let text = |records: &[SearchRecord]| {
        build(&fens(3), &DepthPlan::every(&[1, 2], 3), records, 0).to_text()
    };
    assert!(!text(&records).contains("ran on"));
    // The default core is counted but goes unsaid.
    for r in &mut records {
        r.left.core = Some("iz80".into());
    }
    let report = build(&fens(3), &DepthPlan::every(&[1, 2], 3), &records, 0);
    assert_eq!(
        report.summary.cores,
        BTreeMap::from([("iz80".to_string(), 6)])
    );
    assert!(!text(&records).contains("ran on"));
    records[1].left.core = Some("z80emu".into());
    records[2].left.core = Some("z80emu".into());
    let report = build(&fens(3), &DepthPlan::every(&[1, 2], 3), &records, 0);
    assert_eq!(
        report.summary.cores,
        BTreeMap::from([("iz80".to_string(), 4), ("z80emu".to_string(), 2)])
    );
    assert!(report.ok);
    assert!(
        text(&records).contains("the original ran on iz80 in 4 searches, z80emu in 2 searches"),
        "{}",
        text(&records)
    );
}

#[test]
fn searches_on_an_unverified_rom_fail_the_report_unless_allowed() {
    let mut records = complete(3);
    for r in &mut records {
        r.rom_verified = Some(false);
    }
    let mut report = build(&fens(3), &DepthPlan::every(&[1, 2], 3), &records, 0);
    assert_eq!(report.summary.unverified, 6);
    assert!(!report.ok);
    assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
    assert!(
        report.problems[0].contains("not verified"),
        "{:?}",
        report.problems
    );
    let text = report.to_text();
    assert!(
        text.contains("NOT VERIFIED: 6 searches ran on a ROM"),
        "{text}"
    );
    assert!(!text.ends_with("report: OK\n"), "{text}");
    report.allow_unverified();
    assert!(report.ok, "{:?}", report.problems);
    assert!(report.to_text().contains("NOT VERIFIED: 6 searches"));
}

#[test]
fn gaps_and_duplicates_are_listed_and_fail() {
    let mut records = complete(30);
    records.retain(|r| r.position % 2 == 0 || r.depth == 1);
    records.push(record(4, 2));
    let report = build(&fens(30), &DepthPlan::every(&[1, 2], 30), &records, 1);
    assert!(!report.ok);
    assert_eq!(report.coverage.missing.len(), 15);
    assert_eq!(
        report.coverage.missing[0],
        SearchKey {
            position: 1,
            depth: 2
        }
    );
    assert_eq!(
        report.coverage.duplicated,
        vec![Duplicate {
            position: 4,
            depth: 2,
            times: 2
        }]
    );
    assert_eq!(
        report.problems,
        ["15 searches missing", "1 search recorded more than once"]
    );
    let text = report.to_text();
    assert!(
        text.contains("missing (15): position 1 depth 2, position 3 depth 2"),
        "{text}"
    );
    assert!(text.contains("... and 5 more"), "{text}");
    assert!(
        text.contains("duplicated (1): position 4 depth 2 (2 times)"),
        "{text}"
    );
    assert!(text.contains("1 incomplete last line"), "{text}");
    assert!(text.contains("report: FAILED"), "{text}");
}

#[test]
fn mixed_rom_images_and_wrong_positions_fail() {
    let mut records = complete(3);
    records[1].rom_sha256 = Some("bb".repeat(32));
    records[2].fen = "another".into();
    records.push(record(3, 1));
    records.push(record(0, 5));
    let report = build(&fens(3), &DepthPlan::every(&[1, 2], 3), &records, 0);
    assert_eq!(report.consistency.rom_images.len(), 2);
    assert_eq!(report.consistency.fen_mismatches.len(), 1);
    assert_eq!(report.coverage.unexpected.len(), 2);
    assert_eq!(
        report.problems,
        [
            "2 records not part of this run",
            "2 ROM images mixed",
            "1 record whose FEN differs from the input's"
        ]
    );
    let text = report.to_text();
    assert!(
        text.contains(&format!("ROM image: sargon {}", "bb".repeat(32))),
        "{text}"
    );
}

#[test]
fn divergences_are_listed_with_their_first_event() {
    let mut records = complete(2);
    records[3].verdict = Verdict::Diverge;
    records[3].divergence = Some(DivergenceRecord {
        event: 42,
        left: Some(serde_json::json!({"event": "eval", "score": 1})),
        right: Some(serde_json::json!({"event": "eval", "score": 2})),
        path: Some(vec!["e2e4".into()]),
    });
    let report = build(&fens(2), &DepthPlan::every(&[1, 2], 2), &records, 0);
    assert!(!report.ok);
    assert_eq!(report.problems, ["1 divergence"]);
    assert_eq!(report.divergences.len(), 1);
    assert_eq!(report.by_depth[1].divergences, 1);
    let text = report.to_text();
    assert!(
        text.contains("DIVERGENCE in position 1 (fen 1) at depth 2, event #42:"),
        "{text}"
    );
    assert!(text.contains("path:    e2e4"), "{text}");
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["divergences"][0]["event"], 42);
    assert_eq!(json["summary"]["divergences"], 1);
}
