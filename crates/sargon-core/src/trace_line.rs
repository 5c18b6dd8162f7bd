//! Reading a trace back from its JSON Lines form (`docs/trace-format.md`).
//!
//! The project's engines never need this: they produce [`Event`]s directly. It exists for
//! traces written by other programs, such as another person's port of Sargon checked with
//! `sargon diff --right exec:COMMAND`: each line they print is read here, strictly, so that
//! a malformed line is refused with the field at fault rather than compared as a guess.
//!
//! A written trace carries less than an [`Event`]: a move is its UCI text, so of Sargon's
//! move-list flag byte only the promotion bit survives. Events read here have exactly that
//! bit; compare them with an engine's events through [`Event::as_written`].
//!
//! The derived fields (`pawns`, `pawns_for_mover`) are not read: they follow from the
//! score bytes, which are what is compared.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::input::echo;
use crate::trace::{Event, Path};
use crate::vocab::{flag, SMove, Score, Sq};

/// One line of a JSON Lines trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceLine {
    /// An event of the search.
    Event(Event),
    /// The `rom` line that names a ROM which is not the known image (it comes before any
    /// event, and is not an event of the search).
    Rom,
}

/// Why a line is not part of a JSON Lines trace. Text from the line is quoted through
/// [`echo`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TraceLineError {
    /// The line is not JSON at all.
    #[error("not JSON ({0})")]
    NotJson(String),
    /// JSON, but not an object.
    #[error("not a JSON object")]
    NotAnObject,
    /// A JSON object the trace cannot read, such as one with a field given twice.
    #[error("{0}")]
    BadObject(String),
    /// No `event` field, or not a string.
    #[error("no `event` field with the event's kind (a string)")]
    NoKind,
    /// An `event` that is none of the trace's kinds.
    #[error("unknown event `{0}` (expected created, eval, alpha_beta, best_test, best, ascend or result)")]
    UnknownKind(String),
    /// A field the event needs is missing.
    #[error("`{event}` needs the field `{field}`")]
    Missing {
        /// The event's kind.
        event: &'static str,
        /// The field.
        field: &'static str,
    },
    /// A field of the wrong type or range.
    #[error("field `{field}` must be {expected}")]
    Bad {
        /// The field.
        field: &'static str,
        /// What it must be.
        expected: &'static str,
    },
    /// A move that is not UCI text Sargon could write.
    #[error("`{text}` is not a move as Sargon writes it: {problem}")]
    BadMove {
        /// The text, quoted.
        text: String,
        /// What is wrong with it.
        problem: &'static str,
    },
    /// `ply` and the path's length disagree (only `eval` may differ: its ply is NPLY).
    #[error("`ply` is {ply} but the path has {moves} moves")]
    PlyNotPathLength {
        /// The ply given.
        ply: u64,
        /// The moves in the path.
        moves: usize,
    },
}

/// Read one line of a JSON Lines trace (without its newline).
///
/// ```
/// use sargon_core::trace_line::{parse_trace_line, TraceLine};
/// use sargon_core::{Event, SMove};
///
/// let line = r#"{"event": "created", "ply": 1, "path": ["e2e4"]}"#;
/// let Ok(TraceLine::Event(event)) = parse_trace_line(line) else { panic!() };
/// assert_eq!(event, Event::Created { path: vec![SMove::plain(35, 55)] });
/// assert!(parse_trace_line("created e2e4").is_err()); // the text form is not JSON
/// ```
pub fn parse_trace_line(line: &str) -> Result<TraceLine, TraceLineError> {
    // serde would read a struct from an array as well: only an object is one.
    let object: RawFields = match serde_json::from_str(line) {
        Ok(object) if line.trim_start().starts_with('{') => object,
        Ok(_) => return Err(TraceLineError::NotAnObject),
        Err(e) => return Err(not_fields(line, e)),
    };
    let kind = object.event.and_then(text).ok_or(TraceLineError::NoKind)?;
    let fields = Fields {
        object: &object,
        event: match kind.as_ref() {
            "created" => "created",
            "eval" => "eval",
            "alpha_beta" => "alpha_beta",
            "best_test" => "best_test",
            "best" => "best",
            "ascend" => "ascend",
            "result" => "result",
            "rom" => return Ok(TraceLine::Rom),
            other => return Err(TraceLineError::UnknownKind(echo(other))),
        },
    };
    let event = match fields.event {
        "created" => Event::Created {
            path: fields.path_of_ply()?,
        },
        "eval" => Event::Eval {
            ply: fields.ply()?,
            path: fields.path()?,
            score: fields.score("score")?,
        },
        "alpha_beta" => Event::AlphaBeta {
            path: fields.path_of_ply()?,
            score: fields.score("score")?,
            two_above: fields.score("two_above")?,
            cutoff: fields.flag("cutoff")?,
        },
        "best_test" => Event::BestTest {
            path: fields.path_of_ply()?,
            negated: fields.score("negated")?,
            one_above: fields.score("one_above")?,
            accepted: fields.flag("accepted")?,
        },
        "best" => Event::Best {
            path: fields.path_of_ply()?,
            score: fields.score("score")?,
        },
        "ascend" => Event::Ascend { ply: fields.ply()? },
        _ => Event::Result {
            best: match fields.get("best")?.get() {
                "null" => None,
                raw => Some(parse_move(&text_of(raw).ok_or(TraceLineError::Bad {
                    field: "best",
                    expected: "a move in UCI text or null",
                })?)?),
            },
            score: fields.score("score")?,
        },
    };
    Ok(TraceLine::Event(event))
}

