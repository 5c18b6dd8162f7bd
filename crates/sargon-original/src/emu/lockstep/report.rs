//! What a crosscheck is asked to do and what it reports: the cores' states, disagreements, per-search results.

use std::fmt;

use crate::rom::RomError;
use sargon_core::engine::SearchError;

/// The flag bits the Z80 manual documents: S, Z, H, P/V, N, C (not bits 5 and 3).
pub(crate) const DOCUMENTED_FLAGS: u8 = 0b1101_0111;

/// One core's registers after an instruction.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CoreState {
    pub pc: u16,
    pub sp: u16,
    pub af: u16,
    pub bc: u16,
    pub de: u16,
    pub hl: u16,
    pub ix: u16,
    pub iy: u16,
    /// AF', BC', DE', HL': read where they can have changed (and in a report).
    pub alternate: Option<[u16; 4]>,
    pub i: u8,
    pub iff1: bool,
    pub im: u8,
}

impl fmt::Display for CoreState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "PC={:04x} SP={:04x} AF={:04x} BC={:04x} DE={:04x} HL={:04x} IX={:04x} IY={:04x} F=[{}]",
            self.pc,
            self.sp,
            self.af,
            self.bc,
            self.de,
            self.hl,
            self.ix,
            self.iy,
            flag_names(self.af as u8)
        )?;
        if let Some([af, bc, de, hl]) = self.alternate {
            write!(f, " AF'={af:04x} BC'={bc:04x} DE'={de:04x} HL'={hl:04x}")?;
        }
        Ok(())
    }
}

/// The names of the set bits of a flag byte, S Z 5 H 3 P N C.
///
/// ```
/// use sargon_original::emu::lockstep::flag_names;
/// assert_eq!(flag_names(0x41), "Z C");
/// assert_eq!(flag_names(0), "-");
/// ```
pub fn flag_names(bits: u8) -> String {
    const NAMES: [&str; 8] = ["C", "N", "P/V", "3", "H", "5", "Z", "S"];
    let mut v: Vec<&str> = (0..8)
        .rev()
        .filter(|b| bits & (1 << b) != 0)
        .map(|b| NAMES[b])
        .collect();
    if v.is_empty() {
        v.push("-");
    }
    v.join(" ")
}

/// What two cores disagreed on after one instruction.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Item {
    /// A register (`"HL"`, `"PC"`, `"AF'"`, ...) other than the flags.
    Register(&'static str),
    /// The flags: the bits that differ.
    Flags { differing: u8 },
    /// A memory write: written by one core only, or with different values.
    Write { address: u16 },
}

impl fmt::Display for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Item::Register(name) => f.write_str(name),
            Item::Flags { differing } => write!(f, "flags {}", flag_names(*differing)),
            Item::Write { address } => write!(f, "write to {address:04x}"),
        }
    }
}

/// The first instruction after which the two cores' states differed.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Disagreement {
    /// The harness's call it happened in: ROYALT, VALMOV or FNDMOV.
    pub call: String,
    /// Its index among the search's instructions (the set-up's included), from 0.
    pub index: u64,
    /// The instruction's address, its place (routine + offset) and its text.
    pub pc: u16,
    pub place: String,
    pub instruction: String,
    /// What differed.
    pub items: Vec<Item>,
    /// The state both cores had before the instruction.
    pub before: CoreState,
    /// iz80's state after it, and the second core's.
    pub iz80: CoreState,
    pub second: CoreState,
    /// The writes of each core (address, value), in address order.
    pub iz80_writes: Vec<(u16, u8)>,
    pub second_writes: Vec<(u16, u8)>,
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let items: Vec<String> = self.items.iter().map(Item::to_string).collect();
        let writes = |w: &[(u16, u8)]| {
            let v: Vec<String> = w.iter().map(|(a, b)| format!("{a:04x}={b:02x}")).collect();
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(" ")
            }
        };
        writeln!(
            f,
            "instruction {} (in {}), at {:04x} {}: {}",
            self.index, self.call, self.pc, self.place, self.instruction
        )?;
        writeln!(f, "  differs: {}", items.join(", "))?;
        writeln!(f, "  before:  {}", self.before)?;
        writeln!(f, "  iz80:    {}", self.iz80)?;
        writeln!(f, "  z80emu:  {}", self.second)?;
        writeln!(f, "  writes, iz80:   {}", writes(&self.iz80_writes))?;
        write!(f, "  writes, z80emu: {}", writes(&self.second_writes))
    }
}

/// An address whose instruction took other T-states on the second core than the table says.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CycleMismatch {
    pub pc: u16,
    pub place: String,
    pub instruction: String,
    /// The documented table's T-states and the second core's.
    pub table: u32,
    pub second: u32,
    /// How often it executed with these counts.
    pub count: u64,
}

/// A fault put into the second core on purpose, after it executed the instruction of the
/// given index: to show that the comparison catches it (the tests use it).
#[derive(Clone, Debug)]
pub enum Fault {
    /// XOR a register (`A`, `BC`, `DE`, `HL`, `IX`, `IY`, `SP`) with a value.
    Register { name: &'static str, xor: u16 },
    /// XOR the flags.
    Flags(u8),
    /// XOR the value of the instruction's first memory write (memory included).
    Write { xor: u8 },
}

/// How a crosscheck compares.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Compare the undocumented flag bits 5 and 3 too. Off by default: iz80 does not
    /// model them where they come from the Z80's hidden MEMPTR register (`BIT n,(HL)`),
    /// so they are masked, and where they first part is tallied instead
    /// ([`SearchCheck::undocumented_flags`]); a masked difference that reached a
    /// register, a documented flag or memory would still be caught there.
    pub undocumented_flags: bool,
    /// After each search, run its FNDMOV call again on each core alone, from the same
    /// start, and time both (instructions per second).
    pub time_cores: bool,
    /// A fault to inject: (instruction index in the search, fault).
    pub fault: Option<(u64, Fault)>,
}

/// Both cores' speed on one search's FNDMOV call, each run alone from the same start.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct CoreSpeed {
    pub iz80_instructions: u64,
    pub iz80_seconds: f64,
    pub second_instructions: u64,
    pub second_seconds: f64,
}

/// The result of one search run in lock-step.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct SearchCheck {
    /// Instructions compared (the set-up's calls and FNDMOV).
    pub instructions: u64,
    /// T-states of those instructions: the documented table, the second core, iz80.
    pub table_t_states: u64,
    pub second_t_states: u64,
    pub iz80_t_states: u64,
    /// The first state disagreement (the search stopped there).
    pub disagreement: Option<Box<Disagreement>>,
    /// Addresses whose T-states on the second core differ from the table.
    pub cycle_mismatches: Vec<CycleMismatch>,
    /// With the undocumented flags masked: the instructions after which bits 5 and 3 of
    /// the two cores' flags came to differ (having agreed before), per address. `table`
    /// and `second` hold iz80's and the second core's bits 5 and 3 there.
    pub undocumented_flags: Vec<CycleMismatch>,
    /// With [`Options::time_cores`].
    pub speed: Option<CoreSpeed>,
}

/// A crosscheck failed for another reason than a disagreement.
#[derive(Debug, thiserror::Error)]
pub enum CrosscheckError {
    #[error(transparent)]
    Rom(#[from] RomError),
    #[error(transparent)]
    Search(#[from] SearchError),
}
