//! `sargon play`: a match between Sargon and another UCI engine (or Sargon at another
//! level), with PGN out and a score table (see [`sargon_chess::play`]).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use shakmaty::Position;

use super::{open_with, CoreArgs, EngineArgs};
use sargon_chess::pgn;
use sargon_chess::play::{
    self, MatchSettings, Opening, Player, SargonSpec, SharedFactory, UciSpec,
};
use sargon_core::input::echo;
use sargon_core::outputs::{self, Files, Mode};
use sargon_engines::engines::EngineSpec;
use sargon_engines::uci_client::Limit;
use sargon_original::rom::RomStore;

#[derive(clap::Args, Debug)]
pub(crate) struct PlayArgs {
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(flatten)]
    pub core: CoreArgs,
    /// Sargon's depth per move (its FixedDepth) [default: 3, unless --movetime]
    #[arg(long, short, value_parser = super::parse_depth, allow_negative_numbers = true)]
    pub depth: Option<u8>,
    /// Sargon's time per move in milliseconds, spent depth after depth as under UCI
    #[arg(long, value_name = "MS", value_parser = super::numbers::milliseconds, allow_negative_numbers = true)]
    pub movetime: Option<u64>,
    /// Search every move afresh at --depth. By default Sargon plays in its own memory kept
    /// from move to move as the original did: two plies less after it found a mate, the
    /// royalty table and the men's flags as its moves left them (also a Sargon opponent's)
    #[arg(long)]
    pub fresh_depth: bool,
    /// The opponent: a UCI engine's command line (`stockfish`, "/path/engine --arg"), or
    /// `sargon[:depth=N,movetime=MS,nodes=N,engine=port|emulator,book=on|off]`
    #[arg(long, value_name = "COMMAND")]
    pub opponent: String,
    /// A UCI option for the opponent, e.g. UCI_Elo=1350 (repeatable)
    #[arg(long = "opponent-option", value_name = "NAME=VALUE")]
    pub opponent_options: Vec<String>,
    /// The opponent's time per move in milliseconds [default for a UCI engine without
    /// another limit: 1000]
    #[arg(long, value_name = "MS", value_parser = super::numbers::milliseconds, allow_negative_numbers = true)]
    pub opponent_movetime: Option<u64>,
    /// The opponent's depth per move
    #[arg(long, value_name = "N", value_parser = super::numbers::uci_depth, allow_negative_numbers = true)]
    pub opponent_depth: Option<u32>,
    /// The opponent's nodes per move
    #[arg(long, value_name = "N", value_parser = super::numbers::nodes, allow_negative_numbers = true)]
    pub opponent_nodes: Option<u64>,
    /// Start positions: an EPD file, or a PGN file (`.pgn`: each game's moves are played
    /// first); each opening is played twice, colours swapped
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Games in all [default: two per opening, or 2]
    #[arg(long, value_name = "N", value_parser = super::numbers::games, allow_negative_numbers = true)]
    pub games: Option<usize>,
    /// Adjudicate a draw after N moves per side (after the opening)
    #[arg(long, value_name = "N", value_parser = super::numbers::max_moves, allow_negative_numbers = true)]
    pub max_moves: Option<u32>,
    /// Append each game to this PGN file as it ends
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Go on with a match whose games are in --pgn: the games there count towards
    /// --games, and play resumes with the next opening and colours
    #[arg(long, requires = "pgn")]
    pub resume: bool,
    /// The PGN Event tag
    #[arg(long, default_value = "Sargon match")]
    pub event: String,
    /// The PGN Site tag
    #[arg(long, default_value = "?")]
    pub site: String,
    /// Seconds an engine may take for a move before it counts as hung [default: twice its
    /// time per move plus 5, or 600 without one]
    #[arg(long, value_name = "SECS", value_parser = super::numbers::timeout, allow_negative_numbers = true)]
    pub move_timeout: Option<f64>,
}

/// `NAME=VALUE`.
fn option_pair(text: &str) -> Result<(String, String)> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => bail!("--opponent-option `{}`: expected NAME=VALUE", echo(text)),
    }
}

