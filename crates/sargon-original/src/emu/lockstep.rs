//! A second, independent Z80 core run in lock-step with iz80: `sargon emulator crosscheck`.
//!
//! The original Sargon rests on one emulator. If iz80 mis-executed an instruction Sargon
//! uses, the "original" and the port built to match it would agree on the mistake. So the
//! same image runs, one instruction at a time, on a second core written apart from iz80,
//! `z80emu` (docs/emulator.md says why that one), and after every instruction the two are
//! compared: PC, SP, every register (the alternate set after `EXX` and `EX AF,AF'`, the only
//! instructions that can change it), the six documented flags (bits 5 and 3 too on request:
//! iz80 does not model them where they come from the hidden MEMPTR register, so by default
//! they are masked and only where they part is tallied), the interrupt state, and every
//! memory write, address and value. The instruction's T-states on the
//! second core, which counts them machine cycle by machine cycle, are compared with the
//! project's documented table ([`TimingCache`], the one the TRS-80 estimate uses).
//!
//! How the second core runs the identical sequence: the harness sets a search up by writing
//! Sargon's memory and calling routines (ROYALT, VALMOV, FNDMOV). At the start of each call
//! the second core is loaded with iz80's whole 64 KiB and registers; then both step. The
//! harness's only hook that changes state in a crosscheck is the book's random byte (the
//! crosscheck attaches no other hooks): it is applied to both cores. The refresh register R
//! is not compared: iz80 does not model it (it stays 0) while z80emu counts it, and Sargon
//! reads it once, through `LD A,R`, whose value the harness replaces; at that instruction
//! A and the flags derived from R are given to the second core from iz80.
//!
//! A difference in the state or the writes stops the search (the cores have parted); a
//! T-state difference is counted per address and the run goes on, since it changes
//! nothing the program sees.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Instant;

use iz80::{Cpu, Machine, Reg16, Reg8};
use z80emu::host::TsCounter;
use z80emu::{Clock as _, Cpu as _, CpuDebug, CpuFlags, Io, Memory, Prefix, StkReg16, Z80NMOS};

use super::progress::{GaveUp, Progress, PASSED};
use super::emulator::{Emulator, SENTINEL, SENTINEL_MARK};
use super::machine::NoObserver;
use crate::program::Program;
use crate::rom::{Rom, RomError};
use crate::z80::{decode, TimingCache};
use sargon_core::engine::{SearchError, SearchOptions};
use sargon_core::hooks::{HookPoint, Hooks};
use sargon_core::position::Setup;

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

/// The original Sargon on two cores in lock-step.
pub struct Crosscheck {
    emu: Emulator,
}

impl Crosscheck {
    /// Prepare both cores for a ROM.
    pub fn new(rom: Rom, options: Options) -> Result<Crosscheck, CrosscheckError> {
        let program = Program::of_rom(&rom);
        let mut emu = Emulator::new(rom)?;
        emu.lockstep = Some(Box::new(Lockstep::new(options, Some(program))));
        Ok(Crosscheck { emu })
    }

    /// Search `setup` to `depth` on both cores, comparing every instruction.
    pub fn search(
        &mut self,
        setup: &Setup,
        depth: u8,
        book_random: u8,
    ) -> Result<SearchCheck, CrosscheckError> {
        let opts = SearchOptions {
            depth,
            book_random,
            ..Default::default()
        };
        self.lockstep().begin_search();
        let result = self
            .emu
            .search_observed(setup, &opts, &mut Hooks::new(), &mut NoObserver);
        let ls = self.lockstep();
        let disagreed = ls.disagreement.is_some();
        match result {
            Ok(_) => {}
            Err(SearchError::Stopped) if disagreed => {}
            Err(e) => return Err(e.into()),
        }
        let mut check = ls.take_check();
        if !disagreed && ls.options.time_cores {
            check.speed = ls.snapshot.take().map(|s| s.time(&self.emu, book_random));
        }
        Ok(check)
    }

