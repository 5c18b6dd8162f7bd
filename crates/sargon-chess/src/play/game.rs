//! One game between two players: the opening's moves, then the engines in turn until the
//! rules end the game, the move cap is reached, or an engine fails; and the game in PGN.

use std::time::Duration;

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position};

use super::{Opening, Player};
use crate::pgn::{self, GameText, MoveText};
use sargon_engines::uci_client::{ClientError, EngineScore, Limit};

/// What an engine said about its move.
#[derive(Clone, Debug)]
pub struct MoveInfo {
    /// The engine's score for the move, if it gave one.
    pub score: Option<EngineScore>,
    /// The depth it reached, if it said.
    pub depth: Option<u32>,
    /// The time the move took.
    pub elapsed: Duration,
    /// Sargon played it from its opening book, without a search.
    pub book: bool,
}

impl MoveInfo {
    /// The PGN comment: `+0.35/4 0.21s` (score for the mover in pawns / depth, time), or
    /// `book`.
    pub(crate) fn comment(&self) -> String {
        if self.book {
            return "book".to_string();
        }
        let time = format!("{:.2}s", self.elapsed.as_secs_f64());
        match (self.score, self.depth) {
            (Some(s), Some(d)) => format!("{}/{d} {time}", s.pawns_text()),
            (Some(s), None) => format!("{} {time}", s.pawns_text()),
            (None, _) => time,
        }
    }
}

/// A move of the game.
#[derive(Clone, Debug)]
pub struct GameMove {
    /// The move.
    pub mv: Move,
    /// The move in SAN, from the position before it.
    pub san: String,
    /// `None` for a move of the opening, which no engine chose.
    pub info: Option<MoveInfo>,
}

/// The result, as PGN writes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// 1-0.
    WhiteWins,
    /// 0-1.
    BlackWins,
    /// 1/2-1/2.
    Draw,
}

impl GameResult {
    /// The result as PGN writes it.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

/// How an engine failed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// Its `bestmove` was not a legal move.
    IllegalMove,
    /// It exited (or could not be started again).
    Exited,
    /// It did not answer in time.
    Timeout,
}

/// Why the game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The side to move is mated.
    Checkmate,
    /// The side to move has no move and is not in check.
    Stalemate,
    /// The same position for the third time.
    ThreefoldRepetition,
    /// Fifty moves by each side without a capture or a pawn move.
    FiftyMoves,
    /// Neither side can mate.
    InsufficientMaterial,
    /// `--max-moves`: this many moves per side were played; a draw by adjudication.
    MoveCap(u32),
    /// The engine playing `side` failed; it loses the game.
    Failure {
        /// The side whose engine failed.
        side: Color,
        /// How it failed.
        kind: FailureKind,
        /// What went wrong, for the record.
        error: String,
    },
}

