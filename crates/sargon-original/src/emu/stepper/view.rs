//! What a [`Stepper`] shows where it stands: the events and where they arise, the
//! snapshots, the machine (memory, registers, the instruction at PC, the call stack) and
//! what the last move changed. Read only: the moves are in the parent module.

use iz80::{Reg16, Reg8};

use super::{Change, Frame, Registers, Stepper};
use crate::emu::core::Processor;
use crate::emu::Symbols;
use crate::program::Program;
use crate::z80::{decode, Flow};
use sargon_core::trace::Event;

fn word(mem: &[u8], addr: u16) -> u16 {
    u16::from_le_bytes([mem[addr as usize], mem[addr.wrapping_add(1) as usize]])
}

impl Stepper {
    /// The search's events, the result last: the same as the recorded trace's.
    ///
    /// ```
    /// # let Some(mut stepper) = sargon_original::doc_rom::stepper(1)? else { return Ok(()) };
    /// assert_eq!(stepper.events().last().map(|e| e.kind()), Some("result"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Where each event arises: instructions since FNDMOV's entry.
    ///
    /// ```
    /// # let Some(mut stepper) = sargon_original::doc_rom::stepper(1)? else { return Ok(()) };
    /// let at = stepper.event_positions();
    /// assert!(at.windows(2).all(|w| w[0] <= w[1]));
    /// assert_eq!(at.last(), Some(&stepper.length())); // the result: at FNDMOV's return
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn event_positions(&self) -> Vec<u64> {
        self.event_at.iter().map(|n| n - self.start).collect()
    }

