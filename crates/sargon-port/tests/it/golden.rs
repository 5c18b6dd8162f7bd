//! The port against the original's recorded behaviour: every search of the golden corpus
//! (`tests/golden/`, recorded from the original in the emulator by the root's
//! `tests/it/golden.rs`) run on the port and compared with its file, event by event. It needs
//! no ROM, so it runs everywhere, CI included, with `cargo test -p sargon-port`.

use crate::golden_files::{corpus, first_difference, golden, golden_dir};

#[test]
fn port_matches_the_golden_files() {
    let mut port = sargon_port::Port::new();
    let (mut searches, mut failures) = (0, Vec::new());
    for case in corpus() {
        for &depth in &case.depths {
            let (name, content) = golden(&mut port, &case, depth);
            let path = golden_dir().join(&name);
            let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
                panic!(
                    "{}: {e} (record the corpus with a ROM imported)",
                    path.display()
                )
            });
            searches += 1;
            if let Some((line, want, got)) = first_difference(&expected, &content) {
                failures.push(format!(
                    "{name} line {line}:\n  original: {want}\n  port:     {got}"
                ));
            }
        }
    }
    eprintln!(
        "port: {searches} searches compared with {}, {} differ",
        golden_dir().display(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "the port diverges from the original:\n{}",
        failures.join("\n")
    );
}