    fn lockstep(&mut self) -> &mut Lockstep {
        self.emu
            .lockstep
            .as_deref_mut()
            .expect("a crosscheck has a lock-step")
    }
}

/// The second core's memory and I/O: 64 KiB, its writes noted.
struct Bus {
    mem: Vec<u8>,
    writes: Vec<(u16, u8)>,
}

impl Memory for Bus {
    type Timestamp = u32;
    fn read_debug(&self, address: u16) -> u8 {
        self.mem[address as usize]
    }
    fn write_mem(&mut self, address: u16, value: u8, _ts: u32) {
        self.mem[address as usize] = value;
        self.writes.push((address, value));
    }
}

impl Io for Bus {
    type Timestamp = u32;
    type WrIoBreak = ();
    type RetiBreak = ();
    /// iz80's machine answers 0 to every port read; so does this one.
    fn read_io(&mut self, _port: u16, _ts: u32) -> (u8, Option<std::num::NonZeroU16>) {
        (0, None)
    }
}

/// iz80's machine during a lock-step: the harness's memory, its writes noted.
struct Recording<'a> {
    mem: &'a mut [u8],
    writes: &'a mut Vec<(u16, u8)>,
}

impl Machine for Recording<'_> {
    fn peek(&mut self, address: u16) -> u8 {
        self.mem[address as usize]
    }
    fn poke(&mut self, address: u16, value: u8) {
        self.mem[address as usize] = value;
        self.writes.push((address, value));
    }
    fn port_in(&mut self, _address: u16) -> u8 {
        0
    }
    fn port_out(&mut self, _address: u16, _value: u8) {}
}

/// The FNDMOV call's start: iz80's registers and memory, to time each core alone.
struct Snapshot {
    registers: Vec<u8>,
    mem: Vec<u8>,
    pc: u16,
}

impl Snapshot {
    fn time(&self, emu: &Emulator, book_random: u8) -> CoreSpeed {
        let hook = emu.syms.hooks[HookPoint::BookRandom as usize];
        // iz80 alone.
        let mut cpu = Cpu::new_z80();
        cpu.deserialize(&self.registers)
            .expect("iz80's own serialisation");
        let mut machine = Plain(self.mem.clone());
        let started = Instant::now();
        let mut iz80_instructions = 0u64;
        loop {
            let pc = cpu.immutable_registers().pc();
            if pc == SENTINEL {
                break;
            }
            if pc == hook {
                cpu.registers().set_a(book_random);
            }
            cpu.execute_instruction(&mut machine);
            iz80_instructions += 1;
        }
        let iz80_seconds = started.elapsed().as_secs_f64();
        // The second core alone, loaded from the same registers.
        let mut z = Z80NMOS::default();
        load_second(&mut z, &cpu_from(&self.registers), self.pc);
        let mut bus = Bus {
            mem: self.mem.clone(),
            writes: Vec::new(),
        };
        let mut clock = TsCounter::<u32>::default();
        let started = Instant::now();
        let mut second_instructions = 0u64;
        loop {
            let pc = z.get_pc();
            if pc == SENTINEL {
                break;
            }
            if pc == hook {
                z.set_acc(book_random);
            }
            execute_second(&mut z, &mut bus, &mut clock);
            bus.writes.clear();
            second_instructions += 1;
        }
        CoreSpeed {
            iz80_instructions,
            iz80_seconds,
            second_instructions,
            second_seconds: started.elapsed().as_secs_f64(),
        }
    }
}

/// A plain 64 KiB machine for iz80 alone.
struct Plain(Vec<u8>);

impl Machine for Plain {
    fn peek(&mut self, address: u16) -> u8 {
        self.0[address as usize]
    }
    fn poke(&mut self, address: u16, value: u8) {
        self.0[address as usize] = value;
    }
    fn port_in(&mut self, _address: u16) -> u8 {
        0
    }
    fn port_out(&mut self, _address: u16, _value: u8) {}
}

fn cpu_from(registers: &[u8]) -> Cpu {
    let mut cpu = Cpu::new_z80();
    cpu.deserialize(registers)
        .expect("iz80's own serialisation");
    cpu
}

