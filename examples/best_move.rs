//! Sargon's move, score and principal variation in a position, on the native port: what an
//! embedder needs is `sargon-core` (positions, the search pipeline, the PV) and
//! `sargon-port` (the engine); no emulator, no ROM.
//!
//! `cargo run --example best_move -- "FEN" [DEPTH]` (default: a mate in two, depth 3).

use sargon_core::{parse_position, record, setup, Book, Detail, SearchOptions};
use sargon_port::Port;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let fen = args
        .next()
        .unwrap_or_else(|| "r2n2k1/5ppp/b5q1/1P3N2/8/8/3Q1PPP/3R2K1 w - - 0 1".into());
    let depth: u8 = args.next().map_or(Ok(3), |d| d.parse())?;

    let pos = parse_position(&fen)?;
    let setup = setup(&pos, Book::Off)?;
    let options = SearchOptions::depth(depth);
    let run = record::search(
        &mut Port::new(),
        &setup,
        &options,
        Detail::BestOnly,
        &mut [],
    )?;
    let pv = run.pv(&pos);

    println!("position {fen}, depth {depth}");
    match pv.san.first() {
        Some(best) => println!("best     {best}"),
        None => println!("best     none (checkmate or stalemate)"),
    }
    let score = run.outcome.score_for_mover();
    println!("score    {:+.2} pawns for the side to move", score.pawns());
    println!("pv       {}", pv.san.join(" "));
    Ok(())
}
