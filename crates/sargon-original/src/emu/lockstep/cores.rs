//! The second core beside iz80: its memory, loading it from iz80, stepping it, reading both cores' states.

use iz80::{Cpu, Machine, Reg16, Reg8};
use z80emu::host::TsCounter;
use z80emu::{Cpu as _, CpuDebug, Io, Memory, Prefix, StkReg16, Z80NMOS};

use super::report::CoreState;

/// The second core's memory and I/O: 64 KiB, its writes noted.
pub(super) struct Bus {
    pub(super) mem: Vec<u8>,
    pub(super) writes: Vec<(u16, u8)>,
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
pub(super) struct Recording<'a> {
    pub(super) mem: &'a mut [u8],
    pub(super) writes: &'a mut Vec<(u16, u8)>,
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
pub(super) struct Snapshot {
    pub(super) registers: Vec<u8>,
    pub(super) mem: Vec<u8>,
    pub(super) pc: u16,
}

/// A plain 64 KiB machine for iz80 alone.
pub(super) struct Plain(pub(super) Vec<u8>);

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

pub(super) fn cpu_from(registers: &[u8]) -> Cpu {
    let mut cpu = Cpu::new_z80();
    cpu.deserialize(registers)
        .expect("iz80's own serialisation");
    cpu
}

/// One instruction on the second core (a prefix chain such as `DD DD` is one instruction
/// for iz80, so the second core runs until it is not left after a prefix).
#[inline]
pub(super) fn execute_second(z: &mut Z80NMOS, bus: &mut Bus, clock: &mut TsCounter<u32>) {
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
pub(super) fn load_second(z: &mut Z80NMOS, cpu: &Cpu, pc: u16) {
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
