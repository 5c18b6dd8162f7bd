//! Embeds the port's own source text, for this crate's [`PortLinks::of_port`]: the port's
//! comments cite the original's routines and labels (see docs/port.md, "Links to the
//! original"), and `sargon listing --port` shows, beside the original's code, where the port
//! implements each label. The script only lists the files (every `.rs` under
//! `crates/sargon-port/src`); the crate reads them through `include_str!`, so the text is
//! always the one compiled. Nothing of the original is involved.

use std::path::{Path, PathBuf};

/// The port's sources, from this crate's directory.
const PORT_SOURCE_DIR: &str = "../sargon-port/src";

/// The same directory as the links name it, from the workspace root: the files' names in
/// the table (and so in what `sargon listing --port` prints) are
/// `crates/sargon-port/src/...`.
const PORT_SOURCE_NAME: &str = "crates/sargon-port/src";

fn main() {
    embed_port_sources();
}

/// `port_sources.rs`: the port's source files, for the links.
fn embed_port_sources() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by Cargo"));
    let port = manifest.join(PORT_SOURCE_DIR);
    println!("cargo:rerun-if-changed=build.rs");
    // A directory: Cargo looks at every file under it, so new and moved files count too.
    println!("cargo:rerun-if-changed={PORT_SOURCE_DIR}");
    let mut files = Vec::new();
    rust_files(&port, &mut files);
    files.sort();
    let mut table = String::from("&[\n");
    for file in &files {
        let relative = file.strip_prefix(&port).expect("under the port's sources");
        let name: Vec<String> = std::iter::once(PORT_SOURCE_NAME.to_string())
            .chain(
                relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned()),
            )
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
