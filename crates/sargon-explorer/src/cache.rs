//! The kept answers of the views that search again (a profile, a memory snapshot, a
//! comparison): asked again, they are answered from here at once, with `"cached": true`,
//! and nothing runs (jobs.rs runs them).

use std::collections::VecDeque;
use std::sync::Mutex;

use super::api::{CompareAnswer, MemoryAnswer, ProfileAnswer};
use super::searches::SearchRequest;

/// Answers kept of each kind: a page looks at a few dozen nodes, and each answer is small
/// (a memory snapshot is about 2 KB, a profile 10 KB).
const KEPT: usize = 64;

/// The answers of one kind of job, by what was asked, the newest last; the oldest goes
/// first past [`KEPT`].
pub(crate) struct Cache<K, V> {
    entries: Mutex<VecDeque<(K, V)>>,
}

impl<K: PartialEq, V: Clone> Cache<K, V> {
    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<(K, V)>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The answer kept for `key`, marked as just used.
    pub(crate) fn get(&self, key: &K) -> Option<V> {
        let mut entries = self.lock();
        let at = entries.iter().position(|(k, _)| k == key)?;
        let entry = entries.remove(at)?;
        let value = entry.1.clone();
        entries.push_back(entry);
        Some(value)
    }

    /// Keep `value` as the answer for `key`.
    pub(crate) fn put(&self, key: K, value: V) {
        let mut entries = self.lock();
        entries.retain(|(k, _)| *k != key);
        entries.push_back((key, value));
        while entries.len() > KEPT {
            entries.pop_front();
        }
    }
}

impl<K, V> Default for Cache<K, V> {
    fn default() -> Self {
        Cache {
            entries: Mutex::default(),
        }
    }
}

/// The kept answers of the views that search again.
#[derive(Default)]
pub(crate) struct Caches {
    /// Profiles, by the search's request.
    pub(crate) profiles: Cache<SearchRequest, ProfileAnswer>,
    /// Memory snapshots, by the search's request and the node's moves (UCI).
    pub(crate) memories: Cache<(SearchRequest, Vec<String>), MemoryAnswer>,
    /// Comparisons, by position, depth and book (the engine is always the emulator).
    pub(crate) comparisons: Cache<SearchRequest, CompareAnswer>,
}
