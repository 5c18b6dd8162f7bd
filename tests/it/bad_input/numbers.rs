//! Numbers (issue 32, items 7, 8, 12 and 17): every numeric option of every command states
//! the range it takes when it refuses a value, negative numbers included (no "use -- -1"
//! tip); counts where 0 makes no sense are refused (`play --max-moves 0`); `--jobs` has one
//! rule everywhere and a run never starts more workers than it has work or cores; and
//! `diff --state --state-skip` takes only names of Sargon's data, adds them to the
//! defaults, and compares everything with `none`.

use super::{refused, sargon};

use crate::common;

/// A one-position EPD file.
fn one_position() -> tempfile::NamedTempFile {
    let f = tempfile::Builder::new().suffix(".epd").tempfile().unwrap();
    std::fs::write(f.path(), "startpos\n").unwrap();
    f
}

#[test]
fn every_numeric_option_states_its_range() {
    let epd = one_position();
    let epd = epd.path().to_str().unwrap();
    let pgn = tempfile::Builder::new().suffix(".pgn").tempfile().unwrap();
    std::fs::write(pgn.path(), "1. e4 e5 *\n").unwrap();
    let pgn = pgn.path().to_str().unwrap();
    let huge = "99999999999999999999999";
    // (the command line without the option, the option, a bad value, the range said)
    let cases: &[(&[&str], &str, &str, &str)] = &[
        (&["analyze", "--epd", epd], "--jobs", "-1", "from 1 to 1024"),
        (&["analyze", "--epd", epd], "--jobs", "0", "from 1 to 1024"),
        (&["analyze", "--epd", epd], "--jobs", huge, "from 1 to 1024"),
        (
            &["analyze", "startpos"],
            "--book-random",
            "256",
            "from 0 to 255",
        ),
        (
            &["analyze", "startpos"],
            "--book-random",
            "-1",
            "from 0 to 255",
        ),
        (
            &["emulator", "crosscheck", epd],
            "--jobs",
            "0",
            "from 1 to 1024",
        ),
        (
            &["emulator", "crosscheck", epd],
            "--jobs",
            "100000",
            "from 1 to 1024",
        ),
        (&["serve"], "--jobs", "0", "from 1 to 1024"),
        (&["serve"], "--jobs", "-1", "from 1 to 1024"),
        (&["serve"], "--port", "70000", "from 0 to 65535"),
        (&["serve"], "--keep-nodes", "0", "from 1 to 50000000"),
        (
            &["play", "--opponent", "sargon"],
            "--max-moves",
            "0",
            "from 1 to 10000",
        ),
        (
            &["play", "--opponent", "sargon"],
            "--games",
            "0",
            "from 1 to 1000000",
        ),
        (
            &["play", "--opponent", "sargon"],
            "--games",
            huge,
            "from 1 to 1000000",
        ),
        (
            &["play", "--opponent", "sargon"],
            "--movetime",
            "0",
            "from 1 to 86400000",
        ),
        (
            &["play", "--opponent", "sargon"],
            "--opponent-movetime",
            "-5",
            "from 1 to 86400000",
        ),
        (
            &["play", "--opponent", "sargon"],
            "--opponent-depth",
            "0",
            "from 1 to 255",
        ),
        (
            &["play", "--opponent", "sargon"],
            "--opponent-nodes",
            "0",
            "from 1 to 1000000000000",
        ),
        (
            &["play", "--opponent", "sargon"],
            "--move-timeout",
            "1e20",
            "seconds above 0 and at most 604800",
        ),
        (
            &["play", "--opponent", "sargon"],
            "--move-timeout",
            "-1",
            "seconds above 0 and at most 604800",
        ),
        (&["history", "games"], "--games", "0", "from 1 to 1000000"),
        (&["history", "games"], "--max-moves", "0", "from 1 to 10000"),
        (
            &["history", "games"],
            "--seed",
            huge,
            "from 0 to 18446744073709551615",
        ),
        (&["history", "levels"], "--max-level", "-1", "from 1 to 6"),
        (&["models"], "--example", "0", "from 1 to 5"),
        (
            &["diff", "startpos", "--depth", "1"],
            "--first",
            "0",
            "from 1 to 1000000000",
        ),
        (
            &["diff", "startpos", "--depth", "1", "--shard-from-env"],
            "--shards",
            "0",
            "from 1 to 1000000000",
        ),
        (
            &["diff", "startpos", "--depth", "1"],
            "--cache-limit",
            "0",
            "from 1 to 1000000000",
        ),
        (
            &["diff", "startpos", "--depth", "1"],
            "--exec-timeout",
            "1e20",
            "seconds above 0 and at most 604800",
        ),
        (&["bench"], "--emulator-positions", "13", "from 1 to 12"),
        (
            &["tree", "startpos"],
            "--max-nodes",
            "-1",
            "from 0 to 50000000",
        ),
        (&["tree", "startpos"], "--ply", "21", "from 0 to 20"),
        (&["uci"], "--fixed-depth", "21", "from 0 to 20"),
        (
            &["profile", "startpos"],
            "--book-random",
            "300",
            "from 0 to 255",
        ),
    ];
    for (command, option, value, range) in cases {
        let mut args = command.to_vec();
        args.extend([*option, *value]);
        let line = refused(&args, 2, &[&format!("'{option} <"), range]);
        let said = if range.starts_with("seconds") {
            format!("expected a number of {range}, got `{value}`")
        } else {
            format!("expected a whole number {range}, got `{value}`")
        };
        assert!(line.ends_with(&said), "{line}");
        assert!(!line.contains("too large to fit"), "{line}");
    }
    // Depths say both engines' ranges, wherever a depth is taken.
    for args in [
        &["annotate", pgn, "--depth", "0"][..],
        &["play", "--opponent", "sargon", "--depth", "-1"],
        &["analyze", "startpos", "--depth", huge],
    ] {
        refused(args, 2, &["the port 1..=20, the emulator 1..=6"]);
    }
    refused(
        &["diff", "startpos", "--depths", "1-99999"],
        2,
        &[
            "bad depth range `1-99999`",
            "the port 1..=20, the emulator 1..=6",
        ],
    );
    // Numbers inside a value: a shard K/N, levels A-B.
    refused(
        &["diff", "startpos", "--depth", "1", "--shard", "-1/4"],
        2,
        &["bad shard `-1/4`: K, the shard (numbered from 0): expected a whole number from 0 to 3, got `-1`"],
    );
    refused(
        &[
            "diff",
            "startpos",
            "--depth",
            "1",
            "--shard",
            "0/99999999999999999999",
        ],
        2,
        &["N, the number of shards: expected a whole number from 1 to 1000000000"],
    );
    refused(
        &["history", "games", "--levels", "-1"],
        2,
        &["expected a level N or levels A-B with 1 <= A <= B <= 6, got `-1`"],
    );
    // Sargon as the opponent: the same ranges in `sargon:KEY=VALUE`.
    refused(
        &["play", "--opponent", "sargon:movetime=0", "--games", "1"],
        1,
        &["--opponent: movetime: expected a whole number from 1 to 86400000, got `0`"],
    );
    refused(
        &["play", "--opponent", "sargon:nodes=-3", "--games", "1"],
        1,
        &["--opponent: nodes: expected a whole number from 1 to 1000000000000, got `-3`"],
    );
}

