//! The original Sargon, run as it was written: its Z80 code in the `iz80` emulator.
//!
//! The harness calls Sargon's routines by symbol, the way its own driver did, with a
//! sentinel return address: it pushes the sentinel, jumps to the routine and runs until
//! the program counter reaches the sentinel. Instructions and T-states are counted, and an
//! instruction budget turns a hang into an error.
//!
//! T-states are counted twice. `iz80`'s own count deviates from Zilog's manual for
//! instructions Sargon uses all the time (IX/IY prefixes, `JP cc`), about 7% low for a
//! search, so the run loop also adds up each executed instruction's documented T-states
//! through a per-address [`TimingCache`], the same one the profiler uses: one table lookup
//! per instruction, which costs the emulator a few per cent of its speed
//! (`docs/history.md` has the measurement).
//!
//! Hooks ([`sargon_core::hooks`]) are armed in a 64 KiB table indexed by address: the only
//! per-instruction cost is one table lookup. A hook fires *before* the instruction at its
//! address executes and sees the program's memory through [`SargonMemory`] (the symbols say
//! where each variable is) and the registers A and B, which it may change. Each hook point is a symbol plus a documented offset (`docs/hooks.md`), and the
//! bytes found there are checked when a ROM is loaded, so a different or corrupt image is
//! refused with an explanation instead of hooks firing in the wrong place.
//!
//! The calls run on `iz80` by default, or on `z80emu` ([`Core`], [`Emulator::with_core`]):
//! the run loop is written once over what it needs of a core (`core::Z80`), and the hooks
//! fire at the same addresses with the same registers on both.
//!
//! Two things of the original are neutralised here without touching its code, both
//! documented in `docs/emulator.md`:
//! * FNDMOV stores the root's score through MLPTRJ before setting it; on a fresh image
//!   MLPTRJ is 0 and the byte lands in the variable M3. The harness points MLPTRJ at a zeroed
//!   scratch entry before each search ([`Emulator::set_mlptrj_fix`] turns this off, to show
//!   the failure).
//! * The book reads the Z80 refresh register (`LD A,R`) as a random number; the harness
//!   replaces it with [`SearchOptions::book_random`].

mod core;
pub mod lockstep;
mod progress;

use std::time::Instant;

use iz80::{Cpu, Machine};

pub use self::core::{Core, UnknownCore};
use self::core::{Processor, Z80};
pub use self::progress::STALL_LIMIT;
use self::progress::{GaveUp, Progress, PASSED};

use crate::coverage::{Coverage, SharedCoverage};
use crate::rom::{Rom, RomError};
use crate::z80::TimingCache;
use sargon_core::engine::{
    Capabilities, Engine, RomId, SearchError, SearchOptions, SearchOutcome, SearchStats,
};
use sargon_core::hooks::{HookPoint, Hooks, Pointer, Registers, SargonMemory, Table, Var};
use sargon_core::position::Setup;
use sargon_core::vocab::{SMove, Score, Sq};

/// Where the harness returns to: no Sargon code lives this high.
const SENTINEL: u16 = 0xfff0;
/// A zeroed 6-byte move entry for MLPTRJ to point at before a search (outside the image).
const SCRATCH_ENTRY: u16 = 0xff00;
/// Hook-table value that marks the sentinel address.
const SENTINEL_MARK: u8 = 0xff;
/// Hook-table value that marks the book's `LD A,R` on a core other than iz80, whose flags
/// the harness then makes iz80's (`core::Z80::before_refresh_read`).
const REFRESH_MARK: u8 = 0xfe;
/// Instructions between two looks at the stop flag (about a millisecond).
const STOP_CHECK_INTERVAL: u64 = 1 << 16;
/// Sargon's depth limit: its score table and ply table hold six plies.
pub const MAX_DEPTH: u8 = 6;

/// Addresses the harness uses, resolved from the ROM's symbol table.
#[derive(Clone, Debug)]
pub struct Symbols {
    /// FNDMOV: the search routine.
    pub fndmov: u16,
    /// ROYALT: the routine that rebuilds the royalty table.
    pub royalt: u16,
    /// VALMOV: the routine that checks and makes a player's move.
    pub valmov: u16,
    /// BOARDA: the 10x12 board.
    pub boarda: u16,
    /// COLOR: the colour of the side to move.
    pub color: u16,
    /// KOLOR: the computer's colour.
    pub kolor: u16,
    /// MOVENO: the current move number.
    pub moveno: u16,
    /// PLYMAX: the maximum search depth.
    pub plymax: u16,
    /// NPLY: the current ply.
    pub nply: u16,
    /// MLPTRJ: pointer to the move being processed.
    pub mlptrj: u16,
    /// MLPTRI: pointer into the ply table.
    pub mlptri: u16,
    /// BESTM: pointer to the best move so far.
    pub bestm: u16,
    /// SCORE: the score table, one byte per ply.
    pub score: u16,
    /// SCRIX: pointer into the score table.
    pub scrix: u16,
    /// PLYIX: the ply table of move-list pointers.
    pub plyix: u16,
    /// MVEMSG: the move VALMOV checks (from and to squares).
    pub mvemsg: u16,
    /// STACK: the top of Sargon's stack.
    pub stack: u16,
    /// P1: working copy of a board square's contents.
    pub p1: u16,
    /// T1: working table index.
    pub t1: u16,
    /// M1: working board index (the from square).
    pub m1: u16,
    /// M2: working board index (the to square).
    pub m2: u16,
    /// VALM: the score of the move being examined.
    pub valm: u16,
    /// Address of each hook point, indexed by `HookPoint as usize`.
    pub hooks: [u16; 8],
    /// Where the whole-state comparison reads ([`sargon_core::state`]); each `None` where
    /// the image has no such symbol.
    pub state: StateSymbols,
}

