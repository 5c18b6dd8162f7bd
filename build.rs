//! Embeds the port's own source text in the library, for `original::port_links`: the
//! port's comments cite the original's routines and labels (see docs/port.md, "Links to
//! the original"), and `sargon listing --port` shows, beside the original's code, where the
//! port implements each label.
//!
//! The script only lists the files (every `.rs` under `src/port`, however the port is split
//! into files and folders); the library reads them through `include_str!`, so the text is
//! always the one compiled. Nothing of the original is involved.

use std::path::{Path, PathBuf};

fn main() {
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
