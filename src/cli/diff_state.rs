//! `sargon diff --state`: the original and the port compared by all of Sargon's data at
//! every point where an event can arise, not only by the events
//! ([`sargon_referee::state_diff`]). What is left out, and why, is in docs/port.md.

use std::time::Instant;

use anyhow::{bail, Result};

use super::progress::Progress;
use sargon_core::engine::{Engine, SearchOptions};
use sargon_core::input::echo;
use sargon_referee::diff_run::InputPosition;
use sargon_referee::state_diff::{compare_state, unknown_names, StateOptions};

/// The cells always left out (`--state-skip` adds to them, `--state-skip none` compares them
/// too), each explained in docs/port.md:
/// the ply table's slots for plies 9 and 10, whose bytes the original's display data is
/// assembled over (`ORG START+384`) and which no search up to depth 6 reaches; the port
/// keeps zeros there.
pub(crate) const DEFAULT_SKIP: &[&str] = &[
    "PLYIX+32", "PLYIX+33", "PLYIX+34", "PLYIX+35", "PLYIX+36", "PLYIX+37", "PLYIX+38", "PLYIX+39",
];

/// The spelling of `--state-skip` that compares every cell, the defaults too.
const NONE: &str = "none";

/// What `--state-skip` leaves out, checked before any work: [`DEFAULT_SKIP`] and the names
/// given, each of which must name a cell, a variable or an area (a name that matches
/// nothing would compare what the person meant to leave out); `none` alone, nothing.
pub(crate) fn skip_list(given: &[String]) -> Result<Vec<String>> {
    if given.iter().any(|name| name.eq_ignore_ascii_case(NONE)) {
        if given.len() > 1 {
            bail!("--state-skip {NONE} compares every cell: give it alone, not with other names");
        }
        return Ok(Vec::new());
    }
    if given.iter().any(|name| name.trim().is_empty()) {
        bail!(
            "--state-skip: an empty name; name cells or areas (e.g. `VALM`, `MLIST`), or give `--state-skip {NONE}` to compare every cell"
        );
    }
    if let Some(unknown) = unknown_names(given).first() {
        bail!(
            "--state-skip `{}`: no cell, variable or area of Sargon's data has that name (e.g. `VALM`, `MLIST`, `PLYIX+32`; see docs/port.md)",
            echo(unknown)
        );
    }
    let mut skip: Vec<String> = DEFAULT_SKIP.iter().map(|s| s.to_string()).collect();
    for name in given {
        if !skip.contains(name) {
            skip.push(name.clone());
        }
    }
    Ok(skip)
}

/// Compare every search state by state, leaving out the cells of `skip` (from
/// [`skip_list`]); whether all agreed.
pub(crate) fn run(
    left: &mut (dyn Engine + Send),
    right: &mut (dyn Engine + Send),
    positions: &[InputPosition],
    depths: &[u8],
    skip: Vec<String>,
) -> Result<bool> {
    let state_opts = StateOptions { skip };
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
                left.id(),
                d.right,
                right.id(),
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
            " (nothing left out)".to_string()
        } else {
            format!(" (left out: {})", state_opts.skip.join(", "))
        },
        started.elapsed().as_secs_f64()
    );
    Ok(differing == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn names_add_to_the_defaults_and_none_compares_everything() {
        let defaults = names(DEFAULT_SKIP);
        assert_eq!(skip_list(&[]).unwrap(), defaults);
        let mut more = defaults.clone();
        more.push("VALM".into());
        assert_eq!(skip_list(&names(&["VALM", "VALM"])).unwrap(), more);
        assert_eq!(skip_list(&names(&["PLYIX+32"])).unwrap(), defaults);
        assert!(skip_list(&names(&["none"])).unwrap().is_empty());
        assert!(skip_list(&names(&["NONE"])).unwrap().is_empty());
    }

    #[test]
    fn unknown_and_empty_names_are_refused() {
        let e = skip_list(&names(&["VALM", "NOSUCHCELL"]))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("--state-skip `NOSUCHCELL`: no cell"), "{e}");
        let e = skip_list(&names(&["\u{1b}[31m"])).unwrap_err().to_string();
        assert!(!e.contains('\u{1b}') && e.contains("\\u{1b}[31m"), "{e}");
        let e = skip_list(&names(&[&"X".repeat(100_000)]))
            .unwrap_err()
            .to_string();
        assert!(e.len() < 400, "{}", e.len());
        let e = skip_list(&names(&[""])).unwrap_err().to_string();
        assert!(e.contains("--state-skip none"), "{e}");
        let e = skip_list(&names(&["none", "VALM"]))
            .unwrap_err()
            .to_string();
        assert!(e.contains("give it alone"), "{e}");
    }
}
