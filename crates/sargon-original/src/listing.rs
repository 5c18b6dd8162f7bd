//! The annotated listing: the imported image disassembled, with its symbols, T-states and
//! the harness's hook points (what `sargon listing` prints), and with notes of the caller's
//! under each label ([`listing_with_notes`]: `sargon listing --port` puts there the port's
//! function and source line that implement the label).
//!
//! The listing is made at run time from the user's own imported ROM (image and symbol
//! table): nothing of Sargon is stored in the project.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::emu;
use crate::program::{block_containing, Program};
use crate::z80::{Flow, Instruction, Names};
use sargon_core::hooks::HookPoint;

/// The hook points' addresses, when the harness can use this ROM.
///
/// ```
/// use sargon_original::listing::hook_addresses;
/// # let dir = tempfile::tempdir()?;
/// # let file = dir.path().join("tiny.asm");
/// # std::fs::write(&file, "        ORG 100H\nSTART:  RET\n")?;
/// # let rom = sargon_original::rom::RomStore::new(dir.path().join("roms")).prepare(&file, "tiny", false)?.rom;
/// // A program that is not Sargon has no hook points to mark.
/// assert!(hook_addresses(&rom).is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn hook_addresses(rom: &crate::rom::Rom) -> Vec<(u16, HookPoint)> {
    match emu::Symbols::resolve(rom) {
        Ok(s) => HookPoint::ALL
            .into_iter()
            .map(|p| (s.hooks[p as usize], p))
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// Why a routine or label cannot be listed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ListingError {
    /// The image has no symbol of that name (the names close to it, if any).
    #[error("no symbol `{name}` in the image{}", if close.is_empty() { String::new() } else { format!("; close names: {}", close.join(", ")) })]
    NoSymbol {
        /// The name asked for, as [`echo`](sargon_core::input::echo) quotes it.
        name: String,
        /// Symbols of the image whose names are close to it.
        close: Vec<String>,
    },
    /// The symbol is data or a constant, not code.
    #[error("{name} ({addr:#06x}) is not code: a data symbol or a constant. Routines: {}", routines.join(", "))]
    NotCode {
        /// The symbol, upper case.
        name: String,
        /// Its value.
        addr: u16,
        /// The routines of the image, which can be listed.
        routines: Vec<String>,
    },
}

/// A listing, or why it cannot be made.
pub(crate) type Result<T, E = ListingError> = std::result::Result<T, E>;

/// The notes a listing shows under a label, by label name (one comment line each).
pub(crate) type Notes<'a> = &'a dyn Fn(&str) -> Vec<String>;

/// The listing of one routine or label, by name.
///
/// ```
/// use sargon_original::listing::listing_of;
/// # use sargon_original::{asm::assemble, Program};
/// # let a = assemble("        ORG 100H\nFNDMOV: CALL SUB\n        RET\nSUB:    LD A,1\n        RET\n")?;
/// # let program = Program::new(a.memory.clone(), 0x100, 0x107, &a.symbols);
/// // `program`: FNDMOV (100H) calls SUB (104H), each ending in RET.
/// let sub = listing_of(&program, &[], "sub")?;
/// assert!(sub.starts_with("; routine SUB: 0x0104-0x0106, 2 instructions, 3 bytes\n"));
/// assert!(listing_of(&program, &[], "SUBB").unwrap_err().to_string().contains("close names: SUB"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn listing_of(program: &Program, hooks: &[(u16, HookPoint)], name: &str) -> Result<String> {
    listing_with(program, hooks, None, name)
}

/// The listing of one routine or label with, under each label, the lines `notes` gives
/// for it, each as a comment (`  ; LINE`).
///
/// ```
/// use sargon_original::listing::listing_with_notes;
/// # use sargon_original::{asm::assemble, Program};
/// # let a = assemble("        ORG 100H\nFNDMOV: CALL SUB\n        RET\nSUB:    LD A,1\n        RET\n")?;
/// # let program = Program::new(a.memory.clone(), 0x100, 0x107, &a.symbols);
/// // `program`: FNDMOV (100H) calls SUB (104H), each ending in RET.
/// let notes = |label: &str| if label == "SUB" { vec!["loads 1".to_string()] } else { vec![] };
/// let sub = listing_with_notes(&program, &[], &notes, "SUB")?;
/// assert!(sub.contains("  ; loads 1"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn listing_with_notes(
    program: &Program,
    hooks: &[(u16, HookPoint)],
    notes: Notes<'_>,
    name: &str,
) -> Result<String> {
    listing_with(program, hooks, Some(notes), name)
}

