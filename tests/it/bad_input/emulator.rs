//! The emulator's area of issue 32 (round three): a runaway image stops within seconds at
//! every depth and in every command, and `rom coverage` honours or refuses its options.
//! The tests that need the original use the ROM gate (they print whether they ran).

use crate::common;

use super::{refused, sargon};

/// A runaway is stopped within seconds; this is a bound for a loaded machine and a debug
/// build, not a benchmark (the depth's whole budget took minutes at depth 3 and hours at
/// depth 6).
const RUNAWAY_SECONDS: f64 = 30.0;

/// Every command that runs the original, at depths 3 and 6, on an image whose search
/// never returns, stops with the runaway error (exit 1, no panic) within seconds.
#[test]
fn a_runaway_image_stops_within_seconds_at_every_depth_and_in_every_command() {
    let test = "a_runaway_image_stops_within_seconds_at_every_depth_and_in_every_command";
    let Some(rom) = common::rom(test) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let store = common::store_with_runaway_image(&rom, dir.path(), "loops");
    let epd = dir.path().join("one.epd");
    std::fs::write(&epd, "4k3/8/8/8/8/8/4P3/4K3 w - -\n").unwrap();
    let epd = epd.to_str().unwrap();
    let on = ["--engine", "emulator", "--rom", "loops"];
    let runs: Vec<Vec<&str>> = vec![
        [&["analyze", "startpos", "--depth", "3"][..], &on].concat(),
        [&["analyze", "startpos", "--depth", "6"][..], &on].concat(),
        [&["trace", "startpos", "--no-book", "--depth", "6"][..], &on].concat(),
        [&["tree", "startpos", "--no-book", "--depth", "4"][..], &on].concat(),
        [&["models"][..], &on].concat(),
        [&["models", "--example", "5"][..], &on].concat(),
        vec![
            "diff",
            "--left",
            "port",
            "--right",
            "emulator",
            "--rom",
            "loops",
            "--epd",
            epd,
            "--depths",
            "6-6",
            "--no-cache",
        ],
    ];
    for args in runs {
        let args = [&["--roms", store.as_str()][..], &args].concat();
        let run = sargon(&args);
        let shown = format!("sargon {}: {}", args.join(" "), run.stderr);
        assert_eq!(run.code, Some(1), "{shown}");
        assert!(!run.stderr.contains("panicked"), "{shown}");
        // `diff` reports a failed search on stdout, as its other results.
        let said = format!("{}{}", run.stdout, run.stderr);
        assert!(
            said.contains("runaway emulation: no return from FNDMOV")
                && said.contains("without reaching any hook point"),
            "{shown}\n{}",
            run.stdout
        );
        assert!(
            run.seconds < RUNAWAY_SECONDS,
            "{shown}: stopped after {:.1} s",
            run.seconds
        );
        eprintln!(
            "sargon {}: stopped after {:.1} s",
            args.join(" "),
            run.seconds
        );
    }
}

/// `rom coverage` with `verify` or `golden` honours `--depths` (only the searches of those
/// depths run) and refuses `--book` (their searches set the book each) and depths none
/// of them has, before any work.
#[test]
fn rom_coverage_honours_or_refuses_its_options() {
    let test = "rom_coverage_honours_or_refuses_its_options";
    if common::rom(test).is_none() {
        return;
    }
    refused(
        &["rom", "coverage", "--corpus", "golden", "--book"],
        1,
        &["--book is for an EPD file", "`golden`"],
    );
    refused(
        &["rom", "coverage", "--corpus", "verify", "--depths", "4-5"],
        1,
        &["`verify` searches have none at depths 4,5", "1,2,3"],
    );
    refused(
        &["rom", "coverage", "--corpus", "golden", "--depths", "7"],
        1,
        &["depth 7 is beyond the original's limit of 6"],
    );
    let depth_one = sargon_referee::verify::Scope::Quick
        .cases()
        .iter()
        .filter(|c| c.depth == 1)
        .count();
    let run = sargon(&["rom", "coverage", "--corpus", "verify", "--depths", "1-1"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stdout.contains(&format!(
            "by {depth_one} searches (the golden searches of depths 1-2, the five models and three games, those of depths 1)"
        )),
        "{}",
        run.stdout
    );
}

/// A changed entry of the opening book is named by the book's label, not by PLIST, whose
/// value (a displacement into the table window, `(IX+PLIST)`) happens to be an address in
/// the middle of the book.
#[test]
fn a_changed_book_entry_is_named_by_the_book() {
    let test = "a_changed_book_entry_is_named_by_the_book";
    let Some(rom) = common::rom(test) else {
        return;
    };
    let source = common::known_source(&rom);
    let mut lines: Vec<String> = source.lines().map(str::to_string).collect();
    let book = common::source_edit::line_of_label(&lines, "BMOVES");
    // The book's third move (its bytes lie past PLIST's value): its from-square one more.
    let db: Vec<usize> = (book..lines.len())
        .filter(|&i| {
            common::source_edit::instruction_tokens(&lines[i])
                .first()
                .is_some_and(|t| t.eq_ignore_ascii_case("DB"))
        })
        .take(3)
        .collect();
    let line = lines[db[2]].clone();
    let upper = line.to_ascii_uppercase();
    let at = upper.find("DB").unwrap() + 2;
    let first = line[at..].split(',').next().unwrap();
    let value: i32 = first.trim().parse().expect("a decimal square");
    lines[db[2]] = format!(
        "{}{}{}",
        &line[..at],
        first.replacen(first.trim(), &(value + 1).to_string(), 1),
        &line[at + first.len()..]
    );
    let dir = tempfile::tempdir().unwrap();
    let (_, report) = common::import_unverified(dir.path(), &(lines.join("\n") + "\n"), "book");
    let data = report
        .lines()
        .find(|l| l.starts_with("data that differs"))
        .unwrap_or_else(|| panic!("a changed data line in {report}"));
    assert!(data.contains("BMOVES"), "{data}");
    assert!(!report.contains("PLIST"), "{report}");
}

/// A runaway image (FNDMOV made a jump to itself) reaches none of the search's code after
/// its loop; that code is still the code the search normally runs, not an allowed
/// difference, and no data difference is allowed on reads the cut-short check never made.
#[test]
fn a_runaway_image_allows_no_difference_where_the_search_normally_runs() {
    let test = "a_runaway_image_allows_no_difference_where_the_search_normally_runs";
    let Some(rom) = common::rom(test) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    common::store_with_runaway_image(&rom, dir.path(), "loops");
    let report = std::fs::read_to_string(dir.path().join("store/loops/rom.json")).unwrap();
    let run = sargon(&[
        "--roms",
        dir.path().join("store").to_str().unwrap(),
        "rom",
        "verify",
        "loops",
    ]);
    let shown = format!("{}{}\n{report}", run.stdout, run.stderr);
    assert!(run.stdout.contains("runaway emulation"), "{shown}");
    assert!(!run.stdout.contains("(allowed)"), "{shown}");
    assert!(!report.contains("(allowed)"), "{shown}");
    let code = run
        .stdout
        .lines()
        .find(|l| l.starts_with("code that differs"))
        .unwrap_or_else(|| panic!("a changed code line in {shown}"));
    for name in ["FNDMOV", "FM5", "FM37"] {
        assert!(code.contains(name), "{name} in {code}");
    }
}