/// A move as the trace writes it: `e2e4`, or `e7e8q` for Sargon's only promotion.
///
/// ```
/// use sargon_core::trace_line::parse_move;
/// assert_eq!(parse_move("e2e4").unwrap().uci(), "e2e4");
/// assert_eq!(parse_move("e7e8q").unwrap().uci(), "e7e8q");
/// assert!(parse_move("e7e8n").is_err()); // Sargon promotes to a queen only
/// ```
pub fn parse_move(text: &str) -> Result<SMove, TraceLineError> {
    let bad = |problem| TraceLineError::BadMove {
        text: echo(text),
        problem,
    };
    let b = text.as_bytes();
    if b.len() != 4 && b.len() != 5 {
        return Err(bad("expected 4 characters, or 5 for a promotion"));
    }
    let square = |file: u8, rank: u8| -> Result<Sq, TraceLineError> {
        if !(b'a'..=b'h').contains(&file) || !(b'1'..=b'8').contains(&rank) {
            return Err(bad("a square is a file a-h and a rank 1-8"));
        }
        Ok(Sq::from_file_rank(file - b'a', rank - b'1'))
    };
    let from = square(b[0], b[1])?;
    let to = square(b[2], b[3])?;
    let flags = match b.get(4) {
        None => 0,
        Some(b'q') => flag::PROMOTE,
        Some(_) => return Err(bad("Sargon promotes only to a queen, written `q`")),
    };
    Ok(SMove { from, to, flags })
}

/// Why a line that does not read as [`RawFields`] is not a trace line: the same answers
/// as reading it as any JSON value would give.
fn not_fields(line: &str, e: serde_json::Error) -> TraceLineError {
    match serde_json::from_str::<Value>(line) {
        Err(e) => TraceLineError::NotJson(e.to_string()),
        Ok(Value::Object(_)) => TraceLineError::BadObject(e.to_string()),
        Ok(_) => TraceLineError::NotAnObject,
    }
}

/// The fields of an event's line as their JSON text, read without building a value for
/// each: a port's trace runs to hundreds of thousands of lines, and building and dropping
/// a generic JSON value for each was most of the referee's time reading them
/// (docs/checking-your-port.md, "The referee's own speed"). Other fields (`pawns`, ...)
/// are skipped; a field given twice is refused.
#[derive(Deserialize)]
struct RawFields<'a> {
    #[serde(borrow, default, deserialize_with = "present")]
    event: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    ply: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    path: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    score: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    two_above: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    cutoff: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    negated: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    one_above: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    accepted: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    best: Option<&'a RawValue>,
}

/// A field that is there, `null` included (a plain `Option` would read `null` as absent).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(d).map(Some)
}

/// A JSON string's text: borrowed from the line unless it has escapes.
fn text(raw: &RawValue) -> Option<Cow<'_, str>> {
    text_of(raw.get())
}

fn text_of(json: &str) -> Option<Cow<'_, str>> {
    match serde_json::from_str::<&str>(json) {
        Ok(s) => Some(Cow::Borrowed(s)),
        Err(_) => serde_json::from_str::<String>(json).ok().map(Cow::Owned),
    }
}

/// A JSON whole number, if the text is one.
fn whole(raw: &RawValue) -> Option<u64> {
    serde_json::from_str(raw.get()).ok()
}

