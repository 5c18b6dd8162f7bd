//! EPD: positions with the moves that solve them.
//!
//! A line is the four FEN fields (board, side to move, castling, en passant), optionally
//! followed by the two move counters (so a plain FEN is accepted too), then operations,
//! each an opcode and operands up to a `;`: `bm Qxd8+; id "WAC.001";`. Operands may be
//! quoted (`"..."`, with `\"` for a quote). Understood: `bm` (best moves) and `am` (moves
//! to avoid), in SAN (UCI is accepted as well); `id`; `hmvc` and `fmvn` (the move
//! counters, when the line has none: Sargon uses the full-move number, see
//! [`sargon_core::position`]). Other operations are kept and ignored. Empty lines and lines
//! starting with `#` are skipped.
//!
//! A position is *solved* when Sargon's move is one of its `bm` moves and none of its `am`
//! moves; positions with neither have no verdict.
//!
//! [`epd_line`] writes a position back with its operations and new ones (the results of an
//! analysis), quoting as the EPD standard (PGN standard, section 16.2) says: the operands of
//! string operations (`id`, `c0`..`c9`, `v0`..`v9`, `eco`, `nic`, `tcgs`, `tcri`, `tcsi`)
//! in double quotes (a quote or a backslash inside escaped with a backslash, as in PGN tag
//! strings; python-chess reads them so); moves and numbers bare; any other operand quoted
//! only when it could not be read back bare.

use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position};

use sargon_core::input::echo;
use sargon_core::position;

/// One operation of an EPD line: `opcode operand ...;`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdOp {
    /// The operation's name (`bm`, `id`, ...).
    pub opcode: String,
    /// Its operands, unquoted.
    pub operands: Vec<String>,
}

/// One position of an EPD file.
#[derive(Clone, Debug)]
pub struct EpdEntry {
    /// Line number in the file (from 1).
    pub line: usize,
    /// The position.
    pub position: Chess,
    /// The position as a FEN (with the counters the line or its operations give).
    pub fen: String,
    /// The `id` operation's operand, if any.
    pub id: Option<String>,
    /// `bm`: the moves that solve the position, legal in it.
    pub bm: Vec<Move>,
    /// `am`: the moves to avoid.
    pub am: Vec<Move>,
    /// Every operation of the line, in order.
    pub ops: Vec<EpdOp>,
}

impl EpdEntry {
    /// Has the position a verdict (a `bm` or an `am`)?
    pub(crate) fn has_target(&self) -> bool {
        !self.bm.is_empty() || !self.am.is_empty()
    }

    /// Is `chosen` a solution? `None` when the position has no `bm` or `am`; a position
    /// without a move chosen (no legal move) is not solved.
    pub(crate) fn solved_by(&self, chosen: Option<&Move>) -> Option<bool> {
        if !self.has_target() {
            return None;
        }
        let Some(m) = chosen else {
            return Some(false);
        };
        Some((self.bm.is_empty() || self.bm.contains(m)) && !self.am.contains(m))
    }

    /// The SAN of the `bm` moves.
    pub(crate) fn bm_san(&self) -> Vec<String> {
        self.san_of(&self.bm)
    }

    /// The SAN of the `am` moves.
    pub(crate) fn am_san(&self) -> Vec<String> {
        self.san_of(&self.am)
    }

    fn san_of(&self, moves: &[Move]) -> Vec<String> {
        moves
            .iter()
            .map(|m| SanPlus::from_move(self.position.clone(), *m).to_string())
            .collect()
    }
}

/// Why an EPD line cannot be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("line {line}: {reason}")]
pub struct EpdError {
    /// Line number in the file (from 1).
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

/// Why the operations part of an EPD line does not read ([`parse_operations`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OperationsError {
    /// A `;` with no opcode before it.
    #[error("an operation without an opcode (a stray `;`)")]
    NoOpcode,
    /// A string operand whose closing `"` is missing: the operation's opcode.
    #[error("unterminated string in operation `{}`", echo(.0))]
    UnterminatedString(String),
}

