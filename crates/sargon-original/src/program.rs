//! Sargon's program map: its routines, the extent of their code, and the names of its
//! addresses, worked out from the user's imported image and symbol table.
//!
//! The Z80 decoder ([`crate::z80`]) knows instructions; this module knows
//! Sargon: that FNDMOV is where a search starts, that a routine is what some `CALL`
//! reaches, and which symbol names an operand. `sargon listing` and `sargon profile` see
//! the image through it.

use crate::z80::{decode, sweep, Flow, Instruction, Names};

/// The routines of an image and what the listing and the profiler need to know about
/// them, derived from the image and its symbol table alone.
///
/// **Routines.** A routine is FNDMOV (the search's entry point, which the harness calls)
/// or a label that some `CALL nn` or `CALL cc,nn` of the image calls. The calls are found by
/// decoding the whole image from its first byte, starting afresh at every symbol's address
/// (so that a data table cannot push the decoding out of step for long); a call counts
/// only when its target is the address of a symbol, which rules out the rare `CALL` opcode
/// that data bytes happen to form. Every other label (`FM37`, `MP10`, ...) belongs to the
/// routine at or before it.
///
/// **Extents.** A label's code runs from its address through the instruction that leaves
/// for good: a `RET`, `JP` or `JR` beyond which no jump of the code seen so far lands, and
/// never past the next routine. What lies between the end of one routine and the next one
/// (messages, tables, code reached only otherwise) is not a routine's.
#[derive(Clone, Debug)]
pub struct Program {
    /// The 64 KiB memory with the image at its load address.
    pub memory: Vec<u8>,
    /// The image's first address and one past its last.
    pub start: u16,
    /// One past the image's last address.
    pub end: u32,
    /// Symbol names by address (several names may share one).
    pub names: std::collections::BTreeMap<u16, Vec<String>>,
    /// Symbol addresses by (upper-case) name.
    pub symbols: std::collections::BTreeMap<String, u16>,
    /// Routine entry points and names, by address.
    pub routines: std::collections::BTreeMap<u16, String>,
}

/// The name of the routine the harness calls for a search.
pub(crate) const SEARCH_ENTRY: &str = "FNDMOV";

impl Program {
    /// Analyse an image: `memory` is the 64 KiB address space, the image occupies
    /// `start..end`, `symbols` is its symbol table.
    ///
    /// ```
    /// use sargon_original::{asm::assemble, Program};
    ///
    /// let a = assemble("        ORG 100H\nFNDMOV: CALL SUB\n        RET\nSUB:    LD A,1\n        RET\n")?;
    /// let (lo, hi) = a.extent.unwrap();
    /// let program = Program::new(a.memory.clone(), lo, u32::from(hi) + 1, &a.symbols);
    /// // The routines: FNDMOV (the search) and what code CALLs.
    /// let routines: Vec<_> = program.routines.values().map(String::as_str).collect();
    /// assert_eq!(routines, ["FNDMOV", "SUB"]);
    /// # Ok::<(), sargon_original::asm::AsmError>(())
    /// ```
    pub fn new(
        memory: Vec<u8>,
        start: u16,
        end: u32,
        symbols: &std::collections::BTreeMap<String, u16>,
    ) -> Program {
        let mut names: std::collections::BTreeMap<u16, Vec<String>> = Default::default();
        for (n, &a) in symbols {
            names.entry(a).or_default().push(n.clone());
        }
        for v in names.values_mut() {
            v.sort_by(|a, b| a.len().cmp(&b.len()).then(a.cmp(b)));
        }
        let mut p = Program {
            memory,
            start,
            end,
            names,
            symbols: symbols.clone(),
            routines: Default::default(),
        };
        let in_image = |a: u16| a >= start && u32::from(a) < end;
        let mut routines = std::collections::BTreeMap::new();
        if let Some(&a) = symbols.get(SEARCH_ENTRY) {
            routines.insert(a, SEARCH_ENTRY.to_string());
        }
        for ins in p.sweep_image() {
            if ins.mnemonic != "CALL" {
                continue;
            }
            if let Some(t) = ins.flow.target()
                && in_image(t)
                && p.names.contains_key(&t)
            {
                routines.entry(t).or_insert_with(|| p.names[&t][0].clone());
            }
        }
        p.routines = routines;
        p
    }

