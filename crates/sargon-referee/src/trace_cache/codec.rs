//! One event: its kind (a byte), then its fields in order. A move is three bytes (from, to,
//! flag byte: the whole move-list entry, unlike the text forms), a path its length and its
//! moves, a score its byte, a verdict 0 or 1. gzip finds the repetition (paths share their
//! prefixes), so nothing cleverer is needed.

use std::io::{self, Read, Write};

use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use sha2::{Digest as _, Sha256};

use sargon_core::digest::DigestBuilder;
use sargon_core::trace::{Event, Path as MovePath};
use sargon_core::vocab::{SMove, Score, Sq};

const CREATED: u8 = 0;
const EVAL: u8 = 1;
const ALPHA_BETA: u8 = 2;
const BEST_TEST: u8 = 3;
const BEST: u8 = 4;
const ASCEND: u8 = 5;
const RESULT: u8 = 6;

/// Append one event's bytes to `out`.
fn encode(event: &Event, out: &mut Vec<u8>) {
    fn path(out: &mut Vec<u8>, path: &MovePath) {
        out.push(path.len() as u8);
        for m in path {
            out.extend_from_slice(&[m.from.0, m.to.0, m.flags]);
        }
    }
    match event {
        Event::Created { path: p } => {
            out.push(CREATED);
            path(out, p);
        }
        Event::Eval {
            ply,
            path: p,
            score,
        } => {
            out.extend_from_slice(&[EVAL, *ply]);
            path(out, p);
            out.push(score.0);
        }
        Event::AlphaBeta {
            path: p,
            score,
            two_above,
            cutoff,
        } => {
            out.push(ALPHA_BETA);
            path(out, p);
            out.extend_from_slice(&[score.0, two_above.0, u8::from(*cutoff)]);
        }
        Event::BestTest {
            path: p,
            negated,
            one_above,
            accepted,
        } => {
            out.push(BEST_TEST);
            path(out, p);
            out.extend_from_slice(&[negated.0, one_above.0, u8::from(*accepted)]);
        }
        Event::Best { path: p, score } => {
            out.push(BEST);
            path(out, p);
            out.push(score.0);
        }
        Event::Ascend { ply } => out.extend_from_slice(&[ASCEND, *ply]),
        Event::Result { best, score } => {
            out.push(RESULT);
            match best {
                Some(m) => out.extend_from_slice(&[1, m.from.0, m.to.0, m.flags]),
                None => out.push(0),
            }
            out.push(score.0);
        }
    }
}

/// Encodes, compresses, hashes and digests a search's events as the search makes them.
pub(super) struct Writer {
    pub(super) gz: GzEncoder<Vec<u8>>,
    pub(super) sha: Sha256,
    pub(super) digest: DigestBuilder,
    pub(super) events: u64,
    /// One event's bytes, reused: the emulator's thread adds every event of its search.
    buf: Vec<u8>,
}

impl Writer {
    pub(super) fn new() -> Writer {
        Writer {
            // The fastest level: the emulator's thread pays for it, and the entries are
            // small next to the searches.
            gz: GzEncoder::new(Vec::new(), Compression::fast()),
            sha: Sha256::new(),
            digest: DigestBuilder::new(),
            events: 0,
            buf: Vec::with_capacity(64),
        }
    }

    pub(super) fn add(&mut self, event: &Event) {
        self.buf.clear();
        encode(event, &mut self.buf);
        self.sha.update(&self.buf);
        // Writing into a Vec cannot fail.
        self.gz.write_all(&self.buf).expect("writing to memory");
        self.digest.add(event);
        self.events += 1;
    }

    #[cfg(test)]
    pub(super) fn finish_digest(self) -> sargon_core::digest::Digest {
        self.digest.finish()
    }
}

/// Not an event's bytes.
#[derive(Debug)]
pub(super) struct Malformed;

impl From<io::Error> for Malformed {
    fn from(_: io::Error) -> Malformed {
        Malformed
    }
}

/// An entry's gzip stream inflated whole, gzip's CRC checked at its end. Whole rather than
/// read as it goes: the events are small (a few bytes each), and taking them from memory
/// costs a fraction of reading each through the decoder (issue 35's throughput).
pub(super) fn inflate(compressed: &[u8]) -> Result<Vec<u8>, Malformed> {
    let mut events = Vec::with_capacity(compressed.len() * 4);
    GzDecoder::new(compressed).read_to_end(&mut events)?;
    Ok(events)
}