/// One instruction on the second core (a prefix chain such as `DD DD` is one instruction
/// for iz80, so the second core runs until it is not left after a prefix).
#[inline]
fn execute_second(z: &mut Z80NMOS, bus: &mut Bus, clock: &mut TsCounter<u32>) {
    loop {
        // HALT is the only break with this bus; Sargon has none, and a halted core shows
        // as a PC that stops moving, which the comparison reports.
        let _ = z.execute_next(bus, clock, None::<fn(CpuDebug)>);
        if !z.is_after_prefix() {
            break;
        }
    }
}

/// iz80's registers (the alternate set only when asked: reading it costs a serialisation).
pub(crate) fn iz80_state(cpu: &Cpu, alternate: bool) -> CoreState {
    let r = cpu.immutable_registers();
    let (iff1, im) = r.get_interrupt_mode();
    CoreState {
        pc: r.pc(),
        sp: r.get16(Reg16::SP),
        af: r.get16(Reg16::AF),
        bc: r.get16(Reg16::BC),
        de: r.get16(Reg16::DE),
        hl: r.get16(Reg16::HL),
        ix: r.get16(Reg16::IX),
        iy: r.get16(Reg16::IY),
        alternate: alternate.then(|| {
            // iz80 shows its alternate registers only in its serialised state: 16 main
            // bytes then 16 alternate ones, in its register order (A F B C D E H L ...).
            let s = cpu.serialize();
            let w = |i: usize| u16::from_be_bytes([s[16 + i], s[16 + i + 1]]);
            [
                w(Reg8::A as usize),
                w(Reg8::B as usize),
                w(Reg8::D as usize),
                w(Reg8::H as usize),
            ]
        }),
        i: r.get8(Reg8::I),
        iff1,
        im,
    }
}

/// The second core's registers.
pub(crate) fn second_state(z: &Z80NMOS, alternate: bool) -> CoreState {
    CoreState {
        pc: z.get_pc(),
        sp: z.get_sp(),
        af: z.get_reg16(StkReg16::AF),
        bc: z.get_reg16(StkReg16::BC),
        de: z.get_reg16(StkReg16::DE),
        hl: z.get_reg16(StkReg16::HL),
        ix: z.get_index16(Prefix::Xdd),
        iy: z.get_index16(Prefix::Yfd),
        alternate: alternate.then(|| {
            [
                z.get_alt_reg16(StkReg16::AF),
                z.get_alt_reg16(StkReg16::BC),
                z.get_alt_reg16(StkReg16::DE),
                z.get_alt_reg16(StkReg16::HL),
            ]
        }),
        i: z.get_i(),
        iff1: z.get_iffs().0,
        im: match z.get_im() {
            z80emu::InterruptMode::Mode0 => 0,
            z80emu::InterruptMode::Mode1 => 1,
            z80emu::InterruptMode::Mode2 => 2,
        },
    }
}

/// Load the second core with iz80's registers (R too, though it is never compared).
fn load_second(z: &mut Z80NMOS, cpu: &Cpu, pc: u16) {
    let s = iz80_state(cpu, true);
    let [af, bc, de, hl] = s.alternate.expect("asked for");
    *z = Z80NMOS::default();
    z.set_reg16(StkReg16::AF, af);
    z.set_reg16(StkReg16::BC, bc);
    z.set_reg16(StkReg16::DE, de);
    z.set_reg16(StkReg16::HL, hl);
    z.ex_af_af();
    z.exx();
    z.set_reg16(StkReg16::AF, s.af);
    z.set_reg16(StkReg16::BC, s.bc);
    z.set_reg16(StkReg16::DE, s.de);
    z.set_reg16(StkReg16::HL, s.hl);
    z.set_index16(Prefix::Xdd, s.ix);
    z.set_index16(Prefix::Yfd, s.iy);
    z.set_sp(s.sp);
    z.set_pc(pc);
    z.set_i(s.i);
    z.set_r(cpu.immutable_registers().get8(Reg8::R));
    z.set_iffs(s.iff1, s.iff1);
    z.set_im(match s.im {
        1 => z80emu::InterruptMode::Mode1,
        2 => z80emu::InterruptMode::Mode2,
        _ => z80emu::InterruptMode::Mode0,
    });
}

