//! The classic Sargon benchmark's searches on the port alone, for profilers and
//! instruction counts (`valgrind --tool=cachegrind`, `perf record`): no command, no
//! emulator, book off, no hooks, as `sargon bench` searches them.
//!
//! `cargo run --release -p sargon-port --example classic_bench -- [DEPTH] [POSITION...]`
//! (default: depth 6, all 12 positions; positions numbered 1 to 12 as in `sargon bench`).

use sargon_core::{parse_position, setup, Book, Engine, Hooks, SearchOptions};
use sargon_port::Port;
use std::time::Instant;

/// The classic benchmark's positions, in `sargon bench`'s order (`BENCHMARK_POSITIONS`
/// in the command's `studies::history`).
const POSITIONS: [&str; 12] = [
    "r2n2k1/5ppp/6q1/5N2/b7/1P6/3Q1PPP/3R2K1 w - - 0 1",
    "r2n2k1/5ppp/6q1/5N2/b7/1P6/3Q1PPP/3R2K1 w - - 0 1",
    "2r1nrk1/5pbp/1p2p1p1/8/p2B4/PqNR2P1/1P3P1P/1Q1R2K1 w - - 0 1",
    "5k2/3KR3/4B3/8/3P4/8/8/6q1 w - - 0 1",
    "3r2k1/1pq2ppp/pb1pp1b1/8/3B4/2N5/PPP1QPPP/4R1K1 w - - 0 1",
    "r4r2/6kp/2pqppp1/p1R5/b2P4/4QN2/1P3PPP/2R3K1 w - - 0 1",
    "8/8/q2pk3/2p5/8/3N4/8/4K2R w K - 0 1",
    "3k4/8/8/7P/8/8/1p6/1K6 w - - 0 1",
    "2k5/8/8/8/7P/8/1p6/1K6 w - - 0 1",
    "6B1/2N5/7p/pR4p1/1b2P3/2N1kP2/PPPR2PP/2K5 w - - 0 34",
    "6B1/2N5/7p/pR4p1/1b2P3/2N1kP2/PPPR2PP/2K5 w - - 0 34",
    "2rq1r1k/3npp1p/3p1n1Q/pp1P2N1/8/2P4P/1P4P1/R4R1K w - - 0 1",
];

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
