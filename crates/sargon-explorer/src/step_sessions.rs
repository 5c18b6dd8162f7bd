//! The stepping sessions' store: each page's [`Stepper`] with what the page shows beside
//! it, bounded in number ([`MAX_SESSIONS`]) and closed when unused (the routes are in
//! `stepping.rs`).

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::AtomicU64;
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
}

/// The open sessions.
pub(crate) struct Sessions {
    open: Mutex<HashMap<u64, Arc<Mutex<Session>>>>,
    pub(crate) next: AtomicU64,
    pub(crate) idle: Duration,
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
        }
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
