//! The lock-step machinery ([`Lockstep`]): both cores stepped and compared, instruction by instruction.

use std::collections::BTreeMap;

use iz80::{Cpu, Reg16, Reg8};
use z80emu::host::TsCounter;
use z80emu::{Clock as _, Cpu as _, CpuFlags, Prefix, StkReg16, Z80NMOS};

use super::cores::{
    execute_second, iz80_state, load_second, second_state, Bus, Recording, Snapshot,
};
use super::report::{
    CycleMismatch, Disagreement, Fault, Item, Options, SearchCheck, DOCUMENTED_FLAGS,
};
use crate::program::Program;
use crate::z80::{decode, TimingCache};

/// The lock-step machinery: the second core, what it compares and what it found.
pub(crate) struct Lockstep {
    pub(super) options: Options,
    pub(super) program: Option<Program>,
    pub(super) z: Z80NMOS,
    pub(super) bus: Bus,
    pub(super) clock: TsCounter<u32>,
    iz80_writes: Vec<(u16, u8)>,
    pub(super) flag_mask: u8,
    /// Instructions compared in this search.
    pub(super) index: u64,
    pub(super) table_t_states: u64,
    pub(super) second_t_states: u64,
    iz80_t_states: u64,
    pub(super) cycle_mismatches: BTreeMap<(u16, u32, u32), CycleMismatch>,
    pub(super) undocumented: BTreeMap<(u16, u32, u32), CycleMismatch>,
    /// Whether the masked flag bits differed after the last instruction.
    pub(super) undocumented_apart: bool,
    pub(super) disagreement: Option<Box<Disagreement>>,
    pub(super) snapshot: Option<Snapshot>,
}

impl Lockstep {
    pub(super) fn new(options: Options, program: Option<Program>) -> Lockstep {
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

    pub(super) fn begin_search(&mut self) {
        self.index = 0;
        self.table_t_states = 0;
        self.second_t_states = 0;
        self.iz80_t_states = 0;
        self.cycle_mismatches.clear();
        self.undocumented.clear();
        self.disagreement = None;
        self.snapshot = None;
    }

    pub(super) fn take_check(&mut self) -> SearchCheck {
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
    pub(super) fn load(&mut self, cpu: &Cpu, mem: &[u8]) {
        load_second(&mut self.z, cpu, cpu.immutable_registers().pc());
        self.bus.mem.copy_from_slice(mem);
        self.undocumented_apart = false;
    }

    /// A hook changed A or B on iz80: the same on the second core.
    pub(super) fn after_hook(&mut self, cpu: &Cpu) {
        let r = cpu.immutable_registers();
        self.z.set_acc(r.a());
        let c = self.z.get_reg16(StkReg16::BC) as u8;
        self.z
            .set_reg16(StkReg16::BC, u16::from_be_bytes([r.get8(Reg8::B), c]));
    }

    pub(super) fn place(&self, pc: u16) -> String {
        place(&self.program, pc)
    }

    pub(super) fn text(&self, mem: &[u8], pc: u16) -> String {
        text(&self.program, mem, pc)
    }

    /// Execute one instruction on both cores and compare them. `Err` is the first
    /// disagreement (kept in [`Lockstep::disagreement`] too).
    pub(super) fn step(
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

        if let Some((at, fault)) = &self.options.fault
            && *at == self.index
        {
            inject(&mut self.z, &mut self.bus, fault);
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
pub(super) fn place(program: &Option<Program>, pc: u16) -> String {
    match program {
        Some(p) => crate::coverage::place(p, pc),
        None => format!("{pc:04x}"),
    }
}

/// The instruction at `pc`, its operands named from the symbols when there are any.
pub(super) fn text(program: &Option<Program>, mem: &[u8], pc: u16) -> String {
    let ins = decode(mem, pc);
    match program {
        Some(p) => ins.text_with(p),
        None => ins.text(),
    }
}

/// Count one more (address, first value, second value); `names` gives the place and the
/// instruction's text the first time.
pub(super) fn tally(
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
pub(super) fn final_writes(writes: &[(u16, u8)]) -> Vec<(u16, u8)> {
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

pub(super) fn inject(z: &mut Z80NMOS, bus: &mut Bus, fault: &Fault) {
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
