//! The search driver: the set-up written into Sargon's memory, and the emulator as an [`Engine`].

use std::time::Instant;

use super::core::Core;
use super::emulator::{Emulator, SCRATCH_ENTRY};
use super::kept_game::KeptGame;
use super::machine::{NoObserver, Observer};
use super::run::Call;

use sargon_core::engine::{
    Capabilities, Engine, Memory, RomId, SearchError, SearchOptions, SearchOutcome, SearchStats,
};
use sargon_core::game::Carried;
use sargon_core::hooks::Hooks;
use sargon_core::position::{kept_board_differs, Setup};
use sargon_core::vocab::Score;

/// Sargon's depth limit: its score table and ply table hold six plies.
pub const MAX_DEPTH: u8 = 6;

/// The index of a side's kept game: 0 White, 1 Black (Sargon's colour byte, bit 7).
fn side_index(color: u8) -> usize {
    usize::from(color >> 7)
}

impl Emulator {
    /// Write the position into Sargon's memory and replay a move if the set-up asks.
    pub(super) fn load_setup(
        &mut self,
        setup: &Setup,
        budget: u64,
        hooks: &mut Hooks,
    ) -> Result<(), SearchError> {
        let s = self.syms.clone();
        for (i, &b) in setup.board.iter().enumerate() {
            self.poke(s.boarda + i as u16, b);
        }
        self.poke(s.color, setup.side.byte());
        self.poke(s.moveno, setup.moveno);
        self.call(
            &Call::quick("ROYALT", s.royalt, budget),
            hooks,
            &mut NoObserver,
        )?;
        if self.mlptrj_fix {
            for i in 0..6 {
                self.poke(SCRATCH_ENTRY + i, 0);
            }
            self.machine.set_word(s.mlptrj, SCRATCH_ENTRY);
        }
        if let Some((from, to)) = setup.replay {
            // VALMOV checks a move of the side opposite KOLOR, as it did for the player.
            self.poke(s.kolor, setup.side.byte() ^ 0x80);
            self.valmov(from, to, budget, hooks)?;
            self.poke(s.color, setup.side.byte() ^ 0x80);
        }
        Ok(())
    }
}

impl Engine for Emulator {
    /// `emulator`, whatever its ROM and core (which [`Engine::rom_id`] and
    /// [`Engine::core`] say): the name results have always recorded.
    fn id(&self) -> String {
        "emulator".into()
    }

    fn max_depth(&self) -> u8 {
        MAX_DEPTH
    }

    /// Everything: hooks at the image's addresses, its data area, the Z80.
    fn capabilities(&self) -> Capabilities {
        Capabilities::hooked(true, true)
    }

    fn core(&self) -> Option<&str> {
        (self.core != Core::Iz80).then(|| self.core.name())
    }

    fn rom_id(&self) -> Option<&RomId> {
        Some(&self.rom_id)
    }

    /// PLYMAX and PMATE as they are in the emulated memory after the last search: what
    /// the original's next FNDMOV in a game would find there.
    fn left_for_next_move(&self) -> Option<Carried> {
        Some(Carried {
            plymax: self.peek(self.syms.plymax),
            pmate: self.peek(self.syms.pmate),
        })
    }

    fn search(
        &mut self,
        setup: &Setup,
        opts: &SearchOptions,
        hooks: &mut Hooks,
    ) -> Result<SearchOutcome, SearchError> {
        self.search_observed(setup, opts, hooks, &mut NoObserver)
    }
}

