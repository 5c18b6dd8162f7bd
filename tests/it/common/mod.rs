//! Shared by the integration tests: run the binary, write input files, find the user's
//! imported ROM, or say clearly why a test that needs the original is skipped.
#![allow(dead_code)]

#[cfg(feature = "serve")]
pub mod serve_api;
pub mod source_edit;

mod rom_gate;

// Each test file takes what it needs of these, as of the rest of `common` (hence
// `dead_code` above): an unused re-export is no mistake either.
#[allow(unused_imports)]
pub use rom_gate::{emulator, ran_with_rom, rom, skip_for_want_of_rom, RAN, SKIP};

use sargon_original::rom::{Rom, RomStore};

/// A test that needs a tool this machine lacks (Stockfish, Graphviz, python-chess): print
/// the skip line, or fail when the tool's switch (`SARGON_STOCKFISH_TEST`,
/// `SARGON_GRAPHVIZ_TEST`, `SARGON_PYTHON_CHESS_TEST`) is `required`. `.ci/run` sets it
/// where the tool installs, so that a skip there is a failure, as for the ROM, the GUI and
/// the browser tests.
pub fn skip_for_want_of_tool(switch: &str, test: &str, why: &str) {
    assert!(
        std::env::var(switch).as_deref() != Ok("required"),
        "{switch}=required, but {test} cannot run: {why}"
    );
    eprintln!("skipped: {why} ({test})");
}

/// Is python-chess there to read our output back? If not, print the skip line (or fail
/// under `SARGON_PYTHON_CHESS_TEST=required`).
pub fn python_chess(test: &str) -> bool {
    let has = std::process::Command::new("python3")
        .args(["-c", "import chess.pgn, chess.engine"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has {
        skip_for_want_of_tool(
            "SARGON_PYTHON_CHESS_TEST",
            test,
            "python-chess not installed (pip install chess)",
        );
    }
    has
}

/// Run one of the python-chess checkers of `tests/pychess/` with `args`; its output is
/// printed, and it must succeed and end with `last_line`.
pub fn pychess_check(script: &str, args: &[&str], last_line: &str) -> String {
    let path = format!("{}/tests/pychess/{script}", env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new("python3")
        .arg(&path)
        .args(args)
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    println!("{stdout}");
    eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{script} failed ({})", out.status);
    assert_eq!(stdout.lines().last(), Some(last_line), "{stdout}");
    stdout
}

/// Run the `sargon` binary with `args`; its output is printed (shown when a test fails).
/// The original's traces that `sargon diff` caches go to a directory of the build's, not
/// to the user's cache (a test of the cache itself names its own with `--cache-dir`).
pub fn sargon(args: &[&str]) -> std::process::Output {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sargon"))
        .env("SARGON_CACHE", test_cache_dir())
        .args(args)
        .output()
        .expect("sargon runs");
    println!("{}", String::from_utf8_lossy(&out.stdout));
    eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    out
}

/// Where the tests' runs of `sargon diff` keep the original's traces: a directory of the
/// build's, never the user's cache.
pub fn test_cache_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("trace-cache")
}

/// The user's transcription of `rom`, as its import keeps it in the user's store.
pub fn known_source(rom: &Rom) -> String {
    let known = RomStore::open(None).dir().join(&rom.meta.name);
    std::fs::read_to_string(known.join("source.asm")).unwrap()
}

/// Import `source` (a changed copy of the user's transcription) under `name` into a ROM
/// store of its own in `dir/store`, with `--accept-different`: an image that is not
/// Sargon's. Returns the store's directory and the import's report (its stdout).
pub fn import_unverified(dir: &std::path::Path, source: &str, name: &str) -> (String, String) {
    let file = dir.join(format!("{name}.asm"));
    std::fs::write(&file, source).unwrap();
    let store = dir.join("store").to_str().unwrap().to_string();
    let out = sargon(&[
        "--roms",
        &store,
        "rom",
        "import",
        file.to_str().unwrap(),
        "--name",
        name,
        "--accept-different",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (store, String::from_utf8_lossy(&out.stdout).into_owned())
}

/// A ROM store of its own in `dir/store` holding, under `name`, the user's transcription of
/// `rom` with the pawn's value (PVALUE) changed ([`import_unverified`]). Returns the
/// store's directory.
pub fn store_with_changed_pvalue(rom: &Rom, dir: &std::path::Path, name: &str) -> String {
    let source = source_edit::with_changed_table(&known_source(rom), "PVALUE");
    import_unverified(dir, &source, name).0
}

/// A ROM store of its own in `dir/store` holding, under `name`, the user's transcription of
/// `rom` with FNDMOV's first instruction made a jump to itself ([`import_unverified`]): an
/// image whose search never returns (a runaway). Returns the store's directory.
pub fn store_with_runaway_image(rom: &Rom, dir: &std::path::Path, name: &str) -> String {
    let source = known_source(rom);
    let mut lines: Vec<String> = source.lines().map(str::to_string).collect();
    let start = source_edit::line_of_label(&lines, "FNDMOV");
    let at = (start..lines.len())
        .find(|&i| !source_edit::instruction_tokens(&lines[i]).is_empty())
        .expect("an instruction in FNDMOV");
    lines[at] = match source_edit::label_of(&lines[at]) {
        Some(label) => format!("{label}: JR {label}"),
        None => "        JR      $".to_string(),
    };
    import_unverified(dir, &(lines.join("\n") + "\n"), name).0
}

/// A temporary file named `*{suffix}` holding `text` (deleted when dropped).
pub fn temp_file(suffix: &str, text: &str) -> tempfile::NamedTempFile {
    use std::io::Write;
    let mut f = tempfile::Builder::new().suffix(suffix).tempfile().unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f
}
pub mod golden;

/// `sargon serve --port 0 ARGS`, started; the child (stdout read past its first line) and
/// the address it printed (`http://127.0.0.1:PORT/`).
pub fn start_serve(args: &[&str]) -> (std::process::Child, String) {
    start_serve_with_env(args, &[])
}

/// [`start_serve`] with environment variables set for the server.
pub fn start_serve_with_env(args: &[&str], env: &[(&str, &str)]) -> (std::process::Child, String) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sargon"))
        .args(["serve", "--port", "0"])
        .args(args)
        .envs(env.iter().copied())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("sargon serve starts");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    // "sargon serve: http://127.0.0.1:PORT/  (Ctrl-C stops it)"
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    (child, url)
}