/// The lock-step machinery: the second core, what it compares and what it found.
pub(crate) struct Lockstep {
    options: Options,
    program: Option<Program>,
    z: Z80NMOS,
    bus: Bus,
    clock: TsCounter<u32>,
    iz80_writes: Vec<(u16, u8)>,
    flag_mask: u8,
    /// Instructions compared in this search.
    index: u64,
    table_t_states: u64,
    second_t_states: u64,
    iz80_t_states: u64,
    cycle_mismatches: BTreeMap<(u16, u32, u32), CycleMismatch>,
    undocumented: BTreeMap<(u16, u32, u32), CycleMismatch>,
    /// Whether the masked flag bits differed after the last instruction.
    undocumented_apart: bool,
    disagreement: Option<Box<Disagreement>>,
    snapshot: Option<Snapshot>,
}

impl Lockstep {
    fn new(options: Options, program: Option<Program>) -> Lockstep {
        Lockstep {
            flag_mask: if options.undocumented_flags {
                0xff
            } else {
                DOCUMENTED_FLAGS
            },
            options,
            program,
            z: Z80NMOS::default(),
            bus: Bus {
                mem: vec![0; 0x10000],
                writes: Vec::new(),
            },
            clock: TsCounter::default(),
            iz80_writes: Vec::new(),
            index: 0,
            table_t_states: 0,
            second_t_states: 0,
            iz80_t_states: 0,
            cycle_mismatches: BTreeMap::new(),
            undocumented: BTreeMap::new(),
            undocumented_apart: false,
            disagreement: None,
            snapshot: None,
        }
    }

    fn begin_search(&mut self) {
        self.index = 0;
        self.table_t_states = 0;
        self.second_t_states = 0;
        self.iz80_t_states = 0;
        self.cycle_mismatches.clear();
        self.undocumented.clear();
        self.disagreement = None;
        self.snapshot = None;
    }

    fn take_check(&mut self) -> SearchCheck {
        SearchCheck {
            instructions: self.index,
            table_t_states: self.table_t_states,
            second_t_states: self.second_t_states,
            iz80_t_states: self.iz80_t_states,
            disagreement: self.disagreement.take(),
            cycle_mismatches: std::mem::take(&mut self.cycle_mismatches)
                .into_values()
                .collect(),
            undocumented_flags: std::mem::take(&mut self.undocumented)
                .into_values()
                .collect(),
            speed: None,
        }
    }

    /// Load the second core with iz80's whole state: the start of a routine call.
    fn load(&mut self, cpu: &Cpu, mem: &[u8]) {
        load_second(&mut self.z, cpu, cpu.immutable_registers().pc());
        self.bus.mem.copy_from_slice(mem);
        self.undocumented_apart = false;
    }

    /// A hook changed A or B on iz80: the same on the second core.
    fn after_hook(&mut self, cpu: &Cpu) {
        let r = cpu.immutable_registers();
        self.z.set_acc(r.a());
        let c = self.z.get_reg16(StkReg16::BC) as u8;
        self.z
            .set_reg16(StkReg16::BC, u16::from_be_bytes([r.get8(Reg8::B), c]));
    }

    fn place(&self, pc: u16) -> String {
        place(&self.program, pc)
    }

    fn text(&self, mem: &[u8], pc: u16) -> String {
        text(&self.program, mem, pc)
    }

