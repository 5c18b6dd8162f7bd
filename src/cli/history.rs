//! `sargon history`: Sargon's speed on the machines of 1978.

use std::path::PathBuf;

use std::io::Write as _;

use anyhow::{bail, Context, Result};

use super::Format;
use crate::studies::game_times::{self, CalibrationError, GamesPlan, Played, TimedGame, Timing};
use crate::studies::history::{self, LevelProgress};
use crate::studies::strength;
use sargon_core::game::DepthRule;
use sargon_core::input::echo;
use sargon_core::outputs::{self, Files, Mode};
use sargon_engines::engines::EngineSpec;
use sargon_original::emu::Emulator;
use sargon_original::rom::RomStore;

#[derive(clap::Subcommand, Debug)]
pub(crate) enum HistoryCommand {
    /// Run levels 1..=N over a position set (book off) and compare the estimated TRS-80
    /// time per move with the original manual's
    Levels(LevelsArgs),
    /// Whole games of Sargon against itself per level (emulator, book on), every move
    /// timed as on a TRS-80, beside the manual's average time per move
    Games(GamesArgs),
    /// The strength table of matches played with `sargon play` (scripts/strength.sh):
    /// per PGN file, the first game's White against its Black, with the Elo difference and,
    /// against an engine with a `UCI_Elo` option in its name, the Elo it implies; then Elo
    /// per Sargon depth, anchored and chained through the depth-k-against-k+1 matches
    Strength(StrengthArgs),
}

#[derive(clap::Args, Debug)]
pub(crate) struct StrengthArgs {
    /// The matches' PGN files
    #[arg(required = true, value_name = "FILE.pgn")]
    pub pgn: Vec<PathBuf>,
    /// Also draw Elo per depth, with 95% intervals and the anchor, as an SVG plot into
    /// this file
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(clap::Args, Debug)]
pub(crate) struct GamesArgs {
    /// The levels to play: `N` or `A-B` (1-6)
    #[arg(long, default_value = "1-4", value_parser = level_range, allow_negative_numbers = true)]
    pub levels: (u8, u8),
    /// Games per level
    #[arg(long, default_value_t = 4, value_parser = super::numbers::games, allow_negative_numbers = true)]
    pub games: usize,
    /// Openings: an EPD file, or a PGN file (`.pgn`: each game's moves are played first);
    /// game N starts from opening N (cycling) [default: 12 built-in short lines, the first
    /// the initial position]
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Seed of the book's random choice (the byte the original read from the refresh
    /// register)
    #[arg(long, default_value_t = 1978, value_parser = super::numbers::seed, allow_negative_numbers = true)]
    pub seed: u64,
    /// Adjudicate a draw after N moves per side
    #[arg(long, default_value_t = 100, value_name = "N", value_parser = super::numbers::max_moves, allow_negative_numbers = true)]
    pub max_moves: u32,
    /// Append each game to this file as one JSON line as it ends
    #[arg(long, value_name = "FILE.jsonl")]
    pub out: Option<PathBuf>,
    /// Keep the games already in --out and play only the missing ones
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Search every move afresh at the level's depth. By default each side plays in its
    /// own memory kept from move to move as the original's was: two plies less after it
    /// found a mate, the royalty table and the men's flags as its moves left them
    #[arg(long, conflicts_with = "load")]
    pub fresh_depth: bool,
    /// Play nothing: the table (and plot) of the games in these files
    #[arg(long, value_name = "FILE.jsonl", num_args = 1.., conflicts_with_all = ["out", "openings"])]
    pub load: Vec<PathBuf>,
    /// Instead of --levels on the emulator, estimate these levels (`N` or `A-B`): the port
    /// plays the same games counting its evaluations, and each move's T-states are its
    /// evaluations times the T-states per evaluation measured in --calibration at its
    /// highest level
    #[arg(long, value_name = "LEVELS", value_parser = level_range, allow_negative_numbers = true, requires = "calibration", conflicts_with = "load")]
    pub estimate_levels: Option<(u8, u8)>,
    /// The emulator's games (a file written by --out) whose T-states per evaluation
    /// calibrate --estimate-levels; moves recorded without counts are replayed on the port
    /// to count them
    #[arg(long, value_name = "FILE.jsonl", requires = "estimate_levels")]
    pub calibration: Option<PathBuf>,
    /// Also draw the comparison as an SVG plot into this file
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// ROM to run (default: the only one imported, or `sargon`)
    #[arg(long)]
    pub rom: Option<String>,
    /// No progress lines on stderr
    #[arg(long, short)]
    pub quiet: bool,
}

