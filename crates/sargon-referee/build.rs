//! Embeds the git commit the tools are built from (`SARGON_GIT_COMMIT`), so that the
//! results of long `sargon diff` runs say which port produced them: the short hash, with
//! `-dirty` when the workspace's sources (`crates/`, `src/`, `Cargo.toml`, `Cargo.lock`)
//! differ from it. Outside a git checkout (a source tarball, a crate download) it is
//! "unknown".

use std::path::Path;
use std::process::Command;

fn main() {
    embed_git_commit();
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
    // Paths from this crate's directory to the workspace's sources.
    const SOURCES: [&str; 4] = [
        "../../crates",
        "../../src",
        "../../Cargo.toml",
        "../../Cargo.lock",
    ];
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
