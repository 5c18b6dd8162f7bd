//! Per-routine fingerprints: which parts of an image differ from the known transcription.
//!
//! The behavioural check (`crate::verify`) says *whether* an image behaves like the known
//! Sargon; these fingerprints say *where* its code differs, so that a typo or a shifted
//! table points at its routine. The repository may hold no byte of Sargon, so the known
//! transcription is kept as one hash per region in `roms/routines.tsv`, written by
//! `UPDATE_GOLDENFILES=1 cargo test --test it rom_verify::` from the known image, never by hand.
//!
//! The image is cut into regions with the program map ([`Program`]):
//!
//! * **code**: each block of [`Program::code_blocks`] (every routine, and every label
//!   outside them that code jumps to), hashed as its instructions' text with the listing's
//!   names: jump and call targets, memory operands and 16-bit immediates that are symbol
//!   addresses become the symbol's name, an unnamed target becomes `NAME+offset` from the
//!   symbol before it, and instruction addresses are left out. A routine then keeps its
//!   fingerprint when code elsewhere grows or shrinks and moves it, and changes when one
//!   of its own instructions does.
//! * **data**: everything else (variables, tables, messages), cut at every symbol's
//!   address and at each table of the `TBASE` window (Sargon addresses its tables as
//!   `(IX+DIRECT)` with `DIRECT EQU $-TBASE`, so a table's name is a displacement, not an
//!   address), hashed as bytes. A changed piece value then names `PVALUE`. Regions
//!   shorter than six bytes (one-byte variables) are hashed together with the next ones
//!   and named `FIRST..LAST`: a hash of a single byte would be that byte.
//!
//! Region names are the symbols' (the listing's choice where several share an address,
//! the table names joined by `|` where a table of the window starts).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use sha2::{Digest, Sha256};

use crate::program::{block_containing, Program};
use crate::rom::Rom;
use crate::z80::{Instruction, Names, Operand};

/// The known transcription's fingerprints, as committed.
pub const KNOWN: &str = include_str!("../../../../roms/routines.tsv");

/// Hex digits of SHA-256 kept per region: enough to tell any two versions apart.
const HASH_DIGITS: usize = 16;

/// The base of Sargon's table window: tables are named by their displacement from it.
const TABLE_BASE: &str = "TBASE";

/// Data regions shorter than this are hashed together with the next: the hash of a
/// byte or two would give the bytes away.
const MIN_DATA_BYTES: u32 = 6;

/// Code or data.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Instructions: hashed with addresses replaced by symbol names.
    Code,
    /// Tables and variables.
    Data,
}

impl Kind {
    /// `code` or `data`, as `roms/routines.tsv` writes it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Code => "code",
            Kind::Data => "data",
        }
    }
}

/// One region of an image and its fingerprint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// The label the region starts at.
    pub name: String,
    /// Code or data.
    pub kind: Kind,
    /// Its first address in this image (not part of the fingerprint).
    pub start: u16,
    /// The address after its last byte in this image (not part of the fingerprint).
    pub end: u32,
    /// Code a search can run in this image: reachable from `SEARCH_ENTRIES` by its calls,
    /// jumps and fall-through (always false for data).
    pub search: bool,
    /// The fingerprint: SHA-256 in hex.
    pub hash: String,
}

/// The listing's names, with unnamed targets and memory operands named from the symbol
/// before them, so that no absolute address of the image enters a code fingerprint.
struct StableNames<'a>(&'a Program);

impl StableNames<'_> {
    fn near(&self, addr: u16) -> Option<String> {
        let p = self.0;
        if addr < p.start || u32::from(addr) >= p.end {
            return None;
        }
        let (&base, _) = p.names.range(..=addr).next_back()?;
        Some(format!("{}+{}", p.name_at(base)?, addr - base))
    }
}

impl Names for StableNames<'_> {
    fn label(&self, addr: u16) -> Option<String> {
        self.0.label(addr).or_else(|| self.near(addr))
    }
    fn data(&self, addr: u16) -> Option<String> {
        self.0.data(addr).or_else(|| self.near(addr))
    }
    fn immediate(&self, value: u16) -> Option<String> {
        self.0.immediate(value)
    }
    fn displacement(&self, d: i8) -> Option<String> {
        self.0.displacement(d)
    }
}

fn short_hash(bytes: &[u8]) -> String {
    let mut h = hex::encode(Sha256::digest(bytes));
    h.truncate(HASH_DIGITS);
    h
}

