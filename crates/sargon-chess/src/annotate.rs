//! Annotating games: Sargon's view of every move of a game played by anyone.
//!
//! Each position before a move is searched (without the book: a book move has no score);
//! the move played gets a comment with Sargon's score and principal variation, and where
//! Sargon would have played another move, its line as a variation. The game's first comment
//! sums up: how often the move played was Sargon's choice, and the moves after which
//! Sargon's score changed most (the "swings", from the search before a move to the search
//! after it). Scores are in pawns from White's point of view, as annotated games give
//! them; a mate Sargon's line ends in is `#N` (negative: Black mates).

use shakmaty::{Chess, Color, Move, Position};

use crate::pgn::{self, GameText, MoveText, PgnGame};
use sargon_core::engine::{Engine, SearchError, SearchOptions};
use sargon_core::position;
use sargon_core::position::Book;
use sargon_core::trace::Detail;
use sargon_core::{pv, record};

/// How many swings the summary names.
pub(crate) const SWINGS_SHOWN: usize = 3;

/// Sargon's view of one position.
#[derive(Clone, Debug)]
pub struct View {
    /// Its move and line, legal from the position (empty when the game is over there).
    pub pv: Vec<Move>,
    /// The same line in SAN.
    pub pv_san: Vec<String>,
    /// Pawns for White.
    pub white_pawns: f64,
    /// Moves to mate at the end of the line, for White (negative: Black mates).
    pub white_mate: Option<i32>,
}

impl View {
    /// `+0.25`, or `#3` / `#-2` for a mate.
    pub(crate) fn score_text(&self) -> String {
        match self.white_mate {
            Some(n) => format!("#{n}"),
            // Adding 0 turns a -0 (a level score seen from Black) into +0.
            None => format!("{:+.2}", self.white_pawns + 0.0),
        }
    }
}

/// Sargon's view of every position of a game.
#[derive(Clone, Debug)]
pub struct Annotation {
    /// `views[i]`: the position before move i; the last one is the final position.
    pub views: Vec<View>,
    /// The depth Sargon searched each position to.
    pub depth: u8,
    /// Sargon's description, for the comments.
    pub engine: String,
}

/// A large change of Sargon's score across one move.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Swing {
    /// The move's index in the game.
    pub ply: usize,
    /// "14.Qxb7" or "9...Nxe4".
    pub label: String,
    /// The score before the move, as written in the comments.
    pub before: String,
    /// The score after the move, as written in the comments.
    pub after: String,
    /// Pawns for White, after minus before.
    pub change: f64,
}

