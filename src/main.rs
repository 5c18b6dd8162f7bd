//! The `sargon` command: a thin layer over the library.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, ValueEnum};

use sargon::analysis::{self, Analysis};
use sargon::engine::{Engine, EngineKind, SearchOptions};
use sargon::rom::{self, ImportResult, RomStore};
use sargon::{emu, position};

#[derive(Parser)]
#[command(
    name = "sargon",
    version,
    about = "Sargon (1978) in a Z80 emulator and as a native Rust port"
)]
struct Cli {
    /// ROM store directory (default: $SARGON_ROMS, else $XDG_DATA_HOME/sargon/roms)
    #[arg(long, global = true, value_name = "DIR")]
    roms: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Import, list and inspect your copy of the original program
    Rom {
        #[command(subcommand)]
        command: RomCommand,
    },
    /// Ask Sargon for its move in a position
    Analyze(AnalyzeArgs),
    /// Print every event of a search: nodes created, scores, alpha-beta and best-move decisions
    Trace(TraceArgs),
    /// The minimax and alpha-beta models of "A Window into Sargon", run on Sargon's own search
    Models(ModelsArgs),
}

#[derive(clap::Args)]
struct ModelsArgs {
    /// Run only this example (1-5)
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=5))]
    example: Option<u8>,
    #[arg(long, default_value = "emulator", value_parser = parse_engine)]
    engine: EngineKind,
    #[arg(long)]
    rom: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Copy, Clone, ValueEnum, PartialEq, Eq)]
enum TraceFormat {
    /// One event per line (docs/trace-format.md)
    Text,
    /// JSON Lines: one JSON object per event
    Jsonl,
    /// Event counts per kind and the SHA-256 of the text form
    Digest,
}

#[derive(clap::Args)]
struct TraceArgs {
    /// A FEN, or `startpos`
    position: String,
    /// Search depth in plies (Sargon's PLYMAX)
    #[arg(long, short, default_value_t = 2)]
    depth: u8,
    #[arg(long, default_value = "emulator", value_parser = parse_engine)]
    engine: EngineKind,
    #[arg(long)]
    rom: Option<String>,
    #[arg(long)]
    no_book: bool,
    #[arg(long, default_value_t = 0)]
    book_random: u8,
    #[arg(long, value_enum, default_value_t = TraceFormat::Text)]
    format: TraceFormat,
}

#[derive(Subcommand)]
enum RomCommand {
    /// Assemble the Z80 transcription (or read its zmac listing) into the ROM store
    Import {
        /// sargon-z80.asm (the transcription) or sargon-z80.lst (its zmac listing)
        file: PathBuf,
        /// Name in the store
        #[arg(long, default_value = rom::DEFAULT_NAME)]
        name: String,
        /// Replace a different image already imported under that name
        #[arg(long)]
        force: bool,
    },
    /// List the imported ROMs with their SHA-256s
    List,
    /// Details of one ROM, and whether the emulator harness can use it
    Info {
        /// ROM name (default: the only one, or `sargon`)
        name: Option<String>,
    },
}

#[derive(Copy, Clone, ValueEnum, PartialEq, Eq)]
enum Format {
    Text,
    Json,
}