fn listing_with(
    program: &Program,
    hooks: &[(u16, HookPoint)],
    notes: Option<Notes<'_>>,
    name: &str,
) -> Result<String> {
    let Some(addr) = program.lookup(name) else {
        return Err(ListingError::NoSymbol {
            name: sargon_core::input::echo(name),
            close: program.close_names(name),
        });
    };
    let name = name.to_ascii_uppercase();
    let blocks = program.code_blocks();
    if block_containing(&blocks, addr).is_none() {
        return Err(ListingError::NotCode {
            name,
            addr,
            routines: program.routines.values().cloned().collect(),
        });
    }
    let code = program.extent(addr);
    let mut out = String::new();
    let head = match program.routine_at(addr) {
        Some((r, rname)) if r == addr => format!("routine {rname}"),
        Some((_, rname)) => format!("label {name} in routine {rname}"),
        None => format!("label {name}"),
    };
    let bytes: u32 = code.iter().map(|i| u32::from(i.len())).sum();
    let _ = writeln!(
        out,
        "; {head}: {addr:#06x}-{:#06x}, {} instructions, {bytes} bytes",
        u32::from(addr) + bytes - 1,
        code.len()
    );
    write_code(&mut out, program, &blocks, hooks, notes, &code);
    Ok(out)
}

/// Every block of code in address order (see [`Program::code_blocks`]), with a note for
/// each stretch of bytes in none.
///
/// ```
/// use sargon_original::listing::full_listing;
/// # use sargon_original::{asm::assemble, Program};
/// # let a = assemble("        ORG 100H\nFNDMOV: CALL SUB\n        RET\nSUB:    LD A,1\n        RET\n")?;
/// # let program = Program::new(a.memory.clone(), 0x100, 0x107, &a.symbols);
/// // `program`: FNDMOV (100H) calls SUB (104H), each ending in RET.
/// let all = full_listing(&program, &[]);
/// assert!(all.starts_with("; image 0x0100-0x0106: 2 routines (FNDMOV and the targets of CALL instructions)\n"));
/// assert!(all.contains("SUB"));
/// # Ok::<(), sargon_original::asm::AsmError>(())
/// ```
pub fn full_listing(program: &Program, hooks: &[(u16, HookPoint)]) -> String {
    let blocks = program.code_blocks();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "; image {:#06x}-{:#06x}: {} routines (FNDMOV and the targets of CALL instructions)",
        program.start,
        program.end - 1,
        program.routines.len()
    );
    let mut pc = u32::from(program.start);
    for (&a, code) in &blocks {
        let a32 = u32::from(a);
        if a32 < pc {
            continue;
        }
        if a32 > pc {
            gap_note(&mut out, program, pc, a32);
        }
        out.push('\n');
        write_code(&mut out, program, &blocks, hooks, None, code);
        pc = code
            .last()
            .map(|l| u32::from(l.addr) + u32::from(l.len()))
            .unwrap_or(a32);
    }
    if pc < program.end {
        gap_note(&mut out, program, pc, program.end);
    }
    out
}

fn gap_note(out: &mut String, program: &Program, from: u32, to: u32) {
    let labels: Vec<&str> = program
        .names
        .range(from as u16..=(to - 1) as u16)
        .map(|(_, n)| n[0].as_str())
        .collect();
    let shown: Vec<&str> = labels.iter().take(12).copied().collect();
    let more = if labels.len() > shown.len() {
        format!(" and {} more", labels.len() - shown.len())
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "\n; {from:#06x}-{:#06x}: {} bytes in no routine (data, or code no routine reaches){}",
        to - 1,
        to - from,
        if shown.is_empty() {
            String::new()
        } else {
            format!("; symbols {}{more}", shown.join(", "))
        }
    );
}

/// Write instructions with labels on their own lines, T-states and hook markers; with
/// `notes`, the caller's lines under each label.
fn write_code(
    out: &mut String,
    program: &Program,
    blocks: &BTreeMap<u16, Vec<Instruction>>,
    hooks: &[(u16, HookPoint)],
    notes: Option<Notes<'_>>,
    code: &[Instruction],
) {
    for ins in code {
        for n in program.names_at(ins.addr) {
            let _ = writeln!(out, "{n}:");
            let Some(notes) = notes else { continue };
            for note in notes(n) {
                let _ = writeln!(out, "  ; {note}");
            }
        }
        let bytes: Vec<String> = ins.bytes.iter().map(|b| format!("{b:02X}")).collect();
        let mut line = format!(
            "  {:04X}  {:<12} {:<26} {:>5}",
            ins.addr,
            bytes.join(" "),
            ins.text_with(program as &dyn Names),
            ins.timing.to_string()
        );
        for (a, p) in hooks {
            if *a == ins.addr {
                let _ = write!(line, "   <- hook {}", p.name());
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
        if ins.mnemonic == "RST"
            && let Flow::Call(t) = ins.flow
            && block_containing(blocks, t).is_none()
        {
            let _ = writeln!(
                out,
                "  ; RST {t:#04x} leaves the program (a call into the machine's own \
                         routines): the bytes after it may be that call's parameters, not \
                         instructions"
            );
        }
    }
}
