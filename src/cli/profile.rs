//! `sargon profile`: where a search spends its instructions and T-states, routine by routine.

use std::fmt::Write as _;

use anyhow::{Context, Result};

use super::Format;
use sargon_core::engine::SearchOptions;
use sargon_core::position;
use sargon_core::position::Book;
use sargon_original::emu::{Core, Emulator};
use sargon_original::profile::{self, Profile};
use sargon_original::rom::RomStore;
use sargon_views::analysis::GameEnd;

#[derive(clap::Args, Debug)]
pub(crate) struct ProfileArgs {
    /// A FEN (quoted or as separate words), `startpos`, a board alone or an EPD line,
    /// then maybe `moves` and moves in UCI notation
    #[arg(required = true, num_args = 1..)]
    pub position: Vec<String>,
    /// Search depth in plies (Sargon's PLYMAX): 1-6 (the emulator)
    #[arg(long, short, default_value_t = 3, value_parser = super::parse_depth, allow_negative_numbers = true)]
    pub depth: u8,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// ROM to run (default: the only one imported, or `sargon`)
    #[arg(long)]
    pub rom: Option<String>,
    /// Search book positions instead of playing from the opening book
    #[arg(long)]
    pub no_book: bool,
    /// The byte the book reads instead of the Z80's R register (bit 0: 1.e4 or 1.d4)
    #[arg(long, default_value_t = 0, value_parser = super::numbers::byte, allow_negative_numbers = true)]
    pub book_random: u8,
    /// The engine to profile: the profile counts Z80 instructions, so only an engine that
    /// runs Z80 code is taken (`emulator`); another is refused, naming what it lacks
    #[arg(long, default_value = "emulator", value_parser = super::parse_engine)]
    pub engine: sargon_engines::engines::EngineSpec,
    /// The Z80 core: the profile reads iz80's own state after every instruction, so it
    /// runs on iz80 only (the default; z80emu is refused)
    #[arg(long, value_name = "CORE", default_value_t = Core::Iz80, value_parser = |s: &str| s.parse::<Core>())]
    pub core: Core,
}

/// What `--format json` prints.
#[derive(serde::Serialize)]
struct Report<'a> {
    fen: String,
    depth: u8,
    rom: &'a str,
    /// Whether the ROM behaved as the known Sargon image when it was checked.
    rom_verified: bool,
    best_move: Option<String>,
    /// How the game stands when the side to move has no legal move (then no best move).
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<GameEnd>,
    from_book: bool,
    rows: &'a [profile::RoutineCost],
    totals: &'a profile::Totals,
    /// The search's own counts (equal to the totals' instructions, T-states and emulator
    /// T-states).
    search_z80_instructions: Option<u64>,
    search_t_states: Option<u64>,
    search_iz80_t_states: Option<u64>,
    trs80_seconds: f64,
    z80a_4mhz_seconds: f64,
}

pub(crate) fn run(store: &RomStore, args: ProfileArgs) -> Result<()> {
    if !args.engine.is_emulator() {
        // The profiler watches the emulator itself; any other engine is asked what it has,
        // and says it has no Z80.
        super::open_engine(store, &args.engine)?
            .require(sargon_core::Capability::Z80, "sargon profile")?;
    }
    sargon_engines::engines::EngineSpec::EMULATOR.check_depth(args.depth)?;
    let pos = super::read_position(&super::position_text(&args.position))?;
    let setup = position::setup(&pos, Book::from(!args.no_book))?;
    let rom = store.load(args.rom.as_deref())?;
    let rom_name = rom.meta.name.clone();
    let rom_verified = rom.verified();
    let mut emu = Emulator::with_core(rom, args.core).context("the imported ROM cannot be used")?;
    let opts = SearchOptions {
        depth: args.depth,
        book_random: args.book_random,
        ..Default::default()
    };
    let (p, outcome) = profile::profile_search(&mut emu, &setup, &opts)?;
    let fen = position::fen_of(&setup.position);
    // With no legal move Sargon still names one (the last it tried and found illegal), as
    // analyze knows: checkmate and stalemate are said as such, never that move.
    let result = GameEnd::of(&setup.position);
    let best = outcome.best.filter(|_| result.is_none()).map(|m| m.uci());
    match args.format {
        Format::Json => {
            let r = Report {
                fen,
                depth: args.depth,
                rom: &rom_name,
                rom_verified,
                best_move: best,
                result,
                from_book: outcome.from_book,
                rows: &p.rows,
                totals: &p.totals,
                search_z80_instructions: outcome.stats.z80_instructions,
                search_t_states: outcome.stats.t_states,
                search_iz80_t_states: outcome.stats.iz80_t_states,
                trs80_seconds: sargon_core::clock::trs80_seconds(p.totals.t_states),
                z80a_4mhz_seconds: sargon_core::clock::z80a_seconds(p.totals.t_states),
            };
            println!("{}", serde_json::to_string_pretty(&r)?);
        }
        Format::Text => {
            let book = if outcome.from_book {
                " (from the opening book)"
            } else {
                ""
            };
            let unverified = if rom_verified { "" } else { ", NOT VERIFIED" };
            println!("Position   {fen}");
            println!(
                "Search     FNDMOV, depth {} (ROM {rom_name}{unverified}): best move {}{book}",
                args.depth,
                match (&best, result) {
                    (Some(m), _) => m.clone(),
                    (None, Some(GameEnd::Checkmate)) =>
                        "none: checkmate, the side to move has lost".to_string(),
                    (None, Some(GameEnd::Stalemate)) =>
                        "none: stalemate, the side to move has no legal move (a draw)".to_string(),
                    (None, None) => "none".to_string(),
                }
            );
            println!();
            print!("{}", render_table(&p));
        }
    }
    Ok(())
}

/// The profile as a text table, with the totals and the 1978 time estimates.
pub(crate) fn render_table(p: &Profile) -> String {
    let mut out = String::new();
    let total = p.totals.t_states.max(1) as f64;
    let _ = writeln!(
        out,
        "{:<18} {:>9} {:>13} {:>14} {:>6} {:>15} {:>14}",
        "routine", "calls", "instructions", "T-states", "share", "inclusive T", "T (emulator)"
    );
    for r in &p.rows {
        let _ = writeln!(
            out,
            "{:<18} {:>9} {:>13} {:>14} {:>5.1}% {:>15} {:>14}",
            r.routine,
            r.calls,
            r.instructions,
            r.t_states,
            100.0 * r.t_states as f64 / total,
            r.inclusive_t_states,
            r.emulator_t_states
        );
    }
    let _ = writeln!(
        out,
        "{:<18} {:>9} {:>13} {:>14} {:>5.1}% {:>15} {:>14}",
        "total",
        "",
        p.totals.instructions,
        p.totals.t_states,
        100.0,
        "",
        p.totals.emulator_t_states
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "T-states: documented Z80 timings (Zilog's manual) of each executed instruction; \
         exclusive (PC inside the routine)\nexcept `inclusive T` (from call to return, \
         callees included). `T (emulator)`: iz80's count, which adds nothing\nfor DD/FD \
         prefixes (IX/IY instructions), counts JP cc as 7/12 instead of 10 and JR cc not \
         taken as 8."
    );
    let _ = writeln!(
        out,
        "Time on a TRS-80 Model I (1.774 MHz): {}; on a 4 MHz Z80: {}",
        super::human_duration(sargon_core::clock::trs80_seconds(p.totals.t_states)),
        super::human_duration(sargon_core::clock::z80a_seconds(p.totals.t_states))
    );
    out
}