/// Split the operations part of an EPD line.
pub fn parse_operations(text: &str) -> Result<Vec<EpdOp>, OperationsError> {
    let mut ops = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek().is_none() {
            return Ok(ops);
        }
        let mut opcode = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() || c == ';' {
                break;
            }
            opcode.push(c);
            chars.next();
        }
        if opcode.is_empty() {
            return Err(OperationsError::NoOpcode);
        }
        let mut operands = Vec::new();
        loop {
            while chars.peek().is_some_and(|c| c.is_whitespace()) {
                chars.next();
            }
            match chars.peek() {
                // The last operation may lack its `;`.
                None => break,
                Some(';') => {
                    chars.next();
                    break;
                }
                Some('"') => {
                    chars.next();
                    let mut s = String::new();
                    loop {
                        match chars.next() {
                            None => return Err(OperationsError::UnterminatedString(opcode)),
                            Some('\\') => match chars.next() {
                                Some(c) => s.push(c),
                                None => return Err(OperationsError::UnterminatedString(opcode)),
                            },
                            Some('"') => break,
                            Some(c) => s.push(c),
                        }
                    }
                    operands.push(s);
                }
                Some(_) => {
                    let mut s = String::new();
                    while let Some(&c) = chars.peek() {
                        if c.is_whitespace() || c == ';' {
                            break;
                        }
                        s.push(c);
                        chars.next();
                    }
                    operands.push(s);
                }
            }
        }
        ops.push(EpdOp { opcode, operands });
    }
}

/// A move of an EPD operation: SAN (with or without `+`, `#`, `!`, `?`), or UCI.
fn epd_move(pos: &Chess, text: &str) -> Option<Move> {
    let clean = text.trim_end_matches(['!', '?']);
    if let Ok(san) = SanPlus::from_ascii(clean.as_bytes())
        && let Ok(m) = san.san.to_move(pos)
    {
        return Some(m);
    }
    clean.parse::<UciMove>().ok()?.to_move(pos).ok()
}

/// A line of a file of positions written as the command line takes a position,
/// `startpos` or a FEN followed by `moves` and moves in UCI notation: the position the
/// moves reach (each checked), or why it cannot be read. `None` for any other line (an EPD
/// or FEN line, read by the caller). Without this, a file's `<FEN> moves e2e4` would be
/// searched at the FEN, its moves taken for an EPD operation and ignored.
pub fn played_line(text: &str) -> Option<Result<shakmaty::Chess, position::PositionError>> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let startpos = words
        .first()
        .is_some_and(|w| w.eq_ignore_ascii_case("startpos"));
    if !startpos && !words.contains(&"moves") {
        return None;
    }
    Some(position::read_position(text).map(|read| read.position))
}

/// Parse one EPD line (`line` is its number, for messages); `None` for an empty line or a
/// `#` comment.
pub fn parse_epd_line(text: &str, line: usize) -> Result<Option<EpdEntry>, EpdError> {
    let err = |reason: String| EpdError { line, reason };
    let trimmed = text.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return Ok(None);
    }
    if let Some(position) = played_line(trimmed) {
        // `startpos moves ...` or `<FEN> moves ...`: the position the moves reach, read as
        // the command line reads it (no EPD operations).
        let position = position.map_err(|e| err(e.to_string()))?;
        return Ok(Some(EpdEntry {
            line,
            fen: position::fen_of(&position),
            id: None,
            bm: Vec::new(),
            am: Vec::new(),
            position,
            ops: Vec::new(),
        }));
    }
    // The four position fields, then maybe the two counters of a FEN; `rests[k]` is the
    // text after k fields.
    let mut rests = vec![trimmed];
    let mut fields = Vec::new();
    while fields.len() < 6 {
        let r = rests[fields.len()].trim_start();
        let end = r.find(char::is_whitespace).unwrap_or(r.len());
        let word = &r[..end];
        // A counter is a word that starts like a number: one out of range (`99999999999`)
        // is refused as a counter, not taken for an operation.
        let counter_like = word.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+');
        if word.is_empty() || (fields.len() >= 4 && !counter_like) {
            break;
        }
        fields.push(word);
        rests.push(&r[end..]);
    }
    if fields.len() < 4 {
        return Err(err(format!(
            "expected a board, a side to move, castling rights and an en passant square, got `{}`",
            echo(trimmed)
        )));
    }
    if fields.len() == 5 {
        // A lone number is not a FEN's pair of counters: leave it to the operations (where
        // it will be an opcode-like word, kept and ignored).
        fields.truncate(4);
    }
    let rest = rests[fields.len()];
    let ops = parse_operations(rest).map_err(|e| err(e.to_string()))?;
    let op = |name: &str| ops.iter().find(|o| o.opcode == name);
    let counter = |name: &str, default: &str| -> String {
        op(name)
            .and_then(|o| o.operands.first())
            .cloned()
            .unwrap_or_else(|| default.to_string())
    };
    let fen = if fields.len() == 6 {
        fields.join(" ")
    } else {
        format!(
            "{} {} {}",
            fields.join(" "),
            counter("hmvc", "0"),
            counter("fmvn", "1")
        )
    };
    let position =
        position::parse_position(&fen).map_err(|e| err(e.quoting(trimmed).to_string()))?;
    let moves = |name: &str| -> Result<Vec<Move>, EpdError> {
        let Some(o) = op(name) else {
            return Ok(Vec::new());
        };
        if o.operands.is_empty() {
            return Err(err(format!("`{name}` without a move")));
        }
        o.operands
            .iter()
            .map(|s| {
                epd_move(&position, s)
                    .ok_or_else(|| err(format!("`{name} {}`: not a legal move in {fen}", echo(s))))
            })
            .collect()
    };
    let bm = moves("bm")?;
    let am = moves("am")?;
    Ok(Some(EpdEntry {
        line,
        fen: position::fen_of(&position),
        id: op("id").and_then(|o| o.operands.first()).cloned(),
        bm,
        am,
        position,
        ops,
    }))
}

