//! `sargon diff --state`: the original and the port compared by all of Sargon's data at
//! every point where an event can arise, not only by the events
//! ([`sargon_tools::state_diff`]). What is left out, and why, is in docs/port.md.

use std::time::Instant;

use anyhow::Result;

use super::progress::Progress;
use sargon_core::engine::{Engine, SearchOptions};
use sargon_tools::diff_run::InputPosition;
use sargon_tools::state_diff::{compare_state, StateOptions};

/// The cells left out unless `--state-skip` says otherwise, each explained in docs/port.md:
/// the ply table's slots for plies 9 and 10, whose bytes the original's display data is
/// assembled over (`ORG START+384`) and which no search up to depth 6 reaches; the port
/// keeps zeros there.
pub(crate) const DEFAULT_SKIP: &[&str] = &[
    "PLYIX+32", "PLYIX+33", "PLYIX+34", "PLYIX+35", "PLYIX+36", "PLYIX+37", "PLYIX+38", "PLYIX+39",
];

/// Compare every search state by state; whether all agreed.
pub(crate) fn run(
    left: &mut (dyn Engine + Send),
    right: &mut (dyn Engine + Send),
    positions: &[InputPosition],
    depths: &[u8],
    skip: &[String],
) -> Result<bool> {
    let state_opts = StateOptions {
        skip: if skip.is_empty() {
            DEFAULT_SKIP.iter().map(|s| s.to_string()).collect()
        } else {
            skip.iter().filter(|s| !s.is_empty()).cloned().collect()
        },
    };
    let searches: Vec<(&InputPosition, u8)> = positions
        .iter()
        .flat_map(|p| depths.iter().map(move |&d| (p, d)))
        .collect();
    let progress = Progress::new(searches.len() as u64, "searches");
    let started = Instant::now();
    let (mut snapshots, mut differing, mut cells) = (0u64, 0usize, 0usize);
    for (pos, depth) in &searches {
        let c = compare_state(
            left,
            right,
            &pos.setup,
            &SearchOptions::depth(*depth),
            &state_opts,
        )?;
        snapshots += c.snapshots;
        cells = c.cells;
        progress.set_message(format!("position {} depth {depth}", pos.index));
        progress.inc();
        let problem = match (&c.difference, &c.parted) {
            (Some(d), _) => Some(format!(
                "first difference at snapshot {} ({} {}): {} is {} on the {} and {} on the {} ({} cells differ there)",
                d.snapshot,
                d.point.name(),
                if d.path.is_empty() {
                    "at the root".to_string()
                } else {
                    d.path.iter().map(|m| m.uci()).collect::<Vec<_>>().join(" ")
                },
                d.name,
                d.left,
                left.kind(),
                d.right,
                right.kind(),
                d.cells_differing
            )),
            (None, Some(p)) => Some(format!("the searches part: {p}")),
            (None, None) => None,
        };
        if let Some(problem) = problem {
            differing += 1;
            progress.println(format!(
                "position {} ({}) depth {depth}: {problem}",
                pos.index, pos.fen
            ));
            if let Some(d) = &c.difference {
                for (name, l, r) in &d.others {
                    progress.println(format!("    {name}: {l} / {r}"));
                }
            }
        }
    }
    progress.finish();
    println!(
        "state: {} searches, {snapshots} snapshots of {cells} cells compared{}, {differing} with a difference ({:.1} s)",
        searches.len(),
        if state_opts.skip.is_empty() {
            String::new()
        } else {
            format!(" (left out: {})", state_opts.skip.join(", "))
        },
        started.elapsed().as_secs_f64()
    );
    Ok(differing == 0)
}