/// The regions of an image, in address order.
///
/// ```
/// use sargon_original::rom::fingerprint::regions;
/// # let dir = tempfile::tempdir()?;
/// # let file = dir.path().join("two.asm");
/// # std::fs::write(&file, "        ORG 100H\nFNDMOV: CALL SUB\n        RET\nSUB:    LD A,1\n        RET\n")?;
/// # let rom = sargon_original::rom::RomStore::new(dir.path().join("roms")).prepare(&file, "two", false)?.rom;
/// // `rom`: FNDMOV (100H) calls SUB (104H), each ending in RET; not Sargon.
/// let found = regions(&rom);
/// let names: Vec<_> = found.iter().map(|r| (r.name.as_str(), r.start, r.search)).collect();
/// assert_eq!(names, [("FNDMOV", 0x100, true), ("SUB", 0x104, true)]);
/// assert!(found.iter().all(|r| !r.hash.is_empty()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn regions(rom: &Rom) -> Vec<Region> {
    let program = Program::of_rom(rom);
    let names = StableNames(&program);
    let blocks = program.code_blocks();

    // Code: one region per block, its text hashed at the end (a short tail may join it).
    let mut code_bytes = vec![false; 0x10000];
    let mut code_text: BTreeMap<u16, String> = BTreeMap::new();
    for (&start, code) in &blocks {
        let mut text = String::new();
        for ins in code {
            let _ = writeln!(text, "{}", ins.text_with(&names));
            for a in u32::from(ins.addr)..u32::from(ins.addr) + u32::from(ins.len()) {
                code_bytes[a as usize & 0xffff] = true;
            }
        }
        code_text.insert(start, text);
    }

    // Data: the rest, cut at symbols and at the tables of the TBASE window.
    let mut tables: BTreeMap<u16, Vec<String>> = BTreeMap::new();
    if let Some(&base) = program.symbols.get(TABLE_BASE) {
        for (name, &value) in &program.symbols {
            // A negative 8-bit displacement, as the transcription writes `$-TBASE`.
            if value >= 0xff80 {
                tables
                    .entry(base.wrapping_add(value))
                    .or_default()
                    .push(name.clone());
            }
        }
    }
    // In the window below TBASE only the tables cut: the plain symbols there are
    // constants that happen to share an address (BLACK, BPAWN).
    let window = program
        .symbols
        .get(TABLE_BASE)
        .map(|&base| u32::from(base.saturating_sub(0x80))..u32::from(base));
    // Nor do the values the code uses only as index displacements: `PLIST EQU $-TBASE-1`
    // is used as `(IX+PLIST)`, and its value, 57, is no address, but the middle of the
    // book (BMOVES) in page 0.
    let offsets = displacements_only(blocks.values().flatten());
    let names_data = |addr: u16| (!offsets.contains(&addr)).then(|| program.name_at(addr));
    let cuts: BTreeSet<u32> = program
        .names
        .keys()
        .filter(|a| !offsets.contains(a))
        .map(|&a| u32::from(a))
        .filter(|a| !window.as_ref().is_some_and(|w| w.contains(a)))
        .chain(tables.keys().map(|&a| u32::from(a)))
        .collect();
    let name_of = |addr: u16, after_code: Option<u16>| -> String {
        if let Some(t) = tables.get(&addr) {
            return t.join("|");
        }
        if let Some(n) = names_data(addr).flatten() {
            return n.to_string();
        }
        match after_code {
            Some(block) => format!("{}+end", program.name_at(block).unwrap_or("?")),
            None => format!("{addr:#06x}"),
        }
    };
    let mut out = Vec::new();
    let mut addr = u32::from(program.start);
    while addr < program.end {
        if code_bytes[addr as usize] {
            addr += 1;
            continue;
        }
        let start = addr;
        let after_code = (start > u32::from(program.start) && code_bytes[start as usize - 1])
            .then(|| block_containing(&blocks, start as u16 - 1))
            .flatten();
        let first = name_of(start as u16, after_code);
        let mut last = first.clone();
        addr += 1;
        loop {
            while addr < program.end && !code_bytes[addr as usize] && !cuts.contains(&addr) {
                addr += 1;
            }
            // A region too short to hash on its own joins the next one.
            let more = addr < program.end && !code_bytes[addr as usize];
            if addr - start >= MIN_DATA_BYTES || !more {
                break;
            }
            last = name_of(addr as u16, None);
            addr += 1;
        }
        let bytes = &program.memory[start as usize..addr as usize];
        if let (true, Some(text)) = (
            addr - start < MIN_DATA_BYTES,
            after_code.and_then(|b| code_text.get_mut(&b)),
        ) {
            // A few bytes between two blocks of code: part of the block before.
            let _ = writeln!(text, "DB {}", hex::encode(bytes));
            continue;
        }
        out.push(Region {
            name: if last == first {
                first
            } else {
                format!("{first}..{last}")
            },
            kind: Kind::Data,
            start: start as u16,
            end: addr,
            search: false,
            hash: short_hash(bytes),
        });
    }
    let entries: Vec<u16> = SEARCH_ENTRIES
        .iter()
        .filter_map(|n| program.lookup(n))
        .collect();
    let reachable = program.reachable_blocks(&entries);
    for (start, text) in code_text {
        let end = blocks[&start]
            .last()
            .map_or(u32::from(start), |i| u32::from(i.addr) + u32::from(i.len()));
        out.push(Region {
            name: program.name_at(start).unwrap_or("?").to_string(),
            kind: Kind::Code,
            start,
            end,
            search: reachable.contains(&start),
            hash: short_hash(text.as_bytes()),
        });
    }
    out.sort_by_key(|r| r.start);

    // Names are keys: a second region of the same name (rare) gets its rank.
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for r in &mut out {
        let n = seen.entry(r.name.clone()).or_default();
        *n += 1;
        if *n > 1 {
            r.name = format!("{}#{}", r.name, n);
        }
    }
    out
}

