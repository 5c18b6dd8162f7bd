//! The port's links to the original (`sargon_studies::port_links`): every routine name
//! and label the port cites or names in its doc comments must be a symbol of the user's
//! imported image (docs/port.md, "Links to the original"), and each citation must point at
//! the source line that holds it.

mod common;

use sargon_studies::port_links::{Form, PortLinks, PORT_SOURCES};

#[test]
fn every_name_the_port_cites_is_a_symbol_of_the_image() {
    let Some(rom) = common::rom("every_name_the_port_cites_is_a_symbol_of_the_image") else {
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
    let Some(rom) = common::rom("a_port_comment_citing_a_missing_label_fails_the_check") else {
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
