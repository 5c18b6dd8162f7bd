//! The runner: independent jobs spread over worker threads, results in input order.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Run `work` on every item with one thread per state in `states` (each thread owns one,
/// e.g. an engine), and hand the results to `emit` in input order as soon as they are
/// ready. If `emit` fails, no new item is started and the error is returned.
pub fn run_ordered<T, R, S, E>(
    items: &[T],
    states: Vec<S>,
    work: impl Fn(&mut S, usize, &T) -> R + Sync,
    mut emit: impl FnMut(usize, R) -> Result<(), E>,
) -> Result<(), E>
where
    T: Sync,
    R: Send,
    S: Send,
{
    assert!(
        !states.is_empty() || items.is_empty(),
        "run_ordered needs at least one worker"
    );
    let next = AtomicUsize::new(0);
    let cancelled = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|scope| {
        for mut state in states {
            let tx = tx.clone();
            let (next, cancelled, work) = (&next, &cancelled, &work);
            scope.spawn(move || loop {
                if cancelled.load(Ordering::Relaxed) {
                    return;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else {
                    return;
                };
                let r = work(&mut state, i, item);
                if tx.send((i, r)).is_err() {
                    return;
                }
            });
        }
        drop(tx);
        let mut pending = BTreeMap::new();
        let mut expected = 0;
        for (i, r) in rx {
            pending.insert(i, r);
            while let Some(r) = pending.remove(&expected) {
                if let Err(e) = emit(expected, r) {
                    cancelled.store(true, Ordering::Relaxed);
                    return Err(e);
                }
                expected += 1;
            }
        }
        Ok(())
    })
}

/// The number of worker threads to use for `items` independent jobs: the machine's
/// cores (or `requested`), at most one per item, at least one.
pub fn workers(requested: Option<usize>, items: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    requested.unwrap_or(cores).min(cores).min(items).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordered_results_from_many_threads() {
        let items: Vec<u64> = (0..50).collect();
        let mut seen = Vec::new();
        run_ordered(
            &items,
            vec![(), (), ()],
            |_, _, &x| {
                std::thread::sleep(std::time::Duration::from_millis((x * 7) % 5));
                x * x
            },
            |i, r| {
                seen.push((i, r));
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        assert_eq!(seen.len(), 50);
        assert!(seen.iter().all(|&(i, r)| r == (i as u64) * (i as u64)));
        assert!(seen.windows(2).all(|w| w[0].0 + 1 == w[1].0));
        // A failing emit stops the run.
        let mut n = 0;
        let r = run_ordered(
            &items,
            vec![(), ()],
            |_, _, &x| x,
            |_, _| {
                n += 1;
                if n == 5 {
                    Err("full")
                } else {
                    Ok(())
                }
            },
        );
        assert_eq!(r, Err("full"));
    }
}
