//! A compact summary of a trace (feature `digest`): counts per kind of event and the
//! SHA-256 of the text form. The golden files keep deep searches this way, and the ROM
//! check compares an image's searches with the known Sargon's by it.

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

use sha2::{Digest as _, Sha256};

use crate::trace::{Event, KINDS};

/// A compact summary of a long event stream: counts per kind and the SHA-256 of the text
/// form (each event's line followed by `\n`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Digest {
    /// Events per kind (every kind listed, zero counts included).
    pub counts: BTreeMap<&'static str, u64>,
    /// SHA-256 of the text form, in hex.
    pub sha256: String,
}

/// Builds a [`Digest`] event by event, without keeping the events.
///
/// ```
/// use sargon_core::digest::DigestBuilder;
/// use sargon_core::{Event, SMove, Score};
///
/// let mut digest = DigestBuilder::new();
/// digest.add(&Event::Created { path: vec![SMove::plain(35, 55)] });
/// digest.add(&Event::Result { best: Some(SMove::plain(35, 55)), score: Score(0x80) });
/// let d = digest.finish();
/// assert_eq!((d.counts["created"], d.counts["result"], d.counts["eval"]), (1, 1, 0));
/// assert_eq!(d.sha256.len(), 64);
/// ```
#[derive(Default)]
pub struct DigestBuilder {
    counts: BTreeMap<&'static str, u64>,
    hasher: Sha256,
    line: String,
}

impl DigestBuilder {
    /// An empty digest.
    ///
    /// ```
    /// use sargon_core::digest::DigestBuilder;
    /// let d = DigestBuilder::new().finish();
    /// assert!(d.counts.values().all(|&n| n == 0)); // every kind listed, none seen
    /// // SHA-256 of nothing.
    /// assert!(d.sha256.starts_with("e3b0c442"));
    /// ```
    pub fn new() -> Self {
        DigestBuilder::default()
    }

    /// Count and hash one event.
    ///
    /// ```
    /// use sargon_core::digest::DigestBuilder;
    /// use sargon_core::Event;
    /// let (mut once, mut twice) = (DigestBuilder::new(), DigestBuilder::new());
    /// once.add(&Event::Ascend { ply: 1 });
    /// twice.add(&Event::Ascend { ply: 1 });
    /// twice.add(&Event::Ascend { ply: 1 });
    /// let (once, twice) = (once.finish(), twice.finish());
    /// assert_eq!((once.counts["ascend"], twice.counts["ascend"]), (1, 2));
    /// assert_ne!(once.sha256, twice.sha256);
    /// ```
    pub fn add(&mut self, e: &Event) {
        *self.counts.entry(e.kind()).or_default() += 1;
        self.line.clear();
        let _ = writeln!(self.line, "{e}");
        self.hasher.update(self.line.as_bytes());
    }

    /// The digest of the events added.
    ///
    /// ```
    /// use sargon_core::digest::DigestBuilder;
    /// use sargon_core::Event;
    /// let mut digest = DigestBuilder::new();
    /// digest.add(&Event::Ascend { ply: 2 });
    /// let d = digest.finish();
    /// assert_eq!(d.to_string().lines().last(), Some(format!("sha256 {}", d.sha256).as_str()));
    /// assert!(d.to_string().contains("count ascend 1\n"));
    /// ```
    pub fn finish(self) -> Digest {
        let mut counts = self.counts;
        for k in KINDS {
            counts.entry(k).or_default();
        }
        Digest {
            counts,
            sha256: hex::encode(self.hasher.finalize()),
        }
    }
}

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, n) in &self.counts {
            writeln!(f, "count {k} {n}")?;
        }
        write!(f, "sha256 {}", self.sha256)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_counts_every_kind() {
        let mut d = DigestBuilder::new();
        d.add(&Event::Ascend { ply: 2 });
        d.add(&Event::Ascend { ply: 1 });
        let d = d.finish();
        assert_eq!(d.counts["ascend"], 2);
        assert_eq!(d.counts["eval"], 0);
        assert_eq!(d.sha256.len(), 64);
    }
}
