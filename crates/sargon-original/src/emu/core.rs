//! The Z80 cores the harness can run its calls on: `iz80`, the default and the one the
//! design names, or `z80emu`, the second core of the lock-step crosscheck
//! ([`super::lockstep`]), which runs Sargon faster (`docs/emulator.md` has the figures).
//!
//! The run loop ([`super::Emulator::call`]) asks little of a core, and [`Z80`] is that:
//! execute one instruction on the harness's 64 KiB, and read or set PC, SP, A and B (the
//! registers a call's set-up, the hooks and the book's random byte use). Everything else
//! (the hook table, the documented T-states, the coverage, the stop flag, the instruction
//! budget) is the harness's own and the same whichever core runs.
//!
//! Where the two cores differ on what Sargon can see, the harness makes z80emu behave as
//! iz80, as the lock-step does:
//! * the registers at the start: a fresh z80emu is given a fresh iz80's registers
//!   ([`Z80emuCore::new`]);
//! * the refresh register: Sargon reads it once, by `LD A,R` in BOOK, whose value the harness
//!   replaces anyway. iz80 leaves the flags as they were there (only P/V takes IFF2), z80emu
//!   sets them from R; the harness gives z80emu back the flags iz80 would have
//!   ([`Z80::before_refresh_read`], [`Z80::after_refresh_read`]).
//!
//! The crosscheck compared the two cores after every instruction over the whole golden
//! corpus (13.3 G instructions) and found them in agreement on everything Sargon can see.

use std::fmt;
use std::str::FromStr;

use iz80::{Cpu, Machine, Reg16, Reg8};
use z80emu::host::TsCounter;
use z80emu::{Clock as _, Cpu as _, CpuDebug, CpuFlags, Io, Memory, StkReg16, Z80NMOS};

use super::machine::{SargonMachine, Tracking};

/// Which Z80 core runs the original.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Core {
    /// `iz80` (Martin Bernardi's emulator): the harness's core, the default.
    #[default]
    Iz80,
    /// `z80emu` (Rafał Michalski's emulator, NMOS flavour): the crosscheck's second core,
    /// faster on Sargon's code. The profiler and the tracking of the image's reads look at
    /// iz80's own state and are refused on it ([`sargon_core::engine::SearchError::NotOnThisCore`]).
    Z80emu,
}

impl Core {
    /// Every core, the default first.
    pub const ALL: [Core; 2] = [Core::Iz80, Core::Z80emu];

    /// The core's name, as `--core` takes it: `iz80`, `z80emu`.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Core::Iz80 => "iz80",
            Core::Z80emu => "z80emu",
        }
    }
}

impl fmt::Display for Core {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no core's, as [`Core::from_str`] refuses it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown Z80 core `{0}` (expected `iz80` or `z80emu`)")]
pub struct UnknownCore(pub String);

impl FromStr for Core {
    type Err = UnknownCore;
    fn from_str(s: &str) -> Result<Self, UnknownCore> {
        Core::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| UnknownCore(sargon_core::input::echo(s)))
    }
}

/// What the harness's run loop needs of a Z80 core.
pub(crate) trait Z80 {
    /// Execute one instruction on `machine`'s memory; with `TRACK`, note its memory
    /// accesses for [`super::Emulator::track_reads`] (iz80 only: the harness refuses read
    /// tracking on another core before it runs).
    fn step<const TRACK: bool>(&mut self, machine: &mut SargonMachine);
    fn pc(&self) -> u16;
    fn sp(&self) -> u16;
    fn a(&self) -> u8;
    fn b(&self) -> u8;
    fn set_a(&mut self, a: u8);
    fn set_b(&mut self, b: u8);
    /// Start a call: SP and PC.
    fn enter(&mut self, sp: u16, pc: u16);
    /// The core's own count of T-states since it was made.
    fn cycles(&self) -> u64;
    /// iz80 itself, for an observer that reads its state (the profiler).
    fn as_iz80(&self) -> Option<&Cpu> {
        None
    }
    /// The book's `LD A,R` is about to execute.
    fn before_refresh_read(&mut self) {}
    /// It has executed (and the harness has put the book's random byte into A): leave the
    /// flags as iz80 leaves them.
    fn after_refresh_read(&mut self) {}
}

