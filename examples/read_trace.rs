//! A search's trace: every node Sargon created, every score, every alpha-beta and
//! best-move decision, as one list of events (the same on both engines), and the principal
//! variation read back from its "best so far" events.
//!
//! `cargo run --example read_trace -- [DEPTH]` (default 2, after 1.e4).

use std::collections::BTreeMap;

use sargon_core::position::read_position;
use sargon_core::pv::principal_variation;
use sargon_core::{record, setup, Book, Detail, Event, SearchOptions};
use sargon_port::Port;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let depth: u8 = std::env::args().nth(1).map_or(Ok(2), |d| d.parse())?;
    let pos = read_position("startpos moves e2e4")?.position;
    let setup = setup(&pos, Book::Off)?;
    let run = record::search(
        &mut Port::new(),
        &setup,
        &SearchOptions::depth(depth),
        Detail::Full,
        &mut [],
    )?;

    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for event in &run.events {
        *kinds.entry(event.kind()).or_default() += 1;
    }
    println!("{} events after 1.e4, depth {depth}:", run.events.len());
    for (kind, n) in &kinds {
        println!("  {kind:8} {n}");
    }
    println!("the first five, as `sargon trace` prints them:");
    for event in run.events.iter().take(5) {
        println!("  {event}");
    }
    // Only the "best so far" events matter to the principal variation.
    let bests = run
        .events
        .iter()
        .filter(|e| matches!(e, Event::Best { .. }))
        .count();
    let line = principal_variation(run.events.iter());
    let uci: Vec<String> = line.iter().map(|m| m.uci()).collect();
    println!(
        "{bests} best-so-far events; the principal variation: {}",
        uci.join(" ")
    );
    println!("in SAN: {}", run.pv(&pos).san.join(" "));
    Ok(())
}