/// The values `code` uses as non-negative index displacements (`(IX+d)`) and never as an
/// address (a memory operand, a 16-bit immediate or a jump target): offsets, whatever
/// symbols share them, not the addresses of data.
fn displacements_only<'a>(code: impl Iterator<Item = &'a Instruction>) -> BTreeSet<u16> {
    let (mut displacements, mut addresses) = (BTreeSet::new(), BTreeSet::new());
    for ins in code {
        for operand in &ins.operands {
            match *operand {
                Operand::Indexed(_, d) if d >= 0 => {
                    displacements.insert(d as u16);
                }
                Operand::Imm16(a) | Operand::Mem(a) | Operand::Target(a) => {
                    addresses.insert(a);
                }
                _ => {}
            }
        }
    }
    displacements.difference(&addresses).copied().collect()
}

/// The fingerprints as `roms/routines.tsv` holds them.
///
/// ```
/// use sargon_original::rom::fingerprint::{regions, table};
/// # let dir = tempfile::tempdir()?;
/// # let file = dir.path().join("two.asm");
/// # std::fs::write(&file, "        ORG 100H\nFNDMOV: CALL SUB\n        RET\nSUB:    LD A,1\n        RET\n")?;
/// # let rom = sargon_original::rom::RomStore::new(dir.path().join("roms")).prepare(&file, "two", false)?.rom;
/// // `rom`: FNDMOV (100H) calls SUB (104H), each ending in RET; not Sargon.
/// let text = table(&regions(&rom));
/// let rows: Vec<_> = text.lines().filter(|l| !l.starts_with('#')).collect();
/// assert_eq!(rows.len(), 2);
/// assert!(rows[1].starts_with("SUB\tcode\t") && rows[1].ends_with("\tsearch"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn table(regions: &[Region]) -> String {
    let mut out = String::from(
        "# Per-region fingerprints of the known Sargon image (see src/original/rom/fingerprint.rs):\n\
         # name, code or data, the first hex digits of a SHA-256, and `search` for code a\n\
         # search runs (reachable from ROYALT, VALMOV and FNDMOV). Hashes only, never bytes.\n\
         # Written by `UPDATE_GOLDENFILES=1 cargo test --test it rom_verify::` from the known image.\n",
    );
    for r in regions {
        let reach = if r.search { "search" } else { "-" };
        let _ = writeln!(out, "{}\t{}\t{}\t{reach}", r.name, r.kind.name(), r.hash);
    }
    out
}

/// The known fingerprints: name, kind, hash, in address order.
///
/// ```
/// use sargon_original::rom::fingerprint::known;
/// let known = known();
/// assert!(known.iter().any(|(name, kind, _)| name == "POINTS" && kind == "code"));
/// ```
pub fn known() -> Vec<(String, String, String)> {
    known_lines()
        .map(|f| (f[0].to_string(), f[1].to_string(), f[2].to_string()))
        .collect()
}