impl Z80 for Cpu {
    #[inline(always)]
    fn step<const TRACK: bool>(&mut self, machine: &mut SargonMachine) {
        if TRACK {
            self.execute_instruction(&mut Tracking(machine));
        } else {
            self.execute_instruction(machine);
        }
    }
    #[inline(always)]
    fn pc(&self) -> u16 {
        self.immutable_registers().pc()
    }
    #[inline(always)]
    fn sp(&self) -> u16 {
        self.immutable_registers().get16(Reg16::SP)
    }
    fn a(&self) -> u8 {
        self.immutable_registers().a()
    }
    fn b(&self) -> u8 {
        self.immutable_registers().get8(Reg8::B)
    }
    fn set_a(&mut self, a: u8) {
        self.registers().set_a(a);
    }
    fn set_b(&mut self, b: u8) {
        self.registers().set8(Reg8::B, b);
    }
    fn enter(&mut self, sp: u16, pc: u16) {
        let r = self.registers();
        r.set16(Reg16::SP, sp);
        r.set_pc(pc);
    }
    #[inline(always)]
    fn cycles(&self) -> u64 {
        self.cycle_count()
    }
    fn as_iz80(&self) -> Option<&Cpu> {
        Some(self)
    }
}

/// z80emu with its clock, as the harness runs it.
#[derive(Clone)]
pub(crate) struct Z80emuCore {
    z: Z80NMOS,
    clock: TsCounter<u64>,
    /// The flags before the book's `LD A,R`, until it has executed.
    refresh_flags: Option<u8>,
}

impl Z80emuCore {
    /// A core in the state of a fresh iz80 (`Cpu::new_z80`, its reset after "The
    /// Undocumented Z80 Documented" 2.4): AF and SP 0xFFFF, every other register 0, the
    /// alternate set too (z80emu's own reset sets AF' to 0xFFFF), I and R 0, interrupts
    /// off, mode 0. A unit test holds this to a fresh iz80.
    pub(crate) fn new() -> Z80emuCore {
        let mut z = Z80NMOS::default();
        z.reset();
        z.ex_af_af();
        z.set_reg16(StkReg16::AF, 0);
        z.ex_af_af();
        Z80emuCore {
            z,
            clock: TsCounter::default(),
            refresh_flags: None,
        }
    }

    #[cfg(test)]
    pub(crate) fn z(&self) -> &Z80NMOS {
        &self.z
    }
}

/// One instruction on z80emu: a prefix chain such as `DD DD` is one instruction for iz80
/// (and for the harness's count), so z80emu runs until it is not left after a prefix.
#[inline(always)]
pub(crate) fn execute<M>(z: &mut Z80NMOS, bus: &mut M, clock: &mut TsCounter<u64>)
where
    M: Memory<Timestamp = u64> + Io<Timestamp = u64>,
{
    loop {
        // HALT is the only break this bus can cause; Sargon has none, and a halted core
        // would run into the instruction budget, which names the place.
        let _ = z.execute_next(bus, clock, None::<fn(CpuDebug)>);
        if !z.is_after_prefix() {
            break;
        }
    }
}