/// The fields of one event's object.
struct Fields<'a> {
    object: &'a RawFields<'a>,
    event: &'static str,
}

impl Fields<'_> {
    fn get(&self, field: &'static str) -> Result<&RawValue, TraceLineError> {
        let o = self.object;
        let value = match field {
            "ply" => o.ply,
            "path" => o.path,
            "score" => o.score,
            "two_above" => o.two_above,
            "cutoff" => o.cutoff,
            "negated" => o.negated,
            "one_above" => o.one_above,
            "accepted" => o.accepted,
            "best" => o.best,
            _ => None,
        };
        value.ok_or(TraceLineError::Missing {
            event: self.event,
            field,
        })
    }

    fn ply(&self) -> Result<u8, TraceLineError> {
        whole(self.get("ply")?)
            .and_then(|n| u8::try_from(n).ok())
            .ok_or(TraceLineError::Bad {
                field: "ply",
                expected: "a whole number from 0 to 255",
            })
    }

    fn score(&self, field: &'static str) -> Result<Score, TraceLineError> {
        whole(self.get(field)?)
            .and_then(|n| u8::try_from(n).ok())
            .map(Score)
            .ok_or(TraceLineError::Bad {
                field,
                expected: "Sargon's score byte, a whole number from 0 to 255",
            })
    }

    fn flag(&self, field: &'static str) -> Result<bool, TraceLineError> {
        serde_json::from_str(self.get(field)?.get()).map_err(|_| TraceLineError::Bad {
            field,
            expected: "true or false",
        })
    }

    fn path(&self) -> Result<Path, TraceLineError> {
        let not_a_path = TraceLineError::Bad {
            field: "path",
            expected: "an array of moves in UCI text",
        };
        let raw = self.get("path")?.get();
        // Moves have no escapes as Sargon writes them: read them as they stand, and only
        // otherwise item by item.
        if let Ok(moves) = serde_json::from_str::<Vec<&str>>(raw) {
            return moves.into_iter().map(parse_move).collect();
        }
        let items: Vec<&RawValue> = serde_json::from_str(raw).map_err(|_| not_a_path.clone())?;
        items
            .iter()
            .map(|m| {
                let m = text(m).ok_or(not_a_path.clone())?;
                parse_move(&m)
            })
            .collect()
    }

    /// The path of an event whose `ply` is the path's length (all but `eval`).
    fn path_of_ply(&self) -> Result<Path, TraceLineError> {
        let path = self.path()?;
        let ply = whole(self.get("ply")?).ok_or(TraceLineError::Bad {
            field: "ply",
            expected: "a whole number",
        })?;
        if ply != path.len() as u64 {
            return Err(TraceLineError::PlyNotPathLength {
                ply,
                moves: path.len(),
            });
        }
        Ok(path)
    }
}

impl Event {
    /// The event as its written forms carry it: every move's flag byte reduced to the
    /// promotion bit (the `q` of `e7e8q`). Two events are written alike exactly when their
    /// `as_written` forms are equal.
    ///
    /// ```
    /// use sargon_core::{Event, SMove, Sq};
    ///
    /// // Sargon's flag byte, reduced to the promotion bit of the written form.
    /// let flagged = SMove { from: Sq(35), to: Sq(55), flags: 0x08 };
    /// let event = Event::Created { path: vec![flagged] };
    /// assert_eq!(event.as_written(), Event::Created { path: vec![SMove::plain(35, 55)] });
    /// assert_eq!(event.as_written().to_json(), event.to_json());
    /// ```
    pub fn as_written(&self) -> Event {
        let moves = |path: &Path| -> Path { path.iter().map(written_move).collect() };
        match self {
            Event::Created { path } => Event::Created { path: moves(path) },
            Event::Eval { ply, path, score } => Event::Eval {
                ply: *ply,
                path: moves(path),
                score: *score,
            },
            Event::AlphaBeta {
                path,
                score,
                two_above,
                cutoff,
            } => Event::AlphaBeta {
                path: moves(path),
                score: *score,
                two_above: *two_above,
                cutoff: *cutoff,
            },
            Event::BestTest {
                path,
                negated,
                one_above,
                accepted,
            } => Event::BestTest {
                path: moves(path),
                negated: *negated,
                one_above: *one_above,
                accepted: *accepted,
            },
            Event::Best { path, score } => Event::Best {
                path: moves(path),
                score: *score,
            },
            Event::Ascend { ply } => Event::Ascend { ply: *ply },
            Event::Result { best, score } => Event::Result {
                best: best.as_ref().map(written_move),
                score: *score,
            },
        }
    }
}

