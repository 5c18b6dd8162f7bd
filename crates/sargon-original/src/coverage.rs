//! How much of the original a set of searches executes: which instructions of the
//! routines a search can reach ran, which way each conditional branch went, and which
//! bytes of each data table were read.
//!
//! The ROM check trusts an image because it replays known searches on it
//! (`sargon_referee::verify`). A replay can only vouch for the code it runs: a changed
//! instruction that no replayed search executes changes nothing the check can see. This
//! module measures that blind spot. The emulator notes every instruction it executes and,
//! for a conditional one (`JP cc`, `JR cc`, `DJNZ`, `CALL cc`, `RET cc`), whether its
//! condition held ([`Emulator::track_coverage`](crate::emu::Emulator::track_coverage));
//! [`report`] lays that over the program map: per routine that a search can reach (from
//! `SEARCH_ENTRIES`), instructions executed and branch directions taken, and what never
//! ran; per data region of the fingerprints, the bytes a search read while they still
//! held the image's values.
//!
//! Only addresses, labels and counts come out of here: the instructions themselves are
//! the user's to print (`sargon rom coverage --list`), never the repository's to keep.

use std::collections::BTreeMap;

use crate::program::Program;
use crate::rom::fingerprint::{self, Kind, SEARCH_ENTRIES};
use crate::rom::Rom;
use crate::z80::{Flow, Instruction};

/// Executed at least once.
const RAN: u8 = 1;
/// A conditional instruction whose condition held (it jumped, called or returned).
const HELD: u8 = 2;
/// A conditional instruction whose condition failed (it went on to the next one).
const FAILED: u8 = 4;

/// For every address of the 64 KiB space: did an instruction there run, and which ways
/// did it go. Collected by the emulator, merged over the searches of a check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coverage {
    flags: Vec<u8>,
}

/// The coverage the emulators of one check add to (one per worker thread).
pub type SharedCoverage = std::sync::Arc<std::sync::Mutex<Coverage>>;

impl Default for Coverage {
    fn default() -> Self {
        Coverage::new()
    }
}

impl Coverage {
    /// Nothing executed yet.
    ///
    /// ```
    /// use sargon_original::coverage::Coverage;
    /// let nothing = Coverage::new();
    /// assert!((0..=u16::MAX).all(|a| !nothing.ran(a)));
    /// ```
    pub fn new() -> Coverage {
        Coverage {
            flags: vec![0; 0x10000],
        }
    }

    /// The instruction at `pc` executed; `held` says whether its condition held (`None`
    /// for an unconditional instruction).
    #[inline(always)]
    pub(crate) fn note(&mut self, pc: u16, held: Option<bool>) {
        self.flags[usize::from(pc)] |= match held {
            None => RAN,
            Some(true) => RAN | HELD,
            Some(false) => RAN | FAILED,
        };
    }

    /// Add what `other` saw.
    pub(crate) fn merge(&mut self, other: &Coverage) {
        for (a, b) in self.flags.iter_mut().zip(&other.flags) {
            *a |= *b;
        }
    }

    /// Forget everything (the emulator's per-search copy, once merged).
    pub(crate) fn clear(&mut self) {
        self.flags.fill(0);
    }

    /// Did the instruction at `addr` ever run?
    ///
    /// ```
    /// use sargon_original::coverage::Coverage;
    /// assert!(!Coverage::new().ran(0x100));
    /// ```
    pub fn ran(&self, addr: u16) -> bool {
        self.flags[usize::from(addr)] & RAN != 0
    }

    /// Did the conditional instruction at `addr` ever jump, call or return?
    pub(crate) fn held(&self, addr: u16) -> bool {
        self.flags[usize::from(addr)] & HELD != 0
    }

    /// Did the conditional instruction at `addr` ever go on to the next instruction?
    pub(crate) fn failed(&self, addr: u16) -> bool {
        self.flags[usize::from(addr)] & FAILED != 0
    }
}

/// What a report says was not exercised at one instruction.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Missed {
    /// The instruction never ran.
    NeverRan,
    /// A conditional instruction ran, but its condition never held.
    NeverTaken,
    /// A conditional instruction ran, but its condition always held.
    AlwaysTaken,
}

impl Missed {
    /// For people: `never ran`, `never taken`, `always taken`.
    ///
    /// ```
    /// use sargon_original::coverage::Missed;
    /// assert_eq!(Missed::NeverRan.describe(), "never ran");
    /// assert_eq!(Missed::NeverTaken.describe(), "branch never taken");
    /// ```
    pub fn describe(self) -> &'static str {
        match self {
            Missed::NeverRan => "never ran",
            Missed::NeverTaken => "branch never taken",
            Missed::AlwaysTaken => "branch always taken (never fell through)",
        }
    }
}