impl Z80 for Z80emuCore {
    #[inline(always)]
    fn step<const TRACK: bool>(&mut self, machine: &mut SargonMachine) {
        execute(&mut self.z, machine, &mut self.clock);
    }
    #[inline(always)]
    fn pc(&self) -> u16 {
        self.z.get_pc()
    }
    #[inline(always)]
    fn sp(&self) -> u16 {
        self.z.get_sp()
    }
    fn a(&self) -> u8 {
        self.z.get_acc()
    }
    fn b(&self) -> u8 {
        (self.z.get_reg16(StkReg16::BC) >> 8) as u8
    }
    fn set_a(&mut self, a: u8) {
        self.z.set_acc(a);
    }
    fn set_b(&mut self, b: u8) {
        let c = self.z.get_reg16(StkReg16::BC) as u8;
        self.z.set_reg16(StkReg16::BC, u16::from_be_bytes([b, c]));
    }
    fn enter(&mut self, sp: u16, pc: u16) {
        self.z.set_sp(sp);
        self.z.set_pc(pc);
    }
    fn cycles(&self) -> u64 {
        self.clock.as_timestamp()
    }
    fn before_refresh_read(&mut self) {
        self.refresh_flags = Some(self.z.get_flags().bits());
    }
    fn after_refresh_read(&mut self) {
        // iz80's `LD A,R` copies IFF2 into P/V and leaves the other flags alone.
        if let Some(before) = self.refresh_flags.take() {
            let pv = CpuFlags::PV.bits();
            let iff2 = if self.z.get_iffs().1 { pv } else { 0 };
            self.z
                .set_flags(CpuFlags::from_bits_retain((before & !pv) | iff2));
        }
    }
}

/// The harness's memory as z80emu sees it: the same 64 KiB as iz80's [`Machine`], and
/// ports that answer 0, as iz80's do.
impl Memory for SargonMachine {
    type Timestamp = u64;
    #[inline(always)]
    fn read_debug(&self, address: u16) -> u8 {
        self.mem[address as usize]
    }
    #[inline(always)]
    fn read_mem(&self, address: u16, _ts: u64) -> u8 {
        self.mem[address as usize]
    }
    #[inline(always)]
    fn read_mem16(&self, address: u16, _ts: u64) -> u16 {
        u16::from_le_bytes([
            self.mem[address as usize],
            self.mem[address.wrapping_add(1) as usize],
        ])
    }
    #[inline(always)]
    fn read_opcode(&mut self, pc: u16, _ir: u16, _ts: u64) -> u8 {
        self.mem[pc as usize]
    }
    #[inline(always)]
    fn write_mem(&mut self, address: u16, value: u8, _ts: u64) {
        self.mem[address as usize] = value;
    }
}

impl Io for SargonMachine {
    type Timestamp = u64;
    type WrIoBreak = ();
    type RetiBreak = ();
    fn read_io(&mut self, port: u16, _ts: u64) -> (u8, Option<std::num::NonZeroU16>) {
        (self.port_in(port), None)
    }
}

/// A core of either kind, as the emulator holds it.
pub(crate) enum Processor {
    Iz80(Cpu),
    Z80emu(Z80emuCore),
    /// Lent to the run loop for the length of a call ([`super::Emulator::call`]).
    Lent,
}

impl Processor {
    /// A fresh core of the kind.
    pub(crate) fn new(core: Core) -> Processor {
        match core {
            Core::Iz80 => Processor::Iz80(Cpu::new_z80()),
            Core::Z80emu => Processor::Z80emu(Z80emuCore::new()),
        }
    }

    pub(crate) fn a(&self) -> u8 {
        match self {
            Processor::Iz80(c) => c.a(),
            Processor::Z80emu(z) => z.a(),
            Processor::Lent => unreachable!("only lent for the length of a call"),
        }
    }