/// The addresses of what [`sargon_core::state::DataState`] reads, from the image's symbols.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateSymbols {
    /// Each of [`sargon_core::state::VARIABLES`].
    pub variables: Vec<Option<u16>>,
    /// Each of [`sargon_core::state::POINTERS`].
    pub pointers: Vec<Option<u16>>,
    /// DIRECT: TBASE - 0x80, where the table area starts.
    pub tables: Option<u16>,
    /// BMOVES: the book.
    pub book: Option<u16>,
    /// MLIST: the move list.
    pub move_list: Option<u16>,
}

impl StateSymbols {
    fn resolve(rom: &Rom) -> StateSymbols {
        let s = |n: &str| rom.symbol(n).ok();
        StateSymbols {
            variables: sargon_core::state::VARIABLES.iter().map(|n| s(n)).collect(),
            pointers: sargon_core::state::POINTERS.iter().map(|n| s(n)).collect(),
            tables: s("TBASE").map(|t| t.wrapping_sub(0x80)),
            book: s("BMOVES"),
            move_list: s("MLIST"),
        }
    }
}

/// How each hook point is found: symbol, offset, and the instruction bytes expected there
/// (`None` in the pattern: any byte; `Sym` bytes: low/high byte of a symbol's address).
struct HookSpec {
    point: HookPoint,
    symbol: &'static str,
    offset: u16,
    /// Bytes expected at `symbol + check_offset`, with `check_offset` relative to the symbol.
    check_offset: u16,
    expect: &'static [Pat],
    what: &'static str,
}

