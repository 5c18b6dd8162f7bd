//! The explorer in a real browser: `sargon serve` on a free loopback port, and
//! tests/browser/explorer.mjs driving Debian's chromium through playwright-core, as a
//! newcomer would use the page (search, open nodes, follow the PV, compare, mistakes), and
//! with another person's port offered (`serve --engine`: ours behind `exec:` and `uci:`).
//!
//! Where chromium, node or playwright-core (`npm ci` in tests/browser) is missing, the test
//! prints a `skipped:` line and passes, unless `SARGON_BROWSER_TEST=required` (set by
//! .ci/run once it has installed them) makes that a failure. Screenshots are left in
//! `target/tmp/explorer/`; with `UPDATE_SCREENSHOTS=1` they are also copied to
//! docs/images/, where docs/explorer.md shows them.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

const CHROMIUM: &str = "/usr/bin/chromium";

fn skip(test: &str, why: &str) {
    assert!(
        std::env::var("SARGON_BROWSER_TEST").as_deref() != Ok("required"),
        "SARGON_BROWSER_TEST=required, but the browser test cannot run: {why}"
    );
    eprintln!("skipped: {why} ({test})");
}

/// A browser script's run: what it printed, where its screenshots are, and whether the
/// server had the user's ROM to offer the original.
pub struct Ran {
    pub stdout: String,
    pub out_dir: PathBuf,
    pub rom: bool,
}

/// Runs `tests/browser/SCRIPT` against a fresh `sargon serve SERVER_ARGS` as
///   node SCRIPT URL OUT_DIR CHROMIUM EXPECT_ROM(0|1) EXTRA_ARGS...
/// and checks that it exits cleanly with `NAME: passed` last, NAME being the script's
/// file stem. `None` where the browser cannot run (after a `skipped:` line naming `test`).
pub fn run_script(test: &str, script: &str, server_args: &[&str], extra: &[&str]) -> Option<Ran> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("tests/browser");
    let why = if !Path::new(CHROMIUM).exists() {
        Some("chromium not installed (apt-get install chromium)")
    } else if Command::new("node").arg("--version").output().is_err() {
        Some("node not installed")
    } else if !dir.join("node_modules/playwright-core").exists() {
        Some("playwright-core not installed (npm ci in tests/browser)")
    } else {
        None
    };
    if let Some(why) = why {
        skip(test, why);
        return None;
    }
    let rom = sargon_original::rom::RomStore::open(None)
        .load(None)
        .is_ok();
    let (mut server, url) = common::start_serve(server_args);
    let stem = script.trim_end_matches(".mjs");
    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(stem);
    std::fs::create_dir_all(&out_dir).unwrap();
    let out = Command::new("node")
        .arg(dir.join(script))
        .arg(&url)
        .arg(&out_dir)
        .arg(CHROMIUM)
        .arg(if rom { "1" } else { "0" })
        .args(extra)
        .output()
        .expect("node runs the browser script");
    let _ = server.kill();
    let _ = server.wait();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    println!("{stdout}");
    eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        out.status.success(),
        "the browser script {script} failed ({})",
        out.status
    );
    let passed = format!("{stem}: passed");
    assert_eq!(stdout.lines().last(), Some(passed.as_str()));
    Some(Ran {
        stdout,
        out_dir,
        rom,
    })
}

/// Checks that each of `shots` was written as a PNG by the script, and with
/// `UPDATE_SCREENSHOTS=1` copies it to docs/images/.
pub fn keep_screenshots(ran: &Ran, shots: &[&str]) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for shot in shots {
        let bytes = std::fs::read(ran.out_dir.join(shot)).expect("the screenshot was written");
        assert!(
            bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
            "{shot} is not a PNG"
        );
        if std::env::var_os("UPDATE_SCREENSHOTS").is_some() {
            std::fs::copy(ran.out_dir.join(shot), root.join("docs/images").join(shot)).unwrap();
        }
    }
}

#[test]
fn the_explorer_works_in_a_real_browser() {
    let exec = common::serve_api::our_port_exec();
    let uci = format!("uci:{} uci", env!("CARGO_BIN_EXE_sargon"));
    let Some(ran) = run_script(
        "the_explorer_works_in_a_real_browser",
        "explorer.mjs",
        &["--engine", &exec, "--engine", &uci],
        &[&exec, &uci],
    ) else {
        return;
    };
    assert!(ran
        .stdout
        .contains("explorer: the start position is drawn ok"));
    let mut shots = vec![
        "explorer-search.png",
        "explorer-pv.png",
        "explorer-error.png",
        "explorer-memory.png",
    ];
    if ran.rom {
        shots.push("explorer-compare.png");
        shots.push("explorer-profile.png");
        common::ran_with_rom("the_explorer_works_in_a_real_browser");
    } else {
        common::skip_for_want_of_rom(
            "the_explorer_works_in_a_real_browser",
            "Compare and the original's search were not tried",
        );
    }
    // Not for docs/: it shows this machine's path to the binary, the exec: port's name.
    let exec_shot =
        std::fs::read(ran.out_dir.join("explorer-exec.png")).expect("the screenshot was written");
    assert!(exec_shot.starts_with(b"\x89PNG\r\n\x1a\n"));
    keep_screenshots(&ran, &shots);
}
