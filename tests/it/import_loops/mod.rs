//! No two source files of the workspace import each other, directly or through a loop.
//!
//! `cargo test --test it import_loops::` reads every crate's source as text (the crates under
//! `crates/` and the command in `src/`), builds the graph of imports between files and fails
//! listing each loop with the names that tie it. What counts as an import, and why a module
//! reaching into its own submodules does not, is in `graph.rs` here. Run with
//! `-- --nocapture` to see the count when there is no loop.

mod graph;
mod layers;
mod scan;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use graph::{report, Workspace};

/// The crates of the workspace: (crate name, root file), relative to the workspace.
fn workspace_crates(root: &Path) -> Vec<(String, PathBuf)> {
    let mut crates = vec![("sargon".to_string(), PathBuf::from("src/main.rs"))];
    let mut dirs: Vec<PathBuf> = fs::read_dir(root.join("crates"))
        .expect("crates/ is readable")
        .map(|entry| entry.expect("crates/ lists").path())
        .collect();
    dirs.sort();
    for dir in dirs {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let src = Path::new("crates").join(&name).join("src");
        for root_file in ["lib.rs", "main.rs"] {
            if root.join(&src).join(root_file).is_file() {
                crates.push((name.replace('-', "_"), src.join(root_file)));
            }
        }
    }
    crates
}

/// Every `.rs` file below `dir` (relative to `root`).
fn rust_files(root: &Path, dir: &Path, out: &mut BTreeSet<PathBuf>) {
    for entry in fs::read_dir(root.join(dir)).expect("a source directory is readable") {
        let name = entry.expect("a source directory lists").file_name();
        let path = dir.join(&name);
        if root.join(&path).is_dir() {
            rust_files(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.insert(path);
        }
    }
}

#[test]
fn no_file_imports_another_through_a_loop() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let crates = workspace_crates(root);
    let read = |p: &Path| fs::read_to_string(root.join(p)).ok();
    let ws = Workspace::scan(&crates, &read).unwrap_or_else(|e| panic!("{e}"));

    // A file the scan does not reach would be a file whose imports nobody counts.
    let mut on_disk = BTreeSet::new();
    for (_, root_file) in &crates {
        rust_files(root, root_file.parent().unwrap(), &mut on_disk);
    }
    let read_files = ws.files();
    let unread: Vec<_> = on_disk.difference(&read_files).collect();
    assert!(
        unread.is_empty(),
        "source files no `mod` reaches: {unread:?}"
    );

    let loops = ws.loops();
    let text = report(&loops);
    println!(
        "{} files, {} imports between them\n{text}",
        ws.files().len(),
        ws.imports().len()
    );
    assert!(loops.is_empty(), "{text}");
}

// The check itself, on small made-up crates.

fn loops_in(files: &[(&str, &str)]) -> String {
    let files: BTreeMap<PathBuf, String> = files
        .iter()
        .map(|(p, t)| (PathBuf::from(p), t.to_string()))
        .collect();
    let read = |p: &Path| files.get(p).cloned();
    let ws = Workspace::scan(&[("demo".to_string(), PathBuf::from("src/lib.rs"))], &read)
        .unwrap_or_else(|e| panic!("{e}"));
    report(&ws.loops())
}

#[test]
fn two_files_using_each_other_are_a_loop() {
    let text = loops_in(&[
        ("src/lib.rs", "mod a; mod b;"),
        ("src/a.rs", "use crate::b::{Bee, Hive};\npub struct Ant;"),
        (
            "src/b.rs",
            "use super::a::Ant;\npub struct Bee; pub enum Hive {}",
        ),
    ]);
    assert_eq!(
        text,
        "import loops between source files: 1\n\
         loop 1 (2 files):\n  \
         src/a.rs -> src/b.rs: Bee, Hive\n  \
         src/b.rs -> src/a.rs: Ant\n"
    );
}

