//! The stepping sessions' store: each page's [`Stepper`] with what the page shows beside
//! it, bounded in number ([`MAX_SESSIONS`]) and closed when unused (the routes are in
//! `stepping.rs`).

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use sargon_original::emu::Stepper;

use super::error::ApiError;

/// Sessions open at once.
pub(crate) const MAX_SESSIONS: usize = 3;
/// The largest search a session steps through, in events (each event is kept).
pub(crate) const MAX_EVENTS: u64 = 2_000_000;
/// How long a session may stand unused before it is closed, unless
/// `SARGON_STEP_IDLE_SECONDS` says otherwise.
const IDLE: Duration = Duration::from_secs(300);

/// One page's stepping through one search.
pub(crate) struct Session {
    pub(crate) stepper: Stepper,
    pub(crate) search: u64,
    pub(crate) depth: u8,
    pub(crate) note: Option<String>,
    pub(crate) page: Option<String>,
    pub(crate) last_used: Instant,
    /// For each label of the program, the port's functions that cite it.
    pub(crate) port: BTreeMap<String, Vec<String>>,
    /// The `--jobs` worker the session holds while it is open: dropping the session (closed
    /// by its page, or idle) frees it.
    pub(crate) _slot: Slot,
}

/// A held `--jobs` worker: the worker's thread waits until this is dropped (its
/// receiver then hears the channel close).
pub(crate) struct Slot {
    _release: std::sync::mpsc::Sender<()>,
}

impl Slot {
    pub(crate) fn new(release: std::sync::mpsc::Sender<()>) -> Slot {
        Slot { _release: release }
    }
}

/// The open sessions.
pub(crate) struct Sessions {
    open: Mutex<HashMap<u64, Arc<Mutex<Session>>>>,
    pub(crate) next: AtomicU64,
    pub(crate) idle: Duration,
    /// Sessions asked for and not yet open (waiting for a worker, or recording).
    waiting: AtomicUsize,
}

/// A session on its way: counted among the sessions until dropped.
pub(crate) struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Sessions {
    pub(crate) fn new() -> Sessions {
        let idle = std::env::var("SARGON_STEP_IDLE_SECONDS")
            .ok()
            .and_then(|s| s.parse::<u64>().ok())
            .map_or(IDLE, Duration::from_secs);
        Sessions {
            open: Mutex::new(HashMap::new()),
            next: AtomicU64::new(1),
            idle,
            waiting: AtomicUsize::new(0),
        }
    }

    /// Sessions asked for and not yet open.
    pub(crate) fn waiting(&self) -> usize {
        self.waiting.load(Ordering::Relaxed)
    }

    /// Count one more session on its way, until the guard is dropped.
    pub(crate) fn wait(&self) -> Waiting<'_> {
        self.waiting.fetch_add(1, Ordering::Relaxed);
        Waiting(&self.waiting)
    }

    pub(crate) fn table(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<Mutex<Session>>>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Close the sessions unused for the idle time (a session busy with a move is not
    /// idle: its lock is held).
    pub(crate) fn close_idle(&self) {
        let idle = self.idle;
        self.table().retain(|_, s| match s.try_lock() {
            Ok(s) => s.last_used.elapsed() < idle,
            Err(_) => true,
        });
    }

    pub(crate) fn get(&self, id: u64) -> Result<Arc<Mutex<Session>>, ApiError> {
        self.table().get(&id).cloned().ok_or_else(|| {
            ApiError::not_found(format!(
                "no stepping session {id}: it was closed (by its page, or after {} s unused); open another",
                self.idle.as_secs()
            ))
        })
    }
}