/// One instruction a report names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gap {
    /// Its address in the image.
    pub addr: u16,
    /// Where it is by the symbols: `CASTLE+12`.
    pub at: String,
    /// What did not happen there.
    pub missed: Missed,
    /// The instruction, decoded from the user's image (printed only on request).
    pub instruction: Instruction,
}

/// A routine's coverage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoutineCoverage {
    /// The routine's name (FNDMOV, CASTLE, ...).
    pub name: String,
    /// Its entry address in this image.
    pub start: u16,
    /// Instructions in the blocks of the routine a search can reach.
    pub instructions: usize,
    /// How many of them ran.
    pub instructions_ran: usize,
    /// Conditional instructions times two (each has a taken and a not-taken direction).
    pub directions: usize,
    /// Directions that occurred.
    pub directions_ran: usize,
    /// What did not run, in address order.
    pub gaps: Vec<Gap>,
}

/// A data region's coverage (a table, a variable, a run of short ones).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableCoverage {
    /// The region's name, as the fingerprints name it (`PVALUE`, `POSK..POSQ`).
    pub name: String,
    /// Its first address in this image.
    pub start: u16,
    /// Its size in bytes.
    pub bytes: usize,
    /// Bytes a search read while they still held the image's values.
    pub read: usize,
    /// The bytes never read, as ranges of offsets from the region's start (`3..5` is
    /// offsets 3 and 4).
    pub unread: Vec<std::ops::Range<usize>>,
}

/// Coverage of the routines a search can reach and of the data tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Routines a search can reach, in address order.
    pub routines: Vec<RoutineCoverage>,
    /// Data regions, in address order.
    pub tables: Vec<TableCoverage>,
}

impl Report {
    /// Instructions of the search routines, and how many ran.
    ///
    /// ```
    /// use sargon_original::coverage::{report, Coverage};
    /// # let dir = tempfile::tempdir()?;
    /// # let file = dir.path().join("two.asm");
    /// # std::fs::write(&file, "        ORG 100H\nFNDMOV: CALL SUB\n        RET\nSUB:    LD A,1\n        RET\n")?;
    /// # let rom = sargon_original::rom::RomStore::new(dir.path().join("roms")).prepare(&file, "two", false)?.rom;
    /// // `rom`: FNDMOV (100H) calls SUB (104H), each ending in RET; not Sargon.
    /// // Nothing ran: none of the four instructions a search can reach.
    /// let r = report(&rom, &Coverage::new(), &[]);
    /// assert_eq!(r.instructions(), (4, 0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn instructions(&self) -> (usize, usize) {
        self.routines.iter().fold((0, 0), |(t, r), c| {
            (t + c.instructions, r + c.instructions_ran)
        })
    }

    /// Branch directions of the search routines, and how many occurred.
    ///
    /// ```
    /// use sargon_original::coverage::{report, Coverage};
    /// # let dir = tempfile::tempdir()?;
    /// # let file = dir.path().join("two.asm");
    /// # std::fs::write(&file, "        ORG 100H\nFNDMOV: CALL SUB\n        RET\nSUB:    LD A,1\n        RET\n")?;
    /// # let rom = sargon_original::rom::RomStore::new(dir.path().join("roms")).prepare(&file, "two", false)?.rom;
    /// // `rom`: FNDMOV (100H) calls SUB (104H), each ending in RET; not Sargon.
    /// // No conditional jump, call or return: no direction to take.
    /// assert_eq!(report(&rom, &Coverage::new(), &[]).directions(), (0, 0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn directions(&self) -> (usize, usize) {
        self.routines
            .iter()
            .fold((0, 0), |(t, r), c| (t + c.directions, r + c.directions_ran))
    }

    /// Bytes of the data regions, and how many were read.
    ///
    /// ```
    /// use sargon_original::coverage::{report, Coverage};
    /// # let dir = tempfile::tempdir()?;
    /// # let file = dir.path().join("two.asm");
    /// # std::fs::write(&file, "        ORG 100H\nFNDMOV: CALL SUB\n        RET\nSUB:    LD A,1\n        RET\n")?;
    /// # let rom = sargon_original::rom::RomStore::new(dir.path().join("roms")).prepare(&file, "two", false)?.rom;
    /// // `rom`: FNDMOV (100H) calls SUB (104H), each ending in RET; not Sargon.
    /// assert_eq!(report(&rom, &Coverage::new(), &[]).table_bytes(), (0, 0)); // no tables
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn table_bytes(&self) -> (usize, usize) {
        self.tables
            .iter()
            .fold((0, 0), |(t, r), c| (t + c.bytes, r + c.read))
    }
}

