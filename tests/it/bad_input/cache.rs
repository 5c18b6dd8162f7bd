//! The cache of the original's traces (`diff --cache-dir`, `cache info`, `cache clear`) with
//! a person's files in its directory, a directory that is a file or cannot be written, and a
//! hostile path (issue 32, items 1, 14, 15 and 18). The cache touches only what it wrote:
//! its subdirectory `sargon-trace-cache`, the marker in it, and the entries it kept.

use std::fs;
use std::path::{Path, PathBuf};

use super::{refused, sargon, Run};

/// `args`, then `--cache-dir dir`.
fn with_dir(args: &[&str], dir: &Path) -> Run {
    let mut all = args.to_vec();
    all.extend_from_slice(&["--cache-dir", dir.to_str().unwrap()]);
    sargon(&all)
}

/// The run succeeded, with no panic; its stderr.
fn ok(run: &Run) -> &str {
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    &run.stderr
}

/// A person's files in a would-be cache directory: a trace of their own, a file named as
/// an entry of the cache but that is none, and 2 MB named `*.trace`.
fn persons_files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    fs::create_dir_all(dir).unwrap();
    let trace = sargon(&["trace", "startpos", "--no-book", "--depth", "2"]);
    assert_eq!(trace.code, Some(0), "{}", trace.stderr);
    let files = vec![
        (dir.join("my.trace"), trace.stdout.into_bytes()),
        (
            dir.join(format!("{}.trace", "ab".repeat(32))),
            b"my notes\n".to_vec(),
        ),
        (dir.join("big.trace"), vec![b'x'; 2_000_000]),
    ];
    for (path, bytes) in &files {
        fs::write(path, bytes).unwrap();
    }
    files
}

fn unchanged(files: &[(PathBuf, Vec<u8>)]) {
    for (path, bytes) in files {
        let now = fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(&now == bytes, "{} was changed", path.display());
    }
}

/// Item 1: `cache clear` removed every `*.trace` of the directory and `cache info` counted
/// them as searches.
#[test]
fn cache_clear_and_info_leave_a_persons_files_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("d");
    let mine = persons_files(&dir);
    let run = with_dir(&["cache", "info"], &dir);
    ok(&run);
    assert!(
        run.stdout.contains("0 searches of the original, 0.0 MB"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("3 other files or directories in ")
            && run
                .stdout
                .contains("are not the cache's: sargon leaves them alone"),
        "{}",
        run.stdout
    );
    let run = with_dir(&["cache", "clear"], &dir);
    ok(&run);
    assert!(run.stdout.contains("removed 0 searches"), "{}", run.stdout);
    assert!(run.stdout.contains("3 other files"), "{}", run.stdout);
    unchanged(&mine);
    assert_eq!(
        fs::read_dir(&dir).unwrap().count(),
        3,
        "nothing made either"
    );
}

/// Item 1 with the original: the size limit removed a person's 2 MB, and an earlier
/// sargon's entries (at the top of the directory) are moved in and read, not lost.
#[test]
fn diff_and_its_size_limit_never_touch_a_persons_files() {
    let test = "diff_and_its_size_limit_never_touch_a_persons_files";
    if crate::common::rom(test).is_none() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("d");
    let mine = persons_files(&dir);
    let epd = tmp.path().join("p.epd");
    fs::write(
        &epd,
        "startpos\nr1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3\n",
    )
    .unwrap();
    let epd = epd.to_str().unwrap();
    let args = ["diff", "--epd", epd, "--depth", "1", "--no-book"];
    let limited = [&args[..], &["--cache-limit", "1"]].concat();
    let err = ok(&with_dir(&limited, &dir)).to_string();
    assert!(
        err.contains("0 read from the cache, 2 searched and kept"),
        "{err}"
    );
    unchanged(&mine);
    let run = with_dir(&["cache", "info"], &dir);
    assert!(
        run.stdout.contains("2 searches of the original"),
        "{}",
        run.stdout
    );

    // The layout before the cache's subdirectory: entries at the top.
    let own = dir.join("sargon-trace-cache");
    for entry in fs::read_dir(&own).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "trace") {
            fs::rename(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
    }
    fs::remove_dir_all(&own).unwrap();
    let run = with_dir(&["cache", "info"], &dir);
    assert!(
        run.stdout.contains("2 searches of the original")
            && run.stdout.contains("2 of them kept by an earlier sargon"),
        "{}",
        run.stdout
    );
    let err = ok(&with_dir(&args, &dir)).to_string();
    assert!(err.contains("2 read from the cache, 0 searched"), "{err}");
    unchanged(&mine);

    let run = with_dir(&["cache", "clear"], &dir);
    assert!(run.stdout.contains("removed 2 searches"), "{}", run.stdout);
    unchanged(&mine);
}