/// The code regions a search of the known image runs: what a search normally runs, even
/// where a changed image's own code no longer reaches it (a loop, an early return).
///
/// ```
/// use sargon_original::rom::fingerprint::known_search_code;
/// let search = known_search_code();
/// assert!(search.contains("FNDMOV") && search.contains("POINTS"));
/// ```
pub fn known_search_code() -> BTreeSet<String> {
    known_lines()
        .filter(|f| f[3] == "search")
        .map(|f| f[0].to_string())
        .collect()
}

/// The fields of each line of `roms/routines.tsv`.
fn known_lines() -> impl Iterator<Item = Vec<&'static str>> {
    KNOWN
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| f.len() == 4)
}

/// The regions of `image` that differ from the known transcription, in the image's
/// address order then the known ones the image lacks: a changed hash, or a name only one
/// side has (a renamed or missing label). Empty when no fingerprint is recorded.
///
/// ```
/// use sargon_original::rom::fingerprint::{differing, regions};
/// # let dir = tempfile::tempdir()?;
/// # let file = dir.path().join("two.asm");
/// # std::fs::write(&file, "        ORG 100H\nFNDMOV: CALL SUB\n        RET\nSUB:    LD A,1\n        RET\n")?;
/// # let rom = sargon_original::rom::RomStore::new(dir.path().join("roms")).prepare(&file, "two", false)?.rom;
/// // `rom`: FNDMOV (100H) calls SUB (104H), each ending in RET; not Sargon.
/// // FNDMOV's code is not Sargon's, and all the other routines are missing.
/// let differ = differing(&regions(&rom));
/// assert_eq!(differ[0], "FNDMOV");
/// assert!(differ.contains(&"POINTS (missing)".to_string()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn differing(image: &[Region]) -> Vec<String> {
    let known = known();
    if known.is_empty() {
        return Vec::new();
    }
    let by_name: BTreeMap<&str, &str> = known
        .iter()
        .map(|(n, _, h)| (n.as_str(), h.as_str()))
        .collect();
    let mut out: Vec<String> = image
        .iter()
        .filter(|r| by_name.get(r.name.as_str()) != Some(&r.hash.as_str()))
        .map(|r| r.name.clone())
        .collect();
    let present: BTreeSet<&str> = image.iter().map(|r| r.name.as_str()).collect();
    out.extend(
        known
            .iter()
            .filter(|(n, _, _)| !present.contains(n.as_str()))
            .map(|(n, _, _)| format!("{n} (missing)")),
    );
    out
}

/// The routines the emulator harness calls: every search runs from these (set-up, the
/// replay of a move, the search), so the code they reach is the code a search can run.
pub(crate) const SEARCH_ENTRIES: [&str; 3] = ["ROYALT", "VALMOV", "FNDMOV"];

/// Where an image differs from the known transcription, sorted by what the project's
/// searches do there. Only the first two kinds make an image not the known Sargon: the
/// other two are named, and allowed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Differences {
    /// Code a search can run (reachable by calls, jumps and fall-through from
    /// `SEARCH_ENTRIES`, in this image or in the known one), and the known regions the
    /// image lacks.
    pub search_code: Vec<String>,
    /// Data some search of the check read while it still held the image's bytes.
    pub read_data: Vec<String>,
    /// Code no search can reach (the display, the dialogue with the player).
    pub other_code: Vec<String>,
    /// Data no search of the check read before writing it: the harness or the program
    /// overwrites it first (the board, the king squares), or nothing reads it at all.
    pub unread_data: Vec<String>,
}

impl Differences {
    /// Does the image differ where the search runs or reads?
    ///
    /// ```
    /// use sargon_original::rom::fingerprint::Differences;
    /// let mut d = Differences { other_code: vec!["DSPBRD".into()], ..Differences::default() };
    /// assert!(!d.in_search());
    /// d.read_data.push("PVALUE".into());
    /// assert!(d.in_search());
    /// ```
    pub fn in_search(&self) -> bool {
        !self.search_code.is_empty() || !self.read_data.is_empty()
    }

    /// Does it differ anywhere?
    ///
    /// ```
    /// use sargon_original::rom::fingerprint::Differences;
    /// assert!(!Differences::default().any());
    /// assert!(Differences { unread_data: vec!["BOARDA".into()], ..Differences::default() }.any());
    /// ```
    pub fn any(&self) -> bool {
        self.in_search() || !self.other_code.is_empty() || !self.unread_data.is_empty()
    }

