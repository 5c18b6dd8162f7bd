//! The assembler against zmac: assembling the user's copy of Sargon's Z80 transcription
//! must give exactly the bytes, addresses and symbols of zmac's listing of it. Neither file
//! is part of the repository; they are read at run time from `SARGON_ASM`/`SARGON_LST` or
//! from an imported ROM that kept both. Also the project's own Z80 test programs in `z80/`.

use crate::common;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use sargon_original::asm::{self, listing};

/// The ROM store, chosen as `sargon` chooses it (without `--roms`).
fn rom_store() -> Option<PathBuf> {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    env("SARGON_ROMS")
        .or_else(|| env("XDG_DATA_HOME").map(|d| d.join("sargon/roms")))
        .or_else(|| env("HOME").map(|h| h.join(".local/share/sargon/roms")))
}

/// The transcription and its listing: from the environment, else the first ROM (by name)
/// in the store that kept both; else what is missing, for the skip line.
fn sargon_files() -> Result<(PathBuf, PathBuf), String> {
    const HOW: &str = "set SARGON_ASM and SARGON_LST, or `sargon rom import` the transcription \
                       and then its zmac listing (roms/README.md)";
    match (
        std::env::var_os("SARGON_ASM"),
        std::env::var_os("SARGON_LST"),
    ) {
        (Some(a), Some(l)) => return Ok((a.into(), l.into())),
        (Some(_), None) => return Err("SARGON_ASM is set but SARGON_LST is not".into()),
        (None, Some(_)) => return Err("SARGON_LST is set but SARGON_ASM is not".into()),
        (None, None) => {}
    }
    let store = rom_store().ok_or_else(|| format!("no ROM store found ({HOW})"))?;
    let mut dirs: Vec<PathBuf> = fs::read_dir(&store)
        .map_err(|_| format!("no Sargon ROM imported in {} ({HOW})", store.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|d| d.join("rom.json").is_file())
        .collect();
    dirs.sort();
    if dirs.is_empty() {
        return Err(format!(
            "no Sargon ROM imported in {} ({HOW})",
            store.display()
        ));
    }
    if let Some(both) = dirs
        .iter()
        .map(|d| (d.join("source.asm"), d.join("source.lst")))
        .find(|(a, l)| a.is_file() && l.is_file())
    {
        return Ok(both);
    }
    let names: Vec<String> = dirs
        .iter()
        .map(|d| {
            d.file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    Err(format!(
        "ROM imported ({}) but none kept both the transcription and its listing \
         (source.asm and source.lst): {HOW}",
        names.join(", ")
    ))
}

fn read_text(path: &Path) -> String {
    let bytes = fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    String::from_utf8_lossy(&bytes).into_owned()
}

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn sargon_matches_zmac_listing() {
    let (asm_path, lst_path) = match sargon_files() {
        Ok(files) => {
            common::ran_with_rom("sargon_matches_zmac_listing");
            files
        }
        Err(missing) => {
            common::skip_for_want_of_rom("sargon_matches_zmac_listing", &missing);
            return;
        }
    };
    let source = read_text(&asm_path);
    let listing_text = read_text(&lst_path);
    let source_lines: Vec<&str> = source.lines().collect();
    let text_of = |n: usize| {
        source_lines
            .get(n.wrapping_sub(1))
            .copied()
            .unwrap_or("")
            .trim_end()
    };

    assert!(
        listing::looks_like_listing(&listing_text),
        "{} does not look like a zmac listing",
        lst_path.display()
    );
    assert!(
        !listing::looks_like_listing(&source),
        "{} looks like a listing",
        asm_path.display()
    );

    let start = std::time::Instant::now();
    let ours =
        asm::assemble(&source).unwrap_or_else(|e| panic!("assembling {}: {e}", asm_path.display()));
    let elapsed = start.elapsed();
    let read = listing::read_listing(&listing_text)
        .unwrap_or_else(|e| panic!("reading {}: {e}", lst_path.display()));
    let zmac = &read.assembly;

    // Line by line.
    let mut bytes_compared = 0;
    for (i, (z, o)) in zmac.lines.iter().zip(&ours.lines).enumerate() {
        assert!(
            z == o,
            "line {}: `{}`\n  expected (zmac listing): line {} at {:04X}: [{}]\n  actual (assembled):     line {} at {:04X}: [{}]\n  (record {i} of {})",
            z.0,
            text_of(z.0),
            z.0,
            z.1,
            hex(&z.2),
            o.0,
            o.1,
            hex(&o.2),
            zmac.lines.len(),
        );
        bytes_compared += z.2.len();
    }
    if zmac.lines.len() != ours.lines.len() {
        let (who, extra) = if zmac.lines.len() > ours.lines.len() {
            ("only the listing", &zmac.lines[ours.lines.len()])
        } else {
            ("only we", &ours.lines[zmac.lines.len()])
        };
        panic!(
            "{} records in the listing, {} assembled; {who} emit line {} at {:04X}: [{}]\n  line {}: {}",
            zmac.lines.len(),
            ours.lines.len(),
            extra.0,
            extra.1,
            hex(&extra.2),
            extra.0,
            text_of(extra.0)
        );
    }

    // zmac's own count of the bytes it emitted (its "Statistics:"), an independent check
    // on the total, including any line whose record in the listing is damaged.
    let zmac_total = listing_text.lines().find_map(|l| {
        let (n, what) = l.trim().split_once(char::is_whitespace)?;
        (what.trim() == "bytes")
            .then(|| n.parse::<usize>().ok())
            .flatten()
    });
    if let Some(total) = zmac_total {
        let ours_total: usize = ours.lines.iter().map(|l| l.2.len()).sum();
        assert_eq!(
            total, ours_total,
            "zmac's statistics count {total} bytes, we emit {ours_total}"
        );
    }

    // The memory image, the extent, the symbols.
    let differing: Vec<usize> = (0..0x10000)
        .filter(|&a| zmac.memory[a] != ours.memory[a])
        .collect();
    assert!(
        differing.is_empty(),
        "memory differs at {} addresses, first {:04X}",
        differing.len(),
        differing[0]
    );
    assert_eq!(zmac.extent, ours.extent, "extent");
    let only = |a: &BTreeMap<String, u16>, b: &BTreeMap<String, u16>| {
        a.iter()
            .filter(|(k, v)| b.get(*k) != Some(v))
            .map(|(k, v)| format!("{k}={v:04X}"))
            .collect::<Vec<_>>()
    };
    let (only_zmac, only_ours) = (
        only(&zmac.symbols, &ours.symbols),
        only(&ours.symbols, &zmac.symbols),
    );
    assert!(
        only_zmac.is_empty() && only_ours.is_empty(),
        "symbols differ: listing has {only_zmac:?}, we have {only_ours:?}"
    );
    assert!(elapsed.as_secs_f64() < 1.0, "assembling took {elapsed:?}");

    eprintln!(
        "compared {} lines ({} source lines), {bytes_compared} bytes, 65536 memory bytes, {} symbols: 0 mismatches; assembled in {:.1} ms",
        zmac.lines.len(),
        source_lines.len(),
        zmac.symbols.len(),
        elapsed.as_secs_f64() * 1000.0
    );
    if !read.recovered.is_empty() {
        let recovered: Vec<String> = read
            .recovered
            .iter()
            .map(|n| format!("{n} `{}`", text_of(*n).trim()))
            .collect();
        eprintln!(
            "note: the listing's record of {} line(s) is damaged (a zmac listing fault), so those lines were \
             recovered from the listing's own source text (they match by construction; \
             zmac's byte count {} agrees): {}",
            recovered.len(),
            zmac_total.map_or("(absent)".to_string(), |t| t.to_string()),
            recovered.join(", ")
        );
    }
}

fn z80_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("z80")
}

/// `z80/asm-selftest.expected`: per source line that emits bytes, in order, its bytes in
/// hex, optionally preceded by `@ADDR` (otherwise the line follows the previous one).
fn expected_records(text: &str) -> Vec<(Option<u16>, Vec<u8>, String)> {
    let mut out = Vec::new();
    for raw in text.lines() {
        let (data, note) = raw.split_once(';').unwrap_or((raw, ""));
        let data = data.trim();
        if data.is_empty() || data.starts_with('#') {
            continue;
        }
        let mut addr = None;
        let mut bytes = Vec::new();
        for tok in data.split_whitespace() {
            if let Some(a) = tok.strip_prefix('@') {
                addr = Some(
                    u16::from_str_radix(a, 16).unwrap_or_else(|_| panic!("bad address in `{raw}`")),
                );
            } else {
                bytes.push(
                    u8::from_str_radix(tok, 16)
                        .unwrap_or_else(|_| panic!("bad byte `{tok}` in `{raw}`")),
                );
            }
        }
        out.push((addr, bytes, note.trim().to_string()));
    }
    out
}

#[test]
fn selftest_program_matches_hand_written_bytes() {
    let source = read_text(&z80_dir().join("asm-selftest.asm"));
    let expected = expected_records(&read_text(&z80_dir().join("asm-selftest.expected")));
    let ours = asm::assemble(&source).unwrap_or_else(|e| panic!("asm-selftest.asm: {e}"));
    let source_lines: Vec<&str> = source.lines().collect();
    let mut next: Option<u16> = None;
    for (i, ((addr, bytes, note), (line, at, got))) in expected.iter().zip(&ours.lines).enumerate()
    {
        let want_at = addr
            .or(next)
            .expect("the first expected record needs an @address");
        assert!(
            (want_at, bytes) == (*at, got),
            "record {i} ({note}): expected {want_at:04X}: [{}], assembled line {line} `{}` at {at:04X}: [{}]",
            hex(bytes),
            source_lines[line - 1].trim(),
            hex(got)
        );
        next = Some(want_at.wrapping_add(bytes.len() as u16));
    }
    assert_eq!(expected.len(), ours.lines.len(), "number of emitting lines");
    let total: usize = expected.iter().map(|e| e.1.len()).sum();
    eprintln!(
        "asm-selftest: {} lines, {total} bytes as expected",
        expected.len()
    );
}

#[test]
fn hello_harness_assembles() {
    let source = read_text(&z80_dir().join("hello-harness.asm"));
    let a = asm::assemble(&source).unwrap_or_else(|e| panic!("hello-harness.asm: {e}"));
    for name in ["ADD2", "OPA", "OPB", "SUM", "FILL", "BUFFER", "COUNT"] {
        assert!(
            a.symbols.contains_key(name),
            "hello-harness.asm lacks {name}"
        );
    }
    // ADD2 is where the emulator tests call: it must start with LD A,(OPA).
    let add2 = a.symbols["ADD2"] as usize;
    let opa = a.symbols["OPA"];
    assert_eq!(
        a.memory[add2..add2 + 3],
        [0x3A, opa as u8, (opa >> 8) as u8]
    );
}
