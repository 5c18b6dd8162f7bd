//! Matches: Sargon against another UCI engine, or against itself at another level.
//!
//! Both players are driven the same way, as UCI engines through a
//! `UciClient`: an outside engine as a process,
//! Sargon as a session of its own UCI front end in this process. So Sargon's time per move
//! is spent exactly as under a GUI (depth after depth until the time is used, see
//! [`crate::uci`]), its depth is the `FixedDepth` option, and its opening book plays
//! wherever [`sargon_core::position::Setup::plays_from_book`] says it does.
//!
//! * [`Opening`]: where games start (the initial position, EPD positions, or PGN games'
//!   end positions with their moves);
//! * [`Player`]: one side, started once and again after a failure;
//! * [`game::play_game`]: one game, ended by the rules, a move cap or a failing engine,
//!   and [`game::Game::to_pgn`];
//! * [`play_match`]: the games in order, each opening twice with the colours swapped, and
//!   the tally ([`crate::elo::Tally`]).

pub mod game;

use std::sync::Arc;
use std::time::Duration;

use shakmaty::{Chess, Move, Position};

use crate::batch::epd;
use crate::elo::Tally;
use crate::pgn;
use crate::uci::{EngineFactory, Settings};
use sargon_core::engine::Engine;
use sargon_engines::uci_client::{ClientError, Limit, Reply, UciClient};

use sargon_core::input::echo;
use sargon_core::position;
use sargon_core::position::Book;
use sargon_engines::engines::{EngineSpec, OpenError};

pub use game::{play_game, Ending, FailureKind, Game, GameMove, GameResult, MoveInfo};

/// Makes Sargon's engines, as often as a session needs one.
pub type SharedFactory =
    Arc<dyn Fn(&EngineSpec) -> Result<Box<dyn Engine + Send>, OpenError> + Send + Sync>;

/// The time an engine gets beyond its limit before it counts as hung, when a move has a
/// time limit: its time again plus this.
pub(crate) const TIMEOUT_MARGIN: Duration = Duration::from_secs(5);

/// The time an engine gets for a move limited by depth or nodes only.
pub(crate) const UNTIMED_TIMEOUT: Duration = Duration::from_secs(600);

/// Where a game starts: a position and the moves already played from it.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The position the game starts from.
    pub start: Chess,
    /// Moves played from it before the engines take over.
    pub moves: Vec<Move>,
    /// The EPD `id` or the PGN game's `Opening` tag, if any.
    pub name: Option<String>,
}

impl Opening {
    /// The initial position.
    pub(crate) fn initial() -> Opening {
        Opening {
            start: Chess::default(),
            moves: Vec::new(),
            name: None,
        }
    }

    /// The position the engines start from.
    pub fn position(&self) -> Chess {
        let mut pos = self.start.clone();
        for m in &self.moves {
            pos.play_unchecked(*m);
        }
        pos
    }

    /// Every position of an EPD file.
    pub fn from_epd(text: &str) -> Result<Vec<Opening>, OpeningsError> {
        let entries = epd::parse_epd(text).map_err(OpeningsError::Epd)?;
        Ok(entries
            .into_iter()
            .map(|e| Opening {
                start: e.position,
                moves: Vec::new(),
                name: e.id,
            })
            .collect())
    }

    /// Every game of a PGN file: its start and its main line.
    pub fn from_pgn(text: &str) -> Result<Vec<Opening>, OpeningsError> {
        let games = pgn::read_games(text).map_err(OpeningsError::Pgn)?;
        if games.is_empty() {
            return Err(OpeningsError::NoGames);
        }
        Ok(games
            .into_iter()
            .map(|g| Opening {
                name: g.tag("Opening").map(str::to_string),
                start: g.start,
                moves: g.moves,
            })
            .collect())
    }
}

/// Why a file of openings gives none ([`Opening::from_epd`], [`Opening::from_pgn`]). Each
/// says its cause once: none has a `source()`.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OpeningsError {
    /// Lines of an EPD file that hold no position: the message shows the first ten, one a
    /// line.
    #[error("{}", first_ten(.0))]
    Epd(Vec<epd::EpdError>),
    /// A PGN file that does not read.
    #[error("{0}")]
    Pgn(pgn::PgnError),
    /// A PGN file without a game.
    #[error("no games (a PGN file of openings holds games: tags and moves)")]
    NoGames,
}

