//! `sargon bench`: how fast the port is, against the emulator and against 1978.
//!
//! 1. Port against emulator: the same searches on a fixed position set, the port's time and
//!    nodes per second against the emulator's, and the ratio.
//! 2. Hooks on the port: the same searches with a counting hook at every point, as a ratio.
//! 3. The classic "Sargon benchmark": the TRS-80's four hours per level-6 move divided by
//!    the port's average time at depth 6 over the 12-position set.
//!
//! Times are measured, printed and compared as ratios; nothing is asserted.

use std::time::Instant;

use anyhow::{Context, Result};

use super::{open_engine, CoreArgs};
use crate::studies::history::BENCHMARK_POSITIONS;
use sargon_core::engine::{Engine, SearchOptions};
use sargon_core::hooks::{FnHook, HookPoint, Hooks};
use sargon_core::position::Book;
use sargon_core::position::{parse_position, setup, Setup};
use sargon_engines::engines::EngineSpec;
use sargon_original::rom::RomStore;

/// Seconds the TRS-80 version took per move at level 6, by its manual.
const TRS80_LEVEL6_SECONDS: f64 = crate::studies::history::MANUAL_SECONDS[5];

#[derive(clap::Args, Debug)]
pub(crate) struct BenchArgs {
    /// Depth of the port-against-emulator comparison (1-6; 1-20 with --no-emulator) and
    /// of the hook comparison (which stops at 5)
    #[arg(long, default_value_t = 4, value_parser = super::parse_depth, allow_negative_numbers = true)]
    pub depth: u8,
    /// Compare with the emulator on only the first N positions, 1-12 (it is ~200x slower)
    #[arg(long, default_value_t = 12, value_parser = super::numbers::bench_positions, allow_negative_numbers = true)]
    pub emulator_positions: usize,
    /// Skip the comparison with the emulator (no ROM needed)
    #[arg(long)]
    pub no_emulator: bool,
    /// Skip the classic depth-6 benchmark
    #[arg(long)]
    pub no_classic: bool,
    /// ROM for the emulator
    #[arg(long)]
    pub rom: Option<String>,
    #[command(flatten)]
    pub core: CoreArgs,
}

fn setups() -> Vec<Setup> {
    BENCHMARK_POSITIONS
        .iter()
        .map(|f| setup(&parse_position(f).expect("bench FEN"), Book::Off).expect("bench FEN"))
        .collect()
}

/// Seconds and evaluations (POINTS calls, counted in a separate hooked run so the timed run
/// has no hook) of one search.
fn timed(engine: &mut dyn Engine, s: &Setup, depth: u8, hooked: bool) -> Result<(f64, u64)> {
    let opts = SearchOptions::depth(depth);
    let mut count = 0u64;
    let mut counter = FnHook::new(&HookPoint::ALL, |e| {
        if e.point() == HookPoint::PointsEnd {
            count += 1;
        }
    });
    let mut hooks = Hooks::new();
    if hooked {
        hooks.add(&mut counter);
    }
    let t = Instant::now();
    engine.search(s, &opts, &mut hooks)?;
    let secs = t.elapsed().as_secs_f64();
    drop(hooks);
    Ok((secs, count))
}

fn nodes(engine: &mut dyn Engine, s: &Setup, depth: u8) -> Result<u64> {
    Ok(timed(engine, s, depth, true)?.1)
}

/// The deepest search of the hook comparison: it runs every position six times, and
/// deeper searches take minutes each.
const HOOKS_MAX_DEPTH: u8 = 5;

