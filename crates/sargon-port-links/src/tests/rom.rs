//! The port's links to the original, checked against the imported image: every routine name
//! and label the port cites or names in its doc comments must be a symbol of the user's
//! imported image (docs/port.md, "Links to the original"), and each citation must point at
//! the source line that holds it; `sargon listing --port` sets those sites under the
//! original's labels.

use super::rom_gate;
use crate::{port_listing_of, Form, PortLinks, PORT_SOURCES};
use sargon_original::program::Program;

#[test]
fn every_name_the_port_cites_is_a_symbol_of_the_image() {
    let Some(rom) = rom_gate::rom("every_name_the_port_cites_is_a_symbol_of_the_image") else {
        return;
    };
    let links = PortLinks::of_port();
    let unknown = links.unknown(&rom.symbols);
    let list: Vec<String> = unknown
        .iter()
        .map(|u| format!("  {} at {}:{}", u.name, u.file, u.line))
        .collect();
    assert!(
        unknown.is_empty(),
        "the port cites names that are not symbols of the image (a typo, a renamed label, or \
         a word that belongs in NOT_LABELS):\n{}",
        list.join("\n")
    );
    eprintln!(
        "{} citations and {} names in doc comments, all symbols of the image",
        links.citations.len(),
        links.mentions.len()
    );
}

#[test]
fn a_port_comment_citing_a_missing_label_fails_the_check() {
    let Some(rom) = rom_gate::rom("a_port_comment_citing_a_missing_label_fails_the_check") else {
        return;
    };
    // The port as compiled, plus a file that cites a label the image does not have, in a
    // comment and in a doc comment, beside labels it has.
    let extra = "/// FNDMOV's helper: calls GENMOV and NOSUCH.\n\
                 fn helper() {\n    \
                     // FM35\n    \
                     // FM99: no such label\n\
                 }\n";
    let mut files: Vec<(&str, &str)> = PORT_SOURCES.to_vec();
    files.push(("src/port/extra.rs", extra));
    let links = PortLinks::extract(&files);
    let unknown: Vec<(String, String, usize)> = links
        .unknown(&rom.symbols)
        .into_iter()
        .map(|u| (u.name, u.file, u.line))
        .collect();
    assert_eq!(
        unknown,
        vec![
            ("NOSUCH".to_string(), "src/port/extra.rs".to_string(), 1),
            ("FM99".to_string(), "src/port/extra.rs".to_string(), 4),
        ]
    );
}

#[test]
fn citations_point_at_the_lines_that_hold_them() {
    let links = PortLinks::of_port();
    assert!(
        links.citations.len() > 100,
        "only {} citations",
        links.citations.len()
    );
    for c in &links.citations {
        let (_, text) = PORT_SOURCES
            .iter()
            .find(|(p, _)| *p == c.file)
            .unwrap_or_else(|| panic!("{} is no port file", c.file));
        let line = text.lines().nth(c.line - 1).expect("the line exists");
        let comment = match c.form {
            Form::Comment => "//",
            Form::Doc => "///",
        };
        assert!(
            line.contains(comment) && line.contains(&c.written()),
            "{} is not at {}:{}: {line}",
            c.written(),
            c.file,
            c.line
        );
        let name = c.item.rsplit("::").next().unwrap_or(&c.item);
        assert!(
            text.contains(&format!("fn {name}"))
                || text.contains(&format!("{name},"))
                || text.contains(&format!("{name}("))
                || text.contains(&format!("const {name}")),
            "{}:{}: no item {} in the file",
            c.file,
            c.line,
            c.item
        );
    }
}

#[test]
fn listing_with_the_port_shows_where_each_label_is_ported() {
    let Some(rom) = rom_gate::rom("listing_with_the_port_shows_where_each_label_is_ported") else {
        return;
    };
    let hooks = sargon_original::listing::hook_addresses(&rom);
    let program = Program::of_rom(&rom);
    let links = PortLinks::of_port();
    let text = port_listing_of(&program, &hooks, &links, "points").expect("POINTS");
    // The plain listing's lines, in the same order, with port lines added under labels.
    let plain = sargon_original::listing::listing_of(&program, &hooks, "points").unwrap();
    let without: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with("  ; -> port"))
        .collect();
    assert_eq!(without, plain.lines().collect::<Vec<_>>());
    // Under every label, its sites (or "not cited"); each site names a port file and line
    // that holds the label or a range around it, and the function there.
    let lines: Vec<&str> = text.lines().collect();
    let mut labels = 0;
    let mut cited = 0;
    for (k, line) in lines.iter().enumerate() {
        let Some(label) = line.strip_suffix(':') else {
            continue;
        };
        labels += 1;
        let sites: Vec<&str> = lines[k + 1..]
            .iter()
            .take_while(|l| l.starts_with("  ; -> port"))
            .copied()
            .collect();
        assert!(!sites.is_empty(), "no port line under {label}");
        if sites == ["  ; -> port: not cited"] {
            continue;
        }
        cited += 1;
        for site in sites {
            let place = site.strip_prefix("  ; -> port ").expect("a site");
            let (file_line, rest) = place.split_once(' ').expect("FILE:LINE ITEM");
            let (file, n) = file_line.rsplit_once(':').expect("FILE:LINE");
            let (_, source) = PORT_SOURCES
                .iter()
                .find(|(p, _)| *p == file)
                .unwrap_or_else(|| panic!("{file} is no port file"));
            let at = source.lines().nth(n.parse::<usize>().unwrap() - 1).unwrap();
            let range = rest.split_once(" (").map(|(_, r)| r.trim_end_matches(')'));
            let written = range.unwrap_or(label);
            assert!(at.contains(written), "{label}: {file}:{n} is `{at}`");
        }
    }
    assert!(labels >= 15, "POINTS has {labels} labels");
    assert!(
        cited >= 10,
        "only {cited} of POINTS's labels are cited by the port"
    );
    assert!(text.contains("POINTS:\n  ; -> port crates/sargon-port/src/"));
}