/// The first ten of `errors`, one a line.
fn first_ten(errors: &[epd::EpdError]) -> String {
    let lines: Vec<String> = errors.iter().take(10).map(|e| e.to_string()).collect();
    lines.join("\n")
}

/// Why Sargon cannot play as a [`SargonSpec`] says ([`SargonSpec::check`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CheckError {
    /// No depth, time or node count: Sargon would not know when to move.
    #[error("Sargon needs a depth, a time per move or a node count")]
    NoLimit,
    /// A depth the engine does not search.
    #[error("{0}")]
    Depth(sargon_core::SearchError),
}

/// Why `sargon:KEY=VALUE,...` names no Sargon opponent ([`SargonSpec::parse_opponent`]).
/// Each message quotes the one part at fault, once: the caller names the option.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OpponentError {
    /// A part without `=`.
    #[error("`{}`: expected KEY=VALUE", echo(.0))]
    NotKeyValue(String),
    /// A number (`depth`, `movetime`, `nodes`) out of its range or no number.
    #[error("{key}: {refused}")]
    Number {
        /// The key, lower case.
        key: String,
        /// Why the number was refused.
        refused: sargon_core::input::WholeNumberError,
    },
    /// An `engine=` that names no engine.
    #[error("{0}")]
    Engine(sargon_engines::engines::SpecError),
    /// A `book=` neither on nor off.
    #[error("book: `{}` is neither on nor off", echo(.0))]
    Book(String),
    /// A key Sargon does not have.
    #[error("unknown key `{}` in the Sargon opponent (depth, movetime, nodes, engine, book)", echo(.0))]
    UnknownKey(String),
}

/// Sargon as a player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SargonSpec {
    /// Which engine searches: the port, the original in the emulator, or another
    /// person's port (`exec:`, `uci:`).
    pub engine: EngineSpec,
    /// A depth is Sargon's `FixedDepth`; a time is spent depth after depth.
    pub limit: Limit,
    /// Sargon plays its own opening book where the position allows.
    pub book: bool,
    /// The byte the book reads for its choice (bit 0: 1.e4 or 1.d4).
    pub book_random: u8,
}

impl SargonSpec {
    /// Check the limit against the engine before any game.
    pub fn check(&self) -> Result<(), CheckError> {
        if self.limit.is_empty() {
            return Err(CheckError::NoLimit);
        }
        if let Some(d) = self.limit.depth {
            let d = u8::try_from(d).unwrap_or(u8::MAX);
            self.engine.check_depth(d).map_err(CheckError::Depth)?;
        }
        Ok(())
    }

    /// "Sargon 1978 (port, depth 3)", with "no book" when the book is off.
    pub(crate) fn label(&self) -> String {
        let book = if self.book { "" } else { ", no book" };
        format!("Sargon 1978 ({}, {}{book})", self.engine, self.limit)
    }

    /// `sargon` or `sargon:KEY=VALUE,...` (keys `depth`, `movetime` in ms, `nodes`,
    /// `engine` port|emulator, `book` on|off), with `base` for what is not given; `None`
    /// when `text` names another program.
    pub fn parse_opponent(
        text: &str,
        base: &SargonSpec,
    ) -> Option<Result<SargonSpec, OpponentError>> {
        let text = text.trim();
        let rest = if text.eq_ignore_ascii_case("sargon") {
            ""
        } else {
            let (head, rest) = text.split_once(':')?;
            if !head.eq_ignore_ascii_case("sargon") {
                return None;
            }
            rest
        };
        Some(Self::parse_keys(rest, base))
    }

