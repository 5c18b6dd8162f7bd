//! The [`Emulator`]: its state, how it is made and reset, what it tracks and counts.

use super::core::{Core, Processor};
use super::lockstep;
use super::machine::{Observer, SargonMachine, READ_FIRST, UNTOUCHED};
use super::progress::PASSED;
use super::symbols::Symbols;

use crate::coverage::{Coverage, SharedCoverage};
use crate::rom::{Rom, RomError};
use crate::z80::TimingCache;
use sargon_core::engine::{RomId, SearchError};
use sargon_core::hooks::{HookPoint, Hooks};

/// Where the harness returns to: no Sargon code lives this high.
pub(super) const SENTINEL: u16 = 0xfff0;
/// A zeroed 6-byte move entry for MLPTRJ to point at before a search (outside the image).
pub(super) const SCRATCH_ENTRY: u16 = 0xff00;
/// Hook-table value that marks the sentinel address.
pub(super) const SENTINEL_MARK: u8 = 0xff;
/// Hook-table value that marks the book's `LD A,R` on a core other than iz80, whose flags
/// the harness then makes iz80's (`core::Z80::before_refresh_read`).
pub(super) const REFRESH_MARK: u8 = 0xfe;
/// Hook-table value of the stepper's breakpoint: a return address it waits for, with
/// the stack pointer in [`Emulator::break_sp`].
pub(super) const BREAK_MARK: u8 = 0xfd;
/// Instructions between two looks at the stop flag (about a millisecond).
pub(super) const STOP_CHECK_INTERVAL: u64 = 1 << 16;

/// The original Sargon in the emulator.
pub struct Emulator {
    pub(super) rom: Rom,
    pub(super) rom_id: RomId,
    pub(super) syms: Symbols,
    pub(super) pristine: Vec<u8>,
    /// The Z80 core the calls run on.
    pub(super) core: Core,
    pub(super) cpu: Processor,
    pub(super) machine: SargonMachine,
    pub(super) instructions: u64,
    /// Documented T-states of the instructions run since the last reset.
    pub(super) t_states: u64,
    /// The longest stretch of instructions without a hook point since the last reset.
    pub(super) longest_gap: u64,
    /// Each executed address's documented timing, decoded once.
    pub(super) timing: TimingCache,
    pub(super) mlptrj_fix: bool,
    pub(super) stop_check_interval: u64,
    /// With [`Emulator::track_reads`]: where each search adds the bytes it read first.
    pub(super) reads: Option<ImageReads>,
    /// With [`Emulator::track_coverage`]: this search's instructions, and where each
    /// search adds them.
    pub(super) coverage: Option<(Coverage, SharedCoverage)>,
    /// In a [`lockstep::Crosscheck`]: the second core every call runs beside iz80.
    pub(super) lockstep: Option<Box<lockstep::Lockstep>>,
    /// The stack pointer at which the stepper's breakpoint ([`BREAK_MARK`]) stops a call.
    pub(super) break_sp: Option<u16>,
    /// With the stepper's first run: set, before each hook fires, to the instructions run
    /// so far, so that each recorded event knows where it arose.
    pub(super) event_clock: Option<std::sync::Arc<std::sync::atomic::AtomicU64>>,
    /// Each side's memory kept between the moves of a game (`Memory`), White's and Black's.
    pub(super) games: [Option<Box<super::kept_game::KeptGame>>; 2],
}

/// The addresses whose image byte some search read before anything overwrote it (as an
/// instruction or as data): what [`Emulator::track_reads`] collects, shared by the
/// emulators of one check.
pub type ImageReads = std::sync::Arc<std::sync::Mutex<Vec<bool>>>;