#[derive(Copy, Clone)]
enum Pat {
    B(u8),
    Lo(&'static str),
    Hi(&'static str),
}

const HOOK_SPECS: [HookSpec; 8] = [
    HookSpec {
        point: HookPoint::MovegenPath,
        symbol: "MP10",
        offset: 3,
        check_offset: 0,
        expect: &[
            Pat::B(0xcd),
            Pat::Lo("PATH"),
            Pat::Hi("PATH"),
            Pat::B(0xfe),
            Pat::B(0x02),
        ],
        what: "CALL PATH followed by CP 2",
    },
    HookSpec {
        point: HookPoint::MovegenDone,
        symbol: "FM5",
        offset: 11,
        check_offset: 8,
        expect: &[Pat::B(0xcd), Pat::Lo("GENMOV"), Pat::Hi("GENMOV")],
        what: "CALL GENMOV",
    },
    HookSpec {
        point: HookPoint::PointsEnd,
        symbol: "REL016",
        offset: 2,
        check_offset: 0,
        expect: &[
            Pat::B(0xc6),
            Pat::B(0x80),
            Pat::B(0x32),
            Pat::Lo("VALM"),
            Pat::Hi("VALM"),
        ],
        what: "ADD A,80H followed by LD (VALM),A",
    },
    HookSpec {
        point: HookPoint::AlphaBeta,
        symbol: "FM37",
        offset: 0,
        check_offset: 0,
        expect: &[Pat::B(0xbe)],
        what: "CP (HL)",
    },
    HookSpec {
        point: HookPoint::BestTest,
        symbol: "FM37",
        offset: 9,
        check_offset: 5,
        expect: &[
            Pat::B(0xed),
            Pat::B(0x44),
            Pat::B(0x23),
            Pat::B(0xbe),
            Pat::B(0xda),
        ],
        what: "NEG, INC HL, CP (HL), JP C",
    },
    HookSpec {
        point: HookPoint::BestConfirmed,
        symbol: "FM37",
        offset: 16,
        check_offset: 15,
        expect: &[Pat::B(0x77), Pat::B(0x3a), Pat::Lo("NPLY"), Pat::Hi("NPLY")],
        what: "LD (HL),A followed by LD A,(NPLY)",
    },
    HookSpec {
        point: HookPoint::Ascend,
        symbol: "ASCEND",
        offset: 0,
        check_offset: 0,
        expect: &[Pat::B(0x21), Pat::Lo("COLOR"), Pat::Hi("COLOR")],
        what: "LD HL,COLOR",
    },
    HookSpec {
        point: HookPoint::BookRandom,
        symbol: "BOOK",
        offset: 23,
        check_offset: 21,
        expect: &[Pat::B(0xed), Pat::B(0x5f), Pat::B(0xcb), Pat::B(0x47)],
        what: "LD A,R followed by BIT 0,A",
    },
];

/// Every symbol the harness needs; `sargon rom info` checks them all.
pub const REQUIRED_SYMBOLS: &[&str] = &[
    "FNDMOV", "ROYALT", "VALMOV", "GENMOV", "PATH", "BOARDA", "COLOR", "KOLOR", "MOVENO", "PLYMAX",
    "NPLY", "MLPTRJ", "MLPTRI", "BESTM", "SCORE", "SCRIX", "PLYIX", "MVEMSG", "STACK", "P1", "T1",
    "M1", "M2", "VALM", "MP10", "FM5", "REL016", "FM37", "ASCEND", "BOOK",
];

impl Symbols {
    /// Resolve every address and check the instruction bytes at every hook point.
    pub fn resolve(rom: &Rom) -> Result<Symbols, RomError> {
        for s in REQUIRED_SYMBOLS {
            rom.symbol(s)?;
        }
        let s = |n: &str| rom.symbol(n).expect("checked above");
        let mem = rom.memory();
        let mut hooks = [0u16; 8];
        for spec in &HOOK_SPECS {
            let base = s(spec.symbol);
            let at = base.wrapping_add(spec.check_offset);
            let found: Vec<u8> = (0..spec.expect.len())
                .map(|i| mem[at.wrapping_add(i as u16) as usize])
                .collect();
            let ok = spec.expect.iter().zip(&found).all(|(p, &b)| match *p {
                Pat::B(x) => b == x,
                Pat::Lo(sym) => b == s(sym) as u8,
                Pat::Hi(sym) => b == (s(sym) >> 8) as u8,
            });
            if !ok {
                return Err(RomError::Corrupt {
                    name: rom.meta.name.clone(),
                    dir: std::path::PathBuf::from("(image)"),
                    why: format!(
                        "hook point {} expects {} at {}+{} ({:#06x}), found bytes {}",
                        spec.point.name(),
                        spec.what,
                        spec.symbol,
                        spec.check_offset,
                        at,
                        hex::encode(&found)
                    ),
                });
            }
            hooks[spec.point as usize] = base.wrapping_add(spec.offset);
        }
        Ok(Symbols {
            fndmov: s("FNDMOV"),
            royalt: s("ROYALT"),
            valmov: s("VALMOV"),
            boarda: s("BOARDA"),
            color: s("COLOR"),
            kolor: s("KOLOR"),
            moveno: s("MOVENO"),
            plymax: s("PLYMAX"),
            nply: s("NPLY"),
            mlptrj: s("MLPTRJ"),
            mlptri: s("MLPTRI"),
            bestm: s("BESTM"),
            score: s("SCORE"),
            scrix: s("SCRIX"),
            plyix: s("PLYIX"),
            mvemsg: s("MVEMSG"),
            stack: s("STACK"),
            p1: s("P1"),
            t1: s("T1"),
            m1: s("M1"),
            m2: s("M2"),
            valm: s("VALM"),
            hooks,
            state: StateSymbols::resolve(rom),
        })
    }
}

/// Sees every instruction the emulator executes (for profiling). The unobserved search uses
/// `NoObserver`, whose empty method the compiler removes from the run loop. An observer
/// sees iz80's own state, so it runs on that core only: on another, the search is refused
/// ([`SearchError::NotOnThisCore`]).
pub trait Observer {
    /// False only for `NoObserver`: the run loop then skips the observation entirely.
    const ACTIVE: bool = true;
    /// The instruction at `pc` has executed, taking `t_states` by `iz80`'s count (not the
    /// documented one); `cpu` and `mem` show the state after it.
    fn executed(&mut self, pc: u16, t_states: u32, cpu: &Cpu, mem: &[u8]);
}

/// The observer that observes nothing.
pub(crate) struct NoObserver;

impl Observer for NoObserver {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn executed(&mut self, _pc: u16, _t_states: u32, _cpu: &Cpu, _mem: &[u8]) {}
}

/// 64 KiB of memory and the hook table; what `iz80` sees as the machine.
pub(crate) struct SargonMachine {
    /// The 64 KiB address space.
    pub mem: Vec<u8>,
    /// For each address: 0, or 1 + the index of the hook point armed there.
    hook_table: Vec<u8>,
    /// With [`Emulator::track_reads`]: for each address, what the search did to it first.
    first_access: Option<Vec<u8>>,
}

/// [`SargonMachine::first_access`]: not touched yet in this search.
const UNTOUCHED: u8 = 0;
/// Written before it was ever read: the image's byte there cannot matter to the search.
const WRITTEN_FIRST: u8 = 1;
/// Read (as an instruction or as data) while it still held the image's byte.
const READ_FIRST: u8 = 2;

impl Machine for SargonMachine {
    #[inline(always)]
    fn peek(&mut self, address: u16) -> u8 {
        self.mem[address as usize]
    }
    #[inline(always)]
    fn poke(&mut self, address: u16, value: u8) {
        self.mem[address as usize] = value;
    }
    fn port_in(&mut self, _address: u16) -> u8 {
        0
    }
    fn port_out(&mut self, _address: u16, _value: u8) {}
}

/// The machine as `iz80` sees it while reads are tracked ([`Emulator::track_reads`]): the
/// same memory, each access noted. A machine of its own, chosen once per call, so that the
/// untracked run pays nothing for tracking.
struct Tracking<'a>(&'a mut SargonMachine);

impl Machine for Tracking<'_> {
    #[inline(always)]
    fn peek(&mut self, address: u16) -> u8 {
        self.0.note_read(address);
        self.0.mem[address as usize]
    }
    #[inline(always)]
    fn poke(&mut self, address: u16, value: u8) {
        self.0.note_write(address);
        self.0.mem[address as usize] = value;
    }
    fn port_in(&mut self, _address: u16) -> u8 {
        0
    }
    fn port_out(&mut self, _address: u16, _value: u8) {}
}

