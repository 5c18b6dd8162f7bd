//! Helpers for the tests on modified copies of the user's transcription: the stored source,
//! the `sargon` binary on a temporary store, and the lines of its answers.

use crate::common;

use common::source_edit::{instruction_tokens, line_of_label};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use sargon_original::rom::RomStore;

use super::tables::known_rom;

/// The known image's stored source text, or `None` after the skip line.
pub(super) fn stored_source(test: &str) -> Option<String> {
    let rom = known_rom(test)?;
    let store = RomStore::open(None);
    let path = store.dir().join(&rom.meta.name).join("source.asm");
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) => {
            common::skip_for_want_of_rom(test, &format!("{}: {e}", path.display()));
            None
        }
    }
}

pub(super) fn first_half(source: &str) -> String {
    let lines: Vec<&str> = source.lines().collect();
    lines[..lines.len() / 2].join("\n") + "\n"
}

pub(super) fn sargon(store: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sargon"))
        .env("SARGON_CACHE", common::test_cache_dir())
        .arg("--roms")
        .arg(store)
        .args(args)
        .output()
        .expect("the sargon binary runs")
}

pub(super) fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

pub(super) struct Workspace {
    _dir: tempfile::TempDir,
    pub(super) store: PathBuf,
    pub(super) root: PathBuf,
}

pub(super) fn workspace() -> Workspace {
    let dir = tempfile::tempdir().unwrap();
    Workspace {
        store: dir.path().join("store"),
        root: dir.path().to_path_buf(),
        _dir: dir,
    }
}

impl Workspace {
    pub(super) fn write(&self, name: &str, content: &str) -> String {
        let p = self.root.join(name);
        std::fs::write(&p, content).unwrap();
        p.display().to_string()
    }
    pub(super) fn stored(&self, name: &str) -> bool {
        self.store.join(name).exists()
    }
}

/// The refusal's line naming the differing code or data where the search runs or reads.
pub(super) fn code_line(stderr: &str) -> Option<&str> {
    stderr.lines().find_map(|l| {
        l.strip_prefix("code that differs from the known transcription where the search runs: ")
            .or_else(|| {
                l.strip_prefix(
                    "data that differs from the known transcription, read by the search: ",
                )
            })
    })
}

/// The line naming what differs where no search runs or reads.
pub(super) fn allowed_line(report: &str) -> Option<&str> {
    report
        .lines()
        .find_map(|l| l.strip_prefix("differs only where no search runs or reads (allowed): "))
}

/// The source with the line `n` (from 0) replaced by `f` of it; it must change.
pub(super) fn with_line_changed(source: &str, n: usize, f: impl Fn(&str) -> String) -> String {
    let mut lines: Vec<String> = source.lines().map(str::to_string).collect();
    let changed = f(&lines[n]);
    assert_ne!(changed, lines[n], "the change must change line {n}");
    lines[n] = changed;
    lines.join("\n") + "\n"
}

/// Index of the first line at or after `label`'s whose instruction tokens satisfy `f`.
pub(super) fn line_after(source: &str, label: &str, f: impl Fn(&[&str]) -> bool) -> usize {
    let lines: Vec<String> = source.lines().map(str::to_string).collect();
    let start = line_of_label(&lines, label);
    (start..lines.len())
        .find(|&i| f(&instruction_tokens(&lines[i])))
        .unwrap_or_else(|| panic!("no such line after {label}"))
}