#[test]
fn play_refuses_zero_moves_before_any_game() {
    // It used to score two empty games as draws, exit 0.
    let run = sargon(&[
        "play",
        "--opponent",
        "sargon:depth=1",
        "--depth",
        "1",
        "--games",
        "2",
        "--max-moves",
        "0",
    ]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(
        run.stderr
            .contains("expected a whole number from 1 to 10000, got `0`"),
        "{}",
        run.stderr
    );
}

#[test]
fn workers_are_capped_at_the_work_and_the_cores() {
    let epd = one_position();
    let epd = epd.path().to_str().unwrap();
    let run = sargon(&["analyze", "--epd", epd, "--depth", "1", "--jobs", "1000"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("note: --jobs 1000: 1 worker (1 to do, "),
        "{}",
        run.stderr
    );
    // The crosscheck started every thread it was asked for (1000: seconds and 87 MB
    // before any work; 100000: no summary within a minute).
    let test = "workers_are_capped_at_the_work_and_the_cores";
    if common::rom(test).is_none() {
        return;
    }
    let run = sargon(&[
        "emulator",
        "crosscheck",
        epd,
        "--depths",
        "1-1",
        "--jobs",
        "1000",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("note: --jobs 1000: 1 worker (1 to do, "),
        "{}",
        run.stderr
    );
    assert!(run.seconds < 5.0, "{:.1} s", run.seconds);
}

/// `diff --state` of the port against itself, with `--state-skip` values.
fn state_skip(values: &[&str]) -> super::Run {
    let mut args = vec![
        "diff", "--left", "port", "--right", "port", "--state", "startpos", "--depth", "1",
    ];
    for v in values {
        args.extend(["--state-skip", v]);
    }
    sargon(&args)
}

#[test]
fn state_skip_takes_only_names_of_sargons_data() {
    for (values, needles) in [
        (
            &["NOSUCHCELL"][..],
            &["--state-skip `NOSUCHCELL`: no cell, variable or area"][..],
        ),
        (&["VALM,NOSUCHCELL"], &["`NOSUCHCELL`"]),
        (&[""], &["an empty name", "--state-skip none"]),
        (&["none,VALM"], &["give it alone"]),
        (&["\u{1b}[31mX"], &["`\\u{1b}[31mX`"]),
    ] {
        let run = state_skip(values);
        assert_eq!(run.code, Some(2), "{values:?}: {}", run.stderr);
        let lines = super::message_lines(&run.stderr);
        assert_eq!(lines.len(), 1, "{values:?}: {}", run.stderr);
        assert!(lines[0].starts_with("error: "), "{}", lines[0]);
        for needle in needles {
            assert!(lines[0].contains(needle), "{needle}: {}", lines[0]);
        }
        assert!(!run.stderr.contains('\u{1b}'), "{:?}", run.stderr);
        assert!(!run.stdout.contains("state:"), "{}", run.stdout);
    }
    // 100 KB of a name: quoted cut, not echoed whole.
    let long = "X".repeat(100_000);
    let run = state_skip(&[&long]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.len() < 1000, "{} bytes", run.stderr.len());
    assert!(run.stderr.contains("more characters)"), "{}", run.stderr);
    // Names add to the defaults; `none` leaves nothing out.
    let run = state_skip(&["VALM"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stdout.contains("(left out: PLYIX+32, ") && run.stdout.contains("PLYIX+39, VALM)"),
        "{}",
        run.stdout
    );
    let run = state_skip(&["none"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.contains("(nothing left out)"), "{}", run.stdout);
}

#[test]
fn state_comparison_counts_and_marks_what_it_compared() {
    let test = "state_comparison_counts_and_marks_what_it_compared";
    let Some(rom) = common::rom(test) else {
        return;
    };
    // A name given adds to the defaults: the ply table's last bytes (the original's display
    // data) stay left out, and nothing differs.
    let run = sargon(&[
        "diff",
        "--state",
        "--state-skip",
        "VALM",
        "startpos",
        "--depth",
        "1",
        "--no-book",
    ]);
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains(", 0 with a difference"),
        "{}",
        run.stdout
    );
    // Everything compared: they differ at the first snapshot, which counts as compared.
    let run = sargon(&[
        "diff",
        "--state",
        "--state-skip",
        "none",
        "startpos",
        "--depth",
        "1",
        "--no-book",
    ]);
    assert_eq!(run.code, Some(1), "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains(" 1 snapshots of "), "{}", run.stdout);
    assert!(run.stdout.contains("1 with a difference"), "{}", run.stdout);
    assert!(!run.stdout.contains(" 0 snapshots"), "{}", run.stdout);
    // A changed image is marked on stdout, as the event comparison marks it.
    let dir = tempfile::tempdir().unwrap();
    let store = common::store_with_changed_pvalue(&rom, dir.path(), "changed");
    let run = sargon(&[
        "--roms",
        &store,
        "diff",
        "--state",
        "--rom",
        "changed",
        "startpos",
        "--depth",
        "1",
        "--no-book",
    ]);
    assert!(
        run.stdout.contains("ROM `changed` is NOT VERIFIED"),
        "{}{}",
        run.stdout,
        run.stderr
    );
}

/// `--rom` where no emulator searches was ignored (`analyze --rom X` ran the port): it is
/// refused, as `--core` is, before any work.
#[test]
fn a_rom_is_refused_where_no_emulator_searches() {
    for args in [
        &["analyze", "startpos", "--rom", "mine", "--depth", "1"][..],
        &[
            "trace", "startpos", "--engine", "port", "--rom", "mine", "--depth", "1",
        ][..],
        &[
            "tree",
            "startpos",
            "--engine",
            "exec:true",
            "--rom",
            "mine",
            "--depth",
            "1",
        ][..],
    ] {
        refused(args, 1, &["--rom mine names a ROM for the emulator"]);
    }
    // diff's errors exit 2 (1 is a divergence).
    refused(
        &[
            "diff", "startpos", "--left", "port", "--right", "port", "--rom", "mine", "-d", "1",
        ],
        2,
        &["--rom mine names a ROM for the emulator, and neither side is the emulator"],
    );
}
