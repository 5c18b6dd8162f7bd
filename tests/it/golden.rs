//! The golden corpus: the original Sargon's behaviour on the positions of
//! `tests/golden/corpus.txt`, recorded as event traces (in full where small, as digests for
//! deeper searches).
//!
//! * With a ROM imported, `emulator_matches_the_golden_files` re-runs the original and
//!   checks the files still match; `UPDATE_GOLDENFILES=1 cargo test --test it golden::` records
//!   them anew (the only way they are ever written).
//! * Everywhere, CI included, `port_matches_the_golden_files` (in the port's crate,
//!   `crates/sargon-port/tests/golden.rs`, so that `cargo test -p sargon-port` runs it)
//!   checks the native port against the recorded files, so the port is checked against the
//!   original without the original.

use crate::common;

use std::io::Write as _;

use common::golden::{corpus, golden, golden_dir, Case};

/// The deepest searches `emulator_matches_the_golden_files` makes on every run.
const ROUTINE_MAX_DEPTH: u8 = 3;

/// Recording the golden files (`UPDATE_GOLDENFILES=1`).
fn updating_golden() -> bool {
    std::env::var_os("UPDATE_GOLDENFILES").is_some_and(|v| v == "1")
}

#[test]
fn emulator_matches_the_golden_files() {
    let Some(emu) = common::emulator("emulator_matches_the_golden_files") else {
        return;
    };
    // The searches are independent: spread them over the cores (one emulator each), then
    // compare (or record) the files in corpus order.
    let cases = corpus();
    // The deeper searches (about three quarters of this test's time) are the long study,
    // run by `sargon rom verify --full` against the same digests (docs/testing.md), or
    // here with SARGON_DEEP_GOLDEN=1; recording makes them all.
    let deep =
        updating_golden() || std::env::var_os("SARGON_DEEP_GOLDEN").is_some_and(|v| v == "1");
    let jobs: Vec<(&Case, u8)> = cases
        .iter()
        .flat_map(|c| c.depths.iter().map(move |&d| (c, d)))
        .filter(|&(_, d)| deep || d <= ROUTINE_MAX_DEPTH)
        .collect();
    let deeper = cases.iter().flat_map(|c| &c.depths).count() - jobs.len();
    if deeper > 0 {
        eprintln!(
            "{deeper} searches deeper than {ROUTINE_MAX_DEPTH} left to `sargon rom verify --full` \
             (or SARGON_DEEP_GOLDEN=1)"
        );
    }
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(vec![None; jobs.len()]);
    // The longest stretch of Z80 instructions any search went without reaching a hook
    // point, and where: what the emulator's progress check must stay far above.
    let longest_gap = std::sync::Mutex::new((0u64, String::new()));
    let mut first = Some(emu);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let mut emu = first.take().unwrap_or_else(|| {
                common::emulator("emulator_matches_the_golden_files").expect("ROM")
            });
            let (jobs, next, results, longest_gap) = (&jobs, &next, &results, &longest_gap);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(&(case, depth)) = jobs.get(i) else {
                    break;
                };
                let t = std::time::Instant::now();
                let (name, content) = golden(&mut emu, case, depth);
                let gap = emu.longest_gap();
                let mut longest = longest_gap.lock().unwrap();
                if gap > longest.0 {
                    *longest = (gap, name.clone());
                }
                drop(longest);
                eprintln!(
                    "{name}: {:.2} s, {} bytes",
                    t.elapsed().as_secs_f64(),
                    content.len()
                );
                results.lock().unwrap()[i] = Some((name, content));
            });
        }
    });
    let mut mint = goldenfile::Mint::new(golden_dir());
    let mut files = 0;
    for (name, content) in results.into_inner().unwrap().into_iter().flatten() {
        let mut f = mint.new_goldenfile(&name).unwrap();
        f.write_all(content.as_bytes()).unwrap();
        files += 1;
    }
    assert_eq!(files, jobs.len());
    let (gap, at) = longest_gap.into_inner().unwrap();
    eprintln!(
        "the longest stretch without a hook point: {gap} Z80 instructions ({at}); \
         the progress check stops a call after {}",
        sargon_original::emu::STALL_LIMIT
    );
    // docs/emulator.md gives the measurement and the margin chosen.
    assert!(
        gap > 0 && gap.saturating_mul(100) <= sargon_original::emu::STALL_LIMIT,
        "a search went {gap} instructions without a hook point ({at}): within 100 times \
         of the progress check's limit"
    );
    eprintln!(
        "emulator: {files} searches compared with {} ({workers} threads)",
        golden_dir().display()
    );
}
