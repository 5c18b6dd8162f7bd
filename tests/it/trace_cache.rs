//! The cache of the original's traces (`sargon diff`, `sargon cache`): a rerun reads the
//! original's side instead of searching it, and a changed image or position never meets an
//! entry made for another.

use crate::common;

use std::path::Path;

const ITALIAN: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = common::sargon(args);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// `sargon diff ARGS --cache-dir DIR`.
fn diff(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let mut all = vec!["diff", "--cache-dir", dir.to_str().unwrap()];
    all.extend_from_slice(args);
    run(&all)
}

/// The entries the cache kept in `dir` (in its own subdirectory).
fn entries(dir: &Path) -> usize {
    std::fs::read_dir(dir.join("sargon-trace-cache")).map_or(0, |d| {
        d.filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "trace")
        })
        .count()
    })
}

#[test]
fn a_rerun_reads_the_originals_traces_from_the_cache() {
    if common::rom("a_rerun_reads_the_originals_traces_from_the_cache").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let args = ["startpos", ITALIAN, "--depths", "1-2", "--no-book"];
    let (code, first, err) = diff(&cache, &args);
    assert_eq!(code, Some(0), "{first}{err}");
    assert!(
        err.contains("the original's traces: 0 read from the cache, 4 searched and kept"),
        "{err}"
    );
    assert_eq!(entries(&cache), 4);
    let (code, again, err) = diff(&cache, &args);
    assert_eq!(code, Some(0), "{again}{err}");
    assert!(
        err.contains("the original's traces: 4 read from the cache, 0 searched and kept"),
        "{err}"
    );
    assert_eq!(again, first, "the same comparison, the same summary");
    // The records say which side was read, and keep the emulator's instruction count.
    let out = dir.path().join("run.jsonl");
    let (code, _, err) = diff(
        &cache,
        &[
            "startpos",
            "-d",
            "2",
            "--no-book",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let record: serde_json::Value =
        // The last line (the first is the run's plan).
        serde_json::from_str(std::fs::read_to_string(&out).unwrap().lines().last().unwrap()).unwrap();
    assert_eq!(record["left"]["cached"], true, "{record}");
    assert!(record["left"]["z80_instructions"].as_u64().unwrap() > 0);
    assert!(record["right"].get("cached").is_none(), "{record}");

    // Another position or depth is searched, not read.
    let (_, _, err) = diff(&cache, &["startpos", "-d", "3", "--no-book"]);
    assert!(err.contains("0 read from the cache, 1 searched"), "{err}");
    // --no-cache neither reads nor keeps.
    let (code, _, err) = diff(&cache, &["startpos", "-d", "1", "--no-book", "--no-cache"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("the original's traces"), "{err}");

    // sargon cache info and clear.
    let (code, info, _) = run(&["cache", "info", "--cache-dir", cache.to_str().unwrap()]);
    assert_eq!(code, Some(0));
    assert!(info.contains("5 searches of the original"), "{info}");
    let (code, cleared, _) = run(&["cache", "clear", "--cache-dir", cache.to_str().unwrap()]);
    assert_eq!(code, Some(0));
    assert!(cleared.contains("removed 5 searches"), "{cleared}");
    assert_eq!(entries(&cache), 0);
}

#[test]
fn a_changed_image_never_meets_the_known_images_traces() {
    let test = "a_changed_image_never_meets_the_known_images_traces";
    let Some(rom) = common::rom(test) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    // The known image's traces, kept.
    let (code, _, err) = diff(&cache, &[ITALIAN, "-d", "2"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("1 searched and kept"), "{err}");

    // The user's transcription with the pawn's value changed, in a store of its own.
    let store = common::store_with_changed_pvalue(&rom, dir.path(), "sargon");
    let store = store.as_str();
    // Same name, same position, same depth: only the image differs. It is searched, and
    // it parts from the port, as it does without a cache.
    let changed = |extra: &[&str]| {
        let mut args = vec![
            "--roms",
            store,
            "diff",
            "--cache-dir",
            cache.to_str().unwrap(),
        ];
        args.extend_from_slice(&[ITALIAN, "-d", "2"]);
        args.extend_from_slice(extra);
        run(&args)
    };
    let (code, out, err) = changed(&[]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("DIVERGENCE"), "{out}");
    assert!(err.contains("0 read from the cache"), "{err}");
    let (_, uncached, _) = changed(&["--no-cache"]);
    assert_eq!(out, uncached, "the cache changes nothing in what is found");

    // The known image still reads its own.
    let (code, _, err) = diff(&cache, &[ITALIAN, "-d", "2"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("1 read from the cache"), "{err}");
}

#[test]
fn a_damaged_entry_is_searched_again_and_said() {
    if common::rom("a_damaged_entry_is_searched_again_and_said").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let args = ["startpos", "-d", "2", "--no-book"];
    let (code, first, err) = diff(&cache, &args);
    assert_eq!(code, Some(0), "{err}");
    let entry = std::fs::read_dir(cache.join("sargon-trace-cache"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "trace"))
        .unwrap();
    let mut bytes = std::fs::read(&entry).unwrap();
    let at = bytes.len() - 30;
    bytes[at] ^= 0x40;
    std::fs::write(&entry, &bytes).unwrap();
    let (code, again, err) = diff(&cache, &args);
    assert_eq!(code, Some(0), "{again}{err}");
    assert_eq!(again, first);
    assert!(
        err.contains("0 read from the cache, 1 searched and kept, 1 damaged entries removed"),
        "{err}"
    );
}

#[test]
fn an_exec_port_is_checked_against_the_cached_original() {
    if common::rom("an_exec_port_is_checked_against_the_cached_original").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    // Our own port behind exec: prints its trace (docs/checking-your-port.md).
    let port = format!(
        r#"exec:'{}' trace "$SARGON_FEN" --depth "$SARGON_DEPTH" --format jsonl $([ "$SARGON_BOOK" = 0 ] && echo --no-book)"#,
        env!("CARGO_BIN_EXE_sargon")
    );
    let args = [ITALIAN, "--depths", "1-2", "--right", port.as_str()];
    let (code, out, err) = diff(&cache, &args);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(err.contains("2 searched and kept"), "{err}");
    let (code, again, err) = diff(&cache, &args);
    assert_eq!(code, Some(0), "{again}{err}");
    assert!(err.contains("2 read from the cache, 0 searched"), "{err}");
    assert_eq!(again, out);
}

#[test]
fn the_port_on_the_left_is_never_cached() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let (code, out, err) = diff(
        &cache,
        &["startpos", "-d", "1", "--left", "port", "--right", "port"],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(!err.contains("the original's traces"), "{err}");
    assert_eq!(entries(&cache), 0);
    // Bad limits are refused before anything runs.
    let (code, _, err) = diff(&cache, &["startpos", "-d", "1", "--cache-limit", "0"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--cache-limit"), "{err}");
}

/// A port author's loop: the first run diverges (here the port's third event goes
/// missing), the author fixes the port, and the rerun runs no search of the original at
/// all, the diverging ones included: the original's search is finished and kept in the
/// first run whatever the other side did.
#[test]
fn the_originals_diverging_searches_are_kept_for_the_rerun() {
    if common::rom("the_originals_diverging_searches_are_kept_for_the_rerun").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let port = format!(
        r#"'{}' trace "$SARGON_FEN" --depth "$SARGON_DEPTH" --format jsonl $([ "$SARGON_BOOK" = 0 ] && echo --no-book)"#,
        env!("CARGO_BIN_EXE_sargon")
    );
    let broken = format!("exec:{port} | sed 3d");
    let fixed = format!("exec:{port}");
    let run_with = |right: &str| {
        diff(
            &cache,
            &[
                "startpos",
                ITALIAN,
                "--depths",
                "1-2",
                "--no-book",
                "--keep-going",
                "--right",
                right,
            ],
        )
    };
    let (code, out, err) = run_with(&broken);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("divergences: 4"), "{out}");
    assert!(
        err.contains("the original's traces: 0 read from the cache, 4 searched and kept"),
        "{err}"
    );
    assert_eq!(entries(&cache), 4);
    // The rerun after the fix: every original search read, none run.
    let (code, out, err) = run_with(&fixed);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        err.contains("the original's traces: 4 read from the cache, 0 searched and kept"),
        "{err}"
    );
    // And a rerun that still diverges reads them too.
    let (code, _, err) = run_with(&broken);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("4 read from the cache, 0 searched"), "{err}");
}
