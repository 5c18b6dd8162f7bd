//! The crates stand in layers (docs/architecture.md, "The crates"), and every dependency
//! between them points to a lower layer: read from each `crates/*/Cargo.toml`, so that a new
//! crate, or a new arrow, has to be placed here first.

use std::fs;
use std::path::Path;

use crate::workspace_shape::{library_crates, normal_dependencies};

/// Each library crate's layer, lowest first, as docs/architecture.md draws them.
const LAYERS: &[(&str, u8)] = &[
    ("sargon-core", 0),
    ("sargon-port", 1),
    ("sargon-original", 1),
    ("sargon-views", 2),
    ("sargon-engines", 2),
    ("sargon-port-links", 2),
    ("sargon-chess", 3),
    ("sargon-referee", 4),
    ("sargon-explorer", 5),
];

fn layer(name: &str) -> Option<u8> {
    LAYERS.iter().find(|(n, _)| *n == name).map(|&(_, l)| l)
}

/// The workspace's crates that `manifest` depends on in its normal dependencies (the
/// build's arrows; a dev-dependency builds no program and is left out).
fn sargon_dependencies(manifest: &str) -> Vec<String> {
    normal_dependencies(manifest)
        .into_iter()
        .filter(|name| name.starts_with("sargon-"))
        .collect()
}

#[test]
fn every_crate_depends_only_on_lower_layers() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates");
    let mut wrong = Vec::new();
    let names = library_crates(&crates);
    for name in &names {
        let Some(own) = layer(name) else {
            wrong.push(format!("{name} is in no layer: place it in LAYERS"));
            continue;
        };
        let manifest = fs::read_to_string(crates.join(name).join("Cargo.toml")).unwrap();
        for dep in sargon_dependencies(&manifest) {
            match layer(&dep) {
                Some(l) if l < own => {}
                Some(l) => wrong.push(format!(
                    "{name} (layer {own}) depends on {dep} (layer {l}): an arrow up or across"
                )),
                None => wrong.push(format!("{name} depends on {dep}, which is in no layer")),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    println!("{} crates, every dependency to a lower layer", names.len());
}

#[test]
fn dependencies_are_read_from_the_dependencies_section_only() {
    let manifest = "[package]\nname = \"x\"\n[dependencies]\nsargon-core.workspace = true\n\
                    sargon-port = { workspace = true }\nserde = \"1\"\n[dev-dependencies]\n\
                    sargon-referee.workspace = true\n";
    assert_eq!(
        sargon_dependencies(manifest),
        ["sargon-core", "sargon-port"]
    );
}
