//! The machine the Z80 core runs on: Sargon's memory, the hook table, and what observes a run.

use iz80::{Cpu, Machine};

use sargon_core::vocab::{SMove, Sq};

/// Sees every instruction the emulator executes (for profiling). The unobserved search uses
/// `NoObserver`, whose empty method the compiler removes from the run loop. An observer
/// sees iz80's own state, so it runs on that core only: on another, the search is refused
/// ([`SearchError::NotOnThisCore`](sargon_core::engine::SearchError::NotOnThisCore)).
pub trait Observer {
    /// False only for `NoObserver`: the run loop then skips the observation entirely.
    const ACTIVE: bool = true;
    /// The instruction at `pc` has executed, taking `t_states` by `iz80`'s count (not the
    /// documented one); `cpu` and `mem` show the state after it.
    ///
    /// ```
    /// use sargon_core::{parse_position, setup, Book, Hooks, SearchOptions};
    /// use sargon_original::{emu::Observer, Emulator};
    ///
    /// /// Where each instruction was.
    /// struct Trail(Vec<u16>);
    /// impl Observer for Trail {
    ///     fn executed(&mut self, pc: u16, _t_states: u32, _cpu: &iz80::Cpu, _mem: &[u8]) {
    ///         self.0.push(pc);
    ///     }
    /// }
    /// # let Some(rom) = sargon_original::doc_rom::imported()? else { return Ok(()) };
    /// // `rom`: the imported Sargon (`sargon rom import`); without one the example ends here.
    /// let mut emulator = Emulator::new(rom)?;
    /// let start = setup(&parse_position("startpos")?, Book::Off)?;
    /// let mut trail = Trail(Vec::new());
    /// emulator.search_observed(&start, &SearchOptions::depth(1), &mut Hooks::new(), &mut trail)?;
    /// assert_eq!(trail.0.first(), Some(&emulator.symbols().fndmov)); // FNDMOV's first
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn executed(&mut self, pc: u16, t_states: u32, cpu: &Cpu, mem: &[u8]);
}

/// The observer that observes nothing.
pub(crate) struct NoObserver;

impl Observer for NoObserver {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn executed(&mut self, _pc: u16, _t_states: u32, _cpu: &Cpu, _mem: &[u8]) {}
}

/// 64 KiB of memory and the hook table; what `iz80` sees as the machine.
pub(crate) struct SargonMachine {
    /// The 64 KiB address space.
    pub mem: Vec<u8>,
    /// For each address: 0, or 1 + the index of the hook point armed there.
    pub(super) hook_table: Vec<u8>,
    /// With [`Emulator::track_reads`]: for each address, what the search did to it first.
    pub(super) first_access: Option<Vec<u8>>,
}

/// [`SargonMachine::first_access`]: not touched yet in this search.
pub(super) const UNTOUCHED: u8 = 0;
/// Written before it was ever read: the image's byte there cannot matter to the search.
pub(super) const WRITTEN_FIRST: u8 = 1;
/// Read (as an instruction or as data) while it still held the image's byte.
pub(super) const READ_FIRST: u8 = 2;

impl Machine for SargonMachine {
    #[inline(always)]
    fn peek(&mut self, address: u16) -> u8 {
        self.mem[address as usize]
    }
    #[inline(always)]
    fn poke(&mut self, address: u16, value: u8) {
        self.mem[address as usize] = value;
    }
    fn port_in(&mut self, _address: u16) -> u8 {
        0
    }
    fn port_out(&mut self, _address: u16, _value: u8) {}
}

/// The machine as `iz80` sees it while reads are tracked ([`Emulator::track_reads`]): the
/// same memory, each access noted. A machine of its own, chosen once per call, so that the
/// untracked run pays nothing for tracking.
pub(super) struct Tracking<'a>(pub(super) &'a mut SargonMachine);

impl Machine for Tracking<'_> {
    #[inline(always)]
    fn peek(&mut self, address: u16) -> u8 {
        self.0.note_read(address);
        self.0.mem[address as usize]
    }
    #[inline(always)]
    fn poke(&mut self, address: u16, value: u8) {
        self.0.note_write(address);
        self.0.mem[address as usize] = value;
    }
    fn port_in(&mut self, _address: u16) -> u8 {
        0
    }
    fn port_out(&mut self, _address: u16, _value: u8) {}
}

impl SargonMachine {
    /// A read by the program, or by the harness of what the search left (its move).
    #[inline(always)]
    pub(super) fn note_read(&mut self, address: u16) {
        self.note_first(address, READ_FIRST);
    }

    /// A write by the program or by the harness: the image's byte there is gone.
    #[inline(always)]
    pub(super) fn note_write(&mut self, address: u16) {
        self.note_first(address, WRITTEN_FIRST);
    }

    /// While reads are tracked, the first access to `address` in this search.
    #[inline(always)]
    pub(super) fn note_first(&mut self, address: u16, access: u8) {
        if let Some(first) = &mut self.first_access {
            let f = &mut first[address as usize];
            if *f == UNTOUCHED {
                *f = access;
            }
        }
    }

    pub(super) fn word(&self, addr: u16) -> u16 {
        u16::from_le_bytes([
            self.mem[addr as usize],
            self.mem[addr.wrapping_add(1) as usize],
        ])
    }
    pub(super) fn set_word(&mut self, addr: u16, value: u16) {
        let [lo, hi] = value.to_le_bytes();
        self.note_write(addr);
        self.note_write(addr.wrapping_add(1));
        self.mem[addr as usize] = lo;
        self.mem[addr.wrapping_add(1) as usize] = hi;
    }
    pub(super) fn smove_at(&self, entry: u16) -> SMove {
        SMove {
            from: Sq(self.mem[entry.wrapping_add(2) as usize]),
            to: Sq(self.mem[entry.wrapping_add(3) as usize]),
            flags: self.mem[entry.wrapping_add(4) as usize],
        }
    }
}
