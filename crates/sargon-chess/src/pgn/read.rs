//! Reading PGN: the import format of the PGN standard, read strictly for its form.
//!
//! A PGN file is games, each its tag pairs then its movetext, which ends with the game's
//! result (`1-0`, `0-1`, `1/2-1/2` or `*`). A reader that skips what it cannot read turns a
//! malformed game into another game: a variation never closed swallows the rest of the
//! game, a word that is no move drops out, a game without its result runs into the next.
//! So every malformation is an error naming the game and the line: a tag pair, a comment
//! or a variation never closed, a `)`, `}` or `]` never opened, a result inside a variation,
//! a game without its result, a result other than its `Result` tag's, a word that is no
//! move, move number, annotation glyph, NAG, comment or result. Variations are checked for
//! their form and skipped (their moves are not played); the main line's moves must be legal.
//!
//! Read leniently, as the standard's import format allows: move numbers with any number of
//! dots or none, glued to the move (`1.e4`) or not; castling with zeros (`0-0`); `!`, `?`
//! and their pairs after a move or alone; `;` comments to the end of the line and `%`
//! escape lines; blank lines anywhere.

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Position};

use sargon_core::input::echo;
use sargon_core::position;

use super::{PgnError, PgnGame};

/// The game termination markers of the PGN standard.
const TERMINATIONS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// What the words of movetext can be, for the message about one that is none of them.
const WORDS: &str = "a move, a move number, a NAG, a comment or a result";

