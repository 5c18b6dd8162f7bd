//! `sargon history`: Sargon's speed on the machines of 1978.

use std::path::PathBuf;

use std::io::Write as _;

use anyhow::{bail, Context, Result};

use super::Format;
use sargon::original::emu::Emulator;
use sargon::original::history::{self, LevelProgress};
use sargon::original::rom::RomStore;
use sargon::tools::game_times::{self, TimedGame};
use sargon::tools::play::Opening;

#[derive(clap::Subcommand, Debug)]
pub enum HistoryCommand {
    /// Run levels 1..=N over a position set (book off) and compare the estimated TRS-80
    /// time per move with the original manual's
    Levels(LevelsArgs),
    /// Whole games of Sargon against itself per level (emulator, book on), every move
    /// timed as on a TRS-80, beside the manual's average time per move
    Games(GamesArgs),
    /// The strength table of matches played with `sargon play` (scripts/strength.sh):
    /// per PGN file, the first game's White against its Black, with the Elo difference and,
    /// against an engine with a `UCI_Elo` option in its name, the Elo it implies
    Strength(StrengthArgs),
}

#[derive(clap::Args, Debug)]
pub struct StrengthArgs {
    /// The matches' PGN files
    #[arg(required = true, value_name = "FILE.pgn")]
    pub pgn: Vec<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct GamesArgs {
    /// The levels to play: `N` or `A-B` (1-6)
    #[arg(long, default_value = "1-4", value_parser = level_range)]
    pub levels: (u8, u8),
    /// Games per level
    #[arg(long, default_value_t = 4)]
    pub games: usize,
    /// Openings: an EPD file, or a PGN file (`.pgn`: each game's moves are played first);
    /// game N starts from opening N (cycling) [default: 12 built-in short lines, the first
    /// the initial position]
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Seed of the book's random choice (the byte the original read from the refresh
    /// register)
    #[arg(long, default_value_t = 1978)]
    pub seed: u64,
    /// Adjudicate a draw after N moves per side
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub max_moves: u32,
    /// Append each game to this file as one JSON line as it ends
    #[arg(long, value_name = "FILE.jsonl")]
    pub out: Option<PathBuf>,
    /// Keep the games already in --out and play only the missing ones
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Play nothing: the table (and plot) of the games in these files
    #[arg(long, value_name = "FILE.jsonl", num_args = 1.., conflicts_with_all = ["out", "openings"])]
    pub load: Vec<PathBuf>,
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

/// `N` or `A-B`, within 1..=6.
fn level_range(text: &str) -> Result<(u8, u8), String> {
    let (a, b) = text.split_once('-').unwrap_or((text, text));
    let parse = |t: &str| {
        t.trim()
            .parse::<u8>()
            .ok()
            .filter(|l| (1..=6).contains(l))
            .ok_or_else(|| format!("`{t}` is no level (1-6)"))
    };
    let (a, b) = (parse(a)?, parse(b)?);
    if a > b {
        return Err(format!("`{text}`: the first level is above the last"));
    }
    Ok((a, b))
}

#[derive(clap::Args, Debug)]
pub struct LevelsArgs {
    /// Positions: one FEN (or `startpos`) per line, `#` comments (default: a built-in set
    /// of 12)
    #[arg(long)]
    pub positions: Option<PathBuf>,
    /// The highest level to run (1-6; at levels 5 and 6 a position can take many minutes)
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=6))]
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

pub fn run(store: &RomStore, command: HistoryCommand) -> Result<()> {
    match command {
        HistoryCommand::Levels(args) => levels(store, args),
        HistoryCommand::Games(args) => games(store, args),
        HistoryCommand::Strength(args) => strength(args),
    }
}

fn levels(store: &RomStore, args: LevelsArgs) -> Result<()> {
    let positions: Vec<String> = match &args.positions {
        Some(p) => history::parse_positions(
            &std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?,
        ),
        None => history::default_positions()
            .into_iter()
            .map(String::from)
            .collect(),
    };
    let report = match &args.load {
        Some(path) => serde_json::from_str(
            &std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))?,
        )
        .with_context(|| format!("{} is no saved level report", path.display()))?,
        None => run_levels(store, &args, &positions)?,
    };
    if let Some(path) = &args.save {
        std::fs::write(path, serde_json::to_string_pretty(&report)? + "\n")
            .with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(path) = &args.plot {
        std::fs::write(path, history::svg_plot(&report))
            .with_context(|| format!("writing {}", path.display()))?;
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
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    game_times::read_games(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

fn games(store: &RomStore, args: GamesArgs) -> Result<()> {
    let mut games: Vec<TimedGame> = Vec::new();
    if !args.load.is_empty() {
        for path in &args.load {
            games.extend(read_game_file(path)?);
        }
    } else {
        if let Some(out) = &args.out {
            if out.exists() {
                if !args.resume {
                    bail!(
                        "{} exists: add --resume to play only the games it lacks",
                        out.display()
                    );
                }
                games = read_game_file(out)?;
                if let Some(g) = games
                    .iter()
                    .find(|g| g.seed != args.seed || g.max_moves != Some(args.max_moves))
                {
                    bail!(
                        "{}: its games were played with --seed {} --max-moves {}, not --seed {} --max-moves {}",
                        out.display(),
                        g.seed,
                        g.max_moves.map_or("none".to_string(), |m| m.to_string()),
                        args.seed,
                        args.max_moves
                    );
                }
            }
        }
        let openings = match &args.openings {
            Some(path) => super::play::read_openings(path)?,
            None => game_times::default_openings(),
        };
        // A resumed run must use the same openings as the games it continues.
        for g in &games {
            let expected = opening_name(&openings, g.game);
            if g.opening != expected {
                bail!(
                    "level {} game {} was played from `{}`, but these openings give `{expected}` for it",
                    g.level,
                    g.game,
                    g.opening
                );
            }
        }
        play_games(store, &args, &openings, &mut games)?;
    }
    let (first, last) = args.levels;
    if args.load.is_empty() {
        games.retain(|g| (first..=last).contains(&g.level));
    }
    let summary = game_times::summarise(&games);
    if let Some(path) = &args.plot {
        let text = history::PlotText {
            subtitle: format!(
                "whole games, Sargon against itself, book on: {} moves timed by T-states / 1.774 MHz",
                summary.iter().map(|l| l.moves).sum::<usize>()
            ),
            mean: "games: mean time per move (book included)".to_string(),
            range: "games: median to dearest move".to_string(),
        };
        let levels: Vec<history::PlotLevel> = summary
            .iter()
            .map(|l| history::PlotLevel {
                level: l.level,
                mean: l.mean_seconds,
                low: l.median_seconds,
                high: l.max_seconds,
            })
            .collect();
        std::fs::write(path, history::svg_plot_levels(&text, &levels))
            .with_context(|| format!("writing {}", path.display()))?;
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
                    "NOT VERIFIED: games were played on ROM `{rom}`, which did not behave as \
                     the known Sargon image (see `sargon rom verify {rom}`).\n"
                );
            }
            print!("{}", game_times::render_table(&summary));
        }
    }
    Ok(())
}