/// Why a game cannot be annotated.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AnnotateError {
    /// A position of the game Sargon cannot represent.
    #[error(transparent)]
    Position(#[from] position::PositionError),
    /// A search failed.
    #[error(transparent)]
    Search(#[from] SearchError),
}

/// The score Sargon's best line is worth when a side is mated on the board: more than any
/// score its search gives (its byte holds at most 15.875 pawns).
const MATED_PAWNS: f64 = 16.0;

/// Search `pos` (unless the game is over there) and give Sargon's view.
pub(crate) fn view(
    engine: &mut dyn Engine,
    pos: &Chess,
    opts: &SearchOptions,
) -> Result<View, AnnotateError> {
    let white = if pos.turn() == Color::White {
        1.0
    } else {
        -1.0
    };
    if pos.is_checkmate() {
        return Ok(View {
            pv: Vec::new(),
            pv_san: Vec::new(),
            white_pawns: -white * MATED_PAWNS,
            white_mate: Some(0),
        });
    }
    if pos.legal_moves().is_empty() {
        return Ok(View {
            pv: Vec::new(),
            pv_san: Vec::new(),
            white_pawns: 0.0,
            white_mate: None,
        });
    }
    let setup = position::setup(pos, Book::Off)?;
    let recorded = record::search(engine, &setup, opts, Detail::BestOnly, &mut [])?;
    let mut line = recorded.pv(pos);
    let best = recorded.outcome.best.and_then(|m| m.to_chess(pos));
    // The line must start with the move chosen; if the trace disagrees, the move alone.
    if let Some(best) = best
        && line.moves.first() != Some(&best)
    {
        line.moves = vec![best];
        line.san = pgn::san_line(pos, &line.moves);
    }
    let mover_mate = mate_in(pos, &line.moves);
    Ok(View {
        white_pawns: white * recorded.outcome.score_for_mover().pawns(),
        white_mate: mover_mate.map(|n| if white > 0.0 { n } else { -n }),
        pv: line.moves,
        pv_san: line.san,
    })
}

/// Moves to mate when `line` ends in checkmate: positive when the side to move mates.
fn mate_in(pos: &Chess, line: &[Move]) -> Option<i32> {
    let mut p = pos.clone();
    for m in line {
        p.play_unchecked(*m);
    }
    if line.is_empty() || !p.is_checkmate() {
        return None;
    }
    let n = line.len() as i32;
    Some(if n % 2 == 1 { (n + 1) / 2 } else { -(n / 2) })
}

/// Sargon's view of every position of `game`; `progress(done, total)` after each search.
pub fn annotate(
    engine: &mut dyn Engine,
    game: &PgnGame,
    opts: &SearchOptions,
    mut progress: impl FnMut(usize, usize),
) -> Result<Annotation, AnnotateError> {
    let mut pos = game.start.clone();
    let total = game.moves.len() + 1;
    let mut views = Vec::with_capacity(total);
    for (i, m) in game.moves.iter().enumerate() {
        views.push(view(engine, &pos, opts)?);
        progress(i + 1, total);
        pos.play_unchecked(*m);
    }
    views.push(view(engine, &pos, opts)?);
    progress(total, total);
    Ok(Annotation {
        views,
        depth: opts.depth,
        engine: engine.name(),
    })
}

/// "14.Qxb7" / "9...Nxe4": move `ply` of a game from `start`.
fn move_label(start: &Chess, ply: usize, san: &str) -> String {
    let from_white = ply + usize::from(start.turn() == Color::Black);
    let number = start.fullmoves().get() as usize + from_white / 2;
    if from_white.is_multiple_of(2) {
        format!("{number}.{san}")
    } else {
        format!("{number}...{san}")
    }
}

impl Annotation {
    /// How many moves of the game were Sargon's choice, and how many it was asked about.
    pub(crate) fn agreement(&self, game: &PgnGame) -> (usize, usize) {
        let agreed = game
            .moves
            .iter()
            .zip(&self.views)
            .filter(|(m, v)| v.pv.first() == Some(m))
            .count();
        (agreed, game.moves.len())
    }

    /// The largest score changes across one move, largest first.
    pub(crate) fn swings(&self, game: &PgnGame, count: usize) -> Vec<Swing> {
        let sans = pgn::san_line(&game.start, &game.moves);
        let mut swings: Vec<Swing> = (0..game.moves.len())
            .map(|i| Swing {
                ply: i,
                label: move_label(&game.start, i, &sans[i]),
                before: self.views[i].score_text(),
                after: self.views[i + 1].score_text(),
                change: self.views[i + 1].white_pawns - self.views[i].white_pawns,
            })
            .collect();
        swings.sort_by(|a, b| {
            b.change
                .abs()
                .total_cmp(&a.change.abs())
                .then(a.ply.cmp(&b.ply))
        });
        swings.truncate(count);
        swings
    }

    /// One paragraph: agreement and the biggest swings.
    pub fn summary(&self, game: &PgnGame) -> String {
        let (agreed, moves) = self.agreement(game);
        let percent = if moves > 0 {
            format!(" ({:.0}%)", 100.0 * agreed as f64 / moves as f64)
        } else {
            String::new()
        };
        let swings: Vec<String> = self
            .swings(game, SWINGS_SHOWN)
            .iter()
            .map(|s| format!("{} ({} to {})", s.label, s.before, s.after))
            .collect();
        let swings = if swings.is_empty() {
            String::new()
        } else {
            format!("; biggest swings: {}", swings.join(", "))
        };
        format!(
            "Sargon 1978 ({}, depth {}): the move played was Sargon's choice in {agreed} of {moves} moves{percent}; scores in pawns for White{swings}",
            self.engine, self.depth
        )
    }

    /// The game with Sargon's comments and variations, its tags kept, an `Annotator` tag
    /// added, and the game's own comments before Sargon's.
    pub fn to_pgn(&self, game: &PgnGame) -> String {
        let mut tags: Vec<(String, String)> = game
            .tags
            .iter()
            .filter(|(n, _)| n != "Annotator")
            .cloned()
            .collect();
        tags.push((
            "Annotator".to_string(),
            format!("Sargon 1978 ({}, depth {})", self.engine, self.depth),
        ));
        let sans = pgn::san_line(&game.start, &game.moves);
        let mut pos = game.start.clone();
        let mut moves = Vec::with_capacity(game.moves.len());
        for (i, m) in game.moves.iter().enumerate() {
            let v = &self.views[i];
            let mut text = MoveText::new(sans[i].clone());
            text.comments.extend(game.comments[i + 1].iter().cloned());
            let depth = self.depth;
            let line = pv::numbered_line(&pos, &v.pv_san);
            if v.pv.first() == Some(m) {
                text.comments.push(format!(
                    "Sargon agrees: {}/{depth}; PV {line}",
                    v.score_text()
                ));
            } else if let Some(first) = v.pv_san.first() {
                text.comments.push(format!(
                    "Sargon prefers {first}: {}/{depth}",
                    v.score_text()
                ));
                text.variations
                    .push(v.pv_san.iter().map(|s| MoveText::new(s.clone())).collect());
            }
            moves.push(text);
            pos.play_unchecked(*m);
        }
        let mut comments = vec![self.summary(game)];
        comments.extend(game.comments[0].iter().cloned());
        pgn::write_game(&GameText {
            tags,
            start: game.start.clone(),
            comments,
            moves,
            result: game.result.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCHOLAR: &str =
        "[White \"W\"]\n[Black \"B\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n";

    #[test]
    fn scholars_mate() {
        let game = &pgn::read_games(SCHOLAR).unwrap()[0];
        let mut engine = Box::new(sargon_port::Port::new());
        let mut calls = 0;
        let a = annotate(engine.as_mut(), game, &SearchOptions::depth(2), |_, _| {
            calls += 1
        })
        .unwrap();
        assert_eq!(calls, 8);
        assert_eq!(a.views.len(), 8);
        // The last position is mate: White has won.
        assert_eq!(a.views[7].white_mate, Some(0));
        assert_eq!(a.views[7].score_text(), "#0");
        // Before 4.Qxf7# Sargon sees the mate in one.
        assert_eq!(a.views[6].pv_san.first().map(String::as_str), Some("Qxf7#"));
        assert_eq!(a.views[6].white_mate, Some(1));
        let (agreed, moves) = a.agreement(game);
        assert_eq!(moves, 7);
        assert!(agreed >= 1);
        let swings = a.swings(game, 3);
        assert_eq!(swings.len(), 3);
        assert!(swings[0].change.abs() >= swings[1].change.abs());
        let text = a.to_pgn(game);
        assert!(
            text.contains("[Annotator \"Sargon 1978 (port, depth 2)\"]"),
            "{text}"
        );
        let one_line = text.replace('\n', " ");
        assert!(
            one_line.contains("4. Qxf7# {Sargon agrees: #1/2; PV 4.Qxf7#}"),
            "{text}"
        );
        assert!(!one_line.contains("-0.00"), "{text}");
        let back = pgn::read_games(&text).unwrap();
        assert_eq!(back[0].moves, game.moves);
        assert_eq!(back[0].result, "1-0");
    }

    #[test]
    fn labels() {
        let pos = Chess::default();
        assert_eq!(move_label(&pos, 0, "e4"), "1.e4");
        assert_eq!(move_label(&pos, 3, "Nc6"), "2...Nc6");
    }
}
