//! Where a search spends its time: every instruction FNDMOV's search executes, attributed to
//! the Sargon routine it belongs to.
//!
//! The routines are those of [`crate::program::Program`]: FNDMOV and every label some `CALL`
//! of the image calls; an instruction belongs to the last routine entry at or below its
//! address. For each routine the profile counts:
//!
//! * **exclusive** instructions and T-states: executed while the PC is inside the routine;
//! * **calls**: how often it was entered by a `CALL` (or `RST`) that was taken, plus the
//!   harness's own call of FNDMOV;
//! * **inclusive** T-states: from the first instruction of a call through the instruction
//!   that returns from it, callees included (the `CALL` itself is the caller's).
//!
//! Besides the routines, the profile counts how often each address was executed (the heat
//! of the listing): [`Profile::executions`], whose counts sum to the instructions executed.
//!
//! Calls and returns are matched by the stack pointer, not by nesting: a call records the
//! address of the stack slot holding its return address, and a return (`RET`, a `RET cc`
//! that is taken, `RETI`, `RETN`) ends every call whose slot is now above SP. This survives
//! Sargon's two routines that drop a return address: PNCK pops its caller's (ATKSAV's)
//! return address and returns straight to ATTACK, ending both calls at that `RET`; BOOK
//! pops FNDMOV's and returns to FNDMOV's caller. A call whose slot is found above SP when
//! another call is made is ended there.
//!
//! **T-states.** The emulator (`iz80` 0.5) counts an instruction's T-states from its
//! opcode alone and deviates from Zilog's manual in three ways: it adds nothing for a DD or
//! FD prefix (`LD A,(IX+d)` counts 7 T-states instead of 19), it counts `JP cc` as 7 when
//! not taken and 12 when taken (the manual: 10 either way), and `JR cc` not taken as 8 (the
//! manual: 7). The profile therefore carries both: the documented T-states of every
//! executed instruction (from [`crate::z80`]'s tables, taken or not taken as the
//! instruction went), which are the figures the tables and the 1978 time estimates use,
//! and the emulator's count. The search counts both itself (the run loop uses the same
//! [`TimingCache`]): the profile's totals equal its
//! [`sargon_core::engine::SearchStats::t_states`] and
//! [`sargon_core::engine::SearchStats::iz80_t_states`].

use iz80::{Cpu, Reg16};

use crate::emu::Observer;
use crate::program::Program;
use crate::z80::TimingCache;

/// SP when the harness enters FNDMOV: just below `STACK`, where it put the sentinel return
/// address.
///
/// ```
/// assert_eq!(sargon_original::profile::entry_sp(0x4000), 0x3FFE);
/// ```
pub fn entry_sp(stack: u16) -> u16 {
    stack.wrapping_sub(2)
}

/// One routine's figures.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct RoutineCost {
    /// The routine's name.
    pub routine: String,
    /// Entry address.
    pub address: u16,
    /// Times it was called.
    pub calls: u64,
    /// Exclusive: instructions executed inside the routine.
    pub instructions: u64,
    /// Exclusive documented T-states.
    pub t_states: u64,
    /// Exclusive T-states as the emulator counted them.
    pub emulator_t_states: u64,
    /// Inclusive documented T-states: from call to return, callees included.
    pub inclusive_t_states: u64,
    /// Inclusive instructions.
    pub inclusive_instructions: u64,
}

/// Totals of a profile.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Totals {
    /// Instructions executed.
    pub instructions: u64,
    /// Documented T-states.
    pub t_states: u64,
    /// T-states as the emulator counted them.
    pub emulator_t_states: u64,
}

/// The profile of one search.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Profile {
    /// One row per routine that executed or was called, most expensive (exclusive
    /// documented T-states) first. Instructions outside every routine, if any, are a row
    /// named `(outside routines)`.
    pub rows: Vec<RoutineCost>,
    /// The sums over all rows.
    pub totals: Totals,
    /// How often an instruction starting at each address was executed: 65,536 counts
    /// indexed by PC (a count stops at `u32::MAX`). Not in `sargon profile --format
    /// json`; [`Profile::executions`] lists the addresses that ran.
    #[serde(skip)]
    pub by_address: Vec<u32>,
}

