//! The original stepped ([`sargon_original::emu::Stepper`]): forward and back restore the
//! machine exactly, a step over a CALL and out of a routine land where the Z80 returns, and
//! "to the next event" stops where the recorded trace's events arise. Needs an imported
//! ROM; skipped (with a clear line) where there is none.

use crate::common;

use sargon_core::engine::SearchOptions;
use sargon_core::hooks::HookPoint;
use sargon_core::position::{parse_position, setup, Book};
use sargon_core::record;
use sargon_core::trace::{Detail, Event};
use sargon_original::emu::stepper::Registers;
use sargon_original::emu::{Emulator, Step, Stepper};

/// A depth-3 search of the starting position, book off.
fn stepper(test: &str) -> Option<(Stepper, Emulator)> {
    let rom = common::rom(test)?;
    let s = setup(&parse_position("startpos").unwrap(), Book::Off).unwrap();
    let stepper = Stepper::open(rom.clone(), &s, &SearchOptions::depth(3)).unwrap();
    Some((stepper, Emulator::new(rom).unwrap()))
}

/// The 64 KiB, compared whole but shown, on a failure, as a digest: they hold the image.
#[derive(PartialEq)]
struct Memory(Vec<u8>);

impl std::fmt::Debug for Memory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let fnv = self.0.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        });
        write!(f, "memory (FNV-1a {fnv:016x})")
    }
}

fn state(s: &Stepper) -> (u64, Registers, Memory) {
    (s.position(), s.registers(), Memory(s.memory().to_vec()))
}

#[test]
fn the_stepper_records_the_same_trace_as_a_search() {
    let Some((stepper, mut emu)) = stepper("the_stepper_records_the_same_trace_as_a_search") else {
        return;
    };
    let s = setup(&parse_position("startpos").unwrap(), Book::Off).unwrap();
    let run = record::search(
        &mut emu,
        &s,
        &SearchOptions::depth(3),
        Detail::Full,
        &mut [],
    )
    .unwrap();
    assert_eq!(stepper.events(), &run.events[..]);
    assert_eq!(
        Some(stepper.length()),
        run.outcome.stats.z80_instructions,
        "FNDMOV's instructions"
    );
    let positions = stepper.event_positions();
    assert!(positions.windows(2).all(|w| w[0] <= w[1]));
    assert_eq!(positions.last(), Some(&stepper.length()));
}

#[test]
fn n_steps_forward_then_n_back_restore_the_machine() {
    let Some((mut stepper, _)) = stepper("n_steps_forward_then_n_back_restore_the_machine") else {
        return;
    };
    let length = stepper.length();
    let interval = stepper.interval();
    // The start, just before a snapshot, mid-search at an event, and near the end.
    let mid_event = stepper.event_positions()[stepper.events().len() / 2];
    let places = [0, interval - 3, mid_event, length - 40];
    for &place in &places {
        for n in [1u64, 7, 30] {
            stepper.to_position(place).unwrap();
            let before = state(&stepper);
            for _ in 0..n {
                stepper.step(Step::Instruction).unwrap();
            }
            let ahead = state(&stepper);
            assert_eq!(ahead.0, place + n);
            for _ in 0..n {
                stepper.step_back(Step::Instruction).unwrap();
            }
            assert_eq!(state(&stepper), before, "{n} forward and back at {place}");
            // Forward again reaches the same state as the first time.
            stepper.to_position(place + n).unwrap();
            assert_eq!(state(&stepper), ahead, "{n} forward again at {place}");
        }
        // Long strides, across snapshots.
        for n in [1_000u64, 3 * interval + 5] {
            let n = n.min(length - place);
            stepper.to_position(place).unwrap();
            let before = state(&stepper);
            stepper.to_position(place + n).unwrap();
            assert_eq!(stepper.position(), place + n);
            stepper.to_position(place).unwrap();
            assert_eq!(state(&stepper), before, "{n} forward and back at {place}");
        }
    }
}

/// Step single instructions until the one at PC is an unconditional CALL (its text says
/// so: a conditional one has a comma).
fn to_next_call(stepper: &mut Stepper) {
    loop {
        let text = stepper.instruction();
        if text.starts_with("CALL ") && !text.contains(',') {
            break;
        }
        stepper.step(Step::Instruction).unwrap();
    }
}