#[derive(clap::Args)]
struct AnalyzeArgs {
    /// A FEN, or `startpos`
    position: String,
    /// Search depth in plies (Sargon's PLYMAX)
    #[arg(long, short, default_value_t = 3)]
    depth: u8,
    /// Which engine runs the search
    #[arg(long, default_value = "emulator", value_parser = parse_engine)]
    engine: EngineKind,
    /// ROM to run with the emulator (default: the only one, or `sargon`)
    #[arg(long)]
    rom: Option<String>,
    /// Do not play from the opening book in the initial position or after one White move
    #[arg(long)]
    no_book: bool,
    /// The byte the book reads instead of the Z80's R register (bit 0: 1.e4 or 1.d4)
    #[arg(long, default_value_t = 0)]
    book_random: u8,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

fn parse_engine(s: &str) -> Result<EngineKind, String> {
    s.parse()
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    let store = RomStore::open(cli.roms.as_deref());
    match cli.command {
        Command::Rom { command } => rom_command(&store, command),
        Command::Analyze(args) => analyze(&store, args),
        Command::Trace(args) => trace(&store, args),
        Command::Models(args) => {
            let (mut engine, _) = make_engine(&store, args.engine, args.rom.as_deref())?;
            let format = match args.format {
                Format::Text => sargon::models::ModelFormat::Text,
                Format::Json => sargon::models::ModelFormat::Json,
            };
            print!(
                "{}",
                sargon::models::run_models(engine.as_mut(), args.example, format)?
            );
            Ok(())
        }
    }
}

fn rom_command(store: &RomStore, command: RomCommand) -> Result<()> {
    match command {
        RomCommand::Import { file, name, force } => {
            let (rom, result) = store.import(&file, &name, force)?;
            let verb = match result {
                ImportResult::Created => "imported",
                ImportResult::SameImage => "already imported (same image); source recorded",
                ImportResult::Replaced => "replaced",
            };
            println!(
                "{verb}: {} -> {}",
                file.display(),
                store.dir().join(&rom.meta.name).display()
            );
            print_rom(&rom);
            Ok(())
        }
        RomCommand::List => {
            let names = store.names();
            if names.is_empty() {
                println!("no ROM imported in {}", store.dir().display());
                println!("import your copy with: sargon rom import path/to/sargon-z80.asm");
                return Ok(());
            }
            println!(
                "{:<16} {:<64} {:>6}  SOURCES",
                "NAME", "IMAGE SHA-256", "BYTES"
            );
            for n in names {
                match store.load(Some(&n)) {
                    Ok(r) => {
                        let sources: Vec<String> = r
                            .meta
                            .sources
                            .iter()
                            .map(|s| format!("{} ({})", s.file, s.kind))
                            .collect();
                        println!(
                            "{:<16} {} {:>6}  {}",
                            n,
                            r.meta.image_sha256,
                            r.meta.size,
                            sources.join(", ")
                        );
                    }
                    Err(e) => println!("{n:<16} unusable: {e}"),
                }
            }
            Ok(())
        }
        RomCommand::Info { name } => {
            let rom = store.load(name.as_deref())?;
            print_rom(&rom);
            match emu::Symbols::resolve(&rom) {
                Ok(syms) => {
                    println!(
                        "harness:      ready (all {} symbols present, hook points verified)",
                        emu::REQUIRED_SYMBOLS.len()
                    );
                    for p in sargon::hooks::HookPoint::ALL {
                        println!("  {:<22} {:#06x}", p.name(), syms.hooks[p as usize]);
                    }
                    Ok(())
                }
                Err(e) => Err(e).context("this ROM cannot be used by the emulator harness"),
            }
        }
    }
}

fn print_rom(rom: &rom::Rom) {
    println!("name:         {}", rom.meta.name);
    println!("image SHA-256 {}", rom.meta.image_sha256);
    println!(
        "known image:  {}",
        rom.known_as().unwrap_or("no (not in roms/known.tsv)")
    );
    println!("load address: {:#06x}", rom.meta.load_address);
    println!("size:         {} bytes", rom.meta.size);
    println!("symbols:      {}", rom.symbols.len());
    for s in &rom.meta.sources {
        println!(
            "source:       {} ({}, SHA-256 {})",
            s.file, s.kind, s.sha256
        );
    }
}

/// Build the engine a command asked for.
fn make_engine(
    store: &RomStore,
    kind: EngineKind,
    rom: Option<&str>,
) -> Result<(Box<dyn Engine>, Option<String>)> {
    match kind {
        EngineKind::Emulator => {
            let rom = store.load(rom)?;
            let name = rom.meta.name.clone();
            let emu = emu::Emulator::new(rom).context("the imported ROM cannot be used")?;
            Ok((Box::new(emu), Some(name)))
        }
        EngineKind::Port => {
            anyhow::bail!("the native port is not available yet: use --engine emulator")
        }
    }
}

fn analyze(store: &RomStore, args: AnalyzeArgs) -> Result<()> {
    let pos = position::parse_position(&args.position)?;
    let setup = position::setup(&pos, !args.no_book)?;
    let (mut engine, rom) = make_engine(store, args.engine, args.rom.as_deref())?;
    let opts = SearchOptions {
        depth: args.depth,
        book_random: args.book_random,
        ..Default::default()
    };
    let (a, _) = analysis::analyse(engine.as_mut(), rom, &setup, &opts)?;
    match args.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&a)?),
        Format::Text => print_analysis(&a),
    }
    Ok(())
}

