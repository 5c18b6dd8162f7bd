//! How long a step round trip takes (one instruction forward, one back) anywhere in a
//! search of the original: a benchmark, not a test (docs/explorer.md records its figures).
//!
//! `cargo run --release -p sargon-original --example step_bench [DEPTH] [TRIPS]` on the
//! imported ROM: the start position, book off, depth 4 by default, 300 round trips at
//! places spread over the search by a fixed pseudo-random sequence.

use std::time::Instant;

use sargon_core::engine::SearchOptions;
use sargon_core::position::{parse_position, setup, Book};
use sargon_original::emu::{Step, Stepper};
use sargon_original::rom::RomStore;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let depth: u8 = args.next().map_or(Ok(4), |a| a.parse())?;
    let trips: usize = args.next().map_or(Ok(300), |a| a.parse())?;
    let rom = RomStore::open(None).load(None)?;
    let start = setup(&parse_position("startpos")?, Book::Off)?;
    let opened = Instant::now();
    let mut stepper = Stepper::open(rom, &start, &SearchOptions::depth(depth))?;
    let open_ms = opened.elapsed().as_secs_f64() * 1e3;
    let (snapshots, bytes) = stepper.snapshot_bytes();
    println!(
        "depth {depth}: {} instructions, {} events; opened in {open_ms:.0} ms; {snapshots} snapshots every {} instructions ({} MiB)",
        stepper.length(),
        stepper.events().len(),
        stepper.interval(),
        bytes >> 20
    );
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut times = Vec::with_capacity(trips);
    // A jump replays from the kept snapshot before its target: the worst a step back costs
    // when no near snapshot is on the way.
    let mut jumps = Vec::with_capacity(trips);
    for _ in 0..trips {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let place = 1 + seed % (stepper.length() - 2);
        let t = Instant::now();
        stepper.to_position(place)?;
        jumps.push(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        stepper.step(Step::Instruction)?;
        stepper.step_back(Step::Instruction)?;
        times.push(t.elapsed().as_secs_f64() * 1e3);
        assert_eq!(stepper.position(), place);
    }
    for (what, mut v) in [
        ("round trips (one instruction forward, one back)", times),
        ("jumps to a random place", jumps),
    ] {
        v.sort_by(f64::total_cmp);
        let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
        println!(
            "{trips} {what}: median {:.2} ms, p95 {:.2} ms, max {:.2} ms",
            at(0.5),
            at(0.95),
            at(1.0)
        );
    }
    Ok(())
}