/// `N` or `A-B`, within 1..=6 (the levels of [`super::numbers::level`]).
fn level_range(text: &str) -> Result<(u8, u8), String> {
    let (a, b) = text.split_once('-').unwrap_or((text, text));
    let levels = match (super::numbers::level(a), super::numbers::level(b)) {
        (Ok(a), Ok(b)) if a <= b => Some((a, b)),
        _ => None,
    };
    levels.ok_or_else(|| {
        format!(
            "expected a level N or levels A-B with 1 <= A <= B <= 6, got `{}`",
            echo(text)
        )
    })
}

#[derive(clap::Args, Debug)]
pub(crate) struct LevelsArgs {
    /// Positions: one FEN (or `startpos`) per line, `#` comments (default: a built-in set
    /// of 12)
    #[arg(long)]
    pub positions: Option<PathBuf>,
    /// The highest level to run (1-6; at levels 5 and 6 a position can take many minutes)
    #[arg(long, default_value_t = 5, value_parser = super::numbers::level, allow_negative_numbers = true)]
    pub max_level: u8,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Also draw the comparison as an SVG plot into this file
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Also save the full report (every search's figures) as JSON into this file
    #[arg(long, value_name = "FILE.json")]
    pub save: Option<PathBuf>,
    /// Run nothing: print the table (and draw the plot) of a report saved with `--save`
    #[arg(long, value_name = "FILE.json", conflicts_with_all = ["positions", "save"])]
    pub load: Option<PathBuf>,
    /// ROM to run (default: the only one imported, or `sargon`)
    #[arg(long)]
    pub rom: Option<String>,
    /// No progress lines on stderr
    #[arg(long, short)]
    pub quiet: bool,
}

pub(crate) fn run(store: &RomStore, command: HistoryCommand) -> Result<()> {
    match command {
        HistoryCommand::Levels(args) => levels(store, args),
        HistoryCommand::Games(args) => {
            let out = args.out.clone();
            outputs::removing_an_empty_new_results_file(out.as_deref(), || games(store, args))
        }
        HistoryCommand::Strength(args) => strength(store, args),
    }
}

fn levels(store: &RomStore, args: LevelsArgs) -> Result<()> {
    Files::new()
        .input("--positions", args.positions.as_deref())
        .input("--load", args.load.as_deref())
        .store(store.dir())
        .output("--save", args.save.as_deref(), Mode::Whole)
        .output("--plot", args.plot.as_deref(), Mode::Whole)
        .check()?;
    let positions: Vec<String> = match &args.positions {
        Some(p) => {
            let positions = history::parse_positions(
                &super::text::read_chess(p)
                    .with_context(|| format!("reading {}", super::shown(p)))?,
            );
            // Before the ROM is looked for, as every argument is checked before any work.
            history::setups(&positions).with_context(|| super::shown(p))?;
            positions
        }
        None => history::default_positions()
            .into_iter()
            .map(String::from)
            .collect(),
    };
    let report = match &args.load {
        Some(path) => serde_json::from_str(
            &super::text::read_json(path)
                .with_context(|| format!("reading {}", super::shown(path)))?,
        )
        .with_context(|| format!("{} is no saved level report", super::shown(path)))?,
        None => run_levels(store, &args, &positions)?,
    };
    if let Some(path) = &args.save {
        outputs::write_whole(
            path,
            (serde_json::to_string_pretty(&report)? + "\n").as_bytes(),
        )?;
    }
    if let Some(path) = &args.plot {
        outputs::write_whole(path, history::svg_plot(&report).as_bytes())?;
        if !args.quiet {
            eprintln!("plot written to {}", path.display());
        }
    }
    match args.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&report)?),
        Format::Text => {
            println!(
                "Sargon's levels on a TRS-80 Model I (1.774 MHz) and a 4 MHz Z80, estimated from \
                 the documented T-states of its search (ROM {}, {} positions, book off), beside \
                 the original manual's average time per move:\n",
                if report.rom_verified {
                    report.rom.clone()
                } else {
                    format!("{}, NOT VERIFIED", report.rom)
                },
                report.positions.len()
            );
            print!("{}", history::render_table(&report));
        }
    }
    Ok(())
}

