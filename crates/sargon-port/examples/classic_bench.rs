//! The classic Sargon benchmark's searches on the port alone, for profilers and
//! instruction counts (`valgrind --tool=cachegrind`, `perf record`): no command, no
//! emulator, book off, no hooks, as `sargon bench` searches them.
//!
//! `cargo run --release -p sargon-port --example classic_bench -- [DEPTH] [POSITION...]`
//! (default: depth 6, all 12 positions; positions numbered 1 to 12 as in `sargon bench`).

use sargon_core::benchmark::CLASSIC_POSITIONS as POSITIONS;
use sargon_core::{parse_position, setup, Book, Engine, Hooks, SearchOptions};
use sargon_port::Port;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let depth: u8 = args.next().map_or(Ok(6), |d| d.parse())?;
    let mut chosen: Vec<usize> = args.map(|n| n.parse()).collect::<Result<_, _>>()?;
    if chosen.is_empty() {
        chosen = (1..=POSITIONS.len()).collect();
    }
    let mut port = Port::new();
    let start = Instant::now();
    for n in chosen {
        let fen = POSITIONS
            .get(n.wrapping_sub(1))
            .ok_or_else(|| format!("no position {n}: the positions are 1 to 12"))?;
        let setup = setup(&parse_position(fen)?, Book::Off)?;
        let t = Instant::now();
        let found = port.search(&setup, &SearchOptions::depth(depth), &mut Hooks::new())?;
        let best = found.best.map_or("none".into(), |m| m.uci());
        let score = found.root_score.0;
        println!(
            "{n:2} {best} score {score:#04x} {:.3} s",
            t.elapsed().as_secs_f64()
        );
    }
    println!("all {:.3} s", start.elapsed().as_secs_f64());
    Ok(())
}