/// One address and how often the instruction there was executed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Executed {
    /// The instruction's address.
    pub address: u16,
    /// Times it was executed.
    pub count: u32,
}

impl Profile {
    /// Every address that was executed, in address order, with its count.
    ///
    /// ```
    /// use sargon_original::profile::{entry_sp, Profiler};
    /// # use sargon_original::{asm::assemble, Program};
    /// # let a = assemble("        ORG 100H\nFNDMOV: RET\n")?;
    /// # let program = Program::new(a.memory.clone(), 0x100, 0x101, &a.symbols);
    /// // Nothing has run yet.
    /// let profile = Profiler::new(&program, 0x100, entry_sp(0x4000)).finish();
    /// assert!(profile.executions().is_empty());
    /// # Ok::<(), sargon_original::asm::AsmError>(())
    /// ```
    pub fn executions(&self) -> Vec<Executed> {
        self.by_address
            .iter()
            .enumerate()
            .filter(|&(_, &count)| count > 0)
            .map(|(address, &count)| Executed {
                address: address as u16,
                count,
            })
            .collect()
    }
}

/// Name of the row for instructions below the first routine.
pub const OUTSIDE: &str = "(outside routines)";

struct Frame {
    routine: u32,
    /// Where the call's return address lies on the stack.
    slot: u16,
    t_start: u64,
    n_start: u64,
    outermost: bool,
}

/// The observer that builds a [`Profile`].
pub struct Profiler {
    /// Routine index for each address (the last index is [`OUTSIDE`]).
    by_pc: Vec<u32>,
    rows: Vec<RoutineCost>,
    active: Vec<u32>,
    frames: Vec<Frame>,
    timing: TimingCache,
    prev_sp: u16,
    totals: Totals,
    by_address: Vec<u32>,
}

impl Profiler {
    /// A profiler for `program`'s routines; the observed code starts at `entry` (FNDMOV)
    /// with SP = `initial_sp`, the harness's call counting as the entry's first call.
    ///
    /// ```
    /// use sargon_original::profile::{entry_sp, Profiler};
    /// # use sargon_original::{asm::assemble, Program};
    /// # let a = assemble("        ORG 100H\nFNDMOV: CALL SUB\n        RET\nSUB:    LD A,1\n        RET\n")?;
    /// # let program = Program::new(a.memory.clone(), 0x100, 0x107, &a.symbols);
    /// // `program`: FNDMOV (100H) calls SUB (104H), each ending in RET.
    /// // Before any instruction, the harness's call of the entry is the only thing counted.
    /// let profile = Profiler::new(&program, 0x100, entry_sp(0x4000)).finish();
    /// assert_eq!(profile.rows.len(), 1);
    /// assert_eq!((profile.rows[0].routine.as_str(), profile.rows[0].calls), ("FNDMOV", 1));
    /// # Ok::<(), sargon_original::asm::AsmError>(())
    /// ```
    pub fn new(program: &Program, entry: u16, initial_sp: u16) -> Profiler {
        let mut rows: Vec<RoutineCost> = program
            .routines
            .iter()
            .map(|(&a, n)| RoutineCost {
                routine: n.clone(),
                address: a,
                ..Default::default()
            })
            .collect();
        let outside = rows.len() as u32;
        rows.push(RoutineCost {
            routine: OUTSIDE.to_string(),
            address: 0,
            ..Default::default()
        });
        let mut by_pc = vec![outside; 0x10000];
        let starts: Vec<u16> = program.routines.keys().copied().collect();
        for (i, &s) in starts.iter().enumerate() {
            let end = starts.get(i + 1).map_or(0x10000, |&e| e as usize);
            by_pc[s as usize..end].fill(i as u32);
        }
        let n = rows.len();
        let mut p = Profiler {
            by_pc,
            rows,
            active: vec![0; n],
            frames: Vec::new(),
            timing: TimingCache::new(),
            prev_sp: initial_sp,
            totals: Totals::default(),
            by_address: vec![0; 0x10000],
        };
        p.open(entry, initial_sp);
        p
    }

