//! The run loop: calling one of Sargon's routines on a core until it returns, firing the hooks.

use super::core::{Processor, Z80};
use super::emulator::{Emulator, BREAK_MARK, REFRESH_MARK, SENTINEL, SENTINEL_MARK};
use super::machine::Observer;
use super::memory::EmuMemory;
use super::progress::{self, GaveUp, Progress, PASSED};

use sargon_core::engine::SearchError;
use sargon_core::hooks::{HookPoint, Hooks, Registers};

/// One call of a Sargon routine: what it is, where it starts, how far it may run, the byte
/// the book reads for its random choice, and the flag that stops it.
pub(crate) struct Call<'a> {
    /// The routine's name, for the error of a call that does not return.
    pub routine: &'a str,
    /// Its address.
    pub addr: u16,
    /// The most instructions it may run.
    pub budget: u64,
    /// The byte `LD A,R` reads (the book's random choice).
    pub book_random: u8,
    /// Set to stop the call between chunks of instructions.
    pub stop: Option<&'a std::sync::atomic::AtomicBool>,
    /// Go on with a call that paused (the stepper) instead of entering the routine afresh.
    pub resume: bool,
    /// Pause, without error and before the routine returns, once this many instructions
    /// have run since the reset (the stepper; `None` for a search).
    pub pause_at: Option<u64>,
}

impl<'a> Call<'a> {
    /// A call of a helper routine (ROYALT, VALMOV): no book, no stop flag.
    pub(crate) fn quick(routine: &'a str, addr: u16, budget: u64) -> Call<'a> {
        Call {
            routine,
            addr,
            budget,
            book_random: 0,
            stop: None,
            resume: false,
            pause_at: None,
        }
    }
}

impl Emulator {
    /// Set a call of the routine at `addr` up on `core`: the sentinel as its return
    /// address below Sargon's stack, SP and PC, and the sentinel marked in the hook table.
    pub(super) fn enter<C: Z80>(&mut self, core: &mut C, addr: u16) {
        let sp = self.syms.stack.wrapping_sub(2);
        self.machine.set_word(sp, SENTINEL);
        core.enter(sp, addr);
        // The sentinel is marked in the hook table too, so the hot loop has one lookup and
        // one well-predicted branch per instruction besides the chunk-end test.
        self.machine.hook_table[SENTINEL as usize] = SENTINEL_MARK;
    }

    /// The error of a call that did not return within its budget, or made no progress.
    pub(super) fn runaway(
        &self,
        routine: &str,
        instructions: u64,
        pc: u16,
        why: GaveUp,
    ) -> SearchError {
        let at = crate::coverage::place(&crate::Program::of_rom(&self.rom), pc);
        progress::runaway(routine, instructions, pc, at, why)
    }

    /// Call the routine at `addr` and run until it returns (or the budget runs out), on the
    /// emulator's core. An active `observer`, or reads tracked, on a core other than iz80
    /// are refused ([`SearchError::NotOnThisCore`]) before anything runs.
    pub(crate) fn call<O: Observer>(
        &mut self,
        call: &Call<'_>,
        hooks: &mut Hooks,
        observer: &mut O,
    ) -> Result<(), SearchError> {
        self.check_core::<O>()?;
        // The core is lent to the run loop, which borrows the rest of the emulator beside it.
        let mut cpu = std::mem::replace(&mut self.cpu, Processor::Lent);
        let result = match &mut cpu {
            Processor::Iz80(cpu) => match self.lockstep.take() {
                Some(mut ls) => {
                    let result = self.run_lockstep(&mut ls, cpu, call, hooks);
                    self.lockstep = Some(ls);
                    result
                }
                None => self.run_on(cpu, call, hooks, observer),
            },
            Processor::Z80emu(z) => self.run_on(z, call, hooks, observer),
            Processor::Lent => {
                unreachable!("the core of an earlier call that panicked (a search resets it)")
            }
        };
        self.cpu = cpu;
        result
    }

    /// [`Emulator::call`] on `core`.
    pub(super) fn run_on<C: Z80, O: Observer>(
        &mut self,
        core: &mut C,
        call: &Call<'_>,
        hooks: &mut Hooks,
        observer: &mut O,
    ) -> Result<(), SearchError> {
        // Two run loops, so that the untracked one has no per-instruction test for tracking.
        if self.tracking() {
            self.run::<C, O, true>(core, call, hooks, observer)
        } else {
            self.run::<C, O, false>(core, call, hooks, observer)
        }
    }

    pub(super) fn run<C: Z80, O: Observer, const TRACK: bool>(
        &mut self,
        core: &mut C,
        call: &Call<'_>,
        hooks: &mut Hooks,
        observer: &mut O,
    ) -> Result<(), SearchError> {
        let &Call {
            routine,
            addr,
            budget,
            book_random,
            stop,
            resume,
            pause_at,
        } = call;
        if !resume {
            self.enter(core, addr);
        }
        let budget_limit = self.instructions.saturating_add(budget);
        let limit = pause_at.map_or(budget_limit, |p| p.min(budget_limit));
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
                    } else if h == BREAK_MARK {
                        // The stepper's breakpoint: the routine's return to this frame.
                        if Some(core.sp()) == self.break_sp {
                            break 'run Ok(());
                        }
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
                if TRACK && let Some((coverage, _)) = &mut self.coverage {
                    let held =
                        self.timing
                            .condition_held(&self.machine.mem, pc, pc_after, sp, sp_after);
                    coverage.note(pc, held);
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
            if pause_at == Some(n) {
                break Ok(());
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
    pub(super) fn fire<C: Z80>(
        &mut self,
        core: &mut C,
        point: HookPoint,
        hooks: &mut Hooks,
        book_random: u8,
    ) {
        if let Some(clock) = &self.event_clock {
            clock.store(self.instructions, std::sync::atomic::Ordering::Relaxed);
        }
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
}
