//! The original stepped: one search of Sargon's, run instruction by instruction, forward
//! and back, the way a debugger runs a program.
//!
//! A [`Stepper`] first runs the whole search once with the trace recorder armed, noting
//! for each event the instruction count at which it arose (the hook fires before the
//! instruction at its address executes, so "at event K" is the machine as the hook saw
//! it) and keeping a snapshot of the whole machine (registers, 64 KiB, counts) every
//! [`Stepper::interval`] instructions, at most [`MAX_SNAPSHOTS`] of them (beyond that,
//! every other one is dropped and the interval doubles). The search is deterministic, so
//! any instruction count can be reached again: restore the nearest snapshot at or before
//! it and run forward. Stepping runs with no hook armed: the recorder only reads, so the
//! machine goes through the same states without it (the tests check that).
//!
//! The run loop is the emulator's own (`Emulator::call`) with two additions for the
//! stepper: a call can pause at an instruction count and be resumed, and a breakpoint
//! (a return address and a stack pointer, marked in the hook table) ends a step over a
//! CALL or out of a routine.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::core::{Processor, Z80};
use super::emulator::{Emulator, BREAK_MARK, SENTINEL};
use super::machine::NoObserver;
use super::run::Call;
use crate::program::Program;
use crate::rom::Rom;
use crate::z80::{decode, Flow};

use sargon_core::engine::{SearchError, SearchOptions};
use sargon_core::hooks::Hooks;
use sargon_core::position::Setup;
use sargon_core::trace::{Detail, Event, Recorder};

mod view;

/// The most snapshots a stepper keeps (64 KiB each): beyond, every other one goes.
pub const MAX_SNAPSHOTS: usize = 512;
/// The first interval between two snapshots, in instructions.
pub const FIRST_INTERVAL: u64 = 100_000;
/// Near snapshots: a move that runs more than [`NEAR`] instructions leaves one
/// [`NEAR`]/2 before its end, so that the steps back from there replay little; the
/// [`NEAR_SNAPSHOTS`] latest are kept.
pub const NEAR: u64 = 20_000;
/// How many near snapshots are kept.
pub const NEAR_SNAPSHOTS: usize = 8;
/// The most changed bytes a step reports one by one (the rest are counted).
pub const MAX_CHANGES: usize = 512;

/// The whole machine at one instruction count.
struct Snapshot {
    cpu: Vec<u8>,
    mem: Vec<u8>,
    instructions: u64,
    t_states: u64,
    /// Events arisen before this point.
    events: usize,
}

/// Why a stepper could not be made.
#[derive(Debug, thiserror::Error)]
pub enum StepError {
    /// The ROM failed the harness's checks.
    #[error(transparent)]
    Rom(#[from] crate::rom::RomError),
    /// The search itself failed.
    #[error(transparent)]
    Search(#[from] SearchError),
}

/// One step's way of moving.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// One instruction.
    Instruction,
    /// One instruction, or a whole CALL and what it calls.
    Over,
    /// To the return from the current routine (its caller's next instruction).
    Out,
    /// To where the next event arises.
    Event,
    /// To where the next node is created (the next `created` event).
    Node,
}

/// A byte the last move changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Change {
    /// Its address.
    pub addr: u16,
    /// Before.
    pub old: u8,
    /// After.
    pub new: u8,
}

/// The Z80's registers (the main set; Sargon's code does not use the alternates).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Registers {
    /// A.
    pub a: u8,
    /// The flags: S Z - H - P/V N C from bit 7 down.
    pub f: u8,
    /// BC.
    pub bc: u16,
    /// DE.
    pub de: u16,
    /// HL.
    pub hl: u16,
    /// IX.
    pub ix: u16,
    /// IY.
    pub iy: u16,
    /// SP.
    pub sp: u16,
    /// PC.
    pub pc: u16,
}

/// One routine on the call stack: where it was called from, read off the Z80 stack.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Frame {
    /// The routine called (the CALL's target), when it is a routine's entry.
    pub routine: String,
    /// The CALL instruction's address.
    pub call_at: u16,
    /// The routine the CALL is in.
    pub caller: String,
    /// Where the routine returns to.
    pub return_to: u16,
    /// Where on the Z80 stack the return address is.
    pub slot: u16,
}

/// A stepping session's search: the machine, where it is, and the recorded events.
///
/// The examples of its methods step through `stepper`: the imported Sargon's search of the
/// initial position at depth 1 (`sargon rom import`; without a ROM they end at once).
pub struct Stepper {
    emu: Emulator,
    program: Program,
    book_random: u8,
    budget: u64,
    snapshots: Vec<Snapshot>,
    /// Near snapshots, the oldest first.
    near: Vec<Snapshot>,
    interval: u64,
    events: Vec<Event>,
    /// For each event, the instruction count (since the reset) at which it arose.
    event_at: Vec<u64>,
    /// The instruction count at FNDMOV's entry and at its return.
    start: u64,
    end: u64,
    changes: Vec<Change>,
    changed: usize,
}

