//! PGN in and out: games read into legal moves ([`read_games`], in `pgn/read.rs`), and games
//! written in the PGN export format (the Seven Tag Roster first, movetext in lines of at most
//! 79 characters, move numbers again after a comment or a variation).
//!
//! `sargon play` reads its openings here and writes its games; `sargon annotate` reads a
//! game and writes it back with Sargon's comments and variations; `history strength` reads
//! match files, `serve` a pasted game. Reading keeps the main line and its comments;
//! variations in the input are checked for their form and skipped (annotate writes its own).

mod read;

pub use read::read_games;

use std::time::{SystemTime, UNIX_EPOCH};

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Move, Position};

use sargon_core::input::echo;
use sargon_core::position;

/// One game of a PGN file: its tags and its main line, checked move by move.
#[derive(Clone, Debug)]
pub struct PgnGame {
    /// The tags in file order, values unescaped.
    pub tags: Vec<(String, String)>,
    /// The position the game starts from: the `FEN` tag's, or the initial position.
    pub start: Chess,
    /// The main line, legal from `start`.
    pub moves: Vec<Move>,
    /// `comments[0]`: the comments before the first move; `comments[i]`: those after move i.
    pub comments: Vec<Vec<String>>,
    /// The game termination marker of the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`), else the
    /// `Result` tag's, else `*`.
    pub result: String,
}

impl PgnGame {
    /// The value of tag `name`, if the game has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The position after all the moves.
    pub fn end(&self) -> Chess {
        let mut pos = self.start.clone();
        for m in &self.moves {
            pos.play_unchecked(*m);
        }
        pos
    }

    /// "White - Black" from the tags, for messages (so each quoted through [`echo`]).
    pub fn players(&self) -> String {
        format!(
            "{} - {}",
            echo(self.tag("White").unwrap_or("?")),
            echo(self.tag("Black").unwrap_or("?"))
        )
    }
}

/// Why a PGN file cannot be used. Each says its cause once: none has a `source()`.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PgnError {
    /// A game of the file is malformed (a variation, a comment or a tag pair not closed, no
    /// result, a word that is no move) or not usable (its `FEN` tag does not read, a move is
    /// not legal).
    #[error("game {game}, line {line}: {reason}")]
    Game {
        /// Its number in the file, from 1.
        game: usize,
        /// The line at fault, from 1.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
}

/// A move to write: its SAN, the comments after it, and the variations that replace it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct MoveText {
    /// The move in SAN.
    pub san: String,
    /// Comments after the move, without braces.
    pub comments: Vec<String>,
    /// Each an alternative to this move, from the position before it.
    pub variations: Vec<Vec<MoveText>>,
}

impl MoveText {
    /// A move with no comment.
    pub(crate) fn new(san: impl Into<String>) -> MoveText {
        MoveText {
            san: san.into(),
            ..MoveText::default()
        }
    }

    /// The move with one more comment.
    pub(crate) fn with_comment(mut self, comment: impl Into<String>) -> MoveText {
        self.comments.push(comment.into());
        self
    }
}