fn run_levels(
    store: &RomStore,
    args: &LevelsArgs,
    positions: &[String],
) -> Result<history::LevelsReport> {
    let rom = store.load(args.rom.as_deref())?;
    let mut emu = Emulator::new(rom).context("the imported ROM cannot be used")?;
    let quiet = args.quiet;
    let mut progress = |p: &LevelProgress| {
        if quiet {
            return;
        }
        match &p.done {
            None => eprint!(
                "level {}/{}  position {:>2}/{} ... ",
                p.level, p.max_level, p.position, p.positions
            ),
            Some(m) => eprintln!(
                "{:>7} on a TRS-80, {:.1} s here  (elapsed {})",
                history::duration(m.trs80_seconds),
                m.wall_seconds,
                super::human_duration(p.elapsed)
            ),
        }
    };
    Ok(history::run_levels(
        &mut emu,
        positions,
        args.max_level,
        &mut progress,
    )?)
}

fn read_game_file(path: &std::path::Path) -> Result<Vec<TimedGame>> {
    let text =
        super::text::read_json(path).with_context(|| format!("reading {}", super::shown(path)))?;
    game_times::read_games(&text).map_err(|e| anyhow::anyhow!("{}: {e}", super::shown(path)))
}

fn games(store: &RomStore, args: GamesArgs) -> Result<()> {
    Files::new()
        .input("--openings", args.openings.as_deref())
        .inputs("--load", &args.load)
        .input("--calibration", args.calibration.as_deref())
        .store(store.dir())
        .output("--out", args.out.as_deref(), Mode::Results)
        .output("--plot", args.plot.as_deref(), Mode::Whole)
        .check()?;
    let mut games: Vec<TimedGame> = Vec::new();
    // Open (and lock) --out for the run before anything else: a second run on the same
    // file is refused before a game is played.
    let mut out_file = None;
    if !args.load.is_empty() {
        for path in &args.load {
            let read = read_game_file(path)?;
            if read.is_empty() {
                bail!("{}: no games", super::shown(path));
            }
            games.extend(read);
        }
    } else {
        if let Some(out) = &args.out {
            out_file = Some(outputs::open_results(out)?);
            let has_lines = std::fs::metadata(out).is_ok_and(|m| m.len() > 0);
            if has_lines && !args.resume {
                let text = std::fs::read_to_string(out).unwrap_or_default();
                match game_times::read_games(&text) {
                    Ok(read) if !read.is_empty() => bail!(
                        "{} holds {} games already: add --resume to play only the games it lacks",
                        super::shown(out),
                        read.len()
                    ),
                    read => bail!(
                        "{} holds no games of `history games`{}: --out appends games to a file \
                         of its own; give a new file",
                        super::shown(out),
                        read.err().map_or(String::new(), |e| format!(" ({e})"))
                    ),
                }
            }
            if has_lines {
                games = read_game_file(out)?;
                game_times::check_settings(&games, args.seed, args.max_moves)
                    .with_context(|| out.display().to_string())?;
            }
        }
        let openings = match &args.openings {
            Some(path) => super::play::read_openings(path)?,
            None => game_times::default_openings(),
        };
        // Both sides are the same deterministic program: past the openings, a game repeats the
        // one an opening earlier (only the book's random first move can differ).
        if args.games > openings.len() {
            eprintln!(
                "note: {} games from {} openings: game N+{} repeats game N move for move, unless it \
                 starts from the initial position (the book's random first move); give more --openings",
                args.games,
                openings.len(),
                openings.len()
            );
        }
        let mut plan = GamesPlan {
            levels: args.levels,
            rounds: args.games,
            seed: args.seed,
            max_moves: args.max_moves,
            openings: &openings,
            depth_rule: if args.fresh_depth {
                DepthRule::Fresh
            } else {
                DepthRule::Carried
            },
        };
        // A resumed run must use the same openings as the games it continues.
        plan.check_openings(&games)?;
        let (mut engine, timing) = match args.estimate_levels {
            None => {
                let emulator = EngineSpec::EMULATOR.with_rom_and_core(args.rom.as_deref(), None);
                (super::open_engine(store, &emulator)?, Timing::Measured)
            }
            Some(levels) => {
                plan.levels = levels;
                let timing = calibrate(store, &args)?;
                (super::open_engine(store, &EngineSpec::Port)?, timing)
            }
        };
        plan.play_missing(engine.as_mut(), &timing, &mut games, |played| {
            record_game(&args, out_file.as_mut(), played)
        })?;
    }
    let (first, last) = args.estimate_levels.unwrap_or(args.levels);
    if args.load.is_empty() {
        games.retain(|g| (first..=last).contains(&g.level));
    }
    let summary = game_times::summarise(&games);
    if let Some(path) = &args.plot {
        outputs::write_whole(path, game_times::svg_plot(&summary).as_bytes())?;
        if !args.quiet {
            eprintln!("plot written to {}", path.display());
        }
    }
    match args.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&summary)?),
        Format::Text => {
            println!(
                "Sargon against itself in whole games (book on), every move of both sides timed \
                 by the documented T-states of the Z80 at 1.774 MHz (TRS-80 Model I), beside \
                 the original manual's average time per move:\n"
            );
            if let Some(rom) = games.iter().find_map(|g| g.unverified_rom.as_ref()) {
                println!(
                    "NOT VERIFIED: games were played on ROM `{rom}`, which is not the known \
                     Sargon image (see `sargon rom verify {rom}`).\n"
                );
            }
            print!("{}", game_times::render_table(&summary));
        }
    }
    Ok(())
}

