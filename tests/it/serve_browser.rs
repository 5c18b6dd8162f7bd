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

fn skip(why: &str) {
    assert!(
        std::env::var("SARGON_BROWSER_TEST").as_deref() != Ok("required"),
        "SARGON_BROWSER_TEST=required, but the browser test cannot run: {why}"
    );
    eprintln!("skipped: {why} (the_explorer_works_in_a_real_browser)");
}

#[test]
fn the_explorer_works_in_a_real_browser() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("tests/browser");
    if !Path::new(CHROMIUM).exists() {
        return skip("chromium not installed (apt-get install chromium)");
    }
    if Command::new("node").arg("--version").output().is_err() {
        return skip("node not installed");
    }
    if !dir.join("node_modules/playwright-core").exists() {
        return skip("playwright-core not installed (npm ci in tests/browser)");
    }
    let rom = sargon_original::rom::RomStore::open(None)
        .load(None)
        .is_ok();

    let exec = common::serve_api::our_port_exec();
    let uci = format!("uci:{} uci", env!("CARGO_BIN_EXE_sargon"));
    let (mut server, url) = common::start_serve(&["--engine", &exec, "--engine", &uci]);

    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("explorer");
    std::fs::create_dir_all(&out_dir).unwrap();
    let out = Command::new("node")
        .arg(dir.join("explorer.mjs"))
        .arg(&url)
        .arg(&out_dir)
        .arg(CHROMIUM)
        .arg(if rom { "1" } else { "0" })
        .arg(&exec)
        .arg(&uci)
        .output()
        .expect("node runs the browser script");
    let _ = server.kill();
    let _ = server.wait();
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        out.status.success(),
        "the browser script failed ({})",
        out.status
    );
    assert_eq!(stdout.lines().last(), Some("explorer: passed"));
    let mut shots = vec![
        "explorer-search.png",
        "explorer-pv.png",
        "explorer-error.png",
    ];
    if rom {
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
        std::fs::read(out_dir.join("explorer-exec.png")).expect("the screenshot was written");
    assert!(exec_shot.starts_with(b"\x89PNG\r\n\x1a\n"));
    for shot in shots {
        let bytes = std::fs::read(out_dir.join(shot)).expect("the screenshot was written");
        assert!(
            bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
            "{shot} is not a PNG"
        );
        if std::env::var_os("UPDATE_SCREENSHOTS").is_some() {
            std::fs::copy(out_dir.join(shot), root.join("docs/images").join(shot)).unwrap();
        }
    }
}