    fn parse_keys(text: &str, base: &SargonSpec) -> Result<SargonSpec, OpponentError> {
        let mut spec = base.clone();
        let mut limit = Limit::default();
        // Each message quotes the one part at fault, once: the caller names the option.
        for pair in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = pair
                .split_once('=')
                .ok_or_else(|| OpponentError::NotKeyValue(pair.to_string()))?;
            let key = key.trim().to_ascii_lowercase();
            // The same ranges as the command line's --depth, --movetime and
            // --opponent-nodes (src/cli/numbers.rs); the engine's own depth limit is
            // checked by `check`.
            let number = |lo, hi| {
                sargon_core::input::whole_number(value, lo, hi).map_err(|refused| {
                    OpponentError::Number {
                        key: key.clone(),
                        refused,
                    }
                })
            };
            match key.as_str() {
                "depth" => limit.depth = Some(number(1, u64::from(u8::MAX))? as u32),
                "movetime" => {
                    limit.movetime = Some(Duration::from_millis(number(1, 24 * 3600 * 1000)?))
                }
                "nodes" => limit.nodes = Some(number(1, 1_000_000_000_000)?),
                "engine" => spec.engine = value.parse().map_err(OpponentError::Engine)?,
                "book" => {
                    spec.book = match value.to_ascii_lowercase().as_str() {
                        "on" | "true" | "yes" => true,
                        "off" | "false" | "no" => false,
                        _ => return Err(OpponentError::Book(value.to_string())),
                    }
                }
                other => return Err(OpponentError::UnknownKey(other.to_string())),
            }
        }
        if !limit.is_empty() {
            spec.limit = limit;
        }
        Ok(spec)
    }
}

/// Another UCI engine as a player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciSpec {
    /// The command line that starts it.
    pub command: String,
    /// `setoption` pairs, in order.
    pub options: Vec<(String, String)>,
    /// How long it thinks per move.
    pub limit: Limit,
}

/// One side of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PlayerSpec {
    /// Sargon, run in this process.
    Sargon(SargonSpec),
    /// Another UCI engine, started as a child process.
    Uci(UciSpec),
}

/// A player: its description and, while it runs, its connection.
pub struct Player {
    spec: PlayerSpec,
    factory: Option<SharedFactory>,
    client: Option<UciClient>,
    name: String,
    /// Overrides the timeouts derived from the limit.
    move_timeout: Option<Duration>,
    /// Sargon searches every move at its depth, instead of carrying the depth from move to
    /// move as the original does (UCI option `CarryDepth` off).
    fresh_depth: bool,
}

impl Player {
    /// Sargon, its engines made by `factory`.
    pub fn sargon(spec: SargonSpec, factory: SharedFactory) -> Player {
        Player {
            name: spec.label(),
            spec: PlayerSpec::Sargon(spec),
            factory: Some(factory),
            client: None,
            move_timeout: None,
            fresh_depth: false,
        }
    }

    /// An outside engine; its name is known once it has started.
    pub fn uci(spec: UciSpec) -> Player {
        Player {
            name: spec.command.clone(),
            spec: PlayerSpec::Uci(spec),
            factory: None,
            client: None,
            move_timeout: None,
            fresh_depth: false,
        }
    }

    /// Give up on a move after `timeout` instead of the default (the limit's time plus
    /// itself plus `TIMEOUT_MARGIN`, or `UNTIMED_TIMEOUT`).
    pub fn with_move_timeout(mut self, timeout: Option<Duration>) -> Player {
        self.move_timeout = timeout;
        self
    }

    /// Search every move at the depth given (`true`), or carry the depth from move to move
    /// as the original does (`false`, the default: two plies less after a mate is found).
    pub fn with_fresh_depth(mut self, fresh: bool) -> Player {
        self.fresh_depth = fresh;
        self
    }

    /// "Sargon 1978 (port, depth 3)", or the engine's `id name` with its limit and options.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Give the player another name (two players of a match must differ).
    pub fn rename(&mut self, name: String) {
        self.name = name;
    }

    /// The limit of each move.
    pub(crate) fn limit(&self) -> Limit {
        match &self.spec {
            PlayerSpec::Sargon(s) => s.limit,
            PlayerSpec::Uci(u) => u.limit,
        }
    }

    fn timeout(&self) -> Duration {
        if let Some(t) = self.move_timeout {
            return t;
        }
        match self.limit().movetime {
            Some(t) => 2 * t + TIMEOUT_MARGIN,
            None => UNTIMED_TIMEOUT,
        }
    }