/// Play the games `games` lacks (level by level within each round, so that every level
/// has games early), appending each to `--out`.
/// Game `game` (from 1) starts from opening `game - 1`, cycling.
fn opening_of(openings: &[Opening], game: usize) -> (usize, &Opening) {
    let index = (game - 1) % openings.len();
    (index, &openings[index])
}

/// The name a game from that opening records.
fn opening_name(openings: &[Opening], game: usize) -> String {
    let (index, opening) = opening_of(openings, game);
    opening
        .name
        .clone()
        .unwrap_or_else(|| format!("opening {}", index + 1))
}

fn play_games(
    store: &RomStore,
    args: &GamesArgs,
    openings: &[Opening],
    games: &mut Vec<TimedGame>,
) -> Result<()> {
    let rom = store.load(args.rom.as_deref())?;
    let mut emu = Emulator::new(rom).context("the imported ROM cannot be used")?;
    let (first, last) = args.levels;
    for round in 1..=args.games {
        for level in first..=last {
            if games.iter().any(|g| g.level == level && g.game == round) {
                continue;
            }
            let mut opening = opening_of(openings, round).1.clone();
            opening.name = Some(opening_name(openings, round));
            if !args.quiet {
                eprint!("level {level}, game {round}/{} ... ", args.games);
            }
            let game = game_times::play_timed_game(
                &mut emu,
                level,
                round,
                args.seed,
                &opening,
                Some(args.max_moves),
            )
            .with_context(|| format!("level {level}, game {round}"))?;
            if !args.quiet {
                let secs: f64 = game.moves.iter().map(|m| m.trs80_seconds).sum();
                eprintln!(
                    "{} ({}), {} moves, {} on a TRS-80, {:.0} s here",
                    game.result,
                    game.ending,
                    game.moves.len(),
                    history::duration(secs),
                    game.wall_seconds
                );
            }
            if let Some(out) = &args.out {
                let mut f = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(out)
                    .with_context(|| format!("opening {}", out.display()))?;
                writeln!(f, "{}", serde_json::to_string(&game)?)
                    .with_context(|| format!("writing {}", out.display()))?;
            }
            games.push(game);
        }
    }
    Ok(())
}

/// The `UCI_Elo=N` in a player's name (as `sargon play` names a UCI engine).
fn uci_elo_in(name: &str) -> Option<f64> {
    let rest = &name[name.find("UCI_Elo=")? + "UCI_Elo=".len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

fn strength(args: StrengthArgs) -> Result<()> {
    println!("| match | games | +/=/- | score | Elo difference (95%) | Elo (95%) |");
    println!("|---|---:|---:|---:|---:|---:|");
    for path in &args.pgn {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let games = sargon::tools::pgn::read_games(&text)
            .with_context(|| format!("{} is no PGN file", path.display()))?;
        let Some(first) = games.first() else {
            println!("| {} | 0 | | | | |", path.display());
            continue;
        };
        let player = first.tag("White").unwrap_or("?").to_string();
        let opponent = first.tag("Black").unwrap_or("?").to_string();
        let tally = sargon::tools::play::tally_of(&games, &player);
        let elo = tally.elo();
        let absolute = match (elo, uci_elo_in(&opponent)) {
            (Some(e), Some(anchor)) => format!(
                "{:.0} ({:.0} to {:.0})",
                anchor + e.diff,
                anchor + e.low,
                anchor + e.high
            ),
            _ => String::new(),
        };
        println!(
            "| {player} - {opponent} | {} | {}/{}/{} | {} | {} | {absolute} |",
            tally.games(),
            tally.wins,
            tally.draws,
            tally.losses,
            tally
                .score()
                .map_or("-".to_string(), |s| format!("{:.1}%", 100.0 * s)),
            elo.map_or(String::new(), |e| e.to_string()),
        );
    }
    Ok(())
}