    /// A program for an imported ROM.
    ///
    /// ```
    /// use sargon_original::{rom::RomStore, Program};
    /// # let dir = tempfile::tempdir()?;
    /// # let file = dir.path().join("two.asm");
    /// # std::fs::write(&file, "        ORG 100H\nFNDMOV: CALL SUB\n        RET\nSUB:    LD A,1\n        RET\n")?;
    /// let rom = RomStore::new(dir.path().join("roms")).prepare(&file, "two", false)?.rom;
    /// let program = Program::of_rom(&rom);
    /// assert_eq!((program.start, program.end), (0x100, 0x107));
    /// assert_eq!(program.routine_at(0x105), Some((0x104, "SUB")));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn of_rom(rom: &crate::rom::Rom) -> Program {
        let start = rom.meta.load_address;
        Program::new(
            rom.memory(),
            start,
            u32::from(start) + rom.image.len() as u32,
            &rom.symbols,
        )
    }

    /// Decode the whole image, starting afresh at every symbol's address.
    pub(crate) fn sweep_image(&self) -> Vec<Instruction> {
        let mut cuts: Vec<u32> = self
            .names
            .keys()
            .map(|&a| u32::from(a))
            .filter(|&a| a > u32::from(self.start) && a < self.end)
            .collect();
        cuts.push(self.end);
        let mut out = Vec::new();
        let mut from = u32::from(self.start);
        for to in cuts {
            out.extend(sweep(&self.memory, from as u16, to));
            from = to;
        }
        out
    }

    /// The routine containing `pc`: the last routine entry at or below it.
    ///
    /// ```
    /// # use sargon_original::{asm::assemble, Program};
    /// # let a = assemble("        ORG 100H\nFNDMOV: CALL SUB\n        RET\nSUB:    LD A,1\n        RET\n")?;
    /// # let program = Program::new(a.memory.clone(), 0x100, 0x107, &a.symbols);
    /// // `program`: FNDMOV (100H) calls SUB (104H), each ending in RET.
    /// assert_eq!(program.routine_at(0x103), Some((0x100, "FNDMOV")));
    /// assert_eq!(program.routine_at(0x105), Some((0x104, "SUB")));
    /// assert_eq!(program.routine_at(0xFF), None);
    /// # Ok::<(), sargon_original::asm::AsmError>(())
    /// ```
    pub fn routine_at(&self, pc: u16) -> Option<(u16, &str)> {
        self.routines
            .range(..=pc)
            .next_back()
            .map(|(&a, n)| (a, n.as_str()))
    }

    /// The first routine entry above `addr`, or the end of the image.
    pub(crate) fn next_routine(&self, addr: u16) -> u32 {
        self.routines
            .range(addr.saturating_add(1)..)
            .next()
            .map(|(&a, _)| u32::from(a))
            .filter(|_| addr < u16::MAX)
            .unwrap_or(self.end)
            .min(self.end)
    }

    /// The code starting at `start` (see [`Program`]'s extents).
    ///
    /// ```
    /// # use sargon_original::{asm::assemble, Program};
    /// # let a = assemble("        ORG 100H\nFNDMOV: CALL SUB\n        RET\nSUB:    LD A,1\n        RET\n")?;
    /// # let program = Program::new(a.memory.clone(), 0x100, 0x107, &a.symbols);
    /// // `program`: FNDMOV (100H) calls SUB (104H), each ending in RET.
    /// let code: Vec<String> = program.extent(0x100).iter().map(|i| i.text()).collect();
    /// assert_eq!(code, ["CALL 0104H", "RET"]);
    /// # Ok::<(), sargon_original::asm::AsmError>(())
    /// ```
    pub fn extent(&self, start: u16) -> Vec<Instruction> {
        let limit = self.next_routine(start);
        let mut out = Vec::new();
        let mut pc = u32::from(start);
        let mut reach = pc;
        while pc < limit {
            let ins = decode(&self.memory, pc as u16);
            if pc + u32::from(ins.len()) > limit {
                break;
            }
            if let Flow::Jump(t) | Flow::CondJump(t) = ins.flow {
                let t = u32::from(t);
                if t > pc && t < limit {
                    reach = reach.max(t);
                }
            }
            pc += u32::from(ins.len());
            let ends = ins.flow.ends_block();
            out.push(ins);
            if ends && pc > reach {
                break;
            }
        }
        out
    }

    /// The code of the image as blocks by start address: every routine's extent, and the
    /// extent of every label outside them that code jumps to (repeated until no jump
    /// leads outside the blocks found).
    ///
    /// ```
    /// # use sargon_original::{asm::assemble, Program};
    /// # let a = assemble("        ORG 100H\nFNDMOV: CALL SUB\n        RET\nSUB:    LD A,1\n        RET\n")?;
    /// # let program = Program::new(a.memory.clone(), 0x100, 0x107, &a.symbols);
    /// // `program`: FNDMOV (100H) calls SUB (104H), each ending in RET.
    /// let blocks = program.code_blocks();
    /// assert_eq!(blocks.keys().copied().collect::<Vec<_>>(), [0x100, 0x104]);
    /// assert_eq!(blocks[&0x104].len(), 2); // LD A,1 and RET
    /// # Ok::<(), sargon_original::asm::AsmError>(())
    /// ```
    pub fn code_blocks(&self) -> std::collections::BTreeMap<u16, Vec<Instruction>> {
        let mut blocks: std::collections::BTreeMap<u16, Vec<Instruction>> =
            self.routines.keys().map(|&r| (r, self.extent(r))).collect();
        loop {
            let mut new = Vec::new();
            for b in blocks.values() {
                for ins in b {
                    let Some(t) = ins.flow.target() else { continue };
                    if t >= self.start
                        && u32::from(t) < self.end
                        && !self.names_at(t).is_empty()
                        && block_containing(&blocks, t).is_none()
                    {
                        new.push(t);
                    }
                }
            }
            if new.is_empty() {
                return blocks;
            }
            for t in new {
                let code = self.extent(t);
                blocks.insert(t, code);
            }
        }
    }

    /// The blocks of [`Program::code_blocks`] (by start address) that code starting at
    /// `entries` can reach: by calls and jumps to known addresses, and by running off the
    /// end of a block into the next. A jump through a register (`JP (HL)`) leads nowhere
    /// known, so what only it reaches is not counted.
    pub(crate) fn reachable_blocks(&self, entries: &[u16]) -> std::collections::BTreeSet<u16> {
        let blocks = self.code_blocks();
        let mut seen = std::collections::BTreeSet::new();
        let mut todo: Vec<u16> = entries
            .iter()
            .filter_map(|&a| block_containing(&blocks, a))
            .collect();
        while let Some(start) = todo.pop() {
            if !seen.insert(start) {
                continue;
            }
            let code = &blocks[&start];
            let mut next = Vec::new();
            for ins in code {
                next.extend(ins.flow.target());
            }
            if let Some(last) = code.last()
                && !last.flow.ends_block()
            {
                next.push(last.addr.wrapping_add(last.len()));
            }
            todo.extend(
                next.into_iter()
                    .filter_map(|t| block_containing(&blocks, t)),
            );
        }
        seen
    }

    /// The name shown for an address: among the symbols there, a routine's name first,
    /// else the shortest (then alphabetically first) name.
    pub(crate) fn name_at(&self, addr: u16) -> Option<&str> {
        if let Some(r) = self.routines.get(&addr) {
            return Some(r);
        }
        self.names.get(&addr).map(|v| v[0].as_str())
    }

    /// Every symbol at an address.
    ///
    /// ```
    /// # use sargon_original::{asm::assemble, Program};
    /// # let a = assemble("        ORG 100H\nFNDMOV: CALL SUB\n        RET\nSUB:    LD A,1\n        RET\n")?;
    /// # let program = Program::new(a.memory.clone(), 0x100, 0x107, &a.symbols);
    /// // `program`: FNDMOV (100H) calls SUB (104H), each ending in RET.
    /// assert_eq!(program.names_at(0x104), ["SUB"]);
    /// assert!(program.names_at(0x105).is_empty());
    /// # Ok::<(), sargon_original::asm::AsmError>(())
    /// ```
    pub fn names_at(&self, addr: u16) -> &[String] {
        self.names.get(&addr).map(|v| v.as_slice()).unwrap_or(&[])
    }

    /// The address of a symbol, by name (case-insensitive).
    ///
    /// ```
    /// # use sargon_original::{asm::assemble, Program};
    /// # let a = assemble("        ORG 100H\nFNDMOV: CALL SUB\n        RET\nSUB:    LD A,1\n        RET\n")?;
    /// # let program = Program::new(a.memory.clone(), 0x100, 0x107, &a.symbols);
    /// // `program`: FNDMOV (100H) calls SUB (104H), each ending in RET.
    /// assert_eq!(program.lookup("sub"), Some(0x104));
    /// assert_eq!(program.lookup("nothing"), None);
    /// # Ok::<(), sargon_original::asm::AsmError>(())
    /// ```
    pub fn lookup(&self, name: &str) -> Option<u16> {
        self.symbols.get(&name.to_ascii_uppercase()).copied()
    }

    /// Symbol names close to `name` (for "did you mean"): same prefix or a small edit
    /// distance, routines first.
    pub(crate) fn close_names(&self, name: &str) -> Vec<String> {
        let want = name.to_ascii_uppercase();
        let want_chars = want.chars().count();
        let mut scored: Vec<(usize, bool, &String)> = self
            .symbols
            .keys()
            .filter_map(|n| {
                // The difference in length is where the distance starts: past 2 it is the
                // distance of a prefix (a name typed too long or cut short), and any other
                // name that far off is not close. Not computed then, so that a name of
                // 100 KB is answered at once.
                let lengths = want_chars.abs_diff(n.chars().count());
                let d = if lengths > 2 {
                    lengths
                } else {
                    edit_distance(&want, n)
                };
                let prefix = n.starts_with(&want) || want.starts_with(n.as_str());
                let close = d <= 2 || (prefix && want.len() >= 2);
                close.then(|| {
                    let routine = self.routines.values().any(|r| r == n);
                    (d, !routine, n)
                })
            })
            .collect();
        scored.sort();
        scored
            .into_iter()
            .take(8)
            .map(|(_, _, n)| n.clone())
            .collect()
    }
}