fn trace(store: &RomStore, args: TraceArgs) -> Result<()> {
    use sargon::trace::{self, Detail, DigestBuilder, Recorder};
    use std::io::Write;
    let pos = position::parse_position(&args.position)?;
    let setup = position::setup(&pos, !args.no_book)?;
    let (mut engine, _) = make_engine(store, args.engine, args.rom.as_deref())?;
    let opts = SearchOptions {
        depth: args.depth,
        book_random: args.book_random,
        ..Default::default()
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut digest = DigestBuilder::new();
    let mut io_error: Option<std::io::Error> = None;
    let format = args.format;
    let mut emit = |e: trace::Event| {
        let r = match format {
            TraceFormat::Text => writeln!(out, "{e}"),
            TraceFormat::Jsonl => writeln!(out, "{}", e.to_json()),
            TraceFormat::Digest => {
                digest.add(&e);
                Ok(())
            }
        };
        if let Err(err) = r {
            io_error.get_or_insert(err);
        }
    };
    let outcome = {
        let mut recorder = Recorder::new(Detail::Full, &mut emit);
        let mut hooks = sargon::hooks::Hooks::new();
        hooks.add(&mut recorder);
        engine.search(&setup, &opts, &mut hooks)?
    };
    emit(trace::result_event(&outcome));
    if let Some(e) = io_error {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return Err(e).context("writing the trace");
        }
        return Ok(());
    }
    if format == TraceFormat::Digest {
        writeln!(out, "{}", digest.finish())?;
    }
    out.flush().or_else(|e| {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            Ok(())
        } else {
            Err(e)
        }
    })?;
    Ok(())
}

fn print_analysis(a: &Analysis) {
    println!("Position   {}", a.fen);
    let rom = a
        .rom
        .as_ref()
        .map(|r| format!(" (ROM {r})"))
        .unwrap_or_default();
    println!(
        "Engine     {}{rom}, depth {}, book {}",
        a.engine,
        a.depth,
        if a.book { "on" } else { "off" }
    );
    match (&a.best_san, &a.best_uci) {
        (Some(san), Some(uci)) => {
            let book = if a.from_book {
                "  (from the opening book)"
            } else {
                ""
            };
            println!("Best move  {san} ({uci}){book}");
        }
        _ => println!("Best move  none: no legal move (checkmate or stalemate)"),
    }
    if !a.pv_san.is_empty() && !a.from_book {
        let pos = position::parse_position(&a.fen).expect("our own FEN");
        println!("PV         {}", sargon::pv::numbered_line(&pos, &a.pv_san));
    }
    if !a.from_book && !a.no_legal_move {
        let mate = if a.mate { "  mate found" } else { "" };
        println!(
            "Score      {:+.2} pawns for the side to move, {:+} cp for White (Sargon byte {:#04x}){mate}",
            a.score_pawns, a.score_cp, a.sargon_score
        );
    }
    if let (Some(n), Some(t)) = (a.z80_instructions, a.t_states) {
        let trs = a.trs80_seconds.unwrap_or(0.0);
        println!(
            "Z80        {n} instructions, {t} T-states = {} on a TRS-80 Model I (1.774 MHz)",
            human_duration(trs)
        );
    }
    match a.z80_mips {
        Some(m) => println!(
            "Time       {:.3} s ({m:.1} M Z80 instructions/s)",
            a.wall_ms / 1000.0
        ),
        None => println!("Time       {:.3} s", a.wall_ms / 1000.0),
    }
}

fn human_duration(secs: f64) -> String {
    if secs < 60.0 {
        format!("{secs:.1} s")
    } else if secs < 3600.0 {
        format!("{}m{:02.0}s", (secs / 60.0).floor(), secs % 60.0)
    } else {
        format!(
            "{}h{:02}m",
            (secs / 3600.0).floor(),
            ((secs % 3600.0) / 60.0).floor() as u32
        )
    }
}
