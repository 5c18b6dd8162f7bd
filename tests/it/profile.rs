//! `sargon profile`: every instruction of a search attributed to a routine, with totals
//! equal to the search's own counts.

use crate::common;

use iz80::Cpu;
use sargon_core::engine::{Engine, SearchOptions};
use sargon_core::hooks::Hooks;
use sargon_core::position;
use sargon_core::position::Book;
use sargon_original::emu::Observer;
use sargon_original::profile::{self, Profile, Profiler};
use sargon_original::program::Program;
use sargon_original::z80;

fn setup(fen: &str, book: Book) -> position::Setup {
    position::setup(&position::parse_position(fen).unwrap(), book).unwrap()
}

fn row<'a>(p: &'a Profile, name: &str) -> &'a profile::RoutineCost {
    p.rows
        .iter()
        .find(|r| r.routine == name)
        .unwrap_or_else(|| panic!("no row {name}"))
}

fn check_totals(p: &Profile, outcome: &sargon_core::engine::SearchOutcome) {
    let sum = |f: fn(&profile::RoutineCost) -> u64| p.rows.iter().map(f).sum::<u64>();
    assert_eq!(
        Some(sum(|r| r.instructions)),
        outcome.stats.z80_instructions
    );
    assert_eq!(
        Some(sum(|r| r.emulator_t_states)),
        outcome.stats.iz80_t_states
    );
    assert_eq!(Some(p.totals.instructions), outcome.stats.z80_instructions);
    assert_eq!(
        Some(p.totals.emulator_t_states),
        outcome.stats.iz80_t_states
    );
    assert_eq!(sum(|r| r.t_states), p.totals.t_states);
    // The search's own documented count is the profile's, exactly.
    assert_eq!(Some(p.totals.t_states), outcome.stats.t_states);
    // FNDMOV is called once by the harness and spans the whole search.
    let f = row(p, "FNDMOV");
    assert_eq!(f.calls, 1);
    assert_eq!(f.inclusive_t_states, p.totals.t_states);
    assert_eq!(f.inclusive_instructions, p.totals.instructions);
    for r in &p.rows {
        if r.calls > 0 {
            assert!(
                r.inclusive_t_states >= r.t_states,
                "{}: inclusive {} < exclusive {}",
                r.routine,
                r.inclusive_t_states,
                r.t_states
            );
            assert!(r.inclusive_t_states <= p.totals.t_states, "{}", r.routine);
        }
    }
    // Sorted by exclusive T-states.
    assert!(p.rows.windows(2).all(|w| w[0].t_states >= w[1].t_states));
}

#[test]
fn profile_of_a_middlegame_search_adds_up() {
    let Some(mut emu) = common::emulator("profile_of_a_middlegame_search_adds_up") else {
        return;
    };
    // A position with pinned pieces, so that PNCK's early return to ATTACK occurs.
    let s = setup(
        "r2n2k1/5ppp/6q1/5N2/b7/1P6/3Q1PPP/3R2K1 w - - 0 1",
        Book::Off,
    );
    let opts = SearchOptions::depth(2);
    let (p, outcome) = profile::profile_search(&mut emu, &s, &opts).unwrap();
    check_totals(&p, &outcome);
    // Sargon's IX/IY-heavy search costs more than the emulator counts (see
    // `sargon_original::profile`).
    assert!(p.totals.t_states > p.totals.emulator_t_states);
    // The profile observes without changing the search.
    let plain = emu.search(&s, &opts, &mut Hooks::new()).unwrap();
    assert_eq!(plain.best, outcome.best);
    assert_eq!(plain.stats.z80_instructions, outcome.stats.z80_instructions);
    assert_eq!(plain.stats.t_states, outcome.stats.t_states);
    assert_eq!(plain.stats.iz80_t_states, outcome.stats.iz80_t_states);
    assert_eq!(plain.stats.t_states, Some(p.totals.t_states));
    // The search's work: scoring and move generation called, calls counted.
    for r in ["POINTS", "GENMOV", "PATH", "ATTACK", "XCHNG"] {
        assert!(row(&p, r).calls > 0, "{r} never called");
    }
    let pnck = row(&p, "PNCK");
    let atksav = row(&p, "ATKSAV");
    assert!(pnck.calls > 0, "PNCK runs in this position");
    // PNCK is only called by ATKSAV: its calls end within ATKSAV's.
    assert!(atksav.inclusive_t_states >= atksav.t_states + pnck.inclusive_t_states);
    let attack = row(&p, "ATTACK");
    assert!(attack.inclusive_t_states >= atksav.inclusive_t_states);
}

