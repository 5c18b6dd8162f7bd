//! Issue 34's doc examples: every public entry point of sargon-core, sargon-port,
//! sargon-original and sargon-referee has a runnable example that calls it and asserts
//! (none `no_run`: those that need the original run where a ROM is imported), as
//! `scripts/doctest-coverage.py` counts them from the source. python3 runs the repository's
//! scripts; without it this test fails rather than skip.

use std::process::Command;

#[test]
fn every_public_entry_point_of_the_four_crates_has_an_asserting_example() {
    let out = Command::new("python3")
        .arg("scripts/doctest-coverage.py")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("python3 runs scripts/doctest-coverage.py");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    // One summary line per crate: `CRATE: N asserting doc examples; entry points: E,
    // covered C, no_run R, missing M`, then a line for each entry point not covered.
    let summaries: Vec<&str> = text.lines().filter(|l| !l.starts_with(' ')).collect();
    assert_eq!(summaries.len(), 4, "{text}");
    let mut asserting = 0;
    for line in summaries {
        let number_before = |word: &str| -> usize {
            let head = &line[..line.find(word).unwrap_or_else(|| panic!("{word}? {line}"))];
            head.trim_end()
                .rsplit([' ', ','])
                .next()
                .unwrap()
                .parse()
                .unwrap()
        };
        asserting += number_before(" asserting doc examples");
        assert!(
            line.ends_with("no_run 0, missing 0"),
            "entry points without a runnable asserting example:\n{text}"
        );
    }
    assert!(
        asserting >= 30,
        "{asserting} asserting doc examples:\n{text}"
    );
}
