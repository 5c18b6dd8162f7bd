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
//! project's documented table ([`TimingCache`](crate::z80::TimingCache), the one the TRS-80 estimate uses).
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

mod cores;
mod crosscheck;
mod report;
mod stepper;
#[cfg(test)]
mod tests;

#[cfg(test)]
pub(crate) use cores::{iz80_state, second_state};
pub use crosscheck::Crosscheck;
pub use report::{
    flag_names, CoreSpeed, CoreState, CrosscheckError, CycleMismatch, Disagreement, Fault, Item,
    Options, SearchCheck,
};
pub(crate) use stepper::Lockstep;