/// The block of `blocks` whose instructions cover `addr`: its start address.
///
/// ```
/// use sargon_original::program::block_containing;
/// # use sargon_original::{asm::assemble, Program};
/// # let a = assemble("        ORG 100H\nFNDMOV: CALL SUB\n        RET\nSUB:    LD A,1\n        RET\n")?;
/// # let program = Program::new(a.memory.clone(), 0x100, 0x107, &a.symbols);
/// // `program`: FNDMOV (100H) calls SUB (104H), each ending in RET.
/// let blocks = program.code_blocks();
/// assert_eq!(block_containing(&blocks, 0x105), Some(0x104)); // inside LD A,1
/// assert_eq!(block_containing(&blocks, 0x107), None); // past the image
/// # Ok::<(), sargon_original::asm::AsmError>(())
/// ```
pub fn block_containing(
    blocks: &std::collections::BTreeMap<u16, Vec<Instruction>>,
    addr: u16,
) -> Option<u16> {
    blocks
        .range(..=addr)
        .rev()
        .find(|(_, b)| {
            b.iter()
                .any(|i| i.addr <= addr && addr < i.addr.wrapping_add(i.len()))
        })
        .map(|(&a, _)| a)
}

/// Levenshtein distance between two short strings.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// How the listing names operands from a [`Program`]'s symbols:
/// * jump and call targets: the label there;
/// * memory operands `(nn)`: the symbol at that address;
/// * 16-bit immediates (`LD HL,nn`): the symbol with that value, for values of 16 and more
///   (smaller ones are counts and piece codes far more often than addresses);
/// * index displacements: the table symbols with that (negative) value, the
///   transcription's way of addressing a table relative to a base register (several names
///   joined by `|` when the image cannot tell them apart); positive displacements stay
///   numbers, since small field offsets and piece codes share their values.
///
/// Where several symbols share an address, a routine's name wins, then the shortest name.
impl Names for Program {
    fn label(&self, addr: u16) -> Option<String> {
        self.name_at(addr).map(str::to_string)
    }
    fn data(&self, addr: u16) -> Option<String> {
        self.name_at(addr).map(str::to_string)
    }
    fn immediate(&self, value: u16) -> Option<String> {
        (value >= 16)
            .then(|| self.name_at(value))
            .flatten()
            .map(str::to_string)
    }
    fn displacement(&self, d: i8) -> Option<String> {
        if d >= 0 {
            return None;
        }
        let v = d as i16 as u16;
        let names = self.names_at(v);
        (!names.is_empty()).then(|| {
            let mut n = names.to_vec();
            n.sort();
            n.join("|")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FNDMOV calls SUB, which falls through into NEXT; DISP is called by nothing the
    /// search reaches (only by SHOW, which nothing calls).
    #[test]
    fn reachable_blocks_follow_calls_jumps_and_fall_through() {
        let mut memory = vec![0u8; 0x10000];
        let code: &[(u16, &[u8])] = &[
            (0x100, &[0xCD, 0x10, 0x01, 0xC9]), // FNDMOV: CALL SUB; RET
            (0x110, &[0x00]),                   // SUB: NOP (falls into NEXT)
            (0x111, &[0xC9]),                   // NEXT: RET
            (0x120, &[0xCD, 0x30, 0x01, 0xC9]), // SHOW: CALL DISP; RET
            (0x130, &[0xC9]),                   // DISP: RET
        ];
        for (at, bytes) in code {
            memory[usize::from(*at)..usize::from(*at) + bytes.len()].copy_from_slice(bytes);
        }
        let symbols: std::collections::BTreeMap<String, u16> = [
            ("FNDMOV", 0x100),
            ("SUB", 0x110),
            ("NEXT", 0x111),
            ("SHOW", 0x120),
            ("DISP", 0x130),
        ]
        .into_iter()
        .map(|(n, a)| (n.to_string(), a))
        .collect();
        let program = Program::new(memory, 0x100, 0x131, &symbols);
        let reached = program.reachable_blocks(&[0x100]);
        let names: Vec<&str> = reached
            .iter()
            .map(|&a| program.name_at(a).unwrap())
            .collect();
        assert!(
            names.contains(&"FNDMOV") && names.contains(&"SUB"),
            "{names:?}"
        );
        assert!(
            !names.contains(&"SHOW") && !names.contains(&"DISP"),
            "{names:?}"
        );
        // NEXT is reached by falling off SUB's end, whether or not it is a block of its own.
        let sub_or_next = program
            .code_blocks()
            .range(..=0x111)
            .next_back()
            .map(|(&a, _)| a)
            .unwrap();
        assert!(reached.contains(&sub_or_next));
    }
}