    fn open(&mut self, target: u16, slot: u16) {
        let r = self.by_pc[target as usize];
        let outermost = self.active[r as usize] == 0;
        self.active[r as usize] += 1;
        self.rows[r as usize].calls += 1;
        self.frames.push(Frame {
            routine: r,
            slot,
            t_start: self.totals.t_states,
            n_start: self.totals.instructions,
            outermost,
        });
    }

    /// End every call whose return-address slot lies below `sp` (it has been popped).
    fn close_below(&mut self, sp: u16) {
        while let Some(f) = self.frames.last() {
            if f.slot >= sp {
                break;
            }
            let f = self.frames.pop().expect("checked");
            self.active[f.routine as usize] -= 1;
            if f.outermost {
                let row = &mut self.rows[f.routine as usize];
                row.inclusive_t_states += self.totals.t_states - f.t_start;
                row.inclusive_instructions += self.totals.instructions - f.n_start;
            }
        }
    }

    /// The profile so far; calls still open are counted up to now.
    ///
    /// ```
    /// use sargon_original::profile::{entry_sp, Profiler};
    /// # use sargon_original::{asm::assemble, Program};
    /// # let a = assemble("        ORG 100H\nFNDMOV: CALL SUB\n        RET\nSUB:    LD A,1\n        RET\n")?;
    /// # let program = Program::new(a.memory.clone(), 0x100, 0x107, &a.symbols);
    /// // `program`: FNDMOV (100H) calls SUB (104H), each ending in RET.
    /// let profile = Profiler::new(&program, 0x104, entry_sp(0x4000)).finish();
    /// assert_eq!(profile.rows[0].routine, "SUB");
    /// assert_eq!(profile.totals.instructions, 0);
    /// # Ok::<(), sargon_original::asm::AsmError>(())
    /// ```
    pub fn finish(mut self) -> Profile {
        self.close_below(u16::MAX);
        let mut rows: Vec<RoutineCost> = self
            .rows
            .into_iter()
            .filter(|r| r.instructions > 0 || r.calls > 0)
            .collect();
        rows.sort_by(|a, b| {
            b.t_states
                .cmp(&a.t_states)
                .then(b.inclusive_t_states.cmp(&a.inclusive_t_states))
                .then(a.address.cmp(&b.address))
        });
        Profile {
            rows,
            totals: self.totals,
            by_address: self.by_address,
        }
    }
}

impl Observer for Profiler {
    #[inline]
    fn executed(&mut self, pc: u16, t_states: u32, cpu: &Cpu, mem: &[u8]) {
        let r = cpu.immutable_registers();
        let sp = r.get16(Reg16::SP);
        let pc_after = r.pc();
        let prev_sp = self.prev_sp;
        self.prev_sp = sp;
        let t = u64::from(self.timing.t_states(mem, pc, pc_after, prev_sp, sp));
        let here = &mut self.by_address[pc as usize];
        *here = here.saturating_add(1);
        let row = &mut self.rows[self.by_pc[pc as usize] as usize];
        row.instructions += 1;
        row.t_states += t;
        row.emulator_t_states += u64::from(t_states);
        self.totals.instructions += 1;
        self.totals.t_states += t;
        self.totals.emulator_t_states += u64::from(t_states);

        let op = mem[pc as usize];
        let call = op == 0xCD || op & 0xC7 == 0xC4 || op & 0xC7 == 0xC7;
        if call {
            // Taken when it pushed a return address.
            if sp == prev_sp.wrapping_sub(2) {
                self.close_below(prev_sp);
                self.open(pc_after, sp);
            }
            return;
        }
        let ret = op == 0xC9
            || op & 0xC7 == 0xC0
            || (op == 0xED && matches!(mem[pc.wrapping_add(1) as usize], 0x45 | 0x4D));
        if ret && sp == prev_sp.wrapping_add(2) {
            self.close_below(sp);
        }
    }
}