/// A game of the run starting or ended: its progress line, and an ended game appended to
/// `--out` as one JSON line.
fn record_game(
    args: &GamesArgs,
    out: Option<&mut std::fs::File>,
    played: Played<'_>,
) -> std::io::Result<()> {
    match played {
        Played::Starting { level, round } => {
            if !args.quiet {
                eprint!("level {level}, game {round}/{} ... ", args.games);
            }
        }
        Played::Ended(game) => {
            if !args.quiet {
                let secs: f64 = game.moves.iter().map(|m| m.trs80_seconds).sum();
                eprintln!(
                    "{} ({}), {} moves, {} on a TRS-80{}, {:.0} s here",
                    game.result,
                    game.ending,
                    game.moves.len(),
                    history::duration(secs),
                    if game.estimate.is_some() {
                        " (estimate)"
                    } else {
                        ""
                    },
                    game.wall_seconds
                );
            }
            if let (Some(file), Some(path)) = (out, &args.out) {
                // One write of the whole line, as `diff --out` writes its records.
                let line = serde_json::to_string(game).map_err(std::io::Error::other)? + "\n";
                file.write_all(line.as_bytes()).map_err(|e| {
                    std::io::Error::new(e.kind(), format!("writing {}: {e}", super::shown(path)))
                })?;
            }
        }
    }
    Ok(())
}

/// The timing of `--estimate-levels`: T-states per evaluation at the highest level of
/// `--calibration`, after counting what its moves lack by replaying them on the port.
/// Prints every measured level's T-states per evaluation (and per node) on stderr: how they
/// change from level to level is what the extrapolation cannot know.
fn calibrate(store: &RomStore, args: &GamesArgs) -> Result<Timing> {
    let path = args
        .calibration
        .as_ref()
        .context("--estimate-levels needs --calibration")?;
    let games = read_game_file(path)?;
    let mut port = super::open_engine(store, &EngineSpec::Port)?;
    let quiet = args.quiet;
    let run = game_times::calibrate_from(games, port.as_mut(), |g, replayed| match replayed {
        _ if quiet => {}
        false => eprint!(
            "counting the evaluations of level {} game {} on the port ... ",
            g.level, g.game
        ),
        true => eprintln!("replayed, every move the same"),
    })
    .map_err(|e| match e {
        CalibrationError::Replay { .. } => {
            anyhow::Error::new(e).context(path.display().to_string())
        }
        _ => anyhow::Error::new(e).context(super::shown(path)),
    })?;
    for c in &run.levels {
        eprintln!(
            "level {}: {:.0} T-states per evaluation (single moves {:.0} to {:.0}), {:.0} per node ({} searched moves, {} evaluations, {} nodes)",
            c.level,
            c.t_states_per_evaluation(),
            c.least_per_evaluation,
            c.greatest_per_evaluation,
            c.t_states_per_node(),
            c.moves,
            c.evaluations,
            c.nodes
        );
    }
    if let Timing::Estimated(e) = &run.timing {
        eprintln!(
            "estimating with level {}'s {:.0} T-states per evaluation",
            e.calibration_level, e.t_states_per_evaluation
        );
    }
    Ok(run.timing)
}

/// A match file's players and the first one's results: the first game's White is the
/// player under test (as `sargon play` and scripts/strength.sh write them).
fn read_match(path: &std::path::Path) -> Result<strength::Match> {
    let text =
        super::text::read_chess(path).with_context(|| format!("reading {}", super::shown(path)))?;
    let games = sargon_chess::pgn::read_games(&text)
        .with_context(|| format!("{} is no PGN file", super::shown(path)))?;
    let Some(first) = games.first() else {
        anyhow::bail!("{}: no games", super::shown(path));
    };
    let player = first.tag("White").unwrap_or("?").to_string();
    let opponent = first.tag("Black").unwrap_or("?").to_string();
    let (distinct, repeats) = strength::distinct_games(&games);
    let tally = sargon_chess::play::tally_of(distinct, &player);
    Ok(strength::Match {
        player,
        opponent,
        tally,
        repeats,
    })
}