impl SargonMachine {
    /// A read by the program, or by the harness of what the search left (its move).
    #[inline(always)]
    fn note_read(&mut self, address: u16) {
        self.note_first(address, READ_FIRST);
    }

    /// A write by the program or by the harness: the image's byte there is gone.
    #[inline(always)]
    fn note_write(&mut self, address: u16) {
        self.note_first(address, WRITTEN_FIRST);
    }

    /// While reads are tracked, the first access to `address` in this search.
    #[inline(always)]
    fn note_first(&mut self, address: u16, access: u8) {
        if let Some(first) = &mut self.first_access {
            let f = &mut first[address as usize];
            if *f == UNTOUCHED {
                *f = access;
            }
        }
    }

    fn word(&self, addr: u16) -> u16 {
        u16::from_le_bytes([
            self.mem[addr as usize],
            self.mem[addr.wrapping_add(1) as usize],
        ])
    }
    fn set_word(&mut self, addr: u16, value: u16) {
        let [lo, hi] = value.to_le_bytes();
        self.note_write(addr);
        self.note_write(addr.wrapping_add(1));
        self.mem[addr as usize] = lo;
        self.mem[addr.wrapping_add(1) as usize] = hi;
    }
    fn smove_at(&self, entry: u16) -> SMove {
        SMove {
            from: Sq(self.mem[entry.wrapping_add(2) as usize]),
            to: Sq(self.mem[entry.wrapping_add(3) as usize]),
            flags: self.mem[entry.wrapping_add(4) as usize],
        }
    }
}

/// The original Sargon in the emulator.
pub struct Emulator {
    rom: Rom,
    rom_id: RomId,
    syms: Symbols,
    pristine: Vec<u8>,
    /// The Z80 core the calls run on.
    core: Core,
    cpu: Processor,
    machine: SargonMachine,
    instructions: u64,
    /// Documented T-states of the instructions run since the last reset.
    t_states: u64,
    /// The longest stretch of instructions without a hook point since the last reset.
    longest_gap: u64,
    /// Each executed address's documented timing, decoded once.
    timing: TimingCache,
    mlptrj_fix: bool,
    stop_check_interval: u64,
    /// With [`Emulator::track_reads`]: where each search adds the bytes it read first.
    reads: Option<ImageReads>,
    /// With [`Emulator::track_coverage`]: this search's instructions, and where each
    /// search adds them.
    coverage: Option<(Coverage, SharedCoverage)>,
    /// In a [`lockstep::Crosscheck`]: the second core every call runs beside iz80.
    lockstep: Option<Box<lockstep::Lockstep>>,
}

/// The addresses whose image byte some search read before anything overwrote it (as an
/// instruction or as data): what [`Emulator::track_reads`] collects, shared by the
/// emulators of one check.
pub type ImageReads = std::sync::Arc<std::sync::Mutex<Vec<bool>>>;

impl Emulator {
    /// Prepare an emulator for a ROM, checking its symbols and hook points; its calls run
    /// on iz80.
    pub fn new(rom: Rom) -> Result<Emulator, RomError> {
        Emulator::with_core(rom, Core::Iz80)
    }

    /// [`Emulator::new`], the calls running on `core`.
    pub fn with_core(rom: Rom, core: Core) -> Result<Emulator, RomError> {
        let syms = Symbols::resolve(&rom)?;
        let pristine = rom.memory();
        Ok(Emulator {
            rom_id: RomId {
                name: rom.meta.name.clone(),
                sha256: rom.meta.image_sha256.clone(),
                verified: rom.verified(),
                allowed_differences: rom.meta.allowed_differences.clone(),
            },
            machine: SargonMachine {
                mem: pristine.clone(),
                hook_table: vec![0; 0x10000],
                first_access: None,
            },
            rom,
            syms,
            pristine,
            core,
            cpu: Processor::new(core),
            instructions: 0,
            t_states: 0,
            longest_gap: 0,
            timing: TimingCache::new(),
            mlptrj_fix: true,
            stop_check_interval: STOP_CHECK_INTERVAL,
            reads: None,
            coverage: None,
            lockstep: None,
        })
    }