impl Emulator {
    /// Prepare an emulator for a ROM, checking its symbols and hook points; its calls run
    /// on iz80.
    ///
    /// ```
    /// use sargon_original::Emulator;
    /// # let dir = tempfile::tempdir()?;
    /// # let file = dir.path().join("tiny.asm");
    /// # std::fs::write(&file, "        ORG 100H\nSTART:  LD A,42\n        RET\n")?;
    /// # let rom = sargon_original::rom::RomStore::new(dir.path().join("roms")).prepare(&file, "tiny", false)?.rom;
    /// // `rom`: a tiny program of the project's assembler (`START: LD A,42 / RET`), no Sargon.
    /// let e = Emulator::new(rom).err().unwrap();
    /// assert_eq!(e.to_string(), "ROM `tiny` lacks the symbol FNDMOV, which the emulator harness needs: is it the Sargon transcription?");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(rom: Rom) -> Result<Emulator, RomError> {
        Emulator::with_core(rom, Core::Iz80)
    }

    /// [`Emulator::new`], the calls running on `core`.
    ///
    /// ```
    /// use sargon_original::emu::Core;
    /// use sargon_original::Emulator;
    /// # let dir = tempfile::tempdir()?;
    /// # let file = dir.path().join("tiny.asm");
    /// # std::fs::write(&file, "        ORG 100H\nSTART:  LD A,42\n        RET\n")?;
    /// # let rom = sargon_original::rom::RomStore::new(dir.path().join("roms")).prepare(&file, "tiny", false)?.rom;
    /// // `rom`: a tiny program of the project's assembler (`START: LD A,42 / RET`), no Sargon.
    /// // Refused on either core, before anything runs.
    /// assert!(Emulator::with_core(rom.clone(), Core::Z80emu).is_err());
    /// assert_eq!("z80emu".parse::<Core>()?, Core::Z80emu);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_core(rom: Rom, core: Core) -> Result<Emulator, RomError> {
        let syms = Symbols::resolve(&rom)?;
        let pristine = rom.memory();
        Ok(Emulator {
            rom_id: RomId {
                name: rom.meta.name.clone(),
                sha256: rom.meta.image_sha256.clone(),
                verified: rom.verified(),
                allowed_differences: rom.meta.allowed_differences.clone(),
            },
            machine: SargonMachine {
                mem: pristine.clone(),
                hook_table: vec![0; 0x10000],
                first_access: None,
            },
            rom,
            syms,
            pristine,
            core,
            cpu: Processor::new(core),
            instructions: 0,
            t_states: 0,
            longest_gap: 0,
            timing: TimingCache::new(),
            mlptrj_fix: true,
            stop_check_interval: STOP_CHECK_INTERVAL,
            reads: None,
            coverage: None,
            lockstep: None,
            break_sp: None,
            event_clock: None,
            games: [None, None],
        })
    }

    /// From now on, after every search, mark in `into` (64 Ki entries) each address whose
    /// image byte the search read before it was written, by the program or by the harness's
    /// set-up (the board, the side, the depth, ...). This is what the ROM check uses to
    /// tell the bytes the search depends on from those it never reads. Costs one test per
    /// memory access while on.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use sargon_core::{parse_position, setup, Book, Engine, Hooks, SearchOptions};
    /// use sargon_original::Emulator;
    /// # let Some(rom) = sargon_original::doc_rom::imported()? else { return Ok(()) };
    /// // `rom`: the imported Sargon (`sargon rom import`); without one the example ends here.
    /// let mut emulator = Emulator::new(rom)?;
    /// let reads = Arc::new(Mutex::new(vec![false; 0x10000]));
    /// emulator.track_reads(reads.clone());
    /// let start = setup(&parse_position("startpos")?, Book::Off)?;
    /// emulator.search(&start, &SearchOptions::depth(1), &mut Hooks::new())?;
    /// let fndmov = emulator.symbols().fndmov as usize;
    /// assert!(reads.lock().unwrap()[fndmov]); // FNDMOV's first byte was read as an instruction
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn track_reads(&mut self, into: ImageReads) {
        self.machine.first_access = Some(vec![UNTOUCHED; 0x10000]);
        self.reads = Some(into);
    }

    /// From now on, after every search, add to `into` the instructions the search (its
    /// set-up included) executed and which way each conditional one went: what `sargon rom
    /// coverage` reports. Costs a table lookup per instruction while on.
    ///
    /// ```
    /// use sargon_core::{parse_position, setup, Book, Engine, Hooks, SearchOptions};
    /// use sargon_original::coverage::SharedCoverage;
    /// use sargon_original::Emulator;
    /// # let Some(rom) = sargon_original::doc_rom::imported()? else { return Ok(()) };
    /// // `rom`: the imported Sargon (`sargon rom import`); without one the example ends here.
    /// let mut emulator = Emulator::new(rom)?;
    /// let executed = SharedCoverage::default();
    /// emulator.track_coverage(executed.clone());
    /// let start = setup(&parse_position("startpos")?, Book::Off)?;
    /// emulator.search(&start, &SearchOptions::depth(1), &mut Hooks::new())?;
    /// let fndmov = emulator.symbols().fndmov;
    /// assert!(executed.lock().unwrap().ran(fndmov));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn track_coverage(&mut self, into: SharedCoverage) {
        self.coverage = Some((Coverage::new(), into));
    }

    /// Is anything tracked (reads or coverage)? Then the run loop notes every access.
    pub(super) fn tracking(&self) -> bool {
        self.machine.first_access.is_some() || self.coverage.is_some()
    }

    /// Add this search's first reads and coverage to the shared sets, and start the next
    /// search afresh.
    pub(super) fn flush_tracking(&mut self) {
        if let Some((mine, shared)) = &mut self.coverage {
            shared.lock().unwrap_or_else(|e| e.into_inner()).merge(mine);
            mine.clear();
        }
        let (Some(first), Some(reads)) = (&mut self.machine.first_access, &self.reads) else {
            return;
        };
        let mut reads = reads.lock().unwrap_or_else(|e| e.into_inner());
        for (read, f) in reads.iter_mut().zip(first.iter_mut()) {
            *read |= *f == READ_FIRST;
            *f = UNTOUCHED;
        }
    }

    /// The Z80 core the calls run on.
    ///
    /// ```
    /// use sargon_original::{emu::Core, Emulator};
    /// # let Some(rom) = sargon_original::doc_rom::imported()? else { return Ok(()) };
    /// // `rom`: the imported Sargon (`sargon rom import`); without one the example ends here.
    /// assert_eq!(Emulator::new(rom.clone())?.core(), Core::Iz80);
    /// assert_eq!(Emulator::with_core(rom, Core::Z80emu)?.core(), Core::Z80emu);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn core(&self) -> Core {
        self.core
    }

    /// The ROM loaded.
    ///
    /// ```
    /// use sargon_original::Emulator;
    /// # let Some(rom) = sargon_original::doc_rom::imported()? else { return Ok(()) };
    /// // `rom`: the imported Sargon (`sargon rom import`); without one the example ends here.
    /// let sha = rom.meta.image_sha256.clone();
    /// assert_eq!(Emulator::new(rom)?.rom().meta.image_sha256, sha);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn rom(&self) -> &Rom {
        &self.rom
    }

    /// The harness's addresses in the ROM.
    ///
    /// ```
    /// use sargon_original::Emulator;
    /// # let Some(rom) = sargon_original::doc_rom::imported()? else { return Ok(()) };
    /// // `rom`: the imported Sargon (`sargon rom import`); without one the example ends here.
    /// let fndmov = rom.symbol("FNDMOV")?;
    /// assert_eq!(Emulator::new(rom)?.symbols().fndmov, fndmov);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn symbols(&self) -> &Symbols {
        &self.syms
    }

    /// Point MLPTRJ at a scratch entry before each search (on by default). Off, the
    /// original's uninitialised-pointer write corrupts M3 and the search goes wrong: kept
    /// switchable so the failure can be shown (see `docs/emulator.md`).
    ///
    /// ```
    /// use sargon_core::{parse_position, setup, Book, Engine, Hooks, SearchOptions};
    /// use sargon_original::Emulator;
    /// # let Some(rom) = sargon_original::doc_rom::imported()? else { return Ok(()) };
    /// // `rom`: the imported Sargon (`sargon rom import`); without one the example ends here.
    /// let start = setup(&parse_position("startpos")?, Book::Off)?;
    /// let opts = SearchOptions::depth(2);
    /// let mut fixed = Emulator::new(rom.clone())?;
    /// let mut unfixed = Emulator::new(rom)?;
    /// unfixed.set_mlptrj_fix(false);
    /// let with_fix = fixed.search(&start, &opts, &mut Hooks::new())?;
    /// let without = unfixed.search(&start, &opts, &mut Hooks::new())?;
    /// assert_ne!(with_fix.root_score, without.root_score); // the stray write to M3 shows
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_mlptrj_fix(&mut self, on: bool) {
        self.mlptrj_fix = on;
    }

    /// How many instructions run between two looks at the stop flag (default 65,536).
    /// Changing it must change nothing but how soon a stop is noticed; the tests run
    /// with 1 to prove that.
    ///
    /// ```
    /// use sargon_core::{parse_position, setup, Book, Engine, Hooks, SearchOptions};
    /// use sargon_original::Emulator;
    /// # let Some(rom) = sargon_original::doc_rom::imported()? else { return Ok(()) };
    /// // `rom`: the imported Sargon (`sargon rom import`); without one the example ends here.
    /// let start = setup(&parse_position("startpos")?, Book::Off)?;
    /// let mut often = Emulator::new(rom.clone())?;
    /// often.set_stop_check_interval(1);
    /// let a = often.search(&start, &SearchOptions::depth(2), &mut Hooks::new())?;
    /// let b = Emulator::new(rom)?.search(&start, &SearchOptions::depth(2), &mut Hooks::new())?;
    /// assert_eq!((a.best, a.stats.z80_instructions), (b.best, b.stats.z80_instructions));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_stop_check_interval(&mut self, instructions: u64) {
        self.stop_check_interval = instructions.max(1);
    }

    /// The emulated memory (after the last search).
    ///
    /// ```
    /// use sargon_core::{parse_position, setup, Book, Engine, Hooks, SearchOptions};
    /// use sargon_original::Emulator;
    /// # let Some(rom) = sargon_original::doc_rom::imported()? else { return Ok(()) };
    /// // `rom`: the imported Sargon (`sargon rom import`); without one the example ends here.
    /// let plymax = rom.symbol("PLYMAX")? as usize;
    /// let mut emulator = Emulator::new(rom)?;
    /// let start = setup(&parse_position("startpos")?, Book::Off)?;
    /// emulator.search(&start, &SearchOptions::depth(3), &mut Hooks::new())?;
    /// assert_eq!(emulator.memory()[plymax], 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn memory(&self) -> &[u8] {
        &self.machine.mem
    }

    /// Restore the pristine image: every search starts from the program as imported.
    pub(super) fn reset(&mut self) {
        self.machine.mem.copy_from_slice(&self.pristine);
        self.cpu = Processor::new(self.core);
        self.instructions = 0;
        self.t_states = 0;
        self.longest_gap = 0;
    }

    pub(super) fn poke(&mut self, addr: u16, value: u8) {
        self.machine.note_write(addr);
        self.machine.mem[addr as usize] = value;
    }

    pub(super) fn peek(&self, addr: u16) -> u8 {
        self.machine.mem[addr as usize]
    }

    /// Arm the hook table for the points in `hooks` (plus the book's random byte, which the
    /// harness always supplies); the other points are marked passed-only, for the progress
    /// check ([`STALL_LIMIT`]).
    pub(super) fn arm(&mut self, hooks: &Hooks) {
        self.machine.hook_table.iter_mut().for_each(|b| *b = 0);
        let mask = hooks.mask().with(HookPoint::BookRandom);
        for p in HookPoint::ALL {
            let armed = if mask.contains(p) { 0 } else { PASSED };
            self.machine.hook_table[self.syms.hooks[p as usize] as usize] = armed | (1 + p as u8);
        }
        if self.core != Core::Iz80 {
            // The book's `LD A,R`, just before its random-byte point (the hook spec checks
            // the bytes ED 5F there).
            let ld_a_r = self.syms.hooks[HookPoint::BookRandom as usize].wrapping_sub(2);
            self.machine.hook_table[ld_a_r as usize] = REFRESH_MARK;
        }
    }

    /// What a call of this emulator would ask of its core that the core cannot give: an
    /// observer or the tracking of reads, on a core other than iz80.
    pub(super) fn check_core<O: Observer>(&self) -> Result<(), SearchError> {
        let what = if self.core == Core::Iz80 {
            return Ok(());
        } else if O::ACTIVE {
            "an instruction observer (the profiler)"
        } else if self.machine.first_access.is_some() {
            "tracking the image's reads"
        } else {
            return Ok(());
        };
        Err(SearchError::NotOnThisCore {
            what: what.to_string(),
            needs: Core::Iz80.to_string(),
            core: self.core.to_string(),
        })
    }

    /// Instructions executed since the last reset.
    ///
    /// ```
    /// use sargon_core::{parse_position, setup, Book, Engine, Hooks, SearchOptions};
    /// use sargon_original::Emulator;
    /// # let Some(rom) = sargon_original::doc_rom::imported()? else { return Ok(()) };
    /// // `rom`: the imported Sargon (`sargon rom import`); without one the example ends here.
    /// let mut emulator = Emulator::new(rom)?;
    /// let start = setup(&parse_position("startpos")?, Book::Off)?;
    /// let found = emulator.search(&start, &SearchOptions::depth(1), &mut Hooks::new())?;
    /// // The set-up's calls (ROYALT) and FNDMOV's; the search's figures count FNDMOV's.
    /// assert!(emulator.instructions() > found.stats.z80_instructions.unwrap());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn instructions(&self) -> u64 {
        self.instructions
    }

    /// The longest stretch of instructions the last search (its set-up included) went
    /// without reaching a hook point, from a call's start or to its return: what the
    /// progress check ([`STALL_LIMIT`](super::progress::STALL_LIMIT)) must stay far above.
    ///
    /// ```
    /// use sargon_core::{parse_position, setup, Book, Engine, Hooks, SearchOptions};
    /// use sargon_original::{emu::STALL_LIMIT, Emulator};
    /// # let Some(rom) = sargon_original::doc_rom::imported()? else { return Ok(()) };
    /// // `rom`: the imported Sargon (`sargon rom import`); without one the example ends here.
    /// let mut emulator = Emulator::new(rom)?;
    /// let start = setup(&parse_position("startpos")?, Book::Off)?;
    /// emulator.search(&start, &SearchOptions::depth(2), &mut Hooks::new())?;
    /// assert!(emulator.longest_gap() > 0 && emulator.longest_gap() < STALL_LIMIT);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn longest_gap(&self) -> u64 {
        self.longest_gap
    }

    /// Documented T-states (Zilog's manual) of the instructions executed since the last
    /// reset.
    ///
    /// ```
    /// use sargon_core::{parse_position, setup, Book, Engine, Hooks, SearchOptions};
    /// use sargon_original::Emulator;
    /// # let Some(rom) = sargon_original::doc_rom::imported()? else { return Ok(()) };
    /// // `rom`: the imported Sargon (`sargon rom import`); without one the example ends here.
    /// let mut emulator = Emulator::new(rom)?;
    /// let start = setup(&parse_position("startpos")?, Book::Off)?;
    /// let found = emulator.search(&start, &SearchOptions::depth(1), &mut Hooks::new())?;
    /// // The set-up's calls (ROYALT) and FNDMOV's; the search's figures count FNDMOV's.
    /// assert!(emulator.t_states() > found.stats.t_states.unwrap());
    /// assert!(emulator.t_states() > 4 * emulator.instructions()); // no Z80 instruction is shorter
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn t_states(&self) -> u64 {
        self.t_states
    }
}