impl Ending {
    /// The PGN `Termination` tag: `normal` for the rules, `adjudication` for the move cap,
    /// `rules infraction` for an illegal move, `abandoned` for an engine that died or hung.
    pub(crate) fn termination(&self) -> &'static str {
        match self {
            Ending::MoveCap(_) => "adjudication",
            Ending::Failure {
                kind: FailureKind::IllegalMove,
                ..
            } => "rules infraction",
            Ending::Failure { .. } => "abandoned",
            _ => "normal",
        }
    }

    /// In words, for the last comment and the progress line; `winner` for a mate.
    pub fn describe(&self, result: GameResult) -> String {
        let side = |c: Color| match c {
            Color::White => "White",
            Color::Black => "Black",
        };
        match self {
            Ending::Checkmate => match result {
                GameResult::WhiteWins => "White mates".to_string(),
                _ => "Black mates".to_string(),
            },
            Ending::Stalemate => "Draw by stalemate".to_string(),
            Ending::ThreefoldRepetition => "Draw by threefold repetition".to_string(),
            Ending::FiftyMoves => "Draw by the fifty-move rule".to_string(),
            Ending::InsufficientMaterial => "Draw by insufficient material".to_string(),
            Ending::MoveCap(n) => format!("Draw by adjudication: {n} moves each were played"),
            Ending::Failure { side: s, kind, .. } => {
                let what = match kind {
                    FailureKind::IllegalMove => "played an illegal move",
                    FailureKind::Exited => "exited",
                    FailureKind::Timeout => "did not answer in time",
                };
                format!("{} {what}: {} wins", side(*s), side(!*s))
            }
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Game {
    /// From 1.
    pub round: usize,
    /// White's name, for the PGN tags.
    pub white: String,
    /// Black's name, for the PGN tags.
    pub black: String,
    /// White's limit per move.
    pub white_limit: Limit,
    /// Black's limit per move.
    pub black_limit: Limit,
    /// Where the game started.
    pub opening: Opening,
    /// The opening's moves first, then the engines'.
    pub moves: Vec<GameMove>,
    /// How it ended for the score table.
    pub result: GameResult,
    /// Why it ended.
    pub ending: Ending,
}

impl Game {
    /// The moves the engines played (the opening's not counted).
    pub fn engine_moves(&self) -> usize {
        self.moves.iter().filter(|m| m.info.is_some()).count()
    }

    /// The game in PGN, with `event`, `site` and `date` for the Seven Tag Roster.
    pub fn to_pgn(&self, event: &str, site: &str, date: &str) -> String {
        let mut tags: Vec<(String, String)> = vec![
            ("Event".into(), event.into()),
            ("Site".into(), site.into()),
            ("Date".into(), date.into()),
            ("Round".into(), self.round.to_string()),
            ("White".into(), self.white.clone()),
            ("Black".into(), self.black.clone()),
            ("Result".into(), self.result.pgn().into()),
        ];
        tags.extend(pgn::setup_tags(&self.opening.start));
        tags.push(("PlyCount".into(), self.moves.len().to_string()));
        tags.push(("Termination".into(), self.ending.termination().into()));
        let (w, b) = (
            time_control(&self.white_limit),
            time_control(&self.black_limit),
        );
        if w == b {
            tags.push(("TimeControl".into(), w));
        } else {
            tags.push(("TimeControl".into(), "?".into()));
            tags.push(("WhiteTimeControl".into(), w));
            tags.push(("BlackTimeControl".into(), b));
        }
        if let Some(name) = &self.opening.name {
            tags.push(("Opening".into(), name.clone()));
        }
        let mut moves: Vec<MoveText> = self
            .moves
            .iter()
            .map(|m| {
                let text = MoveText::new(m.san.clone());
                match &m.info {
                    Some(info) => text.with_comment(info.comment()),
                    None => text,
                }
            })
            .collect();
        let mut comments = Vec::new();
        let last_words = match &self.ending {
            Ending::Failure { error, .. } => {
                format!("{}. {error}", self.ending.describe(self.result))
            }
            e => e.describe(self.result),
        };
        match moves.last_mut() {
            Some(last) => last.comments.push(last_words),
            None => comments.push(last_words),
        }
        pgn::write_game(&GameText {
            tags,
            start: self.opening.start.clone(),
            comments,
            moves,
            result: self.result.pgn().to_string(),
        })
    }
}

/// A side's `TimeControl`: `1/T` (one move in T seconds) for a time per move alone, `-` (no
/// clock) when depth or nodes limit the move.
pub(crate) fn time_control(limit: &Limit) -> String {
    match (limit.movetime, limit.depth, limit.nodes) {
        (Some(t), None, None) => {
            let secs = format!("{:.3}", t.as_secs_f64());
            let secs = secs.trim_end_matches('0').trim_end_matches('.');
            format!("1/{secs}")
        }
        _ => "-".to_string(),
    }
}

/// The positions seen so far, for the repetition rule.
#[derive(Clone, Debug, Default)]
pub struct RepetitionHistory(Vec<u64>);

impl RepetitionHistory {
    fn key(pos: &Chess) -> u64 {
        // Board, side to move, castling rights and a *legal* en passant: the identity of a
        // position for the repetition rule.
        let z: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
        z.0
    }

    /// Note a position reached.
    pub fn push(&mut self, pos: &Chess) {
        self.0.push(RepetitionHistory::key(pos));
    }

    /// How often the latest position has occurred.
    pub fn repetitions(&self) -> usize {
        let Some(last) = self.0.last() else { return 0 };
        self.0.iter().filter(|k| *k == last).count()
    }
}

/// Has the game ended by the rules (checked in this order: mate, stalemate, insufficient
/// material, threefold repetition, fifty moves)?
pub fn rules_ending(pos: &Chess, repetitions: usize) -> Option<(GameResult, Ending)> {
    if pos.is_checkmate() {
        return Some((GameResult::win_for(!pos.turn()), Ending::Checkmate));
    }
    if pos.is_stalemate() {
        return Some((GameResult::Draw, Ending::Stalemate));
    }
    if pos.is_insufficient_material() {
        return Some((GameResult::Draw, Ending::InsufficientMaterial));
    }
    if repetitions >= 3 {
        return Some((GameResult::Draw, Ending::ThreefoldRepetition));
    }
    if pos.halfmoves() >= 100 {
        return Some((GameResult::Draw, Ending::FiftyMoves));
    }
    None
}

fn failure(side: Color, error: ClientError) -> (GameResult, Ending) {
    let kind = match error {
        ClientError::IllegalMove { .. } => FailureKind::IllegalMove,
        ClientError::Timeout { .. } => FailureKind::Timeout,
        _ => FailureKind::Exited,
    };
    (
        GameResult::win_for(!side),
        Ending::Failure {
            side,
            kind,
            error: error.to_string(),
        },
    )
}

/// Play one game from `opening`; `max_moves` caps the moves each engine plays.
pub fn play_game(
    white: &mut Player,
    black: &mut Player,
    opening: &Opening,
    max_moves: Option<u32>,
    round: usize,
) -> Game {
    let mut pos = opening.start.clone();
    let mut history = RepetitionHistory(Vec::new());
    history.push(&pos);
    let mut moves: Vec<GameMove> = Vec::new();
    let mut played: Vec<Move> = Vec::new();
    for m in &opening.moves {
        let san = shakmaty::san::SanPlus::from_move_and_play_unchecked(&mut pos, *m);
        history.push(&pos);
        played.push(*m);
        moves.push(GameMove {
            mv: *m,
            san: san.to_string(),
            info: None,
        });
    }
    let mut engine_plies = 0u32;
    let started = [
        (Color::White, white.new_game()),
        (Color::Black, black.new_game()),
    ];
    let mut end = started
        .into_iter()
        .find_map(|(side, r)| r.err().map(|e| failure(side, e)));
    while end.is_none() {
        if let Some(e) = rules_ending(&pos, history.repetitions()) {
            end = Some(e);
            break;
        }
        if let Some(cap) = max_moves
            && engine_plies >= 2 * cap
        {
            end = Some((GameResult::Draw, Ending::MoveCap(cap)));
            break;
        }
        let side = pos.turn();
        let player = match side {
            Color::White => &mut *white,
            Color::Black => &mut *black,
        };
        match player.choose(&opening.start, &played, &pos) {
            Ok((reply, book)) => {
                let san =
                    shakmaty::san::SanPlus::from_move_and_play_unchecked(&mut pos, reply.best);
                history.push(&pos);
                played.push(reply.best);
                engine_plies += 1;
                moves.push(GameMove {
                    mv: reply.best,
                    san: san.to_string(),
                    info: Some(MoveInfo {
                        score: reply.score,
                        depth: reply.depth,
                        elapsed: reply.elapsed,
                        book,
                    }),
                });
            }
            Err(e) => end = Some(failure(side, e)),
        }
    }
    let (result, ending) = end.expect("the loop ends with an ending");
    Game {
        round,
        white: white.name().to_string(),
        black: black.name().to_string(),
        white_limit: white.limit(),
        black_limit: black.limit(),
        opening: opening.clone(),
        moves,
        result,
        ending,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sargon_core::position::parse_position;

    #[test]
    fn the_rules_in_order() {
        let mate = parse_position("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1").unwrap();
        assert_eq!(
            rules_ending(&mate, 1),
            Some((GameResult::WhiteWins, Ending::Checkmate))
        );
        let stalemate = parse_position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(rules_ending(&stalemate, 1).unwrap().1, Ending::Stalemate);
        let bare = parse_position("8/8/4k3/8/8/3NK3/8/8 w - - 0 1").unwrap();
        assert_eq!(
            rules_ending(&bare, 1).unwrap().1,
            Ending::InsufficientMaterial
        );
        let rooks = parse_position("8/8/4k3/8/8/3RK3/8/8 w - - 99 80").unwrap();
        assert_eq!(rules_ending(&rooks, 1), None);
        assert_eq!(
            rules_ending(&rooks, 3).unwrap().1,
            Ending::ThreefoldRepetition
        );
        let fifty = parse_position("8/8/4k3/8/8/3RK3/8/8 w - - 100 80").unwrap();
        assert_eq!(rules_ending(&fifty, 1).unwrap().1, Ending::FiftyMoves);
        // Mate on the hundredth half-move is mate.
        let mate50 = parse_position("R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 90").unwrap();
        assert_eq!(rules_ending(&mate50, 1).unwrap().1, Ending::Checkmate);
    }

    #[test]
    fn repetition_counts_positions_not_moves() {
        let mut pos = Chess::default();
        let mut h = RepetitionHistory(Vec::new());
        h.push(&pos);
        for uci in [
            "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
        ] {
            let m: shakmaty::uci::UciMove = uci.parse().unwrap();
            pos.play_unchecked(m.to_move(&pos).unwrap());
            h.push(&pos);
        }
        assert_eq!(h.repetitions(), 3);
    }

    #[test]
    fn comments_and_time_controls() {
        let info = MoveInfo {
            score: Some(EngineScore::Cp(35)),
            depth: Some(4),
            elapsed: Duration::from_millis(210),
            book: false,
        };
        assert_eq!(info.comment(), "+0.35/4 0.21s");
        let info = MoveInfo {
            score: None,
            depth: None,
            ..info
        };
        assert_eq!(info.comment(), "0.21s");
        let limit = |ms: u64| Limit {
            movetime: Some(Duration::from_millis(ms)),
            ..Limit::default()
        };
        assert_eq!(time_control(&limit(100)), "1/0.1");
        assert_eq!(time_control(&limit(2000)), "1/2");
        let depth = Limit {
            depth: Some(3),
            ..Limit::default()
        };
        assert_eq!(time_control(&depth), "-");
    }
}
