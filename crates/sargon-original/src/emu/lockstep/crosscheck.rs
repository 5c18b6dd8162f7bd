//! The [`Crosscheck`]: the original on two cores in lock-step, and the emulator's calls run that way.

use std::time::Instant;

use iz80::{Cpu, Reg16};
use z80emu::host::TsCounter;
use z80emu::{Cpu as _, Z80NMOS};

use super::cores::{cpu_from, execute_second, load_second, Bus, Plain, Snapshot};
use super::report::{CoreSpeed, CrosscheckError, Options, SearchCheck};
use super::stepper::Lockstep;
use crate::emu::emulator::{Emulator, SENTINEL, SENTINEL_MARK};
use crate::emu::machine::NoObserver;
use crate::emu::progress::{GaveUp, Progress, PASSED};
use crate::emu::run::Call;
use crate::program::Program;
use crate::rom::Rom;
use sargon_core::engine::{SearchError, SearchOptions};
use sargon_core::hooks::{HookPoint, Hooks};
use sargon_core::position::Setup;

/// The original Sargon on two cores in lock-step.
pub struct Crosscheck {
    emu: Emulator,
}

impl Crosscheck {
    /// Prepare both cores for a ROM.
    ///
    /// ```
    /// use sargon_original::emu::lockstep::{Crosscheck, Options};
    /// # let dir = tempfile::tempdir()?;
    /// # let file = dir.path().join("tiny.asm");
    /// # std::fs::write(&file, "        ORG 100H\nSTART:  LD A,42\n        RET\n")?;
    /// # let rom = sargon_original::rom::RomStore::new(dir.path().join("roms")).prepare(&file, "tiny", false)?.rom;
    /// // `rom`: a tiny program of the project's assembler (`START: LD A,42 / RET`), no Sargon.
    /// assert!(Crosscheck::new(rom, Options::default()).is_err()); // no Sargon to run
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(rom: Rom, options: Options) -> Result<Crosscheck, CrosscheckError> {
        let program = Program::of_rom(&rom);
        let mut emu = Emulator::new(rom)?;
        emu.lockstep = Some(Box::new(Lockstep::new(options, Some(program))));
        Ok(Crosscheck { emu })
    }

    /// Search `setup` to `depth` on both cores, comparing every instruction.
    ///
    /// ```
    /// use sargon_core::{parse_position, setup, Book};
    /// use sargon_original::emu::lockstep::{Crosscheck, Options};
    /// # let Some(rom) = sargon_original::doc_rom::imported()? else { return Ok(()) };
    /// // `rom`: the imported Sargon (`sargon rom import`); without one the example ends here.
    /// let mut both = Crosscheck::new(rom, Options::default())?;
    /// let start = setup(&parse_position("startpos")?, Book::Off)?;
    /// let check = both.search(&start, 1, 0)?;
    /// assert!(check.disagreement.is_none() && check.instructions > 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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

impl Emulator {
    /// [`Emulator::call`] in lock-step with the second core (a [`Crosscheck`]).
    pub(in crate::emu) fn run_lockstep(
        &mut self,
        ls: &mut Lockstep,
        cpu: &mut Cpu,
        call: &Call<'_>,
        hooks: &mut Hooks,
    ) -> Result<(), SearchError> {
        let &Call {
            routine,
            addr,
            budget,
            book_random,
            ..
        } = call;
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

impl Snapshot {
    pub(super) fn time(&self, emu: &Emulator, book_random: u8) -> CoreSpeed {
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
