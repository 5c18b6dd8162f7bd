//! Rows: one analysed EPD position, judged against its `bm` and `am` moves, written as a
//! CSV line or a JSON line.

use std::fmt::Write as _;
use std::time::Instant;

use super::EpdEntry;
use crate::base::engine::{Engine, SearchOptions, SearchOutcome};
use crate::base::position;
use crate::tools::analysis::{self, Analysis};

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
}

impl BatchRow {
    /// The CSV header line (without newline).
    pub const CSV_HEADER: &'static str =
        "id,fen,best_uci,best_san,score_cp,depth,bm,am,solved,from_book,time_ms,error";

    /// The row as a CSV line (without newline); lists are space-separated.
    pub fn to_csv(&self) -> String {
        let opt = |o: &Option<String>| o.as_deref().map(csv_field).unwrap_or_default();
        let mut s = String::new();
        let _ = write!(
            s,
            "{},{},{},{},{},{},{},{},{},{},{:.1},{}",
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

/// Analyse one EPD position with `engine` (book or not) and judge the result.
pub fn analyse_entry(
    engine: &mut dyn Engine,
    entry: &EpdEntry,
    opts: &SearchOptions,
    book: bool,
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
    };
    let started = Instant::now();
    let result = position::setup(&entry.position, book)
        .map_err(|e| e.to_string())
        .and_then(|setup| analysis::analyse(engine, &setup, opts).map_err(|e| e.to_string()));
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