    /// From now on, after every search, mark in `into` (64 Ki entries) each address whose
    /// image byte the search read before it was written, by the program or by the harness's
    /// set-up (the board, the side, the depth, ...). This is what the ROM check uses to
    /// tell the bytes the search depends on from those it never reads. Costs one test per
    /// memory access while on.
    pub fn track_reads(&mut self, into: ImageReads) {
        self.machine.first_access = Some(vec![UNTOUCHED; 0x10000]);
        self.reads = Some(into);
    }

    /// From now on, after every search, add to `into` the instructions the search (its
    /// set-up included) executed and which way each conditional one went: what `sargon rom
    /// coverage` reports. Costs a table lookup per instruction while on.
    pub fn track_coverage(&mut self, into: SharedCoverage) {
        self.coverage = Some((Coverage::new(), into));
    }

    /// Is anything tracked (reads or coverage)? Then the run loop notes every access.
    fn tracking(&self) -> bool {
        self.machine.first_access.is_some() || self.coverage.is_some()
    }

    /// Add this search's first reads and coverage to the shared sets, and start the next
    /// search afresh.
    fn flush_tracking(&mut self) {
        if let Some((mine, shared)) = &mut self.coverage {
            shared.lock().unwrap_or_else(|e| e.into_inner()).merge(mine);
            mine.clear();
        }
        let (Some(first), Some(reads)) = (&mut self.machine.first_access, &self.reads) else {
            return;
        };
        let mut reads = reads.lock().unwrap_or_else(|e| e.into_inner());
        for (read, f) in reads.iter_mut().zip(first.iter_mut()) {
            *read |= *f == READ_FIRST;
            *f = UNTOUCHED;
        }
    }

    /// The Z80 core the calls run on.
    pub fn core(&self) -> Core {
        self.core
    }

    /// The ROM loaded.
    pub fn rom(&self) -> &Rom {
        &self.rom
    }

    /// The harness's addresses in the ROM.
    pub fn symbols(&self) -> &Symbols {
        &self.syms
    }

    /// Point MLPTRJ at a scratch entry before each search (on by default). Off, the
    /// original's uninitialised-pointer write corrupts M3 and the search goes wrong: kept
    /// switchable so the failure can be shown (see `docs/emulator.md`).
    pub fn set_mlptrj_fix(&mut self, on: bool) {
        self.mlptrj_fix = on;
    }

    /// How many instructions run between two looks at the stop flag (default 65,536).
    /// Changing it must change nothing but how soon a stop is noticed; the tests run
    /// with 1 to prove that.
    pub fn set_stop_check_interval(&mut self, instructions: u64) {
        self.stop_check_interval = instructions.max(1);
    }

    /// The emulated memory (after the last search).
    pub fn memory(&self) -> &[u8] {
        &self.machine.mem
    }

    /// Restore the pristine image: every search starts from the program as imported.
    fn reset(&mut self) {
        self.machine.mem.copy_from_slice(&self.pristine);
        self.cpu = Processor::new(self.core);
        self.instructions = 0;
        self.t_states = 0;
        self.longest_gap = 0;
    }

    fn poke(&mut self, addr: u16, value: u8) {
        self.machine.note_write(addr);
        self.machine.mem[addr as usize] = value;
    }

    fn peek(&self, addr: u16) -> u8 {
        self.machine.mem[addr as usize]
    }

    /// Arm the hook table for the points in `hooks` (plus the book's random byte, which the
    /// harness always supplies); the other points are marked passed-only, for the progress
    /// check ([`STALL_LIMIT`]).
    fn arm(&mut self, hooks: &Hooks) {
        self.machine.hook_table.iter_mut().for_each(|b| *b = 0);
        let mask = hooks.mask().with(HookPoint::BookRandom);
        for p in HookPoint::ALL {
            let armed = if mask.contains(p) { 0 } else { PASSED };
            self.machine.hook_table[self.syms.hooks[p as usize] as usize] = armed | (1 + p as u8);
        }
        if self.core != Core::Iz80 {
            // The book's `LD A,R`, just before its random-byte point (the hook spec checks
            // the bytes ED 5F there).
            let ld_a_r = self.syms.hooks[HookPoint::BookRandom as usize].wrapping_sub(2);
            self.machine.hook_table[ld_a_r as usize] = REFRESH_MARK;
        }
    }

    /// What a call of this emulator would ask of its core that the core cannot give: an
    /// observer or the tracking of reads, on a core other than iz80.
    fn check_core<O: Observer>(&self) -> Result<(), SearchError> {
        let what = if self.core == Core::Iz80 {
            return Ok(());
        } else if O::ACTIVE {
            "an instruction observer (the profiler)"
        } else if self.machine.first_access.is_some() {
            "tracking the image's reads"
        } else {
            return Ok(());
        };
        Err(SearchError::NotOnThisCore {
            what: what.to_string(),
            needs: Core::Iz80.to_string(),
            core: self.core.to_string(),
        })
    }