impl Stepper {
    /// Run the search of `setup` at `opts`'s depth and book byte once, recording its
    /// events and keeping snapshots; the stepper then stands at FNDMOV's first
    /// instruction. The calls run on iz80, whatever core the caller uses elsewhere.
    ///
    /// ```
    /// use sargon_core::{engine::SearchOptions, parse_position, setup, Book};
    /// use sargon_original::emu::Stepper;
    /// # let Some(rom) = sargon_original::doc_rom::imported()? else { return Ok(()) };
    /// // `rom`: the imported Sargon (`sargon rom import`); without one the example ends here.
    /// let start = setup(&parse_position("startpos")?, Book::Off)?;
    /// let stepper = Stepper::open(rom, &start, &SearchOptions::depth(2))?;
    /// assert_eq!((stepper.position(), stepper.events_here().start), (0, 0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open(rom: Rom, setup: &Setup, opts: &SearchOptions) -> Result<Stepper, StepError> {
        let mut emu = Emulator::new(rom)?;
        let program = Program::of_rom(&emu.rom);
        emu.check_depth_of(opts.depth)?;
        let clock = Arc::new(AtomicU64::new(0));
        emu.event_clock = Some(clock.clone());
        let budget = opts.instruction_budget();
        let mut timed: Vec<(u64, Event)> = Vec::new();
        let mut snapshots = Vec::new();
        let mut interval = FIRST_INTERVAL;
        let start;
        {
            let mut recorder = Recorder::new(Detail::Full, |e| {
                timed.push((clock.load(Ordering::Relaxed), e));
            });
            let mut hooks = Hooks::new();
            hooks.add(&mut recorder);
            emu.reset();
            emu.arm(&hooks);
            emu.load_setup(setup, budget, &mut hooks)?;
            let s = emu.syms.clone();
            emu.poke(s.plymax, opts.depth);
            let color = emu.peek(s.color);
            emu.poke(s.kolor, color);
            emu.enter_fndmov();
            start = emu.instructions;
            snapshots.push(snapshot(&emu, 0));
            loop {
                let next = emu.instructions + interval;
                emu.call(
                    &fndmov_call(&emu, budget, opts.book_random, true, Some(next)),
                    &mut hooks,
                    &mut NoObserver,
                )?;
                if emu.pc() == SENTINEL {
                    break;
                }
                snapshots.push(snapshot(&emu, 0));
                if snapshots.len() > MAX_SNAPSHOTS {
                    // Keep the first and every other one after it.
                    let mut i = 0;
                    snapshots.retain(|_| {
                        i += 1;
                        (i - 1) % 2 == 0
                    });
                    interval *= 2;
                }
            }
        }
        emu.event_clock = None;
        let end = emu.instructions;
        let bestm = emu.machine.word(emu.syms.bestm);
        let best = (bestm != 0).then(|| emu.machine.smove_at(bestm));
        let score = sargon_core::vocab::Score(emu.peek(emu.syms.score + 1));
        timed.push((end, Event::Result { best, score }));
        let (event_at, events): (Vec<u64>, Vec<Event>) =
            timed.into_iter().map(|(n, e)| (n.max(start), e)).unzip();
        for s in &mut snapshots {
            s.events = event_at.partition_point(|&n| n < s.instructions);
        }
        // Stepping runs with no hook armed (the book's random byte is the harness's own).
        emu.arm(&Hooks::new());
        let mut stepper = Stepper {
            emu,
            program,
            book_random: opts.book_random,
            budget,
            snapshots,
            near: Vec::new(),
            interval,
            events,
            event_at,
            start,
            end,
            changes: Vec::new(),
            changed: 0,
        };
        stepper.restore(0);
        Ok(stepper)
    }

    /// Move by one `step`, forward.
    ///
    /// ```
    /// use sargon_original::emu::Step;
    /// # let Some(mut stepper) = sargon_original::doc_rom::stepper(1)? else { return Ok(()) };
    /// stepper.step(Step::Instruction)?;
    /// assert_eq!(stepper.position(), 1);
    /// stepper.step(Step::Out)?; // out of FNDMOV: to its return
    /// assert!(stepper.finished());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn step(&mut self, step: Step) -> Result<(), SearchError> {
        let here = self.emu.instructions;
        match step {
            Step::Instruction => self.run_to(here + 1),
            Step::Over => {
                let pc = self.emu.pc();
                let ins = decode(&self.emu.machine.mem, pc);
                match ins.flow {
                    Flow::Call(_) | Flow::CondCall(_) => {
                        let sp = self.registers().sp;
                        self.run_to_return(ins.next(), sp)
                    }
                    _ => self.run_to(here + 1),
                }
            }
            Step::Out => match self.call_stack().pop() {
                Some(frame) => self.run_to_return(frame.return_to, frame.slot.wrapping_add(2)),
                None => self.run_to(self.end),
            },
            Step::Event => {
                let k = self.event_at.partition_point(|&n| n <= here);
                self.run_to(self.event_at.get(k).copied().unwrap_or(self.end))
            }
            Step::Node => {
                let target = self
                    .node_positions()
                    .find(|&n| n > here)
                    .unwrap_or(self.end);
                self.run_to(target)
            }
        }
    }

    /// Move by one `step`, backward: one instruction, or to where the previous event or
    /// node arose. (Over and out go back one instruction.)
    ///
    /// ```
    /// use sargon_original::emu::Step;
    /// # let Some(mut stepper) = sargon_original::doc_rom::stepper(1)? else { return Ok(()) };
    /// stepper.to_position(1000)?;
    /// stepper.step_back(Step::Instruction)?;
    /// assert_eq!(stepper.position(), 999);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn step_back(&mut self, step: Step) -> Result<(), SearchError> {
        let here = self.emu.instructions;
        let target = match step {
            Step::Event => {
                let k = self.event_at.partition_point(|&n| n < here);
                k.checked_sub(1).map(|k| self.event_at[k])
            }
            Step::Node => self.node_positions().rfind(|&n| n < here),
            _ => here.checked_sub(1),
        };
        self.run_to(target.unwrap_or(self.start).max(self.start))
    }

    /// Go to where event `k` arises (the result: FNDMOV's return).
    ///
    /// ```
    /// # let Some(mut stepper) = sargon_original::doc_rom::stepper(1)? else { return Ok(()) };
    /// stepper.to_event(2)?;
    /// assert_eq!(stepper.position(), stepper.event_positions()[2]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_event(&mut self, k: usize) -> Result<(), SearchError> {
        let target = self.event_at.get(k).copied().unwrap_or(self.end);
        self.run_to(target)
    }

    /// Go to where the `c`-th node is created (its `created` event, counted from 1 in
    /// the trace's order; 0 or past the last: FNDMOV's entry or return).
    ///
    /// ```
    /// # let Some(mut stepper) = sargon_original::doc_rom::stepper(1)? else { return Ok(()) };
    /// stepper.to_node(1)?; // where the first node is created
    /// let created = stepper.events().iter().position(|e| e.kind() == "created");
    /// assert_eq!(Some(stepper.position()), created.map(|k| stepper.event_positions()[k]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_node(&mut self, c: usize) -> Result<(), SearchError> {
        let target = match c {
            0 => self.start,
            c => self.node_positions().nth(c - 1).unwrap_or(self.end),
        };
        self.run_to(target)
    }

    /// Go to `position` instructions after FNDMOV's entry (at most its return).
    ///
    /// ```
    /// # let Some(mut stepper) = sargon_original::doc_rom::stepper(1)? else { return Ok(()) };
    /// stepper.to_position(500)?;
    /// assert_eq!(stepper.position(), 500);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_position(&mut self, position: u64) -> Result<(), SearchError> {
        self.run_to(self.start.saturating_add(position))
    }

    fn node_positions(&self) -> impl DoubleEndedIterator<Item = u64> + '_ {
        self.events
            .iter()
            .zip(&self.event_at)
            .filter(|(e, _)| matches!(e, Event::Created { .. }))
            .map(|(_, &n)| n)
    }

    /// Restore snapshot `i` (the changes are left to the caller).
    fn restore(&mut self, i: usize) {
        load(&mut self.emu, &self.snapshots[i]);
    }

    /// Run from the current point (or from the nearest snapshot before `target`, kept or
    /// near, when `target` is behind or a snapshot is nearer) to `target` instructions
    /// since the reset, noting the bytes changed.
    fn run_to(&mut self, target: u64) -> Result<(), SearchError> {
        let target = target.clamp(self.start, self.end);
        let before = self.emu.machine.mem.clone();
        let here = self.emu.instructions;
        let i = self.snapshots.partition_point(|s| s.instructions <= target) - 1;
        let near = (0..self.near.len())
            .filter(|&k| self.near[k].instructions <= target)
            .max_by_key(|&k| self.near[k].instructions);
        let base = match near {
            Some(k) if self.near[k].instructions > self.snapshots[i].instructions => &self.near[k],
            _ => &self.snapshots[i],
        };
        if target < here || base.instructions > here {
            load(&mut self.emu, base);
        }
        let mut result = Ok(());
        if target - self.emu.instructions > NEAR {
            result = self.run_forward(target - NEAR / 2);
            if result.is_ok() {
                if self.near.len() == NEAR_SNAPSHOTS {
                    self.near.remove(0);
                }
                let events = self
                    .event_at
                    .partition_point(|&n| n < self.emu.instructions);
                self.near.push(snapshot(&self.emu, events));
            }
        }
        if result.is_ok() {
            result = self.run_forward(target);
        }
        self.note_changes(&before);
        result
    }

    /// Run on to `target` (at or after the current point).
    fn run_forward(&mut self, target: u64) -> Result<(), SearchError> {
        if self.emu.instructions >= target {
            return Ok(());
        }
        let call = fndmov_call(&self.emu, self.budget, self.book_random, true, Some(target));
        self.emu.call(&call, &mut Hooks::new(), &mut NoObserver)
    }

    /// Run to the instruction at `ret` with SP at `sp`: the return of a CALL.
    fn run_to_return(&mut self, ret: u16, sp: u16) -> Result<(), SearchError> {
        let before = self.emu.machine.mem.clone();
        let result = if self.emu.machine.hook_table[ret as usize] == 0 {
            self.emu.machine.hook_table[ret as usize] = BREAK_MARK;
            self.emu.break_sp = Some(sp);
            let call = fndmov_call(&self.emu, self.budget, self.book_random, true, None);
            let result = self.emu.call(&call, &mut Hooks::new(), &mut NoObserver);
            self.emu.machine.hook_table[ret as usize] = 0;
            self.emu.break_sp = None;
            result
        } else {
            // A hook point there: one instruction at a time.
            loop {
                let here = self.emu.instructions;
                if here >= self.end {
                    break Ok(());
                }
                let call = fndmov_call(
                    &self.emu,
                    self.budget,
                    self.book_random,
                    true,
                    Some(here + 1),
                );
                if let Err(e) = self.emu.call(&call, &mut Hooks::new(), &mut NoObserver) {
                    break Err(e);
                }
                if self.emu.pc() == ret && self.registers().sp == sp {
                    break Ok(());
                }
            }
        };
        self.note_changes(&before);
        result
    }

    fn note_changes(&mut self, before: &[u8]) {
        self.changes.clear();
        self.changed = 0;
        for (addr, (&old, &new)) in before.iter().zip(&self.emu.machine.mem).enumerate() {
            if old != new {
                self.changed += 1;
                if self.changes.len() < MAX_CHANGES {
                    self.changes.push(Change {
                        addr: addr as u16,
                        old,
                        new,
                    });
                }
            }
        }
    }
}

