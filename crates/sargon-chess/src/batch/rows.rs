//! Rows: one analysed EPD position, judged against its `bm` and `am` moves, written as a
//! CSV line or a JSON line.

use std::fmt::Write as _;
use std::time::Instant;

use shakmaty::Position;

use super::{EpdEntry, EpdOp};
use sargon_core::engine::{Engine, SearchOptions, SearchOutcome};
use sargon_core::position;
use sargon_core::position::Book;
use sargon_views::analysis::{self, Analysis};

/// One analysed EPD position: a row of `sargon analyze --epd`.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BatchRow {
    /// The `id` operation, or `line N`.
    pub id: String,
    /// The position's FEN.
    pub fen: String,
    /// Sargon's move, in UCI notation.
    pub best_uci: Option<String>,
    /// Sargon's move, in SAN.
    pub best_san: Option<String>,
    /// From White's point of view, as `sargon analyze` gives it (0 for a book move).
    pub score_cp: Option<i32>,
    /// The search depth.
    pub depth: u8,
    /// The `bm` moves, in SAN.
    pub bm: Vec<String>,
    /// The `am` moves, in SAN.
    pub am: Vec<String>,
    /// Sargon's move is a `bm` and not an `am`; null without either.
    pub solved: Option<bool>,
    /// The move came from the opening book.
    pub from_book: bool,
    /// The search's wall time.
    pub time_ms: f64,
    /// Why the position could not be analysed.
    pub error: Option<String>,
    /// The principal variation in SAN (Sargon's move alone when it came from the book).
    pub pv_san: Vec<String>,
    /// The engine that searched, as [`Engine::name`] gives it: "emulator (ROM mine,
    /// NOT VERIFIED)" for an image that did not behave as the known one.
    pub engine: String,
    /// Whether the emulator's ROM behaved as the known image; null for the port.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rom_verified: Option<bool>,
    /// The nodes the search created, when they were counted (`--format epd`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes_created: Option<u64>,
}

impl BatchRow {
    /// The CSV header line (without newline).
    pub const CSV_HEADER: &'static str =
        "id,fen,best_uci,best_san,score_cp,depth,bm,am,solved,from_book,time_ms,error,engine";

    /// The row as a CSV line (without newline); lists are space-separated.
    pub fn to_csv(&self) -> String {
        let opt = |o: &Option<String>| o.as_deref().map(csv_field).unwrap_or_default();
        let mut s = String::new();
        let _ = write!(
            s,
            "{},{},{},{},{},{},{},{},{},{},{:.1},{},{}",
            csv_field(&self.id),
            csv_field(&self.fen),
            opt(&self.best_uci),
            opt(&self.best_san),
            self.score_cp.map(|c| c.to_string()).unwrap_or_default(),
            self.depth,
            csv_field(&self.bm.join(" ")),
            csv_field(&self.am.join(" ")),
            self.solved.map(|b| b.to_string()).unwrap_or_default(),
            self.from_book,
            self.time_ms,
            opt(&self.error),
            csv_field(&self.engine),
        );
        s
    }

    /// The row as one JSON line (without newline).
    pub fn to_jsonl(&self) -> String {
        serde_json::to_string(self).expect("plain data serialises")
    }
}

/// A CSV field, quoted when it needs to be.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Analyse one EPD position with `engine` (book or not) and judge the result; with
/// `count_nodes`, count the nodes the search created too (which records its whole trace).
pub fn analyse_entry(
    engine: &mut dyn Engine,
    entry: &EpdEntry,
    opts: &SearchOptions,
    book: bool,
    count_nodes: bool,
) -> BatchRow {
    let mut row = BatchRow {
        id: entry
            .id
            .clone()
            .unwrap_or_else(|| format!("line {}", entry.line)),
        fen: entry.fen.clone(),
        best_uci: None,
        best_san: None,
        score_cp: None,
        depth: opts.depth,
        bm: entry.bm_san(),
        am: entry.am_san(),
        solved: None,
        from_book: false,
        time_ms: 0.0,
        error: None,
        pv_san: Vec::new(),
        engine: engine.name(),
        rom_verified: engine.rom_id().map(|r| r.verified),
        nodes_created: None,
    };
    let started = Instant::now();
    let result = position::setup(&entry.position, Book::from(book))
        .map_err(|e| e.to_string())
        .and_then(|setup| {
            let analysed = if count_nodes {
                analysis::analyse_counting_nodes(engine, &setup, opts)
            } else {
                analysis::analyse(engine, &setup, opts)
            };
            analysed.map_err(|e| e.to_string())
        });
    row.time_ms = started.elapsed().as_secs_f64() * 1000.0;
    match result {
        Ok((a, outcome)) => fill(&mut row, entry, &a, &outcome),
        Err(e) => row.error = Some(e),
    }
    row
}

fn fill(row: &mut BatchRow, entry: &EpdEntry, a: &Analysis, outcome: &SearchOutcome) {
    let chosen = outcome.best.and_then(|m| m.to_chess(&entry.position));
    row.best_uci = a.best_uci.clone();
    row.best_san = a.best_san.clone();
    row.score_cp = (!a.no_legal_move).then_some(a.score_cp);
    row.from_book = a.from_book;
    row.solved = entry.solved_by(chosen.as_ref());
    row.time_ms = a.wall_ms;
    row.pv_san = a.pv_san.clone();
    row.nodes_created = a.nodes_created;
}

impl BatchRow {
    /// The results as EPD operations, for the position `entry` they belong to: `acd`
    /// (depth), `acn` (nodes created, when counted), `acs` (whole seconds), `ce`
    /// (centipawns for the side to move), `pm` (Sargon's move) and `pv` (its line), in SAN.
    /// A book move has no `ce` (there was no search), a position without a legal move no
    /// `pm` or `pv`, and a position that could not be analysed no results at all. Results
    /// made with an unverified ROM end with a `c9` comment that says so.
    pub fn epd_ops(&self, entry: &EpdEntry) -> Vec<EpdOp> {
        if self.error.is_some() {
            return Vec::new();
        }
        let op = |opcode: &str, operands: Vec<String>| EpdOp {
            opcode: opcode.to_string(),
            operands,
        };
        let searched = !self.from_book;
        let mut ops = vec![op(
            "acd",
            vec![if searched { self.depth } else { 0 }.to_string()],
        )];
        if let Some(n) = self.nodes_created {
            ops.push(op("acn", vec![n.to_string()]));
        }
        ops.push(op(
            "acs",
            vec![((self.time_ms / 1000.0).round() as u64).to_string()],
        ));
        if let (Some(cp), true) = (self.score_cp, searched) {
            // score_cp is White's; EPD's ce is the side to move's.
            let mover = if entry.position.turn() == shakmaty::Color::White {
                cp
            } else {
                -cp
            };
            ops.push(op("ce", vec![mover.to_string()]));
        }
        if let Some(san) = &self.best_san {
            ops.push(op("pm", vec![san.clone()]));
            let pv = if self.pv_san.is_empty() {
                vec![san.clone()]
            } else {
                self.pv_san.clone()
            };
            ops.push(op("pv", pv));
        }
        if self.rom_verified == Some(false) {
            ops.push(op("c9", vec![format!("made by {}", self.engine)]));
        }
        ops
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quoting() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("plain"), "plain");
    }
}