    /// Execute one instruction on both cores and compare them. `Err` is the first
    /// disagreement (kept in [`Lockstep::disagreement`] too).
    fn step(
        &mut self,
        call: &str,
        cpu: &mut Cpu,
        mem: &mut [u8],
        timing: &mut TimingCache,
    ) -> Result<(), ()> {
        let pc = cpu.immutable_registers().pc();
        let sp = cpu.immutable_registers().get16(Reg16::SP);
        let op = mem[pc as usize];
        let ld_a_r = op == 0xed && mem[pc.wrapping_add(1) as usize] == 0x5f;
        // Only EXX and EX AF,AF' change the alternate registers.
        let alternate = op == 0xd9 || op == 0x08;
        let before = (self.disagreement.is_none()).then(|| iz80_state(cpu, false));

        self.iz80_writes.clear();
        let c0 = cpu.cycle_count();
        cpu.execute_instruction(&mut Recording {
            mem,
            writes: &mut self.iz80_writes,
        });
        let iz80_cycles = cpu.cycle_count() - c0;

        self.bus.writes.clear();
        let t0 = self.clock.as_timestamp();
        execute_second(&mut self.z, &mut self.bus, &mut self.clock);
        let second_cycles = self.clock.as_timestamp().wrapping_sub(t0);

        if let Some((at, fault)) = &self.options.fault {
            if *at == self.index {
                inject(&mut self.z, &mut self.bus, fault);
            }
        }
        let mut exempt_af = false;
        if ld_a_r {
            // The refresh register: iz80 keeps it at 0, the second core counts; the value
            // and the flags drawn from it are iz80's on both from here on.
            let af = cpu.immutable_registers().get16(Reg16::AF);
            self.z.set_reg16(StkReg16::AF, af);
            exempt_af = true;
        }

        let a = iz80_state(cpu, alternate);
        let b = second_state(&self.z, alternate);
        let mut items = Vec::new();
        if a.pc != b.pc {
            items.push(Item::Register("PC"));
        }
        if a.sp != b.sp {
            items.push(Item::Register("SP"));
        }
        if !exempt_af {
            if (a.af >> 8) != (b.af >> 8) {
                items.push(Item::Register("A"));
            }
            let differing = (a.af as u8 ^ b.af as u8) & self.flag_mask;
            if differing != 0 {
                items.push(Item::Flags { differing });
            }
        }
        let masked = (a.af as u8 ^ b.af as u8) & !self.flag_mask;
        if masked != 0 && !self.undocumented_apart {
            let key = (
                pc,
                u32::from(a.af as u8 & !self.flag_mask),
                u32::from(b.af as u8 & !self.flag_mask),
            );
            tally(&mut self.undocumented, key, || {
                (place(&self.program, pc), text(&self.program, mem, pc))
            });
        }
        self.undocumented_apart = masked != 0;
        for (name, x, y) in [
            ("BC", a.bc, b.bc),
            ("DE", a.de, b.de),
            ("HL", a.hl, b.hl),
            ("IX", a.ix, b.ix),
            ("IY", a.iy, b.iy),
        ] {
            if x != y {
                items.push(Item::Register(name));
            }
        }
        if let (Some(x), Some(y)) = (a.alternate, b.alternate) {
            for (i, name) in ["AF'", "BC'", "DE'", "HL'"].into_iter().enumerate() {
                let mask = if i == 0 {
                    0xff00 | u16::from(self.flag_mask)
                } else {
                    0xffff
                };
                if (x[i] ^ y[i]) & mask != 0 {
                    items.push(Item::Register(name));
                }
            }
        }
        if a.i != b.i {
            items.push(Item::Register("I"));
        }
        if a.iff1 != b.iff1 || a.im != b.im {
            items.push(Item::Register("interrupt state"));
        }
        let iz80_writes = final_writes(&self.iz80_writes);
        let second_writes = final_writes(&self.bus.writes);
        if iz80_writes != second_writes {
            let mut addresses: Vec<u16> = iz80_writes
                .iter()
                .chain(&second_writes)
                .map(|w| w.0)
                .collect();
            addresses.sort_unstable();
            addresses.dedup();
            for address in addresses {
                let find = |w: &[(u16, u8)]| w.iter().find(|x| x.0 == address).map(|x| x.1);
                if find(&iz80_writes) != find(&second_writes) {
                    items.push(Item::Write { address });
                }
            }
        }

        // T-states: the documented table against the second core.
        let after = cpu.immutable_registers();
        let table = u32::from(timing.t_states(mem, pc, after.pc(), sp, after.get16(Reg16::SP)));
        self.table_t_states += u64::from(table);
        self.second_t_states += u64::from(second_cycles);
        self.iz80_t_states += iz80_cycles;
        if table != second_cycles {
            let key = (pc, table, second_cycles);
            tally(&mut self.cycle_mismatches, key, || {
                (place(&self.program, pc), text(&self.program, mem, pc))
            });
        }

        let index = self.index;
        self.index += 1;
        if items.is_empty() {
            return Ok(());
        }
        let mut iz80 = a;
        let mut second = b;
        // A report shows the alternate set too.
        iz80.alternate = iz80_state(cpu, true).alternate;
        second.alternate = second_state(&self.z, true).alternate;
        self.disagreement = Some(Box::new(Disagreement {
            call: call.to_string(),
            index,
            pc,
            place: self.place(pc),
            instruction: self.text(mem, pc),
            items,
            before: before.expect("no disagreement before this one"),
            iz80,
            second,
            iz80_writes,
            second_writes,
        }));
        Err(())
    }
}