    /// Start the engine if it is not running: the handshake, the options, `isready`.
    pub fn start(&mut self) -> Result<(), ClientError> {
        if self.client.is_some() {
            return Ok(());
        }
        let client = match &self.spec {
            PlayerSpec::Sargon(s) => {
                let shared = self.factory.clone().expect("Sargon players have a factory");
                // The UCI session makes its engine when first asked and, should that fail,
                // plays on with a stand-in move: find out here, and refuse.
                let engine = shared(&s.engine).map_err(|e| ClientError::Start {
                    command: s.label(),
                    reason: e.to_string(),
                })?;
                // The name goes into every game's tags: a ROM that did not behave as the
                // known image must show there, not only in a warning on stderr.
                if let Some(rom) = engine.rom_id().filter(|r| !r.verified) {
                    self.name = format!("{} [ROM {} NOT VERIFIED]", s.label(), rom.name);
                }
                let factory: EngineFactory = Box::new(move |spec| shared(spec));
                let settings = Settings {
                    engine: s.engine.clone(),
                    fixed_depth: s.limit.depth.map_or(0, |d| d.min(255) as u8),
                    book: s.book,
                    book_random: s.book_random,
                    carry_depth: !self.fresh_depth,
                    ..Settings::default()
                };
                let mut c = crate::uci::client_in_process(factory, settings)?;
                c.ready()?;
                c
            }
            PlayerSpec::Uci(u) => {
                let mut c = UciClient::spawn(&u.command)?;
                for (name, value) in &u.options {
                    c.set_option(name, value)?;
                }
                c.ready()?;
                let mut details = vec![u.limit.to_string()];
                details.extend(u.options.iter().map(|(n, v)| format!("{n}={v}")));
                self.name = format!("{} ({})", c.name(), details.join(", "));
                c
            }
        };
        self.client = Some(client);
        Ok(())
    }

    /// Get ready for a new game (starting the engine again if it failed before).
    pub(crate) fn new_game(&mut self) -> Result<(), ClientError> {
        self.start()?;
        let result = self.client.as_mut().expect("started").new_game();
        if result.is_err() {
            self.client = None;
        }
        result
    }

    /// The player's move in `pos`, reached by `moves` from `start`; with it, whether it
    /// came from Sargon's book. After an error the engine is stopped, to be started again
    /// for the next game.
    pub(crate) fn choose(
        &mut self,
        start: &Chess,
        moves: &[Move],
        pos: &Chess,
    ) -> Result<(Reply, bool), ClientError> {
        self.start()?;
        let timeout = self.timeout();
        let (limit, book) = match &self.spec {
            PlayerSpec::Sargon(s) => {
                let in_book = s.book
                    && position::setup(pos, Book::Allowed)
                        .is_ok_and(|setup| setup.plays_from_book());
                // The depth is the FixedDepth option, set at the start.
                let limit = Limit {
                    depth: None,
                    ..s.limit
                };
                (limit, in_book)
            }
            PlayerSpec::Uci(u) => (u.limit, false),
        };
        let client = self.client.as_mut().expect("started");
        match client.go(start, moves, pos, &limit, timeout) {
            Ok(reply) => Ok((reply, book)),
            Err(e) => {
                self.client = None;
                Err(e)
            }
        }
    }
}

/// How a match is played.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// Games in all; each opening is played twice, colours swapped, in turn.
    pub games: usize,
    /// Moves per side after the opening before a game is adjudicated a draw.
    pub max_moves: Option<u32>,
    /// Games already played in an earlier session: the match goes on with game
    /// `first + 1` (its opening and colours as in an unbroken match).
    pub first: usize,
}

/// Game `index` (from 0): which opening, and whether the first player has White.
pub(crate) fn schedule(index: usize, openings: usize) -> (usize, bool) {
    ((index / 2) % openings.max(1), index.is_multiple_of(2))
}

/// Play the match between `first` and `second`; `on_game` sees each game as it ends with
/// the tally so far (from `first`'s side). Returns that tally.
pub fn play_match(
    first: &mut Player,
    second: &mut Player,
    openings: &[Opening],
    settings: &MatchSettings,
    mut on_game: impl FnMut(&Game, &Tally),
) -> Tally {
    let mut tally = Tally::default();
    let initial = [Opening::initial()];
    let openings = if openings.is_empty() {
        &initial[..]
    } else {
        openings
    };
    for index in settings.first..settings.games {
        let (o, first_white) = schedule(index, openings.len());
        let game = if first_white {
            play_game(first, second, &openings[o], settings.max_moves, index + 1)
        } else {
            play_game(second, first, &openings[o], settings.max_moves, index + 1)
        };
        let first_won = match game.result {
            GameResult::WhiteWins => Some(first_white),
            GameResult::BlackWins => Some(!first_white),
            GameResult::Draw => None,
        };
        match first_won {
            Some(true) => tally.wins += 1,
            Some(false) => tally.losses += 1,
            None => tally.draws += 1,
        }
        on_game(&game, &tally);
    }
    tally
}

