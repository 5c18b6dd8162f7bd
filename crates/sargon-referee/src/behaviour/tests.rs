//! The known behaviour's table and its check, on the port.

use super::*;

#[test]
fn the_committed_table_parses_and_round_trips() {
    let cases = known_cases();
    assert_eq!(table(&cases), TABLE);
}

#[test]
fn bad_lines_are_named() {
    let err = parse("search\tx\t1\tmaybe\t1\taa\tresult\tstartpos\n").unwrap_err();
    assert!(err.to_string().contains("maybe"), "{err}");
    assert!(matches!(
        parse("search\tx\n"),
        Err(TableError::Fields { line: 1, fields: 2 })
    ));
    let err = parse("search\tx\tdeep\tbook\t1\taa\tresult\tstartpos\n").unwrap_err();
    assert!(matches!(err, TableError::Number { line: 1, .. }), "{err:?}");
    assert_eq!(
        sargon_core::causes::with_causes(&err),
        "line 1: invalid digit found in string"
    );
}

/// A case whose digest is deliberately wrong differs, and the port (as the engine
/// under test) then agrees with itself, which is reported as a stale table.
#[test]
fn a_wrong_digest_is_a_difference() {
    let mut case = record_case(
        &mut sargon_port::Port::new(),
        "e4",
        1,
        Replay::Search {
            position: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into(),
            book: false,
            book_random: 0,
        },
    )
    .unwrap();
    let make =
        || -> Result<Box<dyn Engine + Send>, OpenError> { Ok(Box::new(sargon_port::Port::new())) };
    let same = check(std::slice::from_ref(&case), &make, 1, &|_| {}).unwrap();
    assert!(same.alike());
    case.sha256 = "00".repeat(32);
    let report = check(&[case], &make, 1, &|_| {}).unwrap();
    assert_eq!(report.differing.as_deref(), Some("e4.d1"));
    let first = report.first.unwrap();
    assert!(first.failure.unwrap().contains("out of date"));
}

/// The check stops at the first case that differs: the cases before it have all run,
/// the ones after it are not run, whatever the two workers were doing when it was found.
#[test]
fn the_check_stops_at_the_first_case_that_differs() {
    // Single searches (a game reports progress once per search of it).
    let mut cases: Vec<Case> = known_cases()
        .into_iter()
        .filter(|c| c.quick() && matches!(c.replay, Replay::Search { .. }))
        .collect();
    cases.truncate(8);
    let make =
        || -> Result<Box<dyn Engine + Send>, OpenError> { Ok(Box::new(sargon_port::Port::new())) };
    // The third and the sixth differ; only the third is reported.
    cases[2].sha256 = "00".repeat(32);
    cases[5].sha256 = "00".repeat(32);
    let label = format!("{}.d{}", cases[2].label, cases[2].depth);
    for _ in 0..3 {
        let ran = AtomicUsize::new(0);
        let report = check(&cases, &make, 2, &|_| {
            ran.fetch_add(1, Ordering::Relaxed);
        })
        .unwrap();
        assert_eq!(report.differing.as_ref(), Some(&label));
        assert_eq!((report.searches, report.not_run), (3, 5));
        assert!(!report.failed);
        // Run: the three, and at most the one the other worker had under way.
        assert!(ran.into_inner() <= 4);
    }
}
