//! The README's commands work as written: every command in a fenced block that starts with
//! `sargon ` or `cargo run --release --` is run (on the `sargon` binary under test) and
//! must succeed, and every row of the table of commands names a subcommand whose `--help`
//! works and lists each `--flag` the row shows.

use crate::common;

use std::path::Path;

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap()
}

/// The commands of the README's fenced blocks, as arguments to the `sargon` binary.
fn fenced_commands(text: &str) -> Vec<Vec<String>> {
    let mut commands = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let line = line.trim();
        let rest = line
            .strip_prefix("cargo run --release -- ")
            .or_else(|| line.strip_prefix("sargon "));
        if let (true, Some(rest)) = (fenced, rest) {
            commands.push(rest.split_whitespace().map(String::from).collect());
        }
    }
    commands
}

#[test]
fn every_fenced_readme_command_runs() {
    let commands = fenced_commands(&readme());
    assert!(
        !commands.is_empty(),
        "the README shows how to run the main job"
    );
    for args in &commands {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = common::sargon(&args);
        assert!(out.status.success(), "sargon {}", args.join(" "));
        assert!(
            !out.stdout.is_empty(),
            "sargon {} printed nothing",
            args.join(" ")
        );
    }
    eprintln!("{} README commands ran", commands.len());
}

#[test]
fn every_command_of_the_readme_table_exists_with_its_flags() {
    let text = readme();
    let mut rows = 0;
    for line in text.lines() {
        // | `sargon rom verify [NAME] [--full]` | what it does | doc |
        let Some(cell) = line
            .strip_prefix("| `sargon ")
            .and_then(|rest| rest.split_once('`'))
            .map(|(cell, _)| cell)
        else {
            continue;
        };
        rows += 1;
        // The subcommand is the leading lower-case words; the rest are arguments.
        let words: Vec<&str> = cell
            .split_whitespace()
            .take_while(|w| w.chars().all(|c| c.is_ascii_lowercase()))
            .collect();
        let mut args = words.clone();
        args.push("--help");
        let out = common::sargon(&args);
        assert!(out.status.success(), "sargon {}: {cell}", args.join(" "));
        let help = String::from_utf8_lossy(&out.stdout);
        for flag in cell.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
            if flag.starts_with("--") {
                assert!(
                    help.contains(flag),
                    "`sargon {}` has no {flag}",
                    words.join(" ")
                );
            }
        }
    }
    assert!(rows >= 15, "only {rows} commands in the README's table");
}