/// An address as routine + offset, from the symbols when there are any.
fn place(program: &Option<Program>, pc: u16) -> String {
    match program {
        Some(p) => crate::coverage::place(p, pc),
        None => format!("{pc:04x}"),
    }
}

/// The instruction at `pc`, its operands named from the symbols when there are any.
fn text(program: &Option<Program>, mem: &[u8], pc: u16) -> String {
    let ins = decode(mem, pc);
    match program {
        Some(p) => ins.text_with(p),
        None => ins.text(),
    }
}

/// Count one more (address, first value, second value); `names` gives the place and the
/// instruction's text the first time.
fn tally(
    map: &mut BTreeMap<(u16, u32, u32), CycleMismatch>,
    key: (u16, u32, u32),
    names: impl FnOnce() -> (String, String),
) {
    map.entry(key)
        .and_modify(|m| m.count += 1)
        .or_insert_with(|| {
            let (place, instruction) = names();
            CycleMismatch {
                pc: key.0,
                place,
                instruction,
                table: key.1,
                second: key.2,
                count: 1,
            }
        });
}

/// Writes as (address, last value), in address order: the order in which one instruction
/// writes its bytes (a PUSH's high byte first or second) is the core's own business.
fn final_writes(writes: &[(u16, u8)]) -> Vec<(u16, u8)> {
    let mut v: Vec<(u16, u8)> = Vec::with_capacity(writes.len());
    for &(a, b) in writes {
        match v.iter_mut().find(|w| w.0 == a) {
            Some(w) => w.1 = b,
            None => v.push((a, b)),
        }
    }
    v.sort_unstable_by_key(|w| w.0);
    v
}

fn inject(z: &mut Z80NMOS, bus: &mut Bus, fault: &Fault) {
    match fault {
        Fault::Register { name, xor } => {
            let x = *xor;
            match *name {
                "A" => z.set_acc(z.get_acc() ^ x as u8),
                "BC" => z.set_reg16(StkReg16::BC, z.get_reg16(StkReg16::BC) ^ x),
                "DE" => z.set_reg16(StkReg16::DE, z.get_reg16(StkReg16::DE) ^ x),
                "HL" => z.set_reg16(StkReg16::HL, z.get_reg16(StkReg16::HL) ^ x),
                "IX" => z.set_index16(Prefix::Xdd, z.get_index16(Prefix::Xdd) ^ x),
                "IY" => z.set_index16(Prefix::Yfd, z.get_index16(Prefix::Yfd) ^ x),
                "SP" => z.set_sp(z.get_sp() ^ x),
                other => panic!("no register {other} to perturb"),
            }
        }
        Fault::Flags(x) => {
            let f = z.get_flags().bits() ^ x;
            z.set_flags(CpuFlags::from_bits_retain(f));
        }
        Fault::Write { xor } => {
            if let Some(w) = bus.writes.first_mut() {
                w.1 ^= xor;
                bus.mem[w.0 as usize] = w.1;
            }
        }
    }
}