/// One token of PGN text.
#[derive(Debug)]
enum Kind<'a> {
    /// `[Name "value"]`, the value unescaped.
    Tag { name: &'a str, value: String },
    /// `{...}`, without the braces.
    Comment(&'a str),
    /// `(`.
    Open,
    /// `)`.
    Close,
    /// A move number, a NAG (`$12`) or an annotation glyph (`!?`): nothing to keep.
    Ignored,
    /// A game termination marker.
    Result(&'static str),
    /// A move in SAN, as written (with its `+`, `!`, ...).
    Move(&'a str, SanPlus),
}

#[derive(Debug)]
struct Token<'a> {
    kind: Kind<'a>,
    /// Where it starts, from 1.
    line: usize,
}

/// A malformation found while reading tokens: its line and what it is.
type Malformed = (usize, String);

/// The tokens of a PGN text, with their lines.
struct Lexer<'a> {
    text: &'a str,
    /// The byte offset of the next character.
    at: usize,
    line: usize,
}

/// Characters that end a word of movetext.
fn ends_word(c: char) -> bool {
    c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | '[' | ']' | ';')
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Lexer<'a> {
        Lexer {
            text,
            at: 0,
            line: 1,
        }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    /// Move past `bytes` bytes, counting the lines they end.
    fn advance(&mut self, bytes: usize) {
        self.line += self.text[self.at..self.at + bytes].matches('\n').count();
        self.at += bytes;
    }

    /// The rest of the current line (without its `\n`).
    fn rest_of_line(&self) -> &'a str {
        let rest = self.rest();
        &rest[..rest.find('\n').unwrap_or(rest.len())]
    }

    fn at_line_start(&self) -> bool {
        self.at == 0 || self.text.as_bytes()[self.at - 1] == b'\n'
    }

    /// The next token, `None` at the end of the text.
    fn next_token(&mut self) -> Result<Option<Token<'a>>, Malformed> {
        loop {
            let Some(c) = self.rest().chars().next() else {
                return Ok(None);
            };
            if c == '%' && self.at_line_start() {
                // An escape line: another program's data, skipped whole.
                self.advance(self.rest_of_line().len());
            } else if c == ';' {
                self.advance(self.rest_of_line().len());
            } else if c.is_whitespace() {
                self.advance(c.len_utf8());
            } else {
                break;
            }
        }
        let line = self.line;
        let token = |kind| Ok(Some(Token { kind, line }));
        let c = self.rest().chars().next().expect("not at the end");
        match c {
            '{' => {
                let Some(end) = self.rest().find('}') else {
                    return Err((
                        line,
                        "a comment `{` that is never closed (no `}` to the end of the file)".into(),
                    ));
                };
                let text = &self.rest()[1..end];
                self.advance(end + 1);
                token(Kind::Comment(text))
            }
            '[' => self.tag().map(|kind| Some(Token { kind, line })),
            '(' => {
                self.advance(1);
                token(Kind::Open)
            }
            ')' => {
                self.advance(1);
                token(Kind::Close)
            }
            '}' => Err((line, "a `}` with no `{` before it".into())),
            ']' => Err((line, "a `]` with no `[` before it".into())),
            _ => {
                let rest = self.rest();
                let word = &rest[..rest.find(ends_word).unwrap_or(rest.len())];
                let (kind, length) = word_kind(word).map_err(|reason| (line, reason))?;
                self.advance(length);
                token(kind)
            }
        }
    }

    /// A tag pair, `[Name "value"]`, on one line.
    fn tag(&mut self) -> Result<Kind<'a>, Malformed> {
        let line = self.line;
        let whole = self.rest_of_line();
        let quoted = || echo(whole.trim_end());
        let inside = &whole[1..];
        let name_start = inside.len() - inside.trim_start().len();
        let name_length = inside[name_start..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(inside.len() - name_start);
        let name = &inside[name_start..name_start + name_length];
        if name.is_empty() {
            return Err((line, format!("a tag pair without a name: `{}`", quoted())));
        }
        let after_name = &inside[name_start + name_length..];
        let value_part = after_name.trim_start();
        let Some(value_text) = value_part.strip_prefix('"') else {
            return Err((
                line,
                format!(
                    "a tag pair without a value in double quotes: `{}`",
                    quoted()
                ),
            ));
        };
        let mut value = String::new();
        let mut chars = value_text.char_indices().peekable();
        let value_end = loop {
            match chars.next() {
                None => {
                    return Err((
                        line,
                        format!(
                            "a tag value that is never closed (no `\"` before the end of the line): `{}`",
                            quoted()
                        ),
                    ))
                }
                Some((i, '"')) => break i,
                // The standard's two escapes; any other backslash is itself.
                Some((_, '\\')) => match chars.peek() {
                    Some(&(_, c @ ('"' | '\\'))) => {
                        value.push(c);
                        chars.next();
                    }
                    _ => value.push('\\'),
                },
                Some((_, c)) => value.push(c),
            }
        };
        let after_value = &value_text[value_end + 1..];
        let Some(after_bracket) = after_value.trim_start().strip_prefix(']') else {
            return Err((
                line,
                format!(
                    "a tag pair that is never closed (no `]` after its value): `{}`",
                    quoted()
                ),
            ));
        };
        self.advance(whole.len() - after_bracket.len());
        Ok(Kind::Tag { name, value })
    }
}

/// A word of movetext (no space or bracket in it): what it is and how many of its bytes it
/// takes (a move number glued to its move, `1.e4`, takes only the number).
fn word_kind(word: &str) -> Result<(Kind<'_>, usize), String> {
    if let Some(&result) = TERMINATIONS.iter().find(|&&t| t == word) {
        return Ok((Kind::Result(result), word.len()));
    }
    let whole = Ok((Kind::Ignored, word.len()));
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 && !word.starts_with("0-0") {
        let dots = word[digits..].len() - word[digits..].trim_start_matches('.').len();
        if digits + dots == word.len() {
            return whole;
        }
        if dots > 0 {
            return Ok((Kind::Ignored, digits + dots));
        }
    }
    if word.chars().all(|c| c == '.')
        || matches!(word, "!" | "?" | "!!" | "??" | "!?" | "?!")
        || (word.len() > 1
            && word.starts_with('$')
            && word[1..].bytes().all(|b| b.is_ascii_digit()))
    {
        return whole;
    }
    let san = word.trim_end_matches(['!', '?']);
    // Castling written with zeros, as some programs write it.
    let san = match san.strip_prefix("0-0-0") {
        Some(suffix) => format!("O-O-O{suffix}"),
        None => match san.strip_prefix("0-0") {
            Some(suffix) => format!("O-O{suffix}"),
            None => san.to_string(),
        },
    };
    match SanPlus::from_ascii(san.as_bytes()) {
        Ok(san) => Ok((Kind::Move(word, san), word.len())),
        Err(_) => Err(format!("`{}` is not {WORDS}", echo(word))),
    }
}