/// The openings of an EPD or PGN file, each with a move to play (for `play` and
/// `history games`).
pub(super) fn read_openings(path: &Path) -> Result<Vec<Opening>> {
    let text =
        super::text::read_chess(path).with_context(|| format!("reading {}", super::shown(path)))?;
    let is_pgn = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
    let openings = if is_pgn {
        Opening::from_pgn(&text)
    } else {
        Opening::from_epd(&text)
    }
    .map_err(|e| anyhow::anyhow!("{}: {e}", super::shown(path)))?;
    if openings.is_empty() {
        bail!("{}: no openings in the file", super::shown(path));
    }
    for (i, o) in openings.iter().enumerate() {
        if o.position().legal_moves().is_empty() {
            bail!(
                "{}: opening {} is already over (no legal move)",
                path.display(),
                i + 1
            );
        }
    }
    Ok(openings)
}

pub(crate) fn run(store: &RomStore, args: PlayArgs) -> Result<()> {
    let pgn = args.pgn.clone();
    outputs::removing_an_empty_new_results_file(pgn.as_deref(), || play_the_match(store, args))
}

fn play_the_match(store: &RomStore, args: PlayArgs) -> Result<()> {
    if args.depth.is_some() && args.movetime.is_some() {
        bail!("give Sargon a --depth or a --movetime, not both");
    }
    Files::new()
        .input("--openings", args.openings.as_deref())
        .store(store.dir())
        .output("--pgn", args.pgn.as_deref(), Mode::Results)
        .check()?;
    let sargon_spec = SargonSpec {
        engine: args.engine.engine.clone(),
        limit: Limit {
            depth: match (args.depth, args.movetime) {
                (None, None) => Some(3),
                (d, _) => d.map(u32::from),
            },
            movetime: args.movetime.map(Duration::from_millis),
            nodes: None,
        },
        book: !args.engine.no_book,
        book_random: args.engine.book_random,
    };
    sargon_spec.check()?;
    let opponent_limit = Limit {
        depth: args.opponent_depth,
        movetime: args.opponent_movetime.map(Duration::from_millis),
        nodes: args.opponent_nodes,
    };
    let options = args
        .opponent_options
        .iter()
        .map(|o| option_pair(o))
        .collect::<Result<Vec<_>>>()?;
    // Within a week (`numbers::timeout`), which any Duration holds.
    let timeout = args.move_timeout.map(Duration::from_secs_f64);

    // The opponent: Sargon at another level, or another program.
    let base = SargonSpec {
        limit: if opponent_limit.is_empty() {
            sargon_spec.limit
        } else {
            opponent_limit
        },
        ..sargon_spec.clone()
    };
    let opponent_spec = SargonSpec::parse_opponent(&args.opponent, &base);
    let emulator_plays = sargon_spec.engine.is_emulator()
        || matches!(&opponent_spec, Some(Ok(spec)) if spec.engine.is_emulator());
    let core = args.core.name(
        emulator_plays,
        "Sargon plays on the port (--engine emulator, or engine=emulator in --opponent, runs the original)",
    )?;
    let open_options = super::open_options(store);
    let rom = args.engine.rom.clone();
    let factory: SharedFactory = Arc::new(move |spec: &EngineSpec| {
        let spec = spec
            .clone()
            .with_rom_and_core(rom.as_deref(), core.as_deref());
        open_with(&spec, &open_options)
    });
    let sargon_opponent = opponent_spec.is_some();
    let mut opponent = match opponent_spec {
        Some(spec) => {
            // The part at fault is quoted by the error, or is a setting such as the depth.
            let spec = spec.map_err(|e| anyhow::anyhow!("--opponent: {e}"))?;
            spec.check()
                .map_err(|e| anyhow::anyhow!("--opponent {}: {e}", echo(&args.opponent)))?;
            if !options.is_empty() {
                bail!("--opponent-option is for UCI engines; Sargon's settings go in sargon:KEY=VALUE");
            }
            Player::sargon(spec, factory.clone())
        }
        None => {
            let limit = if opponent_limit.is_empty() {
                Limit {
                    movetime: Some(Duration::from_millis(1000)),
                    ..Limit::default()
                }
            } else {
                opponent_limit
            };
            Player::uci(UciSpec {
                command: args.opponent.clone(),
                options,
                limit,
            })
        }
    }
    .with_move_timeout(timeout)
    .with_fresh_depth(args.fresh_depth);
    let mut sargon = Player::sargon(sargon_spec, factory)
        .with_move_timeout(timeout)
        .with_fresh_depth(args.fresh_depth);

    let openings = match &args.openings {
        Some(path) => read_openings(path)?,
        None => Vec::new(),
    };
    let games = args.games.unwrap_or(2 * openings.len().max(1));
    if games == 0 {
        bail!("--games 0: nothing to play");
    }
    // The PGN file is the match's for the whole run, locked before it is read: a second
    // match appending to it at the same time is refused.
    let mut pgn_file = args.pgn.as_deref().map(outputs::open_results).transpose()?;
    // The games file to resume is read before any engine starts: a malformed one is refused
    // before any work.
    let first = match (&args.pgn, args.resume) {
        (Some(path), true) if fs::metadata(path).is_ok_and(|m| m.len() > 0) => {
            let text = super::text::read_chess(path)
                .with_context(|| format!("reading {}", super::shown(path)))?;
            pgn::read_games(&text)
                .with_context(|| format!("{} is no PGN file to resume", super::shown(path)))?
                .len()
        }
        _ => 0,
    };
    // Two Sargons at fixed settings are deterministic: an opening and its colours give one
    // game, and the schedule cycles through the openings.
    let different = 2 * openings.len().max(1);
    if sargon_opponent && games > different {
        eprintln!(
            "note: Sargon against Sargon plays the same game again from the same opening and \
             colours: only the first {different} of {games} games can differ (give more \
             --openings); `sargon history strength` counts a repeat once"
        );
    }
    sargon.start().context("starting Sargon")?;
    opponent.start().context("starting the opponent")?;
    if opponent.name() == sargon.name() {
        let name = format!("{} #2", opponent.name());
        opponent.rename(name);
    }
    eprintln!(
        "{games} game{}: {} against {}{}",
        if games == 1 { "" } else { "s" },
        sargon.name(),
        opponent.name(),
        match &args.openings {
            Some(p) => format!(", {} openings from {}", openings.len(), super::shown(p)),
            None => String::new(),
        }
    );

    let date = pgn::today();
    let mut write_error = None;
    if first >= games {
        eprintln!(
            "{} already holds {first} games of {games}: nothing to play",
            args.pgn
                .as_ref()
                .map_or(String::new(), |p| p.display().to_string())
        );
        return Ok(());
    }
    if first > 0 {
        eprintln!("resuming after the {first} games already in the PGN file");
    }
    let settings = MatchSettings {
        games,
        max_moves: args.max_moves,
        first,
    };
    let (first, second) = (sargon.name().to_string(), opponent.name().to_string());
    let tally = play::play_match(
        &mut sargon,
        &mut opponent,
        &openings,
        &settings,
        |game, tally| {
            eprintln!(
                "game {}/{}: {} - {}: {} ({}), {} {}; Sargon +{} ={} -{}",
                game.round,
                games,
                game.white,
                game.black,
                game.result.pgn(),
                game.ending.describe(game.result),
                game.engine_moves(),
                if game.engine_moves() == 1 {
                    "ply"
                } else {
                    "plies"
                },
                tally.wins,
                tally.draws,
                tally.losses
            );
            if let play::Ending::Failure { error, .. } = &game.ending {
                eprintln!("  the engine failed: {error}");
            }
            if let (Some(path), Some(file)) = (&args.pgn, pgn_file.as_mut()) {
                let text = game.to_pgn(&args.event, &args.site, &date);
                let written = file.write_all(text.as_bytes()).and_then(|_| file.flush());
                if let Err(e) = written {
                    if write_error.is_none() {
                        eprintln!("error: writing {}: {e}", path.display());
                    }
                    write_error = Some(e);
                }
            }
        },
    );
    print!("{}", play::score_table(&first, &second, &tally));
    if let (Some(e), Some(path)) = (write_error, &args.pgn) {
        bail!(
            "the games could not all be written to {}: {e}",
            path.display()
        );
    }
    Ok(())
}
