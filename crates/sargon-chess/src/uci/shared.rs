//! What the UCI session and its search thread share: where the answers go and the engine
//! that searches. The session starts the thread (`super::worker`); this module lets the
//! thread write and hand the engine back without importing the session.

use std::io::Write;
use std::sync::{Arc, Mutex};

use sargon_core::engine::Engine;

/// Where the answers go: shared by the reader and the search thread, one line at a time.
pub(super) struct AnswerWriter<W: Write>(Arc<Mutex<W>>);

impl<W: Write> Clone for AnswerWriter<W> {
    fn clone(&self) -> Self {
        AnswerWriter(self.0.clone())
    }
}

impl<W: Write> AnswerWriter<W> {
    pub(super) fn new(out: W) -> Self {
        AnswerWriter(Arc::new(Mutex::new(out)))
    }

    pub(super) fn line(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // A GUI that has gone away is not our problem: there is nobody left to tell.
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }

    pub(super) fn info(&self, text: &str) {
        for l in text.lines() {
            self.line(&format!("info string {l}"));
        }
    }
}

/// The engine the searches run on.
pub(super) struct Loaded {
    pub(super) engine: Box<dyn Engine + Send>,
}
