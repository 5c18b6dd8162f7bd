//! Every data table (issue 25 item 4): each change is refused, or named where no search
//! reads it.

use std::path::Path;

use sargon_engines::engines::OpenError;
use sargon_original::emu::Emulator;
use sargon_original::rom::{fingerprint, RomStore};
use sargon_referee::behaviour;

use super::copies::{stored_source, with_line_changed, workspace};
use super::tables::known_rom;

/// The first value of a `DB`/`DW` line one more (`TBASE` becomes `TBASE+1`); `None` for a
/// line of text or without values.
fn with_first_value_changed(line: &str) -> Option<String> {
    let code_end = line.find(';').unwrap_or(line.len());
    let upper = line[..code_end].to_ascii_uppercase();
    let at = upper
        .find(" DB ")
        .or_else(|| upper.find("\tDB\t"))
        .or_else(|| upper.find(" DW "))
        .or_else(|| upper.find("\tDW\t"))
        .or_else(|| upper.find(" DB\t"))
        .or_else(|| upper.find(" DW\t"))?
        + 4;
    let values = &line[at..code_end];
    let first = values.split(',').next()?;
    let value = first.trim();
    if value.is_empty() || value.contains(['\'', '"']) {
        return None;
    }
    let changed = match value.parse::<i32>() {
        Ok(n) => (n + 1).to_string(),
        Err(_) => format!("{value}+1"),
    };
    let start = at + first.find(value)?;
    Some(format!(
        "{}{}{}",
        &line[..start],
        changed,
        &line[start + value.len()..]
    ))
}

#[test]
fn every_data_table_change_is_refused_or_named_where_unread() {
    let test = "every_data_table_change_is_refused_or_named_where_unread";
    let Some(rom) = known_rom(test) else {
        return;
    };
    let Some(source) = stored_source(test) else {
        return;
    };
    // Which image bytes the import's searches read: measured here on the known image.
    let reads: sargon_original::emu::ImageReads =
        std::sync::Arc::new(std::sync::Mutex::new(vec![false; 0x10000]));
    let make = || -> Result<Box<dyn sargon_core::engine::Engine + Send>, OpenError> {
        let mut emulator = Emulator::new(rom.clone())?;
        emulator.track_reads(reads.clone());
        Ok(Box::new(emulator))
    };
    let cases = sargon_referee::verify::Scope::Quick.cases();
    behaviour::replay_all(&cases, &make, 2, &|_| {}).unwrap();
    let reads = reads.lock().unwrap().clone();
    let tables = sargon_original::coverage::report(
        &rom,
        &sargon_original::coverage::Coverage::new(),
        &reads,
    )
    .tables;

    let ws = workspace();
    let store = RomStore::new(ws.store.clone());
    let known = rom.memory();
    let (mut refused, mut allowed) = (Vec::new(), Vec::new());
    let lines: Vec<&str> = source.lines().collect();
    for (n, line) in lines.iter().enumerate() {
        let Some(changed_line) = with_first_value_changed(line) else {
            continue;
        };
        let changed = with_line_changed(&source, n, |_| changed_line.clone());
        let file = ws.write("table.asm", &changed);
        let mutant = store
            .prepare(Path::new(&file), "table", true)
            .unwrap_or_else(|e| panic!("line {n} `{changed_line}` assembles: {e}"))
            .rom;
        let memory = mutant.memory();
        let at: Vec<usize> = (0..0x10000).filter(|&a| memory[a] != known[a]).collect();
        assert!(!at.is_empty(), "line {n}: the change changes the image");
        // Every changed byte in one data region; a value inside code (a DB in a routine or
        // in a macro that code uses) is the code fingerprints' business.
        let Some(table) = tables.iter().find(|t| {
            let r = usize::from(t.start)..usize::from(t.start) + t.bytes;
            at.iter().all(|a| r.contains(a))
        }) else {
            continue;
        };
        let offset = at[0] - usize::from(table.start);
        let differences = fingerprint::differences(&mutant, Some(&reads));
        let what = format!("{}[{offset}]", table.name);
        if table.read > 0 {
            // Some byte of the region is read by a search: the image is not the known one.
            assert!(differences.in_search(), "{what}: {differences:?}");
            assert!(
                differences.read_data.contains(&table.name),
                "{what}: {differences:?}"
            );
            refused.push(what);
        } else {
            // No search reads the region: allowed, and named.
            assert!(!differences.in_search(), "{what}: {differences:?}");
            assert!(
                differences.unread_data.contains(&table.name),
                "{what}: {differences:?}"
            );
            allowed.push(what);
        }
    }
    eprintln!("refused ({}): {}", refused.len(), refused.join(" "));
    eprintln!("allowed, named ({}): {}", allowed.len(), allowed.join(" "));
    // The tables the search is made of are among the refused.
    for table in ["DIRECT", "DPOINT", "DCOUNT", "PVALUE"] {
        assert!(
            refused.iter().any(|r| r.contains(table)),
            "{table}: {refused:?}"
        );
    }
    assert!(
        allowed.iter().any(|a| a.starts_with("PIECES")),
        "{allowed:?}"
    );
}