    pub(crate) fn cycles(&self) -> u64 {
        match self {
            Processor::Iz80(c) => Z80::cycles(c),
            Processor::Z80emu(z) => z.cycles(),
            Processor::Lent => unreachable!("only lent for the length of a call"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emu::lockstep::{iz80_state, second_state};
    use crate::z80::TimingCache;

    #[test]
    fn names_read_back() {
        for core in Core::ALL {
            assert_eq!(core.to_string().parse::<Core>(), Ok(core));
        }
        assert_eq!(Core::default(), Core::Iz80);
        let e = "z80".parse::<Core>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown Z80 core `z80` (expected `iz80` or `z80emu`)"
        );
    }

    #[test]
    fn a_fresh_z80emu_core_has_a_fresh_iz80s_registers() {
        let z = Z80emuCore::new();
        let cpu = Cpu::new_z80();
        assert_eq!(second_state(z.z(), true), iz80_state(&cpu, true));
        assert_eq!(z.z().get_r(), cpu.immutable_registers().get8(Reg8::R));
        assert_eq!(z.z().get_iffs(), (false, false));
    }

    /// A small hand-written program (not Sargon's): arithmetic, a store, a push and a pop,
    /// a loop, an indexed store, a block copy, `LD A,R` and a push of its flags; it ends
    /// at 0xFFF0, which it returns to.
    const PROGRAM: &[u8] = &[
        0x21, 0x00, 0x80, // LD HL,8000h
        0x3e, 0x7f, //       LD A,7Fh
        0xc6, 0x01, //       ADD A,1     (overflow, half carry, sign)
        0x77, //             LD (HL),A
        0xe5, //             PUSH HL
        0xd1, //             POP DE
        0x06, 0x03, //       LD B,3
        0x3d, //             DEC A       (loop)
        0x10, 0xfd, //       DJNZ loop
        0xdd, 0x21, 0x10, 0x80, // LD IX,8010h
        0xdd, 0x77, 0x02, // LD (IX+2),A
        0x11, 0x20, 0x80, // LD DE,8020h
        0x01, 0x04, 0x00, // LD BC,4
        0xed, 0xb0, //       LDIR
        0xaf, //             XOR A       (Z and P/V set)
        0xed, 0x5f, //       LD A,R      (at 31)
        0xf5, //             PUSH AF     (its flags go to memory)
        0xf1, //             POP AF
        0xc9, //             RET (to 0xFFF0)
    ];
    const LD_A_R: u16 = 31;

    /// Run PROGRAM on a core through [`Z80`], as the run loop does around the book's
    /// `LD A,R` (without the flags' fix unless `fix`); its memory, final PC, SP, A, B,
    /// instruction count and documented T-states.
    fn run<C: Z80>(core: &mut C, fix: bool) -> (Vec<u8>, [u16; 4], u64, u64) {
        let mut machine = SargonMachine {
            mem: vec![0; 0x10000],
            hook_table: vec![0; 0x10000],
            first_access: None,
        };
        machine.mem[..PROGRAM.len()].copy_from_slice(PROGRAM);
        machine.mem[0x9000..0x9002].copy_from_slice(&0xfff0u16.to_le_bytes());
        core.enter(0x9000, 0);
        let mut timing = TimingCache::new();
        let (mut n, mut t) = (0, 0);
        while core.pc() != 0xfff0 {
            let (pc, sp) = (core.pc(), core.sp());
            if pc == LD_A_R && fix {
                core.before_refresh_read();
            }
            if pc == LD_A_R + 2 {
                core.set_a(0x5a);
                if fix {
                    core.after_refresh_read();
                }
            }
            core.step::<false>(&mut machine);
            t += u64::from(timing.t_states(&machine.mem, pc, core.pc(), sp, core.sp()));
            n += 1;
            assert!(n < 100, "the test program runs away");
        }
        let regs = [
            core.pc(),
            core.sp(),
            u16::from(core.a()),
            u16::from(core.b()),
        ];
        (machine.mem, regs, n, t)
    }

    #[test]
    fn both_cores_run_a_small_program_alike() {
        let mut cpu = Cpu::new_z80();
        let mut z = Z80emuCore::new();
        let (mem_a, regs_a, n_a, t_a) = run(&mut cpu, true);
        let (mem_b, regs_b, n_b, t_b) = run(&mut z, true);
        assert_eq!(regs_a, regs_b);
        assert_eq!((n_a, t_a), (n_b, t_b));
        assert_eq!(mem_a, mem_b);
        // PUSH AF after LD A,R: the book's byte, and the flags as iz80 leaves them (XOR A's
        // Z kept, P/V from IFF2, which is 0).
        assert_eq!(regs_a[2], 0x5a);
        assert_eq!(mem_b[0x8ffe..0x9000], [0x40, 0x5a]);
        // z80emu counts T-states machine cycle by machine cycle: the documented table's.
        assert_eq!(z.cycles(), t_b);
        // Without the fix z80emu's flags come from R (not 0 by then: Z is clear).
        let (mem_c, ..) = run(&mut Z80emuCore::new(), false);
        assert_ne!(mem_c[0x8ffe], 0x40);
    }
}
