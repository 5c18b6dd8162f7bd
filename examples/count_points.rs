//! A hook that counts Sargon's calls of POINTS, its evaluation, per ply: hooks see the
//! program at fixed points (here `points.end`, the end of POINTS) and work the same on the
//! port and on the original in the emulator.
//!
//! `cargo run --example count_points -- [DEPTH]` (default 3, from the initial position).

use std::collections::BTreeMap;

use sargon_core::{setup, Book, Engine, FnHook, HookEvent, HookPoint, Hooks, SearchOptions};
use sargon_port::Port;
use shakmaty::Chess;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let depth: u8 = std::env::args().nth(1).map_or(Ok(3), |d| d.parse())?;
    let setup = setup(&Chess::default(), Book::Off)?;

    let mut per_ply: BTreeMap<u8, u64> = BTreeMap::new();
    // The hook borrows `per_ply` while the search runs; the block ends the borrow.
    let outcome = {
        let mut count = FnHook::new(&[HookPoint::PointsEnd], |event| {
            if let HookEvent::PointsEnd(view) = event {
                *per_ply.entry(view.search().ply()).or_default() += 1;
            }
        });
        let mut hooks = Hooks::new();
        hooks.add(&mut count);
        Port::new().search(&setup, &SearchOptions::depth(depth), &mut hooks)?
    };

    println!(
        "initial position, depth {depth}: best move {:?}",
        outcome.best.map(|m| m.uci())
    );
    for (ply, calls) in &per_ply {
        println!("ply {ply}: {calls} calls of POINTS");
    }
    println!("in all: {}", per_ply.values().sum::<u64>());
    Ok(())
}
