//! The layering of the crate, enforced (see `docs/architecture.md`).
//!
//! - `base` (vocabulary, positions, the engine interface, hooks, trace) uses nothing else;
//! - `port` uses only `base`: the port imports nothing of the original;
//! - `original` (ROM store, emulator, assembler, ...) uses only `base`;
//! - `tools` use `base` and `engines` (to open an engine by kind), never an engine's insides;
//! - `engines` is the one module that knows both engines.
//!
//! The check reads the source: every `crate::<layer>` path outside comments counts.

use std::fs;
use std::path::{Path, PathBuf};

/// The layers of `src/` and those each may use besides itself.
const RULES: &[(&str, &[&str])] = &[
    ("base", &[]),
    ("port", &["base"]),
    ("original", &["base"]),
    ("tools", &["base", "engines"]),
];

const LAYERS: &[&str] = &["base", "port", "original", "tools", "engines"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("readable source directory") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The layers a piece of source refers to as `crate::<layer>`, with line numbers, outside
/// comments (`//`, `//!`, `///`).
fn references(source: &str) -> Vec<(usize, &'static str)> {
    let mut found = Vec::new();
    for (n, line) in source.lines().enumerate() {
        let code = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        for layer in LAYERS {
            let needle = format!("crate::{layer}");
            let mut rest = code;
            while let Some(i) = rest.find(&needle) {
                let after = &rest[i + needle.len()..];
                let whole_word = !after.starts_with(|c: char| c.is_alphanumeric() || c == '_');
                let before_ok = i == 0 || !rest[..i].ends_with(|c: char| c.is_alphanumeric());
                if whole_word && before_ok {
                    found.push((n + 1, *layer));
                }
                rest = after;
            }
        }
    }
    found
}

fn violations() -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = Vec::new();
    for (layer, allowed) in RULES {
        let mut files = Vec::new();
        rust_files(&src.join(layer), &mut files);
        assert!(!files.is_empty(), "layer {layer} has no source files");
        for file in files {
            let text = fs::read_to_string(&file).expect("readable source");
            for (line, used) in references(&text) {
                if used != *layer && !allowed.contains(&used) {
                    out.push(format!(
                        "{}:{line}: `{layer}` uses `{used}`",
                        file.strip_prefix(&src).unwrap_or(&file).display()
                    ));
                }
            }
        }
    }
    out
}

#[test]
fn each_layer_uses_only_the_layers_below_it() {
    let v = violations();
    assert!(v.is_empty(), "layering violations:\n{}", v.join("\n"));
}

#[test]
fn the_check_sees_a_violation_and_ignores_comments() {
    let text = "use crate::base::vocab::Score;\n\
                // crate::original in a comment\n\
                let e = crate::original::emu::Emulator::new(rom); // crate::tools\n\
                use crate::portable;\n";
    let found = references(text);
    assert_eq!(found, vec![(1, "base"), (3, "original")]);
}