#[test]
fn profile_survives_the_book_dropping_fndmovs_return() {
    let Some(mut emu) = common::emulator("profile_survives_the_book_dropping_fndmovs_return")
    else {
        return;
    };
    let (p, outcome) = profile::profile_search(
        &mut emu,
        &setup("startpos", Book::Allowed),
        &SearchOptions::depth(3),
    )
    .unwrap();
    assert!(outcome.from_book);
    check_totals(&p, &outcome);
    let book = row(&p, "BOOK");
    assert_eq!(book.calls, 1);
    assert_eq!(book.inclusive_instructions, book.instructions);
    // Book move: FNDMOV runs a handful of instructions and BOOK the rest.
    assert_eq!(
        book.instructions + row(&p, "FNDMOV").instructions,
        p.totals.instructions
    );
}

#[test]
fn profile_of_a_depth_3_opening_search_adds_up() {
    let Some(mut emu) = common::emulator("profile_of_a_depth_3_opening_search_adds_up") else {
        return;
    };
    let (p, outcome) = profile::profile_search(
        &mut emu,
        &setup("startpos", Book::Off),
        &SearchOptions::depth(3),
    )
    .unwrap();
    check_totals(&p, &outcome);
    // Local labels are no routines: the rows are routines of the program.
    let program = Program::of_rom(emu.rom());
    for r in &p.rows {
        assert!(
            program.routines.values().any(|n| *n == r.routine) || r.routine == profile::OUTSIDE,
            "{}",
            r.routine
        );
    }
    assert!(p.rows.iter().all(|r| r.routine != profile::OUTSIDE));
}

/// Per instruction, the documented T-states differ from the emulator's only where iz80 is
/// known to deviate from the manual (see `tests/it/listing.rs`).
struct Compare {
    inner: Profiler,
    timing: z80::TimingCache,
    prev_sp: u16,
    mismatches: Vec<String>,
}

impl Observer for Compare {
    fn executed(&mut self, pc: u16, t_states: u32, cpu: &Cpu, mem: &[u8]) {
        let r = cpu.immutable_registers();
        let sp = r.get16(iz80::Reg16::SP);
        let doc = u32::from(self.timing.t_states(mem, pc, r.pc(), self.prev_sp, sp));
        self.prev_sp = sp;
        let ins = z80::decode(mem, pc);
        let known = matches!(ins.bytes[0], 0xDD | 0xFD)
            || (ins.mnemonic == "JP" && matches!(ins.flow, z80::Flow::CondJump(_)))
            || (ins.mnemonic == "JR" && doc == 7 && t_states == 8);
        if doc != t_states && !known && self.mismatches.len() < 10 {
            self.mismatches
                .push(format!("{pc:04X} {}: {doc} vs {t_states}", ins.text()));
        }
        self.inner.executed(pc, t_states, cpu, mem);
    }
}