fn written_move(m: &SMove) -> SMove {
    SMove {
        flags: m.flags & flag::PROMOTE,
        ..*m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &str) -> Result<Event, TraceLineError> {
        match parse_trace_line(line)? {
            TraceLine::Event(e) => Ok(e),
            TraceLine::Rom => panic!("a rom line"),
        }
    }

    #[test]
    fn every_kind_reads_back_as_written() {
        let path = vec![
            SMove::plain(35, 55),
            SMove {
                from: Sq(82),
                to: Sq(92),
                flags: flag::PROMOTE | flag::CAPTURED_BLACK | 3,
            },
        ];
        let events = [
            Event::Created { path: path.clone() },
            Event::Eval {
                ply: 0,
                path: vec![],
                score: Score(0x80),
            },
            Event::Eval {
                ply: 3,
                path: path.clone(),
                score: Score(0x7a),
            },
            Event::AlphaBeta {
                path: path.clone(),
                score: Score(0x70),
                two_above: Score(0x78),
                cutoff: true,
            },
            Event::BestTest {
                path: path.clone(),
                negated: Score(0x90),
                one_above: Score(0),
                accepted: false,
            },
            Event::Best {
                path: path.clone(),
                score: Score(0xff),
            },
            Event::Ascend { ply: 2 },
            Event::Result {
                best: Some(path[1]),
                score: Score(0x84),
            },
            Event::Result {
                best: None,
                score: Score(0xff),
            },
        ];
        for e in events {
            let line = e.to_json().to_string();
            assert_eq!(read(&line).unwrap(), e.as_written(), "{line}");
        }
        // What the written form loses: all flags but the promotion.
        assert_eq!(written_move(&path[1]).flags, flag::PROMOTE);
        assert_eq!(
            parse_trace_line(r#"{"event":"rom","name":"x"}"#),
            Ok(TraceLine::Rom)
        );
    }

    #[test]
    fn malformed_lines_name_what_is_wrong() {
        let e = |line: &str| read(line).unwrap_err().to_string();
        assert!(e("hello").starts_with("not JSON"), "{}", e("hello"));
        assert_eq!(e("[1]"), "not a JSON object");
        assert_eq!(e(r#"["created", 1, ["e2e4"]]"#), "not a JSON object");
        assert_eq!(
            e(r#"{"event":"created","ply":null,"path":[]}"#),
            "field `ply` must be a whole number"
        );
        assert_eq!(
            e(r#"{"event":"created","ply":0,"path":["e2e4",null]}"#),
            "field `path` must be an array of moves in UCI text"
        );
        assert!(e(r#"{"event":"created","ply":0,"ply":0,"path":[]}"#)
            .starts_with("duplicate field `ply`"));
        assert_eq!(e(r#"{"ply":1}"#), TraceLineError::NoKind.to_string());
        assert!(e(r#"{"event":"jump\u001b"}"#).starts_with("unknown event `jump\\u{1b}`"));
        assert_eq!(
            e(r#"{"event":"best","ply":1,"path":["e2e4"]}"#),
            "`best` needs the field `score`"
        );
        assert_eq!(
            e(r#"{"event":"best","ply":1,"path":["e2e4"],"score":256}"#),
            "field `score` must be Sargon's score byte, a whole number from 0 to 255"
        );
        assert_eq!(
            e(r#"{"event":"created","ply":2,"path":["e2e4"]}"#),
            "`ply` is 2 but the path has 1 moves"
        );
        assert_eq!(
            e(r#"{"event":"created","ply":1,"path":["e7e8n"]}"#),
            "`e7e8n` is not a move as Sargon writes it: Sargon promotes only to a queen, written `q`"
        );
        assert_eq!(
            e(r#"{"event":"created","ply":1,"path":["e9e4"]}"#),
            "`e9e4` is not a move as Sargon writes it: a square is a file a-h and a rank 1-8"
        );
        assert_eq!(
            e(r#"{"event":"result","best":3,"score":1}"#),
            "field `best` must be a move in UCI text or null"
        );
        assert_eq!(
            e(r#"{"event":"alpha_beta","ply":0,"path":[],"score":1,"two_above":2,"cutoff":"yes"}"#),
            "field `cutoff` must be true or false"
        );
    }
}