    /// The regions where it differs in the search (code, then data).
    ///
    /// ```
    /// use sargon_original::rom::fingerprint::Differences;
    /// let d = Differences { search_code: vec!["POINTS".into()], read_data: vec!["PVALUE".into()], ..Differences::default() };
    /// assert_eq!(d.in_search_names(), ["POINTS", "PVALUE"]);
    /// ```
    pub fn in_search_names(&self) -> Vec<String> {
        self.search_code
            .iter()
            .chain(&self.read_data)
            .cloned()
            .collect()
    }

    /// The regions where it differs outside the search (code, then data).
    ///
    /// ```
    /// use sargon_original::rom::fingerprint::Differences;
    /// let d = Differences { other_code: vec!["DSPBRD".into()], unread_data: vec!["BOARDA".into()], ..Differences::default() };
    /// assert_eq!(d.outside_names(), ["DSPBRD", "BOARDA"]);
    /// ```
    pub fn outside_names(&self) -> Vec<String> {
        self.other_code
            .iter()
            .chain(&self.unread_data)
            .cloned()
            .collect()
    }
}

/// Sort the regions of `rom` that differ from the known transcription ([`differing`]):
/// code by whether a search can reach it from `SEARCH_ENTRIES` (statically, from the
/// image's own calls and jumps) or a search of the known image does ([`known_search_code`]:
/// code a changed image no longer reaches is still code the search normally runs), data by whether a search read it (`read`: for each
/// address, whether a search read the image's byte there before anything overwrote it;
/// `None` counts all data as read).
///
/// ```
/// use sargon_original::rom::fingerprint::differences;
/// # let dir = tempfile::tempdir()?;
/// # let file = dir.path().join("two.asm");
/// # std::fs::write(&file, "        ORG 100H\nFNDMOV: CALL SUB\n        RET\nSUB:    LD A,1\n        RET\n")?;
/// # let rom = sargon_original::rom::RomStore::new(dir.path().join("roms")).prepare(&file, "two", false)?.rom;
/// // `rom`: FNDMOV (100H) calls SUB (104H), each ending in RET; not Sargon.
/// let d = differences(&rom, None);
/// assert!(d.in_search() && d.search_code.contains(&"FNDMOV".to_string()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn differences(rom: &Rom, read: Option<&[bool]>) -> Differences {
    let image = regions(rom);
    let changed: BTreeSet<String> = differing(&image).into_iter().collect();
    let mut out = Differences::default();
    if changed.is_empty() {
        return out;
    }
    // Code the known image's search runs stays the search's code even where this image
    // no longer reaches it (a loop, an early return), and so no longer even decodes it as
    // code: then its labels (FM5 in FNDMOV) make regions the known image has none of, in
    // a routine whose code the known search runs.
    let known_search = known_search_code();
    let known_names: BTreeSet<String> = known().into_iter().map(|(n, _, _)| n).collect();
    let program = Program::of_rom(rom);
    let normally_run = |r: &Region| {
        known_search.contains(&r.name)
            || (!known_names.contains(&r.name)
                && program
                    .routine_at(r.start)
                    .is_some_and(|(_, routine)| known_search.contains(routine)))
    };
    for r in image.iter().filter(|r| changed.contains(&r.name)) {
        let bytes = usize::from(r.start)..(r.end as usize).min(0x10000);
        if r.search || normally_run(r) {
            out.search_code.push(r.name.clone());
            continue;
        }
        match r.kind {
            Kind::Code => out.other_code.push(r.name.clone()),
            Kind::Data => match read {
                Some(read) if !read[bytes].iter().any(|&b| b) => {
                    out.unread_data.push(r.name.clone())
                }
                _ => out.read_data.push(r.name.clone()),
            },
        }
    }
    let present: BTreeSet<&str> = image.iter().map(|r| r.name.as_str()).collect();
    out.search_code.extend(
        changed
            .iter()
            .filter(|n| !present.contains(n.as_str()))
            .cloned(),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_table_parses() {
        for line in KNOWN
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 4, "{line}");
            assert!(f[3] == "search" || f[3] == "-", "{line}");
            assert!(f[1] == "code" || f[1] == "data", "{line}");
            assert_eq!(f[2].len(), HASH_DIGITS, "{line}");
        }
    }
}