#[test]
fn a_loop_through_three_files_and_paths_in_code() {
    // No `use` at all: paths in code, a module directory with mod.rs, a nested module.
    let text = loops_in(&[
        ("src/lib.rs", "mod a; mod b; mod c;"),
        ("src/a.rs", "pub fn f() { crate::b::inner::g() }"),
        ("src/b/mod.rs", "pub mod inner;"),
        (
            "src/b/inner.rs",
            "pub fn g() { let x = super::super::c::H; }",
        ),
        ("src/c.rs", "pub const H: u8 = 1; fn k() { crate::a::f(); }"),
    ]);
    assert!(
        text.starts_with("import loops between source files: 1\nloop 1 (3 files):"),
        "{text}"
    );
    assert!(text.contains("src/a.rs -> src/b/inner.rs: g"), "{text}");
    assert!(text.contains("src/b/inner.rs -> src/c.rs: H"), "{text}");
    assert!(text.contains("src/c.rs -> src/a.rs: f"), "{text}");
}

#[test]
fn a_parent_reaching_into_its_children_is_containment() {
    let text = loops_in(&[
        ("src/lib.rs", "pub mod m; pub use m::Thing;"),
        (
            "src/m/mod.rs",
            "mod part; pub use part::Thing; pub struct Base;",
        ),
        (
            "src/m/part.rs",
            "use super::Base; use crate::Thing as _; pub struct Thing(Base);",
        ),
    ]);
    assert_eq!(text, "import loops between source files: 0\n");
}

#[test]
fn a_loop_through_a_re_export_at_the_root() {
    // b names `crate::Ant`, which lib.rs re-exports from a: b imports a.
    let text = loops_in(&[
        ("src/lib.rs", "mod a; mod b; pub use a::Ant;"),
        ("src/a.rs", "pub struct Ant(crate::b::Bee);"),
        ("src/b.rs", "use crate::Ant; pub struct Bee;"),
    ]);
    assert!(text.contains("src/b.rs -> src/a.rs: Ant"), "{text}");
    assert!(text.contains("src/a.rs -> src/b.rs: Bee"), "{text}");
}

#[test]
fn a_module_imported_by_name_and_a_glob() {
    let text = loops_in(&[
        ("src/lib.rs", "mod a; mod b;"),
        ("src/a.rs", "use crate::b; pub fn f() -> u8 { b::G }"),
        (
            "src/b.rs",
            "use crate::a::*; pub const G: u8 = 0; fn h() { f(); }",
        ),
    ]);
    assert!(text.contains("src/a.rs -> src/b.rs: G"), "{text}");
    assert!(text.contains("src/b.rs -> src/a.rs: f"), "{text}");
}

#[test]
fn comments_strings_and_other_crates_are_not_imports() {
    let text = loops_in(&[
        ("src/lib.rs", "mod a; mod b;"),
        (
            "src/a.rs",
            "/// See [`crate::b::Bee`].\npub struct Ant; // crate::b::Bee\n/* crate::b::Bee */\n\
             const S: &str = \"crate::b::Bee\"; const R: &str = r#\"crate::b::Bee\"#;\n\
             fn l<'a>(x: &'a str) -> char { 'c' }",
        ),
        (
            "src/b.rs",
            "use crate::a::Ant; use std::fmt; use demo::a::Ant as A2; pub struct Bee;",
        ),
    ]);
    assert_eq!(text, "import loops between source files: 0\n");
}

#[test]
fn tests_inside_a_file_count_and_path_attributes_are_followed() {
    let text = loops_in(&[
        (
            "src/lib.rs",
            "mod a;\n#[path = \"other/b_file.rs\"]\nmod b;",
        ),
        (
            "src/a.rs",
            "pub struct Ant;\n#[cfg(test)]\nmod tests {\n    use super::super::b::Bee;\n}",
        ),
        (
            "src/other/b_file.rs",
            "pub(crate) use crate::a::Ant as Queen; pub struct Bee;",
        ),
    ]);
    assert!(
        text.contains("src/a.rs -> src/other/b_file.rs: Bee"),
        "{text}"
    );
    assert!(
        text.contains("src/other/b_file.rs -> src/a.rs: Ant"),
        "{text}"
    );
}

#[test]
fn a_module_with_no_file_is_an_error() {
    let files: BTreeMap<PathBuf, String> =
        [(PathBuf::from("src/lib.rs"), "mod gone;".to_string())].into();
    let read = |p: &Path| files.get(p).cloned();
    let err = Workspace::scan(&[("demo".to_string(), PathBuf::from("src/lib.rs"))], &read)
        .err()
        .expect("an error");
    assert!(err.contains("`mod gone` has no file"), "{err}");
}