/// The game being read.
struct GameReader {
    /// The tags so far, and the line of each.
    tags: Vec<(String, String)>,
    tag_lines: Vec<usize>,
    /// The line of the game's latest token.
    last_line: usize,
    /// Comments before the movetext starts (before or after the tags).
    leading_comments: Vec<String>,
    /// Set when the movetext starts: the game so far and the position reached.
    movetext: Option<(PgnGame, Chess)>,
    /// The variations open, innermost last: the line of each `(`, and whether a move of
    /// its line has been read.
    variations: Vec<(usize, bool)>,
}

impl GameReader {
    fn new() -> GameReader {
        GameReader {
            tags: Vec::new(),
            tag_lines: Vec::new(),
            last_line: 1,
            leading_comments: Vec::new(),
            movetext: None,
            variations: Vec::new(),
        }
    }

    /// Start the movetext, if not yet started: from the position of the `FEN` tag, or the
    /// initial one.
    fn start_movetext(&mut self) -> Result<(), Malformed> {
        if self.movetext.is_some() {
            return Ok(());
        }
        let start = match self.tags.iter().position(|(n, _)| n == "FEN") {
            Some(i) => position::parse_position(&self.tags[i].1)
                .map_err(|e| (self.tag_lines[i], format!("FEN tag: {e}")))?,
            None => Chess::default(),
        };
        let game = PgnGame {
            tags: std::mem::take(&mut self.tags),
            start: start.clone(),
            moves: Vec::new(),
            comments: vec![std::mem::take(&mut self.leading_comments)],
            result: "*".into(),
        };
        self.movetext = Some((game, start));
        Ok(())
    }

    /// Why the game, unfinished, cannot end at `line` (`at` says where that is): a
    /// variation still open, else its missing result.
    fn unfinished(&self, line: usize, at: &str) -> Malformed {
        match self.variations.first() {
            Some(&(open, _)) => (
                open,
                format!("the variation `(` opened here is never closed (no `)` before {at})"),
            ),
            None => (
                line,
                format!("the game has no result (1-0, 0-1, 1/2-1/2 or *) before {at}"),
            ),
        }
    }

    /// Take `token`; the game when it ends (at its result).
    fn read(&mut self, token: Token<'_>) -> Result<Option<PgnGame>, Malformed> {
        let line = token.line;
        self.last_line = line;
        match token.kind {
            Kind::Tag { name, value } => {
                if self.movetext.is_some() {
                    return Err(self.unfinished(line, "the tags of the next game"));
                }
                self.tags.push((name.to_string(), value));
                self.tag_lines.push(line);
            }
            Kind::Comment(text) => {
                let text = text.trim();
                match &mut self.movetext {
                    _ if text.is_empty() || !self.variations.is_empty() => {}
                    Some((game, _)) => game
                        .comments
                        .last_mut()
                        .expect("one list per move and one before")
                        .push(text.to_string()),
                    None => self.leading_comments.push(text.to_string()),
                }
            }
            Kind::Open => {
                self.start_movetext()?;
                let (game, _) = self.movetext.as_ref().expect("started");
                let has_move = match self.variations.last() {
                    Some(&(_, has_move)) => has_move,
                    None => !game.moves.is_empty(),
                };
                if !has_move {
                    return Err((
                        line,
                        "a variation `(` before any move it could stand for".into(),
                    ));
                }
                self.variations.push((line, false));
            }
            Kind::Close => {
                if self.variations.pop().is_none() {
                    return Err((line, "a `)` with no `(` before it".into()));
                }
            }
            Kind::Ignored => self.start_movetext()?,
            Kind::Move(word, san) => {
                self.start_movetext()?;
                match self.variations.last_mut() {
                    Some((_, has_move)) => *has_move = true,
                    None => self.play(word, &san).map_err(|reason| (line, reason))?,
                }
            }
            Kind::Result(result) => {
                self.start_movetext()?;
                if let Some(&(open, _)) = self.variations.last() {
                    return Err((
                        line,
                        format!(
                            "the result `{result}` inside the variation opened at line {open}: a `)` is missing"
                        ),
                    ));
                }
                let (mut game, _) = self.movetext.take().expect("started");
                // The standard has the marker repeat the `Result` tag; a tag that is no
                // marker ("?") says nothing to compare.
                if let Some(tag) = game.tag("Result").filter(|t| TERMINATIONS.contains(t))
                    && tag != result
                {
                    return Err((
                        line,
                        format!("the result `{result}` differs from the Result tag's `{tag}`"),
                    ));
                }
                game.result = result.to_string();
                return Ok(Some(game));
            }
        }
        Ok(None)
    }

