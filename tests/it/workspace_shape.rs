//! The shape of the workspace that no compiler checks: the library crates under `crates/`
//! report errors as types of their own (thiserror), and anyhow stays in the command.
//!
//! `cargo test --test it workspace_shape::` reads each `crates/*/Cargo.toml` as text and
//! fails naming every crate whose dependencies (normal ones, for any target) hold anyhow.
//! Its dev-dependencies may: they are not part of what the crate offers. `.ci/run` checks
//! the same thing from cargo's resolved graph (`cargo tree -e normal`).

use std::fs;
use std::path::Path;

/// Is `header` (the text between `[` and `]`) a table of normal dependencies?
/// `dependencies`, `target.'cfg(unix)'.dependencies`, `dependencies.anyhow`; not `dev-` or
/// `build-dependencies`.
fn is_normal_dependencies(header: &str) -> bool {
    let header = header.trim();
    let table = header.split('.').map(str::trim);
    table
        .clone()
        .any(|part| part == "dependencies" || part == "\"dependencies\"")
        && !header.contains("dev-dependencies")
        && !header.contains("build-dependencies")
}

/// The names of a manifest's normal dependencies, read from the lines of each `[...]`
/// table: a key (`anyhow = "1"`, `anyhow.workspace = true`), a table of its own
/// (`[dependencies.anyhow]`), or the package a renamed dependency stands for
/// (`err = { package = "anyhow" }`). Also what `import_loops::layers` reads the crates'
/// arrows from.
pub(crate) fn normal_dependencies(manifest: &str) -> Vec<String> {
    // In a table of dependencies, each key is one; in `[dependencies.NAME]`, the keys are
    // NAME's settings.
    let mut in_list = false;
    let mut names = Vec::new();
    for line in manifest.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if let Some(header) = line.strip_prefix('[') {
            let header = header.trim_start_matches('[').trim_end_matches(']').trim();
            in_list = false;
            if is_normal_dependencies(header) {
                match header.rsplit('.').next().map(str::trim) {
                    Some("dependencies" | "\"dependencies\"") => in_list = true,
                    Some(name) => names.push(name.to_string()),
                    None => {}
                }
            }
            continue;
        }
        if !in_list || line.is_empty() {
            continue;
        }
        let compact = line.replace(' ', "");
        let name = match compact.split_once("package=\"") {
            Some((_, rest)) => rest.split('"').next().unwrap_or(""),
            None => line.split(['=', '.']).next().unwrap_or("").trim(),
        };
        if !name.is_empty() {
            names.push(name.to_string());
        }
    }
    names
}

/// Does a manifest list anyhow among its normal dependencies?
fn has_anyhow(manifest: &str) -> bool {
    normal_dependencies(manifest).iter().any(|d| d == "anyhow")
}

/// The library crates under `crates/` (each directory with a `Cargo.toml`), by name, sorted.
pub(crate) fn library_crates(crates: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(crates)
        .expect("crates/ is readable")
        .map(|entry| {
            entry
                .expect("crates/ lists")
                .file_name()
                .to_string_lossy()
                .to_string()
        })
        .filter(|name| crates.join(name).join("Cargo.toml").is_file())
        .collect();
    names.sort();
    names
}

#[test]
fn the_reader_finds_anyhow_where_it_is_a_dependency() {
    assert!(has_anyhow("[dependencies]\nanyhow.workspace = true\n"));
    assert!(has_anyhow("[dependencies]\nanyhow = \"1\"\n"));
    assert!(has_anyhow("[dependencies.anyhow]\nversion = \"1\"\n"));
    assert!(has_anyhow(
        "[target.'cfg(unix)'.dependencies]\nerr = { package = \"anyhow\", version = \"1\" }\n"
    ));
    assert!(!has_anyhow(
        "[dependencies]\nthiserror = \"2\"\n[dev-dependencies]\nanyhow = \"1\"\n"
    ));
    assert!(!has_anyhow(
        "[dependencies]\n# anyhow = \"1\"\nanyhow_not = \"1\"\n"
    ));
}

#[test]
fn no_library_crate_depends_on_anyhow() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates");
    let names = library_crates(&crates);
    assert!(names.len() >= 7, "the crates under crates/: {names:?}");
    let offenders: Vec<&String> = names
        .iter()
        .filter(|name| {
            let manifest = fs::read_to_string(crates.join(name).join("Cargo.toml"))
                .expect("a crate's Cargo.toml is readable");
            has_anyhow(&manifest)
        })
        .collect();
    assert!(
        offenders.is_empty(),
        "library crates with anyhow among their dependencies (anyhow is for the command; a \
         library's errors are types of its own, made with thiserror): {offenders:?}"
    );
}