    /// Instructions run since FNDMOV's entry.
    ///
    /// ```
    /// use sargon_original::emu::Step;
    /// # let Some(mut stepper) = sargon_original::doc_rom::stepper(1)? else { return Ok(()) };
    /// assert_eq!(stepper.position(), 0); // at FNDMOV's entry
    /// stepper.step(Step::Instruction)?;
    /// assert_eq!(stepper.position(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn position(&self) -> u64 {
        self.emu.instructions - self.start
    }

    /// FNDMOV's instructions: the position at its return, where stepping ends.
    ///
    /// ```
    /// # let Some(mut stepper) = sargon_original::doc_rom::stepper(1)? else { return Ok(()) };
    /// stepper.to_position(u64::MAX)?; // at most to FNDMOV's return
    /// assert_eq!(stepper.position(), stepper.length());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn length(&self) -> u64 {
        self.end - self.start
    }

    /// Whether FNDMOV has returned.
    ///
    /// ```
    /// # let Some(mut stepper) = sargon_original::doc_rom::stepper(1)? else { return Ok(()) };
    /// assert!(!stepper.finished());
    /// stepper.to_position(stepper.length())?;
    /// assert!(stepper.finished());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn finished(&self) -> bool {
        self.emu.instructions >= self.end
    }

    /// Instructions between two snapshots now (it doubles when they are thinned).
    ///
    /// ```
    /// # let Some(mut stepper) = sargon_original::doc_rom::stepper(1)? else { return Ok(()) };
    /// // A search this short never thins its snapshots.
    /// assert_eq!(stepper.interval(), sargon_original::emu::stepper::FIRST_INTERVAL);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn interval(&self) -> u64 {
        self.interval
    }

    /// Each snapshot kept: its position (instructions since FNDMOV's entry) and the
    /// events arisen before it.
    ///
    /// ```
    /// # let Some(mut stepper) = sargon_original::doc_rom::stepper(1)? else { return Ok(()) };
    /// let kept = stepper.snapshots();
    /// assert_eq!(kept[0], (0, 0)); // at FNDMOV's entry, before any event
    /// assert!(kept.windows(2).all(|w| w[1].0 - w[0].0 == stepper.interval()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn snapshots(&self) -> Vec<(u64, usize)> {
        self.snapshots
            .iter()
            .map(|s| (s.instructions - self.start, s.events))
            .collect()
    }

    /// Snapshots kept, and the bytes they hold.
    ///
    /// ```
    /// # let Some(mut stepper) = sargon_original::doc_rom::stepper(1)? else { return Ok(()) };
    /// let (count, bytes) = stepper.snapshot_bytes();
    /// assert_eq!(count, stepper.snapshots().len());
    /// assert!(bytes > count * 0x10000); // each holds the 64 KiB and the registers
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn snapshot_bytes(&self) -> (usize, usize) {
        let bytes = self
            .snapshots
            .iter()
            .map(|s| s.mem.len() + s.cpu.len())
            .sum();
        (self.snapshots.len(), bytes)
    }

    /// Events that arose before the current position.
    fn events_before(&self) -> usize {
        self.event_at
            .partition_point(|&n| n < self.emu.instructions)
    }

    /// The events arising at the current position (before its instruction executes).
    ///
    /// ```
    /// # let Some(mut stepper) = sargon_original::doc_rom::stepper(1)? else { return Ok(()) };
    /// stepper.to_event(3)?;
    /// assert!(stepper.events_here().contains(&3));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn events_here(&self) -> std::ops::Range<usize> {
        let first = self.events_before();
        let last = self
            .event_at
            .partition_point(|&n| n <= self.emu.instructions);
        first..last
    }

    /// The 64 KiB as they stand.
    ///
    /// ```
    /// # let Some(mut stepper) = sargon_original::doc_rom::stepper(1)? else { return Ok(()) };
    /// let before = stepper.memory().to_vec();
    /// stepper.to_position(5000)?;
    /// stepper.to_position(0)?; // back: the bytes are restored
    /// assert_eq!(stepper.memory(), &before[..]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn memory(&self) -> &[u8] {
        &self.emu.machine.mem
    }

    /// The bytes the last move changed (at most [`MAX_CHANGES`](super::MAX_CHANGES)) and how
    /// many it changed.
    ///
    /// ```
    /// use sargon_original::emu::Step;
    /// # let Some(mut stepper) = sargon_original::doc_rom::stepper(1)? else { return Ok(()) };
    /// stepper.step(Step::Event)?;
    /// let (listed, changed) = stepper.changes();
    /// assert!(changed > 0 && listed.iter().all(|c| stepper.memory()[c.addr as usize] == c.new));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn changes(&self) -> (&[Change], usize) {
        (&self.changes, self.changed)
    }

    /// The program (routines and symbols) of the ROM.
    ///
    /// ```
    /// # let Some(mut stepper) = sargon_original::doc_rom::stepper(1)? else { return Ok(()) };
    /// let fndmov = stepper.symbols().fndmov;
    /// assert_eq!(stepper.program().routine_at(fndmov), Some((fndmov, "FNDMOV")));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// The registers as they stand.
    ///
    /// ```
    /// # let Some(mut stepper) = sargon_original::doc_rom::stepper(1)? else { return Ok(()) };
    /// assert_eq!(stepper.registers().pc, stepper.symbols().fndmov); // at FNDMOV's entry
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn registers(&self) -> Registers {
        let Processor::Iz80(cpu) = &self.emu.cpu else {
            unreachable!("a stepper runs on iz80");
        };
        let r = cpu.immutable_registers();
        Registers {
            a: r.a(),
            f: r.get8(Reg8::F),
            bc: r.get16(Reg16::BC),
            de: r.get16(Reg16::DE),
            hl: r.get16(Reg16::HL),
            ix: r.get16(Reg16::IX),
            iy: r.get16(Reg16::IY),
            sp: r.get16(Reg16::SP),
            pc: r.pc(),
        }
    }

    /// The instruction at PC, as the listing writes it.
    ///
    /// ```
    /// # let Some(mut stepper) = sargon_original::doc_rom::stepper(1)? else { return Ok(()) };
    /// let pc = stepper.registers().pc;
    /// let decoded = sargon_original::z80::decode(stepper.memory(), pc);
    /// assert_eq!(stepper.instruction(), decoded.text());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn instruction(&self) -> String {
        decode(&self.emu.machine.mem, self.emu.pc()).text()
    }

    /// The routines called and not yet returned from, outermost first, read off the Z80
    /// stack: each word between SP and the top of Sargon's stack that is the address
    /// after a CALL in the program. A pushed value that happens to look like one would
    /// show as a frame too; Sargon's pushes are board indexes and pointers into its
    /// data, which never do in the searches the tests step through.
    ///
    /// ```
    /// # let Some(mut stepper) = sargon_original::doc_rom::stepper(1)? else { return Ok(()) };
    /// assert!(stepper.call_stack().is_empty()); // FNDMOV was called by the harness
    /// stepper.to_event(0)?; // the first event arises in a routine FNDMOV called
    /// assert_eq!(stepper.call_stack()[0].caller, "FNDMOV");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn call_stack(&self) -> Vec<Frame> {
        let mem = &self.emu.machine.mem;
        let top = self.emu.syms.stack.wrapping_sub(2);
        let mut frames = Vec::new();
        let mut slot = self.registers().sp;
        while slot < top {
            let ret = word(mem, slot);
            if let Some(frame) = self.frame_for(slot, ret) {
                frames.push(frame);
            }
            slot = slot.wrapping_add(2);
        }
        frames.reverse();
        frames
    }

    fn frame_for(&self, slot: u16, ret: u16) -> Option<Frame> {
        let call_at = ret.checked_sub(3)?;
        if u32::from(ret) >= self.program.end || call_at < self.program.start {
            return None;
        }
        let ins = decode(&self.emu.machine.mem, call_at);
        let (Flow::Call(target) | Flow::CondCall(target)) = ins.flow else {
            return None;
        };
        if ins.next() != ret {
            return None;
        }
        let name = |a: u16| {
            self.program
                .routine_at(a)
                .map(|(_, n)| n.to_string())
                .unwrap_or_else(|| format!("{a:04X}H"))
        };
        Some(Frame {
            routine: name(target),
            call_at,
            caller: name(call_at),
            return_to: ret,
            slot,
        })
    }

    /// The harness's addresses in the ROM.
    ///
    /// ```
    /// # let Some(mut stepper) = sargon_original::doc_rom::stepper(1)? else { return Ok(()) };
    /// let plymax = stepper.symbols().plymax as usize;
    /// assert_eq!(stepper.memory()[plymax], 1); // PLYMAX: the depth searched
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn symbols(&self) -> &Symbols {
        &self.emu.syms
    }
}