    /// Play a move of the main line.
    fn play(&mut self, word: &str, san: &SanPlus) -> Result<(), String> {
        let (game, position) = self.movetext.as_mut().expect("started");
        match san.san.to_move(position) {
            Ok(m) => {
                position.play_unchecked(m);
                game.moves.push(m);
                game.comments.push(Vec::new());
                Ok(())
            }
            Err(_) => {
                let ply = game.moves.len();
                let number = game.start.fullmoves().get() as usize
                    + (ply + usize::from(game.start.turn() == Color::Black)) / 2;
                let dots = if position.turn() == Color::White {
                    "."
                } else {
                    "..."
                };
                Err(format!(
                    "move {number}{dots}{} is not legal in {} ({})",
                    echo(word),
                    position::fen_of(position),
                    game.players()
                ))
            }
        }
    }
}

/// Read every game of a PGN text; the first malformation, or the first game that cannot
/// be played, is the error (with the game's number and the line).
pub fn read_games(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    let mut lexer = Lexer::new(text);
    let mut games: Vec<PgnGame> = Vec::new();
    let mut game = GameReader::new();
    loop {
        let number = games.len() + 1;
        let fail = |(line, reason): Malformed| PgnError::Game {
            game: number,
            line,
            reason,
        };
        let Some(token) = lexer.next_token().map_err(fail)? else {
            if game.movetext.is_some() || !game.tags.is_empty() {
                return Err(fail(game.unfinished(game.last_line, "the end of the file")));
            }
            // Comments after the last game's result are its own.
            if let Some(last) = games.last_mut() {
                last.comments
                    .last_mut()
                    .expect("one list per move and one before")
                    .append(&mut game.leading_comments);
            }
            return Ok(games);
        };
        if let Some(done) = game.read(token).map_err(fail)? {
            games.push(done);
            game = GameReader::new();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error of reading `text`.
    fn error(text: &str) -> String {
        match read_games(text) {
            Ok(games) => panic!("{text:?} read as {} games", games.len()),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn every_malformation_names_its_game_and_line() {
        let two = "[Event \"a\"]\n\n1. e4 e5 *\n\n";
        for (text, expected) in [
            // Variations.
            (
                "1. e4 (1. d4 e5 2. Nf3 *\n",
                "game 1, line 1: the result `*` inside the variation opened at line 1: a `)` is missing",
            ),
            (
                "1. e4 ((((((\n",
                "game 1, line 1: a variation `(` before any move it could stand for",
            ),
            (
                "1. e4 e5\n(2. d4\n",
                "game 1, line 2: the variation `(` opened here is never closed (no `)` before the end of the file)",
            ),
            ("1. e4 e5 ) 2. Nf3 *\n", "game 1, line 1: a `)` with no `(` before it"),
            (
                "(1. d4) 1. e4 *\n",
                "game 1, line 1: a variation `(` before any move it could stand for",
            ),
            // Comments.
            (
                "1. e4 {never\nclosed e5 *\n",
                "game 1, line 1: a comment `{` that is never closed (no `}` to the end of the file)",
            ),
            ("1. e4 } e5 *\n", "game 1, line 1: a `}` with no `{` before it"),
            // Tag pairs.
            (
                "[White \"x\n\n1. e4 *\n",
                "game 1, line 1: a tag value that is never closed (no `\"` before the end of the line): `[White \"x`",
            ),
            (
                "[White \"x\"\n\n1. e4 *\n",
                "game 1, line 1: a tag pair that is never closed (no `]` after its value): `[White \"x\"`",
            ),
            (
                "[White x]\n\n1. e4 *\n",
                "game 1, line 1: a tag pair without a value in double quotes: `[White x]`",
            ),
            ("[\"x\"]\n*\n", "game 1, line 1: a tag pair without a name: `[\"x\"]`"),
            ("1. e4 ] *\n", "game 1, line 1: a `]` with no `[` before it"),
            // Results.
            (
                "[White \"x\"]\n\n1. e4 e5\n",
                "game 1, line 3: the game has no result (1-0, 0-1, 1/2-1/2 or *) before the end of the file",
            ),
            (
                "[White \"x\"]\n",
                "game 1, line 1: the game has no result (1-0, 0-1, 1/2-1/2 or *) before the end of the file",
            ),
            (
                &format!("{two}[Event \"b\"]\n\n1. d4\n\n[Event \"c\"]\n\n1. c4 *\n"),
                "game 2, line 9: the game has no result (1-0, 0-1, 1/2-1/2 or *) before the tags of the next game",
            ),
            (
                "1. e4 (1. d4) (1. c4\n\n[Event \"c\"]\n",
                "game 1, line 1: the variation `(` opened here is never closed (no `)` before the tags of the next game)",
            ),
            // Words that are nothing of PGN.
            (
                &format!("{two}1. e4 hello e5 *\n"),
                "game 2, line 5: `hello` is not a move, a move number, a NAG, a comment or a result",
            ),
            (
                "1. e4xyz e5 *\n",
                "game 1, line 1: `e4xyz` is not a move, a move number, a NAG, a comment or a result",
            ),
            (
                "1. e4 \"e5\" *\n",
                "game 1, line 1: `\"e5\"` is not a move, a move number, a NAG, a comment or a result",
            ),
            (
                "1. e4 \u{feff}e5 *\n",
                "game 1, line 1: `\\u{feff}e5` is not a move, a move number, a NAG, a comment or a result",
            ),
        ] {
            assert_eq!(error(text), expected, "{text:?}");
        }
    }

    #[test]
    fn the_import_formats_leniencies_are_read() {
        let text = "% an escape line\n[Event \"a \\\"b\\\" c:\\\\d \\e\"]\n\n\
                    {before} 1.e4! e5?! 2 Nf3 $1 ; to the end of the line ( { } )\n\n\
                    2... Nc6 3. Bc4 Nf6 4. 0-0 (4. d3 (4. Nc3) d6) Be7 {after} 1-0 {trailing}\n\
                    1. d4 d5 *";
        let games = read_games(text).unwrap();
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tag("Event"), Some("a \"b\" c:\\d \\e"));
        assert_eq!(g.moves.len(), 8);
        assert_eq!(g.comments[0], ["before"]);
        assert_eq!(g.comments[8], ["after"]);
        assert_eq!(g.result, "1-0");
        // A comment between two games is the next one's.
        assert_eq!(games[1].comments[0], ["trailing"]);
        assert_eq!(games[1].moves.len(), 2);
        // Comments after the last game are its own; CR LF lines are lines.
        let games = read_games("1. e4 *\r\n{a last word}\r\n").unwrap();
        assert_eq!(games[0].comments[1], ["a last word"]);
        let err = read_games("1. e4 e5\r\n2. Ke2 Ke7 3. Ke3 Ke6 4. Kf5 *\r\n").unwrap_err();
        assert!(
            err.to_string().starts_with("game 1, line 2: move 4.Kf5"),
            "{err}"
        );
    }
}