/// One row of the match table, for JSON.
#[derive(serde::Serialize)]
struct MatchRow {
    file: String,
    player: String,
    opponent: String,
    /// Games counted: each different game once.
    games: u32,
    /// Games left out as move-for-move repeats of an earlier one.
    repeats: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    score: Option<f64>,
    /// The Elo difference and its 95% interval (`null` where unbounded).
    elo_difference: Option<f64>,
    elo_difference_low: Option<f64>,
    elo_difference_high: Option<f64>,
    /// Against an opponent with `UCI_Elo` in its name: the player's rating.
    rating: Option<strength::Rating>,
    #[serde(skip)]
    tally: sargon_chess::elo::Tally,
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

fn strength(store: &RomStore, args: StrengthArgs) -> Result<()> {
    Files::new()
        .inputs("the match file", &args.pgn)
        .store(store.dir())
        .output("--plot", args.plot.as_deref(), Mode::Whole)
        .check()?;
    let mut rows = Vec::new();
    let mut matches = Vec::new();
    for path in &args.pgn {
        let m = read_match(path)?;
        let elo = m.tally.elo();
        rows.push(MatchRow {
            file: path.display().to_string(),
            player: m.player.clone(),
            opponent: m.opponent.clone(),
            games: m.tally.games(),
            repeats: m.repeats,
            wins: m.tally.wins,
            draws: m.tally.draws,
            losses: m.tally.losses,
            score: m.tally.score(),
            elo_difference: elo.and_then(|e| finite(e.diff)),
            elo_difference_low: elo.and_then(|e| finite(e.low)),
            elo_difference_high: elo.and_then(|e| finite(e.high)),
            rating: strength::uci_elo_in(&m.opponent)
                .and_then(|anchor| strength::Rating::against(anchor, &m.tally)),
            tally: m.tally,
        });
        matches.push(m);
    }
    let depths = strength::rate_depths(&matches, 6);
    if let Some(path) = &args.plot {
        let games: u32 = matches.iter().map(|m| m.tally.games()).sum();
        let subtitle = format!(
            "{games} games in {} matches; combined: direct and chained weighted by inverse variance",
            matches.len()
        );
        // The rated opponent's name up to its settings: "Stockfish 15.1".
        let anchor_engine = matches
            .iter()
            .flat_map(|m| [&m.player, &m.opponent])
            .find(|name| strength::uci_elo_in(name).is_some())
            .map_or("", |name| name.split(" (").next().unwrap_or(name));
        outputs::write_whole(
            path,
            strength::svg_plot(&depths, &subtitle, anchor_engine).as_bytes(),
        )?;
        eprintln!("plot written to {}", path.display());
    }
    match args.format {
        Format::Json => {
            #[derive(serde::Serialize)]
            struct Report<'a> {
                matches: &'a [MatchRow],
                depths: &'a [strength::DepthRating],
            }
            println!(
                "{}",
                serde_json::to_string_pretty(&Report {
                    matches: &rows,
                    depths: &depths,
                })?
            );
        }
        Format::Text => {
            println!(
                "| match | games | repeats left out | +/=/- | score | Elo difference (95%) | Elo (95%) |"
            );
            println!("|---|---:|---:|---:|---:|---:|---:|");
            for row in &rows {
                if row.player.is_empty() {
                    println!("| {} | 0 | | | | | |", row.file);
                    continue;
                }
                println!(
                    "| {} - {} | {} | {} | {}/{}/{} | {} | {} | {} |",
                    row.player,
                    row.opponent,
                    row.games,
                    row.repeats,
                    row.wins,
                    row.draws,
                    row.losses,
                    row.score
                        .map_or("-".to_string(), |s| format!("{:.1}%", 100.0 * s)),
                    row.tally.elo().map_or(String::new(), |e| e.to_string()),
                    row.rating.map_or(String::new(), |r| r.to_string()),
                );
            }
            println!(
                "\nElo per depth: direct from the matches against an opponent with `UCI_Elo` \
                 (its anchor plus the difference), chained from the depth above (its combined \
                 Elo plus their match's difference, the interval half-widths added in \
                 quadrature), combined by inverse-variance weighting (see \
                 docs/strength.md; \"> X\" / \"< X\": a match won or lost entirely, \
                 which gives only a bound):\n"
            );
            print!("{}", strength::render_depth_table(&depths));
        }
    }
    Ok(())
}