/// Parse a whole EPD file; every bad line is reported.
pub fn parse_epd(text: &str) -> Result<Vec<EpdEntry>, Vec<EpdError>> {
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match parse_epd_line(line, i + 1) {
            Ok(Some(e)) => entries.push(e),
            Ok(None) => {}
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(entries)
    } else {
        Err(errors)
    }
}

/// Is `opcode` one whose operands are strings (always quoted)?
fn takes_strings(opcode: &str) -> bool {
    let numbered = |prefix: char| {
        opcode.len() == 2
            && opcode.starts_with(prefix)
            && opcode[1..].chars().all(|c| c.is_ascii_digit())
    };
    matches!(opcode, "id" | "eco" | "nic" | "tcgs" | "tcri" | "tcsi")
        || numbered('c')
        || numbered('v')
}

/// An operand in double quotes, `"` and `\` escaped.
fn quoted(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// One operation as an EPD line holds it: `opcode operand ...;`.
pub fn format_operation(op: &EpdOp) -> String {
    let mut out = op.opcode.clone();
    for operand in &op.operands {
        out.push(' ');
        let bare_unreadable = operand.is_empty()
            || operand.contains(|c: char| c.is_whitespace() || c == ';' || c == '"');
        if takes_strings(&op.opcode) || bare_unreadable {
            out.push_str(&quoted(operand));
        } else {
            out.push_str(operand);
        }
    }
    out.push(';');
    out
}

/// The EPD line of `entry` with `results` added: the four position fields, the entry's own
/// operations (those `results` replace left out), `hmvc` and `fmvn` when the position's
/// move counters are not the defaults (0 and 1) and the entry had no such operation, then
/// `results`.
pub fn epd_line(entry: &EpdEntry, results: &[EpdOp]) -> String {
    let fen = position::fen_of(&entry.position);
    let fields: Vec<&str> = fen.split(' ').take(4).collect();
    let mut ops: Vec<EpdOp> = entry
        .ops
        .iter()
        .filter(|o| !results.iter().any(|r| r.opcode == o.opcode))
        .cloned()
        .collect();
    let has = |name: &str| entry.ops.iter().any(|o| o.opcode == name);
    let (halfmoves, fullmoves) = (entry.position.halfmoves(), entry.position.fullmoves().get());
    if halfmoves != 0 && !has("hmvc") {
        ops.push(EpdOp {
            opcode: "hmvc".into(),
            operands: vec![halfmoves.to_string()],
        });
    }
    if fullmoves != 1 && !has("fmvn") {
        ops.push(EpdOp {
            opcode: "fmvn".into(),
            operands: vec![fullmoves.to_string()],
        });
    }
    ops.extend(results.iter().cloned());
    let mut line = fields.join(" ");
    for op in &ops {
        line.push(' ');
        line.push_str(&format_operation(op));
    }
    line
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_line_with_moves_is_read_with_its_moves() {
        let e = parse_epd_line("startpos moves e2e4 e7e5", 3)
            .unwrap()
            .unwrap();
        assert_eq!(
            e.fen,
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
        assert!(e.ops.is_empty() && e.id.is_none());
        let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
        let e = parse_epd_line(&format!("{fen} moves e2e4"), 1)
            .unwrap()
            .unwrap();
        assert_eq!(e.fen, "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
        let err = parse_epd_line("startpos moves e2e5", 7).unwrap_err();
        assert_eq!(err.line, 7);
        assert!(err.reason.contains("e2e5"), "{}", err.reason);
        // An EPD line without `moves` is read as before.
        let e = parse_epd_line("4k3/8/8/8/8/8/4P3/4K3 w - - bm e4;", 1)
            .unwrap()
            .unwrap();
        assert_eq!(e.bm.len(), 1);
    }

    use super::*;
    use shakmaty::Position;

    /// The error quotes the line as written, not the FEN put together from it (with the
    /// counters `0 1`, or those of its `hmvc` and `fmvn` operations, added).
    #[test]
    fn a_bad_position_is_quoted_as_written() {
        for line in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq x bm e4;",
            "  4k3/8/8/8/8/8/4P3/4K3 w - - hmvc x; ",
        ] {
            let err = parse_epd_line(line, 4).unwrap_err().to_string();
            assert!(
                err.starts_with(&format!("line 4: invalid FEN `{}`: field", line.trim())),
                "{err}"
            );
        }
    }

    #[test]
    fn operations() {
        let ops = parse_operations(r#"bm Qxd8+ Rxd8; id "WAC \"one\"; x"; c0 plain;noop"#).unwrap();
        assert_eq!(ops.len(), 4);
        assert_eq!(ops[0].opcode, "bm");
        assert_eq!(ops[0].operands, vec!["Qxd8+", "Rxd8"]);
        assert_eq!(ops[1].operands, vec![r#"WAC "one"; x"#]);
        assert_eq!(ops[2].operands, vec!["plain"]);
        assert_eq!(ops[3].opcode, "noop");
        assert!(ops[3].operands.is_empty());
        assert_eq!(
            parse_operations(r#"id "open"#),
            Err(OperationsError::UnterminatedString("id".into()))
        );
        assert_eq!(parse_operations("bm e4; ;"), Err(OperationsError::NoOpcode));
    }

    #[test]
    fn epd_lines() {
        let e = parse_epd_line(
            r#"r2n2k1/5ppp/b5q1/1P3N2/8/8/3Q1PPP/3R2K1 w - - bm Qxd8+; id "mate.1";"#,
            3,
        )
        .unwrap()
        .unwrap();
        assert_eq!(e.id.as_deref(), Some("mate.1"));
        assert_eq!(e.bm_san(), vec!["Qxd8+"]);
        assert_eq!(e.fen, "r2n2k1/5ppp/b5q1/1P3N2/8/8/3Q1PPP/3R2K1 w - - 0 1");
        assert_eq!(e.solved_by(e.bm.first()), Some(true));
        assert_eq!(e.solved_by(None), Some(false));
        // A full FEN with counters, an am in UCI, fmvn ignored when counters are there.
        let e = parse_epd_line(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 7 am e7e5; fmvn 3;",
            1,
        )
        .unwrap()
        .unwrap();
        assert_eq!(e.position.fullmoves().get(), 7);
        assert_eq!(e.am_san(), vec!["e5"]);
        let e5 = e.am[0];
        let d5 = epd_move(&e.position, "d5").unwrap();
        assert_eq!(e.solved_by(Some(&e5)), Some(false));
        assert_eq!(e.solved_by(Some(&d5)), Some(true));
        // Counters from operations.
        let e = parse_epd_line("4k3/8/8/8/8/8/8/4K2R w K - hmvc 3; fmvn 40;", 1)
            .unwrap()
            .unwrap();
        assert_eq!(e.fen, "4k3/8/8/8/8/8/8/4K2R w K - 3 40");
        assert_eq!(e.solved_by(None), None);
        assert!(parse_epd_line("  # comment", 1).unwrap().is_none());
        assert!(parse_epd_line("", 1).unwrap().is_none());
        let err = parse_epd_line("4k3/8/8/8/8/8/8/4K2R w K - bm Qh8;", 9).unwrap_err();
        assert_eq!(err.line, 9);
        assert!(err.reason.contains("bm Qh8"), "{err}");
        assert!(parse_epd_line("4k3/8/8 w", 2).is_err());
    }

    #[test]
    fn lines_written_back() {
        let e = parse_epd_line(
            r#"r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4 id "say \"hi\" \\ ok"; c0 plain; bm O-O; acd 9; xyz "two words" bare;"#,
            1,
        )
        .unwrap()
        .unwrap();
        let results = [
            EpdOp {
                opcode: "acd".into(),
                operands: vec!["3".into()],
            },
            EpdOp {
                opcode: "pv".into(),
                operands: vec!["O-O".into(), "Nf6".into()],
            },
        ];
        let line = epd_line(&e, &results);
        assert_eq!(
            line,
            r#"r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - id "say \"hi\" \\ ok"; c0 "plain"; bm O-O; xyz "two words" bare; hmvc 4; fmvn 4; acd 3; pv O-O Nf6;"#
        );
        // Read back: the same position, operations and counters.
        let back = parse_epd_line(&line, 1).unwrap().unwrap();
        assert_eq!(back.fen, e.fen);
        assert_eq!(back.id, e.id);
        assert_eq!(back.id.as_deref(), Some(r#"say "hi" \ ok"#));
        assert_eq!(back.bm, e.bm);
        let acd = back.ops.iter().find(|o| o.opcode == "acd").unwrap();
        assert_eq!(acd.operands, ["3"]);
        assert_eq!(
            format_operation(&EpdOp {
                opcode: "noop".into(),
                operands: vec![]
            }),
            "noop;"
        );
    }
}