/// A share as a percentage, 100 for an empty whole.
///
/// ```
/// use sargon_original::coverage::percent;
/// assert_eq!(percent((200, 50)), 25.0);
/// assert_eq!(percent((0, 0)), 100.0);
/// ```
pub fn percent((whole, part): (usize, usize)) -> f64 {
    if whole == 0 {
        100.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// Is `ins` a conditional jump, call or return (an instruction with two directions)?
fn conditional(ins: &Instruction) -> bool {
    matches!(
        ins.flow,
        Flow::CondJump(_) | Flow::CondCall(_) | Flow::CondReturn
    )
}

/// Lay `coverage` (instructions executed) and `reads` (for each address, whether a search
/// read the image's byte there before anything overwrote it) over `rom`'s program map.
///
/// ```
/// use sargon_original::coverage::report;
/// # let dir = tempfile::tempdir()?;
/// # let file = dir.path().join("two.asm");
/// # std::fs::write(&file, "        ORG 100H\nFNDMOV: CALL SUB\n        RET\nSUB:    LD A,1\n        RET\n")?;
/// # let rom = sargon_original::rom::RomStore::new(dir.path().join("roms")).prepare(&file, "two", false)?.rom;
/// // `rom`: FNDMOV (100H) calls SUB (104H), each ending in RET; not Sargon.
/// let r = report(&rom, &Default::default(), &[]);
/// assert_eq!(r.instructions(), (4, 0));
/// assert!(r.routines.iter().any(|routine| routine.name == "SUB"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn report(rom: &Rom, coverage: &Coverage, reads: &[bool]) -> Report {
    let program = Program::of_rom(rom);
    let blocks = program.code_blocks();
    let entries: Vec<u16> = SEARCH_ENTRIES
        .iter()
        .filter_map(|n| program.lookup(n))
        .collect();
    let reachable = program.reachable_blocks(&entries);

    // Each reachable block counts for the routine it lies in.
    let mut routines: BTreeMap<u16, RoutineCoverage> = BTreeMap::new();
    for &start in &reachable {
        let (entry, name) = program
            .routine_at(start)
            .map(|(a, n)| (a, n.to_string()))
            .unwrap_or_else(|| (start, program.name_at(start).unwrap_or("?").to_string()));
        let r = routines.entry(entry).or_insert_with(|| RoutineCoverage {
            name,
            start: entry,
            instructions: 0,
            instructions_ran: 0,
            directions: 0,
            directions_ran: 0,
            gaps: Vec::new(),
        });
        for ins in &blocks[&start] {
            let gap = |missed| Gap {
                addr: ins.addr,
                at: place(&program, ins.addr),
                missed,
                instruction: ins.clone(),
            };
            r.instructions += 1;
            let ran = coverage.ran(ins.addr);
            r.instructions_ran += usize::from(ran);
            if conditional(ins) {
                r.directions += 2;
                let (held, failed) = (coverage.held(ins.addr), coverage.failed(ins.addr));
                r.directions_ran += usize::from(held) + usize::from(failed);
                if ran && !held {
                    r.gaps.push(gap(Missed::NeverTaken));
                } else if ran && !failed {
                    r.gaps.push(gap(Missed::AlwaysTaken));
                }
            }
            if !ran {
                r.gaps.push(gap(Missed::NeverRan));
            }
        }
    }
    let mut routines: Vec<RoutineCoverage> = routines.into_values().collect();
    for r in &mut routines {
        r.gaps.sort_by_key(|g| g.addr);
    }

    let tables = fingerprint::regions(rom)
        .into_iter()
        .filter(|r| r.kind == Kind::Data)
        .map(|r| {
            let range = usize::from(r.start)..(r.end as usize).min(reads.len());
            let read_at = &reads[range.clone()];
            let mut unread = Vec::new();
            let mut i = 0;
            while i < read_at.len() {
                if read_at[i] {
                    i += 1;
                    continue;
                }
                let from = i;
                while i < read_at.len() && !read_at[i] {
                    i += 1;
                }
                unread.push(from..i);
            }
            TableCoverage {
                name: r.name,
                start: r.start,
                bytes: range.len(),
                read: read_at.iter().filter(|&&b| b).count(),
                unread,
            }
        })
        .collect();
    Report { routines, tables }
}

/// `LABEL+offset` for an address, from the nearest symbol at or below it.
pub(crate) fn place(program: &Program, addr: u16) -> String {
    match program.names.range(..=addr).next_back() {
        Some((&base, _)) => {
            let name = program.name_at(base).unwrap_or("?");
            if base == addr {
                name.to_string()
            } else {
                format!("{name}+{}", addr - base)
            }
        }
        None => format!("{addr:#06x}"),
    }
}