/// A game to write.
#[derive(Clone, Debug)]
pub(crate) struct GameText {
    /// Written in this order; put the Seven Tag Roster first.
    pub tags: Vec<(String, String)>,
    /// Where the moves start (for the move numbers).
    pub start: Chess,
    /// Comments before the first move.
    pub comments: Vec<String>,
    /// The moves in order.
    pub moves: Vec<MoveText>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

/// SAN (with `+` or `#`) of each move of a line from `pos`.
pub(crate) fn san_line(pos: &Chess, moves: &[Move]) -> Vec<String> {
    let mut p = pos.clone();
    moves
        .iter()
        .map(|m| {
            let san = SanPlus::from_move_and_play_unchecked(&mut p, *m);
            san.to_string()
        })
        .collect()
}

/// A tag value with `\` and `"` escaped, on one line.
pub(crate) fn escape_tag(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}

/// A comment's text made safe for `{...}`: PGN comments end at the first `}`.
fn comment_words(text: &str) -> Vec<String> {
    let clean = text.replace('}', ")");
    let mut words: Vec<String> = clean.split_whitespace().map(str::to_string).collect();
    if words.is_empty() {
        return vec!["{}".to_string()];
    }
    words[0].insert(0, '{');
    words.last_mut().expect("not empty").push('}');
    words
}

/// Movetext tokens of a line starting at half-move `ply` after `start`.
fn line_tokens(start: &Chess, first_ply: usize, moves: &[MoveText], tokens: &mut Vec<String>) {
    let black_first = start.turn() == Color::Black;
    let mut need_number = true;
    for (i, mv) in moves.iter().enumerate() {
        let ply = first_ply + i;
        let from_white = ply + usize::from(black_first);
        let number = start.fullmoves().get() as usize + from_white / 2;
        let white = from_white.is_multiple_of(2);
        if white {
            tokens.push(format!("{number}."));
        } else if need_number {
            tokens.push(format!("{number}..."));
        }
        tokens.push(mv.san.clone());
        need_number = false;
        for c in &mv.comments {
            tokens.extend(comment_words(c));
            need_number = true;
        }
        for variation in &mv.variations {
            let mut inner = Vec::new();
            line_tokens(start, ply, variation, &mut inner);
            if let Some(first) = inner.first_mut() {
                first.insert(0, '(');
            }
            match inner.last_mut() {
                Some(last) => last.push(')'),
                None => continue,
            }
            tokens.extend(inner);
            need_number = true;
        }
    }
}

/// The game in the PGN export format, ending with an empty line.
pub(crate) fn write_game(game: &GameText) -> String {
    let mut out = String::new();
    for (name, value) in &game.tags {
        out.push_str(&format!("[{name} \"{}\"]\n", escape_tag(value)));
    }
    out.push('\n');
    let mut tokens = Vec::new();
    for c in &game.comments {
        tokens.extend(comment_words(c));
    }
    line_tokens(&game.start, 0, &game.moves, &mut tokens);
    tokens.push(game.result.clone());
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// The tags that say where a game starts when it is not the initial position: `SetUp` and
/// `FEN`, or none.
pub(crate) fn setup_tags(start: &Chess) -> Vec<(String, String)> {
    if *start == Chess::default() {
        Vec::new()
    } else {
        vec![
            ("SetUp".to_string(), "1".to_string()),
            ("FEN".to_string(), position::fen_of(start)),
        ]
    }
}

/// Today's date as PGN writes it, `YYYY.MM.DD` (UTC).
pub fn today() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_GAMES: &str = r#"[Event "Test"]
[White "A \"quoted\" name"]
[Black "B"]
[Result "1-0"]

1. e4 {king's pawn} e5 2. Bc4 (2. Nf3 Nc6) Nc6 3. Qh5 Nf6?? 4. Qxf7# 1-0

[Event "From a position"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40"]

40... Kd7 41. e4 *
"#;

    #[test]
    fn reads_games_with_tags_comments_and_a_start() {
        let games = read_games(TWO_GAMES).unwrap();
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tag("White"), Some(r#"A "quoted" name"#));
        assert_eq!(g.moves.len(), 7, "the variation is skipped");
        assert!(g.end().is_checkmate());
        assert_eq!(g.comments[1], vec!["king's pawn"]);
        assert_eq!(g.result, "1-0");
        let g = &games[1];
        assert_eq!(g.start.turn(), Color::Black);
        assert_eq!(g.start.fullmoves().get(), 40);
        assert_eq!(san_line(&g.start, &g.moves), ["Kd7", "e4"]);
        assert_eq!(g.result, "*");
    }

    /// Found by the `pgn` fuzz target: a `Result` tag of "0-0" became the game's result,
    /// and the game written back read "0-0" as castling. The result is the movetext's
    /// marker, which a `Result` tag that is a marker must repeat.
    #[test]
    fn the_result_is_the_movetexts_marker() {
        let games = read_games("[Result \"0-0\"]\n\n*\n").unwrap();
        assert_eq!(games[0].result, "*");
        let games = read_games("[Result \"1/2-1/2\"]\n\n1. e4 1/2-1/2\n").unwrap();
        assert_eq!(games[0].result, "1/2-1/2");
        let err = read_games("[Result \"1-0\"]\n\n1. e4 0-1\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "game 1, line 3: the result `0-1` differs from the Result tag's `1-0`"
        );
    }

    #[test]
    fn an_illegal_move_names_the_game_the_line_and_the_move() {
        // An empty file holds no game; prose is no game.
        assert!(read_games("").unwrap().is_empty());
        assert!(read_games("\n  \n").unwrap().is_empty());
        let err = read_games("this is not a game of chess\n").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("game 1, line 1: `this` is not a move"),
            "{err}"
        );
        let err = read_games("1. e4 e5 *\n\n1. e4 e5\n2. Ke3 *\n")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("game 2, line 4: move 2.Ke3 is not legal"),
            "{err}"
        );
        let err = read_games("[Event \"x\"]\n[FEN \"8/8/8 w - - 0 1\"]\n\n*\n")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("game 1, line 2: FEN tag"), "{err}");
    }

    #[test]
    fn writes_numbers_comments_and_variations() {
        let start = position::parse_position("4k3/8/8/8/8/8/4P3/4K3 b - - 0 40").unwrap();
        let mut tags = vec![("Event".to_string(), "a \"b\"".to_string())];
        tags.extend(setup_tags(&start));
        let game = GameText {
            tags,
            start,
            comments: vec!["start}".into()],
            moves: vec![
                MoveText::new("Kd7").with_comment("+0.10/2 0.01s"),
                MoveText {
                    san: "e4".into(),
                    comments: vec![],
                    variations: vec![vec![MoveText::new("e3"), MoveText::new("Kd6")]],
                },
                MoveText::new("Ke6"),
            ],
            result: "*".into(),
        };
        let text = write_game(&game);
        assert_eq!(
            text,
            "[Event \"a \\\"b\\\"\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n\n{start)} 40... Kd7 {+0.10/2 0.01s} 41. e4 (41. e3 Kd6) 41... Ke6 *\n\n"
        );
        let back = read_games(&text).unwrap();
        assert_eq!(back[0].moves.len(), 3);
        assert_eq!(back[0].tag("Event"), Some("a \"b\""));
    }

    #[test]
    fn long_movetext_is_wrapped() {
        let pos = Chess::default();
        let moves: Vec<MoveText> = ["Nf3", "Nf6", "Ng1", "Ng8"]
            .iter()
            .cycle()
            .take(40)
            .map(|s| MoveText::new(*s).with_comment("a long comment about this move"))
            .collect();
        let text = write_game(&GameText {
            tags: vec![],
            start: pos,
            comments: vec![],
            moves,
            result: "*".into(),
        });
        assert!(text.lines().all(|l| l.len() <= 79), "{text}");
        assert_eq!(read_games(&text).unwrap()[0].moves.len(), 40);
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(today().len(), 10);
    }
}
