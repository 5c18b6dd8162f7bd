//! What hooks cost the emulator: Z80 instructions per second of the same searches with no
//! hook, with a counting hook armed at every hook point, and with the full trace recorder.
//! Prints ratios (goal: >= 0.9 with hooks installed); asserts nothing, since timings depend
//! on the machine. Needs an imported ROM.
//!
//! Run: `cargo bench --bench hooks`

use std::time::Instant;

use sargon_core::engine::{Engine, SearchOptions};
use sargon_core::hooks::{FnHook, HookPoint, Hooks};
use sargon_core::position::Book;
use sargon_core::position::{parse_position, setup};
use sargon_core::trace::{Detail, Recorder};
use sargon_original::emu::Emulator;
use sargon_original::rom::RomStore;

const POSITIONS: [&str; 3] = [
    "r2n2k1/5ppp/b5q1/1P3N2/8/8/3Q1PPP/3R2K1 w - - 0 1",
    "startpos",
    "3r2k1/1pq2ppp/pb1pp1b1/8/3B4/2N5/PPP1QPPP/4R1K1 w - - 0 1",
];

/// Instructions and seconds of one pass over the positions at depth 3.
fn pass(emu: &mut Emulator, mode: &str) -> (u64, f64) {
    let mut instructions = 0;
    let mut secs = 0.0;
    for fen in POSITIONS {
        let s = setup(&parse_position(fen).unwrap(), Book::Off).unwrap();
        let opts = SearchOptions::depth(3);
        let mut count = 0u64;
        let mut counter = FnHook::new(&HookPoint::ALL, |_| count += 1);
        let mut sink = 0usize;
        let mut recorder = Recorder::new(Detail::Full, |e| sink += e.path().map_or(0, |p| p.len()));
        let mut hooks = Hooks::new();
        match mode {
            "counting hook" => {
                hooks.add(&mut counter);
            }
            "trace recorder" => {
                hooks.add(&mut recorder);
            }
            _ => {}
        }
        let t = Instant::now();
        let out = emu.search(&s, &opts, &mut hooks).unwrap();
        secs += t.elapsed().as_secs_f64();
        instructions += out.stats.z80_instructions.unwrap();
    }
    (instructions, secs)
}

fn main() {
    let rom = match RomStore::open(None).load(None) {
        Ok(r) => r,
        Err(_) => {
            println!("skipped: no Sargon ROM imported (the hook benchmark measures the emulator)");
            return;
        }
    };
    let mut emu = Emulator::new(rom).expect("usable ROM");
    let modes = ["no hooks", "counting hook", "trace recorder"];
    let mut best = [f64::MAX; 3];
    let mut instructions = [0u64; 3];
    for _round in 0..3 {
        for (i, mode) in modes.iter().enumerate() {
            let (n, s) = pass(&mut emu, mode);
            instructions[i] = n;
            best[i] = best[i].min(s);
        }
    }
    assert!(
        instructions.iter().all(|&n| n == instructions[0]),
        "hooks changed the search"
    );
    let rate = |i: usize| instructions[i] as f64 / best[i] / 1e6;
    for (i, mode) in modes.iter().enumerate() {
        println!(
            "{mode:<15} {:>7.1} M Z80 instructions/s  ratio to no hooks {:.3}",
            rate(i),
            rate(i) / rate(0)
        );
    }
}