/// Put `s` back into `emu`.
fn load(emu: &mut Emulator, s: &Snapshot) {
    emu.machine.mem.copy_from_slice(&s.mem);
    let Processor::Iz80(cpu) = &mut emu.cpu else {
        unreachable!("a stepper runs on iz80");
    };
    cpu.deserialize(&s.cpu)
        .expect("a snapshot's registers are iz80's own serialisation");
    emu.instructions = s.instructions;
    emu.t_states = s.t_states;
}

/// The snapshot of `emu` as it stands.
fn snapshot(emu: &Emulator, events: usize) -> Snapshot {
    let Processor::Iz80(cpu) = &emu.cpu else {
        unreachable!("a stepper runs on iz80");
    };
    Snapshot {
        cpu: cpu.serialize(),
        mem: emu.machine.mem.clone(),
        instructions: emu.instructions,
        t_states: emu.t_states,
        events,
    }
}

/// FNDMOV's call, resumed, pausing at `pause_at`.
fn fndmov_call(
    emu: &Emulator,
    budget: u64,
    book_random: u8,
    resume: bool,
    pause_at: Option<u64>,
) -> Call<'static> {
    Call {
        routine: "FNDMOV",
        addr: emu.syms.fndmov,
        budget: budget.saturating_sub(emu.instructions),
        book_random,
        stop: None,
        resume,
        pause_at,
    }
}

impl Emulator {
    /// Enter FNDMOV without running it: the stepper's first snapshot stands there.
    fn enter_fndmov(&mut self) {
        let addr = self.syms.fndmov;
        let mut cpu = std::mem::replace(&mut self.cpu, Processor::Lent);
        if let Processor::Iz80(c) = &mut cpu {
            self.enter(c, addr);
        }
        self.cpu = cpu;
    }

    /// PC, between calls.
    fn pc(&self) -> u16 {
        match &self.cpu {
            Processor::Iz80(c) => Z80::pc(c),
            _ => unreachable!("a stepper runs on iz80"),
        }
    }

    /// [`sargon_core::engine::Engine::check_depth`], for the stepper.
    fn check_depth_of(&self, depth: u8) -> Result<(), SearchError> {
        sargon_core::engine::Engine::check_depth(self, depth)
    }
}