    /// Set a call of the routine at `addr` up on `core`: the sentinel as its return
    /// address below Sargon's stack, SP and PC, and the sentinel marked in the hook table.
    fn enter<C: Z80>(&mut self, core: &mut C, addr: u16) {
        let sp = self.syms.stack.wrapping_sub(2);
        self.machine.set_word(sp, SENTINEL);
        core.enter(sp, addr);
        // The sentinel is marked in the hook table too, so the hot loop has one lookup and
        // one well-predicted branch per instruction besides the chunk-end test.
        self.machine.hook_table[SENTINEL as usize] = SENTINEL_MARK;
    }

    /// The error of a call that did not return within its budget, or made no progress.
    fn runaway(&self, routine: &str, instructions: u64, pc: u16, why: GaveUp) -> SearchError {
        let at = crate::coverage::place(&crate::Program::of_rom(&self.rom), pc);
        progress::runaway(routine, instructions, pc, at, why)
    }

    /// Call the routine at `addr` and run until it returns (or the budget runs out), on the
    /// emulator's core. An active `observer`, or reads tracked, on a core other than iz80
    /// are refused ([`SearchError::NotOnThisCore`]) before anything runs.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn call<O: Observer>(
        &mut self,
        routine: &str,
        addr: u16,
        budget: u64,
        hooks: &mut Hooks,
        book_random: u8,
        stop: Option<&std::sync::atomic::AtomicBool>,
        observer: &mut O,
    ) -> Result<(), SearchError> {
        self.check_core::<O>()?;
        // The core is lent to the run loop, which borrows the rest of the emulator beside it.
        let mut cpu = std::mem::replace(&mut self.cpu, Processor::Lent);
        let result = match &mut cpu {
            Processor::Iz80(cpu) => match self.lockstep.take() {
                Some(mut ls) => {
                    let result =
                        self.run_lockstep(&mut ls, cpu, routine, addr, budget, hooks, book_random);
                    self.lockstep = Some(ls);
                    result
                }
                None => self.run_on(
                    cpu,
                    routine,
                    addr,
                    budget,
                    hooks,
                    book_random,
                    stop,
                    observer,
                ),
            },
            Processor::Z80emu(z) => {
                self.run_on(z, routine, addr, budget, hooks, book_random, stop, observer)
            }
            Processor::Lent => {
                unreachable!("the core of an earlier call that panicked (a search resets it)")
            }
        };
        self.cpu = cpu;
        result
    }

    /// [`Emulator::call`] on `core`.
    #[allow(clippy::too_many_arguments)]
    fn run_on<C: Z80, O: Observer>(
        &mut self,
        core: &mut C,
        routine: &str,
        addr: u16,
        budget: u64,
        hooks: &mut Hooks,
        book_random: u8,
        stop: Option<&std::sync::atomic::AtomicBool>,
        observer: &mut O,
    ) -> Result<(), SearchError> {
        // Two run loops, so that the untracked one has no per-instruction test for tracking.
        if self.tracking() {
            self.run::<C, O, true>(
                core,
                routine,
                addr,
                budget,
                hooks,
                book_random,
                stop,
                observer,
            )
        } else {
            self.run::<C, O, false>(
                core,
                routine,
                addr,
                budget,
                hooks,
                book_random,
                stop,
                observer,
            )
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn run<C: Z80, O: Observer, const TRACK: bool>(
        &mut self,
        core: &mut C,
        routine: &str,
        addr: u16,
        budget: u64,
        hooks: &mut Hooks,
        book_random: u8,
        stop: Option<&std::sync::atomic::AtomicBool>,
        observer: &mut O,
    ) -> Result<(), SearchError> {
        self.enter(core, addr);
        let limit = self.instructions.saturating_add(budget);
        let mut n = self.instructions;
        let mut t_states = self.t_states;
        let mut progress = Progress::start(n, self.longest_gap);
        let result = 'run: loop {
            // Run in chunks so that a stop request is noticed without a per-instruction cost.
            // A hook fires and its instruction executes in the same step, so a chunk boundary
            // never makes a hook fire twice. A chunk ends at the progress deadline too, so
            // that a runaway is stopped at the same count whatever the chunk size.
            let chunk_end = limit
                .min(n + self.stop_check_interval)
                .min(progress.deadline());
            while n < chunk_end {
                let pc = core.pc();
                let h = self.machine.hook_table[pc as usize];
                if h != 0 {
                    if h == SENTINEL_MARK {
                        break 'run Ok(());
                    }
                    if h == REFRESH_MARK {
                        core.before_refresh_read();
                    } else {
                        progress.reached(n);
                        if h & PASSED == 0 {
                            self.instructions = n;
                            let point = HookPoint::ALL[(h - 1) as usize];
                            self.fire(core, point, hooks, book_random);
                        }
                    }
                }
                let sp = core.sp();
                if O::ACTIVE {
                    let cycles = core.cycles();
                    core.step::<TRACK>(&mut self.machine);
                    let iz80_t_states = (core.cycles() - cycles) as u32;
                    let cpu = core
                        .as_iz80()
                        .expect("an observer runs on iz80 (check_core)");
                    observer.executed(pc, iz80_t_states, cpu, &self.machine.mem);
                } else {
                    core.step::<TRACK>(&mut self.machine);
                }
                // Whether a conditional instruction took its branch shows in PC and SP after it.
                let (pc_after, sp_after) = (core.pc(), core.sp());
                t_states +=
                    u64::from(
                        self.timing
                            .t_states(&self.machine.mem, pc, pc_after, sp, sp_after),
                    );
                if TRACK {
                    if let Some((coverage, _)) = &mut self.coverage {
                        let held = self.timing.condition_held(
                            &self.machine.mem,
                            pc,
                            pc_after,
                            sp,
                            sp_after,
                        );
                        coverage.note(pc, held);
                    }
                }
                n += 1;
            }
            let pc = core.pc();
            if pc == SENTINEL {
                break Ok(());
            }
            if stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed)) {
                break Err(SearchError::Stopped);
            }
            if n >= limit {
                break Err(self.runaway(routine, n, pc, GaveUp::Budget));
            }
            if progress.stalled(n) {
                break Err(self.runaway(routine, n, pc, GaveUp::Stalled));
            }
        };
        // The stretch from the last hook point to the return counts too.
        progress.reached(n);
        self.longest_gap = progress.longest;
        self.instructions = n;
        self.t_states = t_states;
        result
    }

    /// Run the hooks armed at `point` on `core` (and, at the book's random-byte point, put
    /// the harness's byte into A).
    fn fire<C: Z80>(&mut self, core: &mut C, point: HookPoint, hooks: &mut Hooks, book_random: u8) {
        if point == HookPoint::BookRandom {
            core.set_a(book_random);
            core.after_refresh_read();
        }
        if hooks.mask().contains(point) {
            let registers = Registers {
                a: core.a(),
                b: core.b(),
            };
            let memory = EmuMemory {
                mem: &self.machine.mem,
                syms: &self.syms,
            };
            let fired = hooks.fire_all(point, &memory, registers);
            // Move-list links a hook changed (`movegen.done` keeping a move out).
            for w in &fired.link_writes {
                let [lo, hi] = w.value.to_le_bytes();
                self.poke(w.at, lo);
                self.poke(w.at.wrapping_add(1), hi);
            }
            let out = fired.registers;
            if out != registers {
                core.set_a(out.a);
                core.set_b(out.b);
            }
        }
    }

    /// Write the position into Sargon's memory and replay a move if the set-up asks.
    fn load_setup(
        &mut self,
        setup: &Setup,
        budget: u64,
        hooks: &mut Hooks,
    ) -> Result<(), SearchError> {
        let s = self.syms.clone();
        for (i, &b) in setup.board.iter().enumerate() {
            self.poke(s.boarda + i as u16, b);
        }
        self.poke(s.color, setup.side.byte());
        self.poke(s.moveno, setup.moveno);
        self.call("ROYALT", s.royalt, budget, hooks, 0, None, &mut NoObserver)?;
        if self.mlptrj_fix {
            for i in 0..6 {
                self.poke(SCRATCH_ENTRY + i, 0);
            }
            self.machine.set_word(s.mlptrj, SCRATCH_ENTRY);
        }
        if let Some((from, to)) = setup.replay {
            // VALMOV checks a move of the side opposite KOLOR, as it did for the player.
            self.poke(s.kolor, setup.side.byte() ^ 0x80);
            self.poke(s.mvemsg, from.0);
            self.poke(s.mvemsg + 1, to.0);
            self.call("VALMOV", s.valmov, budget, hooks, 0, None, &mut NoObserver)?;
            if self.cpu.a() != 0 {
                return Err(SearchError::ReplayRefused {
                    uci: format!("{from}{to}"),
                });
            }
            self.poke(s.color, setup.side.byte() ^ 0x80);
        }
        Ok(())
    }

    /// Instructions executed since the last reset.
    pub fn instructions(&self) -> u64 {
        self.instructions
    }

    /// The longest stretch of instructions the last search (its set-up included) went
    /// without reaching a hook point, from a call's start or to its return: what the
    /// progress check ([`STALL_LIMIT`]) must stay far above.
    pub fn longest_gap(&self) -> u64 {
        self.longest_gap
    }

    /// Documented T-states (Zilog's manual) of the instructions executed since the last
    /// reset.
    pub fn t_states(&self) -> u64 {
        self.t_states
    }
}