impl Emulator {
    /// A search whose FNDMOV call reports every instruction to `observer` (profiling).
    /// The set-up before it (ROYALT, a replayed move) is not observed.
    ///
    /// ```
    /// use sargon_core::{parse_position, setup, Book, Hooks, SearchOptions};
    /// use sargon_original::emu::Observer;
    /// use sargon_original::Emulator;
    ///
    /// /// Counts the instructions FNDMOV executes.
    /// struct Count(u64);
    /// impl Observer for Count {
    ///     fn executed(&mut self, _pc: u16, _t_states: u32, _cpu: &iz80::Cpu, _mem: &[u8]) {
    ///         self.0 += 1;
    ///     }
    /// }
    /// # let Some(rom) = sargon_original::doc_rom::imported()? else { return Ok(()) };
    /// // `rom`: the imported Sargon (`sargon rom import`); without one the example ends here.
    /// let mut emulator = Emulator::new(rom)?;
    /// let start = setup(&parse_position("startpos")?, Book::Off)?;
    /// let mut count = Count(0);
    /// let found = emulator.search_observed(&start, &SearchOptions::depth(1), &mut Hooks::new(), &mut count)?;
    /// // FNDMOV's instructions, which the search's figures count (the set-up is not observed).
    /// assert_eq!(Some(count.0), found.stats.z80_instructions);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn search_observed<O: Observer>(
        &mut self,
        setup: &Setup,
        opts: &SearchOptions,
        hooks: &mut Hooks,
        observer: &mut O,
    ) -> Result<SearchOutcome, SearchError> {
        let outcome = self.search_from_reset(setup, opts, hooks, observer);
        self.flush_tracking();
        outcome
    }

    fn search_from_reset<O: Observer>(
        &mut self,
        setup: &Setup,
        opts: &SearchOptions,
        hooks: &mut Hooks,
        observer: &mut O,
    ) -> Result<SearchOutcome, SearchError> {
        self.check_depth(opts.depth)?;
        self.check_core::<O>()?;
        let started = Instant::now();
        let budget = opts.instruction_budget();
        let side = side_index(setup.search_color());
        // A game's memory is the side's until a search in it ends well: a failed one leaves
        // none, so that a later continuation is refused rather than run in a broken one. A
        // fresh search leaves the kept games alone.
        let kept = match opts.memory {
            Memory::Continue { .. } | Memory::NextGame => self.games[side].take(),
            Memory::Fresh | Memory::NewGame => None,
        };
        let s = self.syms.clone();
        match opts.memory {
            Memory::Fresh | Memory::NewGame => {
                self.reset();
                self.arm(hooks);
                self.load_setup(setup, budget, hooks)?;
                self.poke(s.plymax, opts.depth);
                self.poke(s.pmate, opts.pmate);
                let color = self.peek(s.color);
                self.poke(s.kolor, color);
            }
            Memory::NextGame => {
                self.restore(kept, setup)?;
                self.arm(hooks);
                // DRIVER's next game: the board, the side and the move number written (and
                // the royalty table found), INTERR's depth; PMATE and the rest as they were.
                self.load_setup(setup, budget, hooks)?;
                self.poke(s.plymax, opts.depth);
                let color = self.peek(s.color);
                self.poke(s.kolor, color);
            }
            Memory::Continue { reply } => {
                self.restore(kept, setup)?;
                // The depth is the memory's: refused, as any depth, outside the tables.
                self.check_depth(self.peek(s.plymax))?;
                self.arm(hooks);
                // DR14 counts the moves; PLYMAX, PMATE and KOLOR are the memory's.
                self.poke(s.moveno, setup.moveno);
                // PLYRMV: the other side's move, checked and made by VALMOV.
                let (from, to) = reply;
                self.valmov(from, to, budget, hooks)?;
                let uci = format!("{from}{to}");
                let mut board = [0u8; sargon_core::vocab::BOARD_SIZE];
                for (i, b) in board.iter_mut().enumerate() {
                    *b = self.peek(s.boarda + i as u16);
                }
                if let Some(square) = kept_board_differs(&board, &setup.position) {
                    return Err(SearchError::KeptBoardDiffers {
                        uci,
                        square: square.to_string(),
                    });
                }
            }
        }
        let cycles_before = self.cpu.cycles();
        let instructions_before = self.instructions;
        let t_states_before = self.t_states;
        let call = Call {
            routine: "FNDMOV",
            addr: s.fndmov,
            budget: budget.saturating_sub(self.instructions),
            book_random: opts.book_random,
            stop: opts.stop.as_deref(),
            resume: false,
            pause_at: None,
        };
        self.call(&call, hooks, observer)?;
        let bestm = self.machine.word(s.bestm);
        // BESTM is 0 when no move was chosen; the book sets it into BMOVES, which may lie in
        // page 0, so the whole word is tested (not the high byte, as Sargon does for lists).
        let best = (bestm != 0).then(|| {
            // The move is the search's answer: the bytes it is read from count as read
            // (the book's moves are only ever read here, through BESTM).
            for i in 2..5 {
                self.machine.note_read(bestm.wrapping_add(i));
            }
            self.machine.smove_at(bestm)
        });
        let root_score = Score(self.peek(s.score + 1));
        if opts.memory.kept_after() {
            self.play_and_keep(bestm, budget, hooks, side)?;
        }
        Ok(SearchOutcome {
            best,
            root_score,
            from_book: setup.plays_from_book(),
            stats: SearchStats {
                z80_instructions: Some(self.instructions - instructions_before),
                t_states: Some(self.t_states - t_states_before),
                // iz80's own count, on iz80 only.
                iz80_t_states: (self.core == Core::Iz80).then(|| self.cpu.cycles() - cycles_before),
                wall_us: started.elapsed().as_micros() as u64,
            },
        })
    }
}

impl Emulator {
    /// VALMOV on the move `from`-`to` (as PLYRMV gives it the player's move): checked
    /// against the moves of the side opposite KOLOR and made, or refused.
    fn valmov(
        &mut self,
        from: sargon_core::vocab::Sq,
        to: sargon_core::vocab::Sq,
        budget: u64,
        hooks: &mut Hooks,
    ) -> Result<(), SearchError> {
        let s = self.syms.clone();
        self.poke(s.mvemsg, from.0);
        self.poke(s.mvemsg + 1, to.0);
        self.call(
            &Call::quick("VALMOV", s.valmov, budget),
            hooks,
            &mut NoObserver,
        )?;
        if self.cpu.a() != 0 {
            return Err(SearchError::ReplayRefused {
                uci: format!("{from}{to}"),
            });
        }
        Ok(())
    }

    /// A side's kept game back into the machine, or the error that it has none.
    fn restore(&mut self, kept: Option<Box<KeptGame>>, setup: &Setup) -> Result<(), SearchError> {
        let Some(kept) = kept else {
            return Err(SearchError::no_game_in_memory(setup));
        };
        self.reset();
        self.machine.mem.copy_from_slice(&kept.mem);
        if let (Some(first), Some(kept_first)) =
            (&mut self.machine.first_access, &kept.first_access)
        {
            first.copy_from_slice(kept_first);
        }
        Ok(())
    }

    /// After a game's search: CPTRMV's MOVE of the chosen move (none when BESTM is 0: the
    /// game is over), then the memory kept for the side's next search.
    fn play_and_keep(
        &mut self,
        bestm: u16,
        budget: u64,
        hooks: &mut Hooks,
        side: usize,
    ) -> Result<(), SearchError> {
        let s = self.syms.clone();
        if bestm != 0 {
            self.machine.set_word(s.mlptrj, bestm);
            let budget = budget.saturating_sub(self.instructions);
            self.call(
                &Call::quick("MOVE", s.make_move, budget),
                hooks,
                &mut NoObserver,
            )?;
        }
        self.games[side] = Some(Box::new(KeptGame {
            mem: self.machine.mem.clone(),
            first_access: self.machine.first_access.clone(),
        }));
        Ok(())
    }
}