/// The results of `player` (a White or Black tag's value) in `games`; games it did not
/// play and unfinished ones (`*`) are left out.
pub fn tally_of<'a>(games: impl IntoIterator<Item = &'a pgn::PgnGame>, player: &str) -> Tally {
    let mut tally = Tally::default();
    for g in games {
        let white = g.tag("White") == Some(player);
        let black = g.tag("Black") == Some(player);
        if white == black {
            continue;
        }
        match (g.result.as_str(), white) {
            ("1-0", true) | ("0-1", false) => tally.wins += 1,
            ("0-1", true) | ("1-0", false) => tally.losses += 1,
            ("1/2-1/2", _) => tally.draws += 1,
            _ => {}
        }
    }
    tally
}

/// The score table: games, wins, draws, losses and score for each player, then the Elo
/// difference of the first over the second.
pub fn score_table(first: &str, second: &str, tally: &Tally) -> String {
    let width = first.len().max(second.len()).max(6);
    let mut out = format!(
        "{:<width$}  {:>5}  {:>4}  {:>5}  {:>6}  {:>6}\n",
        "Engine", "Games", "Wins", "Draws", "Losses", "Score"
    );
    for (name, t) in [(first, *tally), (second, tally.reversed())] {
        let score = t
            .score()
            .map_or("-".to_string(), |s| format!("{:.1}%", 100.0 * s));
        out.push_str(&format!(
            "{name:<width$}  {:>5}  {:>4}  {:>5}  {:>6}  {score:>6}\n",
            t.games(),
            t.wins,
            t.draws,
            t.losses
        ));
    }
    if let Some(elo) = tally.elo() {
        out.push_str(&format!("Elo difference, {first} - {second}: {elo}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> SargonSpec {
        SargonSpec {
            engine: EngineSpec::Port,
            limit: Limit {
                depth: Some(3),
                ..Limit::default()
            },
            book: true,
            book_random: 0,
        }
    }

    #[test]
    fn tallies_from_pgn() {
        let text = "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
                    [White \"B\"]\n[Black \"A\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
                    [White \"B\"]\n[Black \"A\"]\n[Result \"1/2-1/2\"]\n\n1. d4 1/2-1/2\n\n\
                    [White \"C\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n1. d4 0-1\n\n\
                    [White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. c4 *\n";
        let games = pgn::read_games(text).unwrap();
        assert_eq!(games.len(), 5);
        let a = tally_of(&games, "A");
        assert_eq!((a.wins, a.draws, a.losses), (1, 1, 1));
        let b = tally_of(&games, "B");
        assert_eq!((b.wins, b.draws, b.losses), (2, 1, 1));
        assert_eq!(tally_of(&games, "D").games(), 0);
    }

    #[test]
    fn sargon_opponents() {
        assert!(SargonSpec::parse_opponent("stockfish", &base()).is_none());
        assert!(SargonSpec::parse_opponent("/usr/games/stockfish", &base()).is_none());
        let s = SargonSpec::parse_opponent("sargon", &base())
            .unwrap()
            .unwrap();
        assert_eq!(s, base());
        let s = SargonSpec::parse_opponent("sargon:depth=2,book=off", &base())
            .unwrap()
            .unwrap();
        assert_eq!(s.limit.depth, Some(2));
        assert!(!s.book);
        assert_eq!(s.label(), "Sargon 1978 (port, depth 2, no book)");
        let s = SargonSpec::parse_opponent("Sargon:movetime=300,engine=emulator", &base())
            .unwrap()
            .unwrap();
        assert_eq!(s.limit.depth, None, "a limit given replaces the base's");
        assert_eq!(s.limit.movetime, Some(Duration::from_millis(300)));
        assert_eq!(s.engine, EngineSpec::EMULATOR);
        for bad in [
            "sargon:depth",
            "sargon:depth=x",
            "sargon:speed=9",
            "sargon:book=maybe",
        ] {
            assert!(
                SargonSpec::parse_opponent(bad, &base()).unwrap().is_err(),
                "{bad}"
            );
        }
        let deep = SargonSpec {
            engine: EngineSpec::EMULATOR,
            limit: Limit {
                depth: Some(7),
                ..Limit::default()
            },
            ..base()
        };
        assert!(deep.check().unwrap_err().to_string().contains("1..=6"));
    }

    #[test]
    fn refusals_are_types_that_name_the_part_at_fault() {
        let refused = |text| {
            SargonSpec::parse_opponent(text, &base())
                .unwrap()
                .unwrap_err()
        };
        assert_eq!(
            refused("sargon:Speed=9"),
            OpponentError::UnknownKey("speed".into())
        );
        assert_eq!(
            refused("sargon:depth=0").to_string(),
            "depth: expected a whole number from 1 to 255, got `0`"
        );
        assert!(matches!(refused("sargon:depth"), OpponentError::NotKeyValue(p) if p == "depth"));
        let no_limit = SargonSpec {
            limit: Limit::default(),
            ..base()
        };
        assert!(matches!(no_limit.check(), Err(CheckError::NoLimit)));
        assert_eq!(Opening::from_pgn("").unwrap_err(), OpeningsError::NoGames);
        let lines = "x\n".repeat(12);
        let OpeningsError::Epd(errors) = Opening::from_epd(&lines).unwrap_err() else {
            panic!("an EPD file's errors")
        };
        assert_eq!(errors.len(), 12);
        let shown = OpeningsError::Epd(errors).to_string();
        assert_eq!(shown.lines().count(), 10, "{shown}");
    }

    #[test]
    fn each_opening_twice_with_colours_swapped() {
        let s: Vec<(usize, bool)> = (0..6).map(|i| schedule(i, 2)).collect();
        assert_eq!(
            s,
            [
                (0, true),
                (0, false),
                (1, true),
                (1, false),
                (0, true),
                (0, false)
            ]
        );
    }

    #[test]
    fn openings_from_files() {
        let o = Opening::from_epd("4k3/8/8/8/8/8/4P3/4K3 w - - id \"pawn\";\n").unwrap();
        assert_eq!(o[0].name.as_deref(), Some("pawn"));
        let o =
            Opening::from_pgn("[Opening \"Italian\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 *\n").unwrap();
        assert_eq!(o[0].moves.len(), 5);
        assert_eq!(o[0].name.as_deref(), Some("Italian"));
        assert_eq!(o[0].position().turn(), shakmaty::Color::Black);
        assert!(Opening::from_epd("nonsense w - -\n").is_err());
    }

    #[test]
    fn sargon_against_itself() {
        let factory: SharedFactory = Arc::new(|_| Ok(Box::new(sargon_port::Port::new())));
        let spec = |depth| SargonSpec {
            limit: Limit {
                depth: Some(depth),
                ..Limit::default()
            },
            ..base()
        };
        let mut a = Player::sargon(spec(2), factory.clone());
        let mut b = Player::sargon(spec(1), factory);
        let settings = MatchSettings {
            games: 2,
            max_moves: Some(6),
            first: 0,
        };
        let mut games = Vec::new();
        let tally = play_match(&mut a, &mut b, &[], &settings, |g, _| games.push(g.clone()));
        assert_eq!(tally.games(), 2);
        assert_eq!(games[0].white, "Sargon 1978 (port, depth 2)");
        assert_eq!(games[1].black, "Sargon 1978 (port, depth 2)");
        for g in &games {
            // The book answers the first move of each side: White's 1.e4 and Black's reply.
            assert!(g.moves[0].info.as_ref().unwrap().book);
            assert!(g.moves[1].info.as_ref().unwrap().book);
            assert!(!g.moves[2].info.as_ref().unwrap().book);
            assert!(g.engine_moves() <= 12);
            let pgn = g.to_pgn("test", "?", "2024.01.01");
            assert!(pgn.contains("[PlyCount \""), "{pgn}");
            assert!(pgn.contains("1. e4 {book}"), "{pgn}");
        }
        let table = score_table(&games[0].white, &games[0].black, &tally);
        assert!(table.contains("Elo difference"), "{table}");
    }
}