#[test]
fn documented_t_states_differ_from_the_emulators_only_where_iz80_deviates() {
    let Some(mut emu) =
        common::emulator("documented_t_states_differ_from_the_emulators_only_where_iz80_deviates")
    else {
        return;
    };
    let program = Program::of_rom(emu.rom());
    let syms = emu.symbols().clone();
    let sp = profile::entry_sp(syms.stack);
    let mut c = Compare {
        inner: Profiler::new(&program, syms.fndmov, sp),
        timing: z80::TimingCache::new(),
        prev_sp: sp,
        mismatches: Vec::new(),
    };
    let s = setup(
        "2rq1r1k/3npp1p/3p1n1Q/pp1P2N1/8/2P4P/1P4P1/R4R1K w - - 0 1",
        Book::Off,
    );
    let outcome = emu
        .search_observed(&s, &SearchOptions::depth(2), &mut Hooks::new(), &mut c)
        .unwrap();
    assert!(c.mismatches.is_empty(), "{:#?}", c.mismatches);
    let p = c.inner.finish();
    check_totals(&p, &outcome);
}

/// Recounts the documented T-states of every instruction from the decoder itself, apart
/// from the timing cache that the emulator's run loop and the profiler share.
struct Recount {
    prev_sp: u16,
    instructions: u64,
    t_states: u64,
    iz80_t_states: u64,
}

impl Observer for Recount {
    fn executed(&mut self, pc: u16, t_states: u32, cpu: &Cpu, mem: &[u8]) {
        let r = cpu.immutable_registers();
        let (pc_after, sp) = (r.pc(), r.get16(iz80::Reg16::SP));
        let ins = z80::decode(mem, pc);
        let taken = match ins.flow {
            z80::Flow::CondJump(_) | z80::Flow::CondCall(_) => pc_after != ins.next(),
            z80::Flow::CondReturn => sp != self.prev_sp,
            z80::Flow::Repeat => pc_after == pc,
            _ => false,
        };
        self.prev_sp = sp;
        self.instructions += 1;
        self.t_states += u64::from(ins.timing.t_states(taken));
        self.iz80_t_states += u64::from(t_states);
    }
}

#[test]
fn the_searchs_t_states_are_the_documented_count_exactly() {
    let Some(mut emu) = common::emulator("the_searchs_t_states_are_the_documented_count_exactly")
    else {
        return;
    };
    let entry = profile::entry_sp(emu.symbols().stack);
    let cases = [
        // Two middlegames, an endgame, a replayed en passant move, a book move.
        (
            "r2n2k1/5ppp/6q1/5N2/b7/1P6/3Q1PPP/3R2K1 w - - 0 1",
            2,
            false,
        ),
        (
            "2rq1r1k/3npp1p/3p1n1Q/pp1P2N1/8/2P4P/1P4P1/R4R1K w - - 0 1",
            2,
            false,
        ),
        ("3k4/8/8/7P/8/8/1p6/1K6 w - - 0 1", 4, false),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 30", 3, true),
        ("startpos", 3, true),
    ];
    for (fen, depth, book) in cases {
        let s = setup(fen, Book::from(book));
        let opts = SearchOptions::depth(depth);
        let plain = emu.search(&s, &opts, &mut Hooks::new()).unwrap();
        let mut recount = Recount {
            prev_sp: entry,
            instructions: 0,
            t_states: 0,
            iz80_t_states: 0,
        };
        let observed = emu
            .search_observed(&s, &opts, &mut Hooks::new(), &mut recount)
            .unwrap();
        let (p, profiled) = profile::profile_search(&mut emu, &s, &opts).unwrap();
        for outcome in [&plain, &observed, &profiled] {
            assert_eq!(outcome.stats.z80_instructions, Some(recount.instructions));
            assert_eq!(outcome.stats.t_states, Some(recount.t_states), "{fen}");
            assert_eq!(outcome.stats.iz80_t_states, Some(recount.iz80_t_states));
        }
        assert_eq!(p.totals.t_states, recount.t_states, "{fen}");
        assert_eq!(p.totals.emulator_t_states, recount.iz80_t_states);
        if !plain.from_book {
            // IX/IY instructions run in every search: the documented count is the larger.
            assert!(recount.t_states > recount.iz80_t_states, "{fen}");
        }
    }
}