#[test]
fn step_over_a_call_lands_after_it_and_step_out_returns_to_the_caller() {
    let Some((mut stepper, _)) =
        stepper("step_over_a_call_lands_after_it_and_step_out_returns_to_the_caller")
    else {
        return;
    };
    let mut seen = 0;
    for place in [0, 50_000, stepper.length() / 2] {
        stepper.to_position(place).unwrap();
        to_next_call(&mut stepper);
        let at = state(&stepper);
        let frames = stepper.call_stack();
        // Over: the instruction after the CALL, the stack as before, the routine run.
        stepper.step(Step::Over).unwrap();
        let r = stepper.registers();
        assert_eq!(r.pc, at.1.pc + 3, "over the CALL at {:04X}", at.1.pc);
        assert_eq!(r.sp, at.1.sp);
        assert!(stepper.position() > at.0 + 1);
        assert_eq!(stepper.call_stack(), frames);
        // One instruction at a time reaches the same place.
        let over = state(&stepper);
        stepper.to_position(at.0).unwrap();
        loop {
            stepper.step(Step::Instruction).unwrap();
            let r = stepper.registers();
            if r.pc == at.1.pc + 3 && r.sp == at.1.sp {
                break;
            }
        }
        assert_eq!(state(&stepper), over);
        // Into the CALL, then out: back in the caller, after the CALL.
        stepper.to_position(at.0).unwrap();
        stepper.step(Step::Instruction).unwrap();
        let inner = stepper.call_stack();
        assert_eq!(
            inner.len(),
            frames.len() + 1,
            "a frame for the routine called"
        );
        assert_eq!(inner.last().unwrap().return_to, at.1.pc + 3);
        assert_eq!(inner.last().unwrap().call_at, at.1.pc);
        // A few instructions in, then out.
        for _ in 0..3 {
            stepper.step(Step::Over).unwrap();
        }
        stepper.step(Step::Out).unwrap();
        assert_eq!(
            state(&stepper),
            over,
            "out of the routine called at {:04X}",
            at.1.pc
        );
        seen += 1;
    }
    assert_eq!(seen, 3);
}

/// The hook point where each kind of event arises.
fn point_of(e: &Event) -> Option<HookPoint> {
    Some(match e {
        Event::Created { .. } => HookPoint::MovegenDone,
        Event::Eval { .. } => HookPoint::PointsEnd,
        Event::AlphaBeta { .. } => HookPoint::AlphaBeta,
        Event::BestTest { .. } => HookPoint::BestTest,
        Event::Best { .. } => HookPoint::BestConfirmed,
        Event::Ascend { .. } => HookPoint::Ascend,
        _ => return None,
    })
}

#[test]
fn next_event_stops_where_the_traces_next_event_arises() {
    let Some((mut stepper, emu)) = stepper("next_event_stops_where_the_traces_next_event_arises")
    else {
        return;
    };
    let hooks = emu.symbols().hooks;
    let nply = emu.symbols().nply as usize;
    let events = stepper.events().to_vec();
    let mut k = 0;
    let mut nodes = 0;
    let mut last = 0..0;
    // The first 300 events, one "next event" at a time.
    while k < 300 {
        stepper.step(Step::Event).unwrap();
        let here = stepper.events_here();
        assert_eq!(here.start, k, "the next event after {k} events");
        assert!(!here.is_empty());
        for e in &events[here.clone()] {
            let point = point_of(e).unwrap();
            assert_eq!(stepper.registers().pc, hooks[point as usize], "{e}");
            if let Event::Eval { ply, .. } = e {
                assert_eq!(stepper.memory()[nply], *ply, "NPLY at {e}");
            }
            nodes += usize::from(matches!(e, Event::Created { .. }));
        }
        k = here.end;
        last = here;
    }
    assert!(nodes > 20);
    // Back to the previous event, and node by node.
    let at = stepper.position();
    stepper.step_back(Step::Event).unwrap();
    assert!(stepper.position() < at);
    assert_eq!(
        stepper.events_here().end,
        last.start,
        "the group before the last"
    );
    stepper.to_position(0).unwrap();
    stepper.step(Step::Node).unwrap();
    let first = stepper.events_here();
    assert!(matches!(events[first.start], Event::Created { .. }));
    assert!(events[..first.start]
        .iter()
        .all(|e| !matches!(e, Event::Created { .. })));
    stepper.step(Step::Node).unwrap();
    let second = stepper.events_here();
    assert!(second.start >= first.end);
    stepper.step_back(Step::Node).unwrap();
    assert_eq!(stepper.events_here(), first);
    // To a chosen event: the same place as stepping there.
    stepper.to_event(second.start).unwrap();
    assert_eq!(stepper.events_here(), second);
}
