//! Two things the program embeds at build time:
//!
//! 1. The git commit it is built from (`SARGON_GIT_COMMIT`), so that the results of long
//!    `sargon diff` runs say which port produced them: the short hash, with `-dirty` when the
//!    sources (`src/`, `Cargo.toml`, `Cargo.lock`, `build.rs`) differ from it. Outside a git
//!    checkout (a source tarball, a crate download) it is "unknown".
//! 2. The port's own source text, for `original::port_links`: the port's comments cite the
//!    original's routines and labels (see docs/port.md, "Links to the original"), and
//!    `sargon listing --port` shows, beside the original's code, where the port implements
//!    each label. The script only lists the files (every `.rs` under `src/port`); the library
//!    reads them through `include_str!`, so the text is always the one compiled. Nothing of
//!    the original is involved.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    embed_git_commit();
    embed_port_sources();
}

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!text.is_empty()).then_some(text)
}

/// `SARGON_GIT_COMMIT`: the commit the program is built from.
fn embed_git_commit() {
    const SOURCES: [&str; 4] = ["src", "Cargo.toml", "Cargo.lock", "build.rs"];
    let commit = match git(&["rev-parse", "--short", "HEAD"]) {
        Some(hash) => {
            let mut status = vec!["status", "--porcelain", "--untracked-files=no", "--"];
            status.extend(SOURCES);
            // `git status` prints nothing for a clean tree (and so `git` returns None).
            match git(&status) {
                Some(_) => format!("{hash}-dirty"),
                None => hash,
            }
        }
        None => "unknown".into(),
    };
    println!("cargo:rustc-env=SARGON_GIT_COMMIT={commit}");
    // A change to the sources rebuilds the program anyway; checking again costs little.
    for path in SOURCES {
        println!("cargo:rerun-if-changed={path}");
    }
    // Run again when HEAD moves: HEAD itself (a checkout) and the branch it points to (a
    // commit). Only existing files are named: cargo reruns every build for a missing one.
    let mut watched = vec![git(&["rev-parse", "--git-path", "HEAD"])];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watched.push(git(&["rev-parse", "--git-path", &branch]));
        watched.push(git(&["rev-parse", "--git-path", "packed-refs"]));
    }
    for path in watched.into_iter().flatten() {
        if Path::new(&path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
}

/// `port_sources.rs`: the port's source files, for `original::port_links`.
fn embed_port_sources() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by Cargo"));
    let port = root.join("src").join("port");
    println!("cargo:rerun-if-changed=build.rs");
    // A directory: Cargo looks at every file under it, so new and moved files count too.
    println!("cargo:rerun-if-changed=src/port");
    let mut files = Vec::new();
    rust_files(&port, &mut files);
    files.sort();
    let mut table = String::from("&[\n");
    for file in &files {
        let relative = file.strip_prefix(&root).expect("under the crate");
        let name: Vec<String> = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        table.push_str(&format!(
            "    ({:?}, include_str!({:?})),\n",
            name.join("/"),
            file.to_str().expect("a UTF-8 path")
        ));
    }
    table.push_str("]\n");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by Cargo"));
    std::fs::write(out.join("port_sources.rs"), table).expect("write port_sources.rs");
}

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}