/// Reads events back from an entry's inflated bytes.
pub(super) struct EventReader<'a> {
    rest: &'a [u8],
}

impl<'a> EventReader<'a> {
    pub(super) fn new(events: &'a [u8]) -> EventReader<'a> {
        EventReader { rest: events }
    }

    fn bytes<const N: usize>(&mut self) -> Result<[u8; N], Malformed> {
        let (head, rest) = self.rest.split_first_chunk::<N>().ok_or(Malformed)?;
        self.rest = rest;
        Ok(*head)
    }

    fn byte(&mut self) -> Result<u8, Malformed> {
        Ok(self.bytes::<1>()?[0])
    }

    fn flag(&mut self) -> Result<bool, Malformed> {
        match self.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(Malformed),
        }
    }

    fn smove(&mut self) -> Result<SMove, Malformed> {
        let [from, to, flags] = self.bytes::<3>()?;
        Ok(SMove {
            from: Sq(from),
            to: Sq(to),
            flags,
        })
    }

    fn path(&mut self) -> Result<MovePath, Malformed> {
        let n = self.byte()?;
        (0..n).map(|_| self.smove()).collect()
    }

    fn score(&mut self) -> Result<Score, Malformed> {
        Ok(Score(self.byte()?))
    }

    /// The next event, or `None` at the end of the bytes.
    pub(super) fn next_event(&mut self) -> Result<Option<Event>, Malformed> {
        if self.rest.is_empty() {
            return Ok(None);
        }
        let event = match self.byte()? {
            CREATED => Event::Created { path: self.path()? },
            EVAL => Event::Eval {
                ply: self.byte()?,
                path: self.path()?,
                score: self.score()?,
            },
            ALPHA_BETA => Event::AlphaBeta {
                path: self.path()?,
                score: self.score()?,
                two_above: self.score()?,
                cutoff: self.flag()?,
            },
            BEST_TEST => Event::BestTest {
                path: self.path()?,
                negated: self.score()?,
                one_above: self.score()?,
                accepted: self.flag()?,
            },
            BEST => Event::Best {
                path: self.path()?,
                score: self.score()?,
            },
            ASCEND => Event::Ascend { ply: self.byte()? },
            RESULT => Event::Result {
                best: if self.flag()? {
                    Some(self.smove()?)
                } else {
                    None
                },
                score: self.score()?,
            },
            _ => return Err(Malformed),
        };
        Ok(Some(event))
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::trace;
    use super::*;

    #[test]
    fn events_come_back_from_their_bytes_exactly_with_their_flags() {
        let mut events = trace(2);
        events.push(Event::Result {
            best: None,
            score: Score(0x80),
        });
        events.push(Event::Created {
            path: vec![SMove {
                from: Sq(35),
                to: Sq(55),
                flags: 0x55,
            }],
        });
        let mut writer = Writer::new();
        for e in &events {
            writer.add(e);
        }
        let compressed = writer.gz.finish().unwrap();
        let events_bytes = inflate(&compressed).unwrap();
        let mut reader = EventReader::new(&events_bytes);
        let mut back = Vec::new();
        while let Some(e) = reader.next_event().unwrap() {
            back.push(e);
        }
        assert_eq!(back, events);
    }

    #[test]
    fn a_cut_or_altered_stream_is_malformed() {
        let mut writer = Writer::new();
        for e in &trace(1) {
            writer.add(e);
        }
        let compressed = writer.gz.finish().unwrap();
        let read_all = |bytes: &[u8]| -> Result<usize, Malformed> {
            let events = inflate(bytes)?;
            let mut reader = EventReader::new(&events);
            let mut n = 0;
            while reader.next_event()?.is_some() {
                n += 1;
            }
            Ok(n)
        };
        assert!(read_all(&compressed).is_ok());
        assert!(read_all(&compressed[..compressed.len() - 9]).is_err());
        let mut altered = compressed.clone();
        let middle = altered.len() / 2;
        altered[middle] ^= 0x10;
        assert!(
            read_all(&altered).is_err(),
            "gzip's CRC or the form catches it"
        );
    }
}