/// Item 14: a directory that is a file said "File exists (os error 17): File exists (os
/// error 17)"; a path with an escape or of 100 KB was echoed raw and whole.
#[test]
fn a_cache_directory_that_is_a_file_is_not_a_directory_and_paths_are_quoted() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("f");
    fs::write(&file, "mine").unwrap();
    let f = file.to_str().unwrap();
    for command in ["info", "clear"] {
        let line = refused(
            &["cache", command, "--cache-dir", f],
            1,
            &["as the trace cache: it is a file, not a directory"],
        );
        assert!(!line.contains("File exists"), "{line}");
    }
    let hostile = format!("{f}/a\u{1b}[2J{}", "x".repeat(100_000));
    for command in ["info", "clear"] {
        let line = refused(
            &["cache", command, "--cache-dir", &hostile],
            1,
            &[
                "\\u{1b}[2J",
                "more characters) as the trace cache",
                "is a file",
            ],
        );
        assert!(!line.contains('\u{1b}') && line.len() < 1000, "{line}");
    }
    // A path that is no cache yet is quoted too, on stdout.
    let missing = format!("{}/a\u{1b}[2J{}", tmp.path().display(), "y".repeat(100_000));
    let run = sargon(&["cache", "info", "--cache-dir", &missing]);
    ok(&run);
    assert!(
        run.stdout.contains("\\u{1b}[2J") && !run.stdout.contains('\u{1b}'),
        "{}",
        run.stdout
    );
    assert!(run.stdout.len() < 1000, "{} bytes", run.stdout.len());
    assert_eq!(fs::read_to_string(&file).unwrap(), "mine");

    // diff, the one command that keeps traces (with the original only).
    let test = "a_cache_directory_that_is_a_file_is_not_a_directory_and_paths_are_quoted";
    if crate::common::rom(test).is_none() {
        return;
    }
    let line = refused(
        &["diff", "startpos", "-d", "1", "--cache-dir", f],
        2,
        &["as the trace cache: it is a file, not a directory"],
    );
    assert!(!line.contains("os error"), "{line}");
    let odd = tmp.path().join("a\u{1b}[2Jb");
    let run = with_dir(&["diff", "startpos", "-d", "1", "--no-book"], &odd);
    let err = ok(&run);
    assert!(
        err.contains("searched and kept") && err.contains("a\\u{1b}[2Jb)"),
        "{err}"
    );
    assert!(!err.contains('\u{1b}'), "{err}");
}

/// A `diff` at depths 1-2 of two positions (four searches) with the cache in `dir`: it
/// must finish, say once that the cache cannot be written, and count what it did not keep.
fn said_once_and_not_kept(dir: &Path, why: &str) {
    let italian = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";
    let run = with_dir(
        &["diff", "startpos", italian, "--depths", "1-2", "--no-book"],
        dir,
    );
    let err = ok(&run);
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning:")).collect();
    assert_eq!(warnings.len(), 1, "said once: {err}");
    assert!(
        warnings[0].contains("the cache of the original's traces cannot be written")
            && warnings[0].contains(why),
        "{err}"
    );
    assert!(warnings[0].matches("os error").count() <= 1, "{err}");
    assert!(
        err.contains("4 searched but not kept, as the cache cannot be written"),
        "{err}"
    );
    assert!(run.stdout.contains("searches: 4"), "{}", run.stdout);
}

/// Item 15: a read-only or full cache kept nothing and said "0 searched and kept". Root
/// ignores permissions, so a directory nobody can write in (`/proc`) is the case every
/// user gets; a read-only directory and a read-only cache are tried where permissions
/// hold.
#[test]
fn a_cache_that_cannot_be_written_is_said_once_and_why() {
    let test = "a_cache_that_cannot_be_written_is_said_once_and_why";
    if crate::common::rom(test).is_none() {
        return;
    }
    if Path::new("/proc/self").is_dir() {
        said_once_and_not_kept(Path::new("/proc"), "cannot make /proc/sargon-trace-cache");
    } else {
        eprintln!("{test}: skipped the /proc case: no /proc here");
    }

    let tmp = tempfile::tempdir().unwrap();
    let locked = tmp.path().join("locked");
    fs::create_dir(&locked).unwrap();
    let set_mode = |path: &Path, mode: u32| {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
    };
    set_mode(&locked, 0o555);
    if fs::write(locked.join("probe"), "").is_ok() {
        eprintln!(
            "{test}: skipped the read-only cases: this user writes in a read-only \
             directory (root ignores permissions)"
        );
        return;
    }
    said_once_and_not_kept(&locked, "Permission denied");
    // A cache that was filled, then made read-only: read from, and said.
    let filled = tmp.path().join("filled");
    ok(&with_dir(
        &["diff", "startpos", "-d", "1", "--no-book"],
        &filled,
    ));
    set_mode(&filled.join("sargon-trace-cache"), 0o555);
    let run = with_dir(
        &["diff", "startpos", "--depths", "1-2", "--no-book"],
        &filled,
    );
    let err = ok(&run);
    assert!(
        err.contains("1 read from the cache, 0 searched and kept, 1 searched but not kept"),
        "{err}"
    );
    assert_eq!(err.matches("warning:").count(), 1, "{err}");
    set_mode(&filled.join("sargon-trace-cache"), 0o755);
    set_mode(&locked, 0o755);
}

/// Item 18: `cache clear` without a directory suggested `--no-cache`, which it lacks.
#[test]
fn without_a_cache_directory_the_options_suggested_exist() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sargon"))
        .args(["cache", "clear"])
        .env_remove("SARGON_CACHE")
        .env_remove("XDG_CACHE_HOME")
        .env_remove("HOME")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: no trace cache directory: give --cache-dir"),
        "{err}"
    );
    assert!(!err.contains("--no-cache"), "{err}");
}