impl Emulator {
    /// [`Emulator::call`] in lock-step with the second core (a [`Crosscheck`]).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn run_lockstep(
        &mut self,
        ls: &mut Lockstep,
        cpu: &mut Cpu,
        routine: &str,
        addr: u16,
        budget: u64,
        hooks: &mut Hooks,
        book_random: u8,
    ) -> Result<(), SearchError> {
        self.enter(cpu, addr);
        ls.load(cpu, &self.machine.mem);
        if routine == "FNDMOV" && ls.options.time_cores {
            ls.snapshot = Some(Snapshot {
                registers: cpu.serialize(),
                mem: self.machine.mem.clone(),
                pc: addr,
            });
        }
        let limit = self.instructions.saturating_add(budget);
        let mut n = self.instructions;
        // The same progress check as the run loop's (`super::progress`).
        let mut progress = Progress::start(n, self.longest_gap);
        let result = loop {
            let pc = cpu.immutable_registers().pc();
            let h = self.machine.hook_table[pc as usize];
            if h != 0 {
                if h == SENTINEL_MARK {
                    break Ok(());
                }
                progress.reached(n);
                if h & PASSED == 0 {
                    self.instructions = n;
                    self.fire(cpu, HookPoint::ALL[(h - 1) as usize], hooks, book_random);
                    ls.after_hook(cpu);
                }
            }
            if n >= limit {
                break Err(self.runaway(routine, n, pc, GaveUp::Budget));
            }
            if progress.stalled(n) {
                break Err(self.runaway(routine, n, pc, GaveUp::Stalled));
            }
            let sp = cpu.immutable_registers().get16(Reg16::SP);
            let stepped = ls.step(routine, cpu, &mut self.machine.mem, &mut self.timing);
            let after = cpu.immutable_registers();
            self.t_states += u64::from(self.timing.t_states(
                &self.machine.mem,
                pc,
                after.pc(),
                sp,
                after.get16(Reg16::SP),
            ));
            n += 1;
            if stepped.is_err() {
                break Err(SearchError::Stopped);
            }
        };
        progress.reached(n);
        self.longest_gap = progress.longest;
        self.instructions = n;
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small hand-written program (not Sargon's): loads, 8-bit arithmetic that sets
    /// every documented flag one way or the other, a store, a push and a pop, EXX, a loop with DJNZ,
    /// an indexed store and a block copy; it ends at the sentinel.
    const PROGRAM: &[u8] = &[
        0x21, 0x00, 0x80, // LD HL,8000h
        0x3e, 0x7f, //       LD A,7Fh
        0xc6, 0x01, //       ADD A,1     (overflow, half carry, sign)
        0x77, //             LD (HL),A
        0xe5, //             PUSH HL
        0xd1, //             POP DE
        0xd9, //             EXX
        0x06, 0x03, //       LD B,3
        0x3d, //             DEC A       (loop)
        0x10, 0xfd, //       DJNZ loop
        0xdd, 0x21, 0x10, 0x80, // LD IX,8010h
        0xdd, 0x77, 0x02, // LD (IX+2),A
        0x21, 0x00, 0x80, // LD HL,8000h
        0x11, 0x20, 0x80, // LD DE,8020h
        0x01, 0x04, 0x00, // LD BC,4
        0xed, 0xb0, //       LDIR
        0xc9, //             RET (to the sentinel)
    ];

    /// Run PROGRAM on both cores; the check's instruction count, disagreement and number
    /// of T-state mismatches.
    fn run(fault: Option<(u64, Fault)>) -> (u64, Option<Box<Disagreement>>, usize) {
        let options = Options {
            fault,
            ..Options::default()
        };
        run_with(Lockstep::new(options, None))
    }

    #[test]
    fn both_cores_agree_on_a_small_program() {
        let (n, d, cycles) = run(None);
        assert!(d.is_none(), "unexpected disagreement: {}", d.unwrap());
        // 14 instructions outside the loop, 3 DECs and 3 DJNZs, 4 LDIR steps.
        assert_eq!(n, 14 + 6 + 4);
        assert_eq!(cycles, 0, "the documented table and z80emu agree here");
    }

    #[test]
    fn a_wrong_register_is_named() {
        // Instruction 0 is LD HL,8000h.
        let (n, d, _) = run(Some((
            0,
            Fault::Register {
                name: "HL",
                xor: 0x0100,
            },
        )));
        let d = d.expect("caught");
        assert_eq!(n, 1);
        assert_eq!(d.index, 0);
        assert_eq!(d.items, vec![Item::Register("HL")]);
        assert_eq!(d.iz80.hl ^ d.second.hl, 0x0100);
        assert!(d.to_string().contains("differs: HL"), "{d}");
    }

    #[test]
    fn a_wrong_flag_is_named() {
        // Instruction 2 is ADD A,1: flip Z on the second core.
        let (_, d, _) = run(Some((2, Fault::Flags(0x40))));
        let d = d.expect("caught");
        assert_eq!(d.index, 2);
        assert_eq!(d.pc, 5);
        assert_eq!(d.items, vec![Item::Flags { differing: 0x40 }]);
        assert!(d.to_string().contains("differs: flags Z"), "{d}");
    }

    #[test]
    fn an_undocumented_flag_counts_only_when_asked() {
        // Bits 5 and 3 flipped, masked by default: no disagreement (the next instruction
        // that sets the flags, DEC A in the loop, brings the cores together again).
        let (_, d, _) = run(Some((2, Fault::Flags(0x28))));
        assert!(d.is_none());
        let mut ls = Lockstep::new(
            Options {
                undocumented_flags: true,
                ..Options::default()
            },
            None,
        );
        assert_eq!(ls.flag_mask, 0xff);
        ls.options.fault = Some((2, Fault::Flags(0x28)));
        let (_, d, _) = run_with(ls);
        assert_eq!(
            d.expect("caught").items,
            vec![Item::Flags { differing: 0x28 }]
        );
    }

    fn run_with(mut ls: Lockstep) -> (u64, Option<Box<Disagreement>>, usize) {
        let mut mem = vec![0u8; 0x10000];
        mem[..PROGRAM.len()].copy_from_slice(PROGRAM);
        mem[0x9000] = (SENTINEL & 0xff) as u8;
        mem[0x9001] = (SENTINEL >> 8) as u8;
        let mut cpu = Cpu::new_z80();
        cpu.registers().set16(Reg16::SP, 0x9000);
        ls.load(&cpu, &mem);
        let mut timing = TimingCache::new();
        while cpu.immutable_registers().pc() != SENTINEL {
            if ls.step("TEST", &mut cpu, &mut mem, &mut timing).is_err() {
                break;
            }
            assert!(ls.index < 100, "the test program runs away");
        }
        let c = ls.take_check();
        (c.instructions, c.disagreement, c.cycle_mismatches.len())
    }

    #[test]
    fn a_wrong_memory_write_is_named() {
        // Instruction 3 is LD (HL),A, which writes 80h to 8000h.
        let (_, d, _) = run(Some((3, Fault::Write { xor: 0x01 })));
        let d = d.expect("caught");
        assert_eq!(d.items, vec![Item::Write { address: 0x8000 }]);
        assert_eq!(d.iz80_writes, vec![(0x8000, 0x80)]);
        assert_eq!(d.second_writes, vec![(0x8000, 0x81)]);
        assert!(d.to_string().contains("write to 8000"), "{d}");
    }

    #[test]
    fn writes_compare_by_address_not_order() {
        assert_eq!(
            final_writes(&[(0x10, 1), (0x0f, 2), (0x10, 3)]),
            vec![(0x0f, 2), (0x10, 3)]
        );
    }
}