impl Engine for Emulator {
    /// `emulator`, whatever its ROM and core (which [`Engine::rom_id`] and
    /// [`Engine::core`] say): the name results have always recorded.
    fn id(&self) -> String {
        "emulator".into()
    }

    fn max_depth(&self) -> u8 {
        MAX_DEPTH
    }

    /// Everything: hooks at the image's addresses, its data area, the Z80.
    fn capabilities(&self) -> Capabilities {
        Capabilities::hooked(true, true)
    }

    fn core(&self) -> Option<&str> {
        (self.core != Core::Iz80).then(|| self.core.name())
    }

    fn rom_id(&self) -> Option<&RomId> {
        Some(&self.rom_id)
    }

    fn search(
        &mut self,
        setup: &Setup,
        opts: &SearchOptions,
        hooks: &mut Hooks,
    ) -> Result<SearchOutcome, SearchError> {
        self.search_observed(setup, opts, hooks, &mut NoObserver)
    }
}

impl Emulator {
    /// A search whose FNDMOV call reports every instruction to `observer` (profiling).
    /// The set-up before it (ROYALT, a replayed move) is not observed.
    pub fn search_observed<O: Observer>(
        &mut self,
        setup: &Setup,
        opts: &SearchOptions,
        hooks: &mut Hooks,
        observer: &mut O,
    ) -> Result<SearchOutcome, SearchError> {
        let outcome = self.search_from_reset(setup, opts, hooks, observer);
        self.flush_tracking();
        outcome
    }