pub(crate) fn run(store: &RomStore, args: BenchArgs) -> Result<()> {
    // The arguments, before any work.
    EngineSpec::Port.check_depth(args.depth)?;
    if !args.no_emulator {
        EngineSpec::EMULATOR
            .check_depth(args.depth)
            .context("the comparison with the emulator runs at --depth (--no-emulator skips it)")?;
    }
    let core = args
        .core
        .name(!args.no_emulator, "--no-emulator leaves only the port")?;
    // --emulator-positions is within 1..=12: `numbers::bench_positions`.
    let setups = setups();
    let mut port = open_engine(store, &EngineSpec::Port)?;
    // A ROM asked for by name must be there, before anything is measured or printed.
    if let (false, Some(name)) = (args.no_emulator, args.rom.as_deref()) {
        store.load(Some(name))?;
    }
    println!("machine: {} cores, {}", num_cpus(), cpu_model());

    // 1. Port against emulator.
    if !args.no_emulator {
        let emulator = EngineSpec::EMULATOR.with_rom_and_core(args.rom.as_deref(), core.as_deref());
        match open_engine(store, &emulator) {
            // A ROM asked for by name must be there: skipping would hide the mistake.
            Err(e) if args.rom.is_some() => return Err(e),
            Err(e) => println!(
                "port vs emulator: skipped ({})",
                e.to_string().lines().next().unwrap_or("")
            ),
            Ok(mut emu) => {
                let n = args.emulator_positions;
                let on = match emu.core() {
                    Some(core) => format!(" on {core}"),
                    None => String::new(),
                };
                println!(
                    "\nport vs emulator{on}, depth {}, {n} positions",
                    args.depth
                );
                if let Some(note) = emu.rom_id().and_then(|r| r.unverified_note()) {
                    println!("{note}");
                }
                println!(
                    "{:>3} {:>10} {:>10} {:>10} {:>12} {:>12} {:>8}",
                    "#", "nodes", "emu s", "port s", "emu n/s", "port n/s", "ratio"
                );
                let (mut te, mut tp, mut tn) = (0.0, 0.0, 0u64);
                for (i, s) in setups.iter().take(n).enumerate() {
                    let nodes = nodes(port.as_mut(), s, args.depth)?;
                    let (e, _) = timed(emu.as_mut(), s, args.depth, false)?;
                    // The port is fast: take the best of three runs.
                    let mut p = f64::MAX;
                    for _ in 0..3 {
                        p = p.min(timed(port.as_mut(), s, args.depth, false)?.0);
                    }
                    te += e;
                    tp += p;
                    tn += nodes;
                    println!(
                        "{:>3} {:>10} {:>10.3} {:>10.5} {:>12.0} {:>12.0} {:>7.0}x",
                        i + 1,
                        nodes,
                        e,
                        p,
                        nodes as f64 / e,
                        nodes as f64 / p,
                        e / p
                    );
                }
                println!(
                    "all {:>10} {:>10.3} {:>10.5} {:>12.0} {:>12.0} {:>7.0}x   (goal >= 200x)",
                    tn,
                    te,
                    tp,
                    tn as f64 / te,
                    tn as f64 / tp,
                    te / tp
                );
            }
        }
    }

    // 2. What hooks cost the port.
    let depth = args.depth.min(HOOKS_MAX_DEPTH);
    if depth < args.depth {
        println!(
            "\n(the hook comparison runs at depth {HOOKS_MAX_DEPTH} at most: it repeats every search six times)"
        );
    }
    let (mut plain, mut hooked) = (f64::MAX, f64::MAX);
    for _ in 0..3 {
        let (mut a, mut b) = (0.0, 0.0);
        for s in &setups {
            a += timed(port.as_mut(), s, depth, false)?.0;
            b += timed(port.as_mut(), s, depth, true)?.0;
        }
        plain = plain.min(a);
        hooked = hooked.min(b);
    }
    println!(
        "\nport, depth {depth}, 12 positions: {plain:.3} s without hooks, {hooked:.3} s with a hook at every point (throughput ratio {:.2})",
        plain / hooked
    );

    // 3. The classic benchmark.
    if !args.no_classic {
        println!("\nclassic Sargon benchmark: port at depth 6 over the 12 positions");
        let mut total = 0.0;
        for (i, s) in setups.iter().enumerate() {
            let (secs, _) = timed(port.as_mut(), s, 6, false)?;
            total += secs;
            println!("{:>3} {:>9.3} s  {}", i + 1, secs, BENCHMARK_POSITIONS[i]);
        }
        let avg = total / setups.len() as f64;
        println!(
            "average {avg:.4} s per move; TRS-80 level 6: {} s per move; Sargon benchmark score {:.0}",
            TRS80_LEVEL6_SECONDS,
            TRS80_LEVEL6_SECONDS / avg
        );
    }
    Ok(())
}

fn num_cpus() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string())
}