/// Profile one search of `setup` on `emulator`.
///
/// ```
/// use sargon_core::{parse_position, setup, Book, SearchOptions};
/// use sargon_original::{profile::profile_search, Emulator};
/// # let Some(rom) = sargon_original::doc_rom::imported()? else { return Ok(()) };
/// // `rom`: the imported Sargon (`sargon rom import`); without one the example ends here.
/// let mut emulator = Emulator::new(rom)?;
/// let start = setup(&parse_position("startpos")?, Book::Off)?;
/// let (profile, outcome) = profile_search(&mut emulator, &start, &SearchOptions::depth(2))?;
/// // FNDMOV's instructions, which the search's figures count.
/// assert_eq!(Some(profile.totals.instructions), outcome.stats.z80_instructions);
/// assert!(profile.rows.iter().any(|r| r.routine == "POINTS"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn profile_search(
    emulator: &mut crate::emu::Emulator,
    setup: &sargon_core::position::Setup,
    opts: &sargon_core::engine::SearchOptions,
) -> Result<(Profile, sargon_core::engine::SearchOutcome), sargon_core::engine::SearchError> {
    let program = Program::of_rom(emulator.rom());
    let syms = emulator.symbols().clone();
    let mut profiler = Profiler::new(&program, syms.fndmov, entry_sp(syms.stack));
    let mut hooks = sargon_core::hooks::Hooks::new();
    let outcome = emulator.search_observed(setup, opts, &mut hooks, &mut profiler)?;
    Ok((profiler.finish(), outcome))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asm::assemble;

    /// 64 KiB of memory and no ports, for running a small program on iz80.
    struct Ram(Vec<u8>);

    impl iz80::Machine for Ram {
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

    #[test]
    fn each_address_counts_its_executions() {
        // TOP calls SUB three times through a loop; SUB runs a loop of its own.
        let source = "        ORG 100H\n\
                      TOP:    LD B,3\n\
                      AGAIN:  CALL SUB\n\
                      \x20       DJNZ AGAIN\n\
                      \x20       RET\n\
                      SUB:    LD C,2\n\
                      SUBLP:  DEC C\n\
                      \x20       JR NZ,SUBLP\n\
                      \x20       RET\n";
        let a = assemble(source).unwrap();
        let program = Program::new(a.memory.clone(), 0x100, 0x10F, &a.symbols);
        let sub = program.lookup("SUB").unwrap();
        let sublp = program.lookup("SUBLP").unwrap();
        let mut ram = Ram(a.memory.clone());
        ram.0.resize(0x10000, 0);
        // The harness's return address: TOP's RET goes to 0xFFF0.
        ram.0[0x3FFE..0x4000].copy_from_slice(&0xFFF0u16.to_le_bytes());
        let mut cpu = Cpu::new_z80();
        cpu.registers().set_pc(0x100);
        cpu.registers().set16(Reg16::SP, entry_sp(0x4000));
        let mut profiler = Profiler::new(&program, 0x100, entry_sp(0x4000));
        while cpu.immutable_registers().pc() != 0xFFF0 {
            let pc = cpu.immutable_registers().pc();
            let before = cpu.cycle_count();
            cpu.execute_instruction(&mut ram);
            let t = (cpu.cycle_count() - before) as u32;
            profiler.executed(pc, t, &cpu, &ram.0);
        }
        let profile = profiler.finish();
        let at = |address: u16| profile.by_address[address as usize];
        let sum: u64 = profile.by_address.iter().map(|&c| u64::from(c)).sum();
        assert_eq!(sum, profile.totals.instructions);
        // LD B,3 once; CALL and DJNZ three times; RET once.
        assert_eq!((at(0x100), at(0x102), at(0x105), at(0x107)), (1, 3, 3, 1));
        // SUB's first instruction as often as SUB was called; its loop twice a call.
        let calls = profile
            .rows
            .iter()
            .find(|r| r.routine == "SUB")
            .unwrap()
            .calls;
        assert_eq!((calls, at(sub)), (3, 3));
        assert_eq!((at(sublp), at(sublp + 1)), (6, 6));
        let listed = profile.executions();
        assert_eq!(listed.len(), 8);
        assert_eq!(listed.iter().map(|e| u64::from(e.count)).sum::<u64>(), sum);
        assert!(listed.windows(2).all(|w| w[0].address < w[1].address));
    }
}