    fn search_from_reset<O: Observer>(
        &mut self,
        setup: &Setup,
        opts: &SearchOptions,
        hooks: &mut Hooks,
        observer: &mut O,
    ) -> Result<SearchOutcome, SearchError> {
        self.check_depth(opts.depth)?;
        self.check_core::<O>()?;
        let started = Instant::now();
        self.reset();
        self.arm(hooks);
        let budget = opts.instruction_budget();
        self.load_setup(setup, budget, hooks)?;
        let s = self.syms.clone();
        self.poke(s.plymax, opts.depth);
        let color = self.peek(s.color);
        self.poke(s.kolor, color);
        let cycles_before = self.cpu.cycles();
        let instructions_before = self.instructions;
        let t_states_before = self.t_states;
        self.call(
            "FNDMOV",
            s.fndmov,
            budget.saturating_sub(self.instructions),
            hooks,
            opts.book_random,
            opts.stop.as_deref(),
            observer,
        )?;
        let bestm = self.machine.word(s.bestm);
        // BESTM is 0 when no move was chosen; the book sets it into BMOVES, which may lie in
        // page 0, so the whole word is tested (not the high byte, as Sargon does for lists).
        let best = (bestm != 0).then(|| {
            // The move is the search's answer: the bytes it is read from count as read
            // (the book's moves are only ever read here, through BESTM).
            for i in 2..5 {
                self.machine.note_read(bestm.wrapping_add(i));
            }
            self.machine.smove_at(bestm)
        });
        Ok(SearchOutcome {
            best,
            root_score: Score(self.peek(s.score + 1)),
            from_book: setup.plays_from_book(),
            stats: SearchStats {
                z80_instructions: Some(self.instructions - instructions_before),
                t_states: Some(self.t_states - t_states_before),
                // iz80's own count, on iz80 only.
                iz80_t_states: (self.core == Core::Iz80).then(|| self.cpu.cycles() - cycles_before),
                wall_us: started.elapsed().as_micros() as u64,
            },
        })
    }
}

/// The emulated memory as the hooks' views read it: each variable at its symbol's address.
struct EmuMemory<'a> {
    mem: &'a [u8],
    syms: &'a Symbols,
}

impl EmuMemory<'_> {
    fn word(&self, addr: u16) -> u16 {
        u16::from_le_bytes([
            self.mem[addr as usize],
            self.mem[addr.wrapping_add(1) as usize],
        ])
    }
}

impl SargonMemory for EmuMemory<'_> {
    fn var(&self, var: Var) -> u8 {
        let s = self.syms;
        // M1, M2 and T1 are index words whose low byte is the value.
        let addr = match var {
            Var::Nply => s.nply,
            Var::Plymax => s.plymax,
            Var::Color => s.color,
            Var::P1 => s.p1,
            Var::T1 => s.t1,
            Var::M1 => s.m1,
            Var::M2 => s.m2,
        };
        self.mem[addr as usize]
    }

    fn pointer(&self, pointer: Pointer) -> u16 {
        let s = self.syms;
        self.word(match pointer {
            Pointer::Mlptri => s.mlptri,
            Pointer::Mlptrj => s.mlptrj,
            Pointer::Scrix => s.scrix,
        })
    }

    fn table(&self, table: Table) -> u16 {
        match table {
            Table::Board => self.syms.boarda,
            Table::PlyIndex => self.syms.plyix,
        }
    }

    fn peek(&self, addr: u16) -> u8 {
        self.mem[addr as usize]
    }

    // The whole state, at the image's own symbols (M1-M4 and T1-T3 are index words whose
    // low byte, at the symbol, is the value).
    fn state_var(&self, name: &str) -> Option<u8> {
        let i = sargon_core::state::VARIABLES
            .iter()
            .position(|&v| v == name)?;
        let addr = self.syms.state.variables[i]?;
        Some(self.mem[addr as usize])
    }

    fn state_pointer(&self, name: &str) -> Option<u16> {
        let i = sargon_core::state::POINTERS
            .iter()
            .position(|&v| v == name)?;
        Some(self.word(self.syms.state.pointers[i]?))
    }

    fn area(&self, area: sargon_core::state::Area) -> Option<u16> {
        use sargon_core::state::Area;
        match area {
            Area::Tables => self.syms.state.tables,
            Area::Book => self.syms.state.book,
            Area::MoveList => self.syms.state.move_list,
            Area::Scratch => Some(SCRATCH_ENTRY),
        }
    }
}
