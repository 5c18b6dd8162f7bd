//! `sargon rom`: import, list, inspect and verify the user's copy of the original program.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};

use super::progress::Progress;
use sargon_core::hooks::HookPoint;
use sargon_original::coverage::percent;
use sargon_original::emu;
use sargon_original::rom::{self, ImportResult, RomStore};
use sargon_referee::behaviour::Case;
use sargon_referee::verify::{self, Scope, VerifyError};

#[derive(clap::Subcommand, Debug)]
pub(crate) enum RomCommand {
    /// Assemble the Z80 transcription (or read its zmac listing), check that it behaves as
    /// the known Sargon, and store it
    Import {
        /// sargon-z80.asm (the transcription) or sargon-z80.lst (its zmac listing)
        file: PathBuf,
        /// Name in the store
        #[arg(long, default_value = rom::DEFAULT_NAME)]
        name: String,
        /// Replace a different image already imported under that name
        #[arg(long)]
        force: bool,
        /// Store an image that behaves differently from the known Sargon, marked unverified
        #[arg(long)]
        accept_different: bool,
    },
    /// List the imported ROMs with their SHA-256s
    List,
    /// Details of one ROM, and whether the emulator harness can use it
    Info {
        /// ROM name (default: the only one, or `sargon`)
        name: Option<String>,
    },
    /// Check that a stored ROM behaves as the known Sargon, and record the verdict
    Verify {
        /// ROM name (default: the only one, or `sargon`)
        name: Option<String>,
        /// Replay the whole golden corpus (depths 1-5: minutes), not only depths 1-2
        #[arg(long)]
        full: bool,
    },
    /// How much of the original's search code a set of searches executes (instructions and
    /// branch directions per routine) and which bytes of its data tables they read
    Coverage {
        /// ROM name (default: the only one, or `sargon`)
        name: Option<String>,
        /// The searches: `verify` (what `rom import` replays), `golden` (the whole golden
        /// corpus, as `rom verify --full`), or an EPD file of positions
        #[arg(long, default_value = "verify")]
        corpus: String,
        /// The depths: with an EPD file, those to search each position at (default 1-2);
        /// with `verify` or `golden`, only their searches of these depths, e.g. 1-1
        #[arg(long)]
        depths: Option<String>,
        /// With an EPD file: let the opening book answer (`verify` and `golden` set the
        /// book search by search)
        #[arg(long)]
        book: bool,
        /// Print each instruction that never ran or never went both ways, decoded from
        /// your image
        #[arg(long)]
        list: bool,
    },
}

pub(crate) fn run(store: &RomStore, command: RomCommand) -> Result<()> {
    match command {
        RomCommand::Import {
            file,
            name,
            force,
            accept_different,
        } => {
            // The bar shows only on a terminal; the check takes seconds.
            let progress = Progress::new(Scope::Quick.cases().len() as u64, "searches");
            progress.set_message("checking the image's behaviour");
            let imported = verify::import(store, &file, &name, force, accept_different, &|_| {
                progress.inc()
            });
            progress.finish();
            let imported = imported?;
            let rom = &imported.rom;
            let verb = match imported.result {
                ImportResult::Created => "imported",
                ImportResult::SameImage => "already imported (same image); source recorded",
                ImportResult::Replaced => "replaced",
            };
            println!(
                "{verb}: {} -> {}",
                file.display(),
                store.dir().join(&rom.meta.name).display()
            );
            print_rom(rom);
            print!("{}", imported.verification.report());
            if !imported.verification.verified() {
                println!(
                    "stored UNVERIFIED (--accept-different): every result made with `{}` will say so",
                    rom.meta.name
                );
            }
            Ok(())
        }
        RomCommand::List => {
            let names = store.names()?;
            if names.is_empty() {
                println!("no ROM imported in {}", store.dir().display());
                println!("import your copy with: sargon rom import path/to/sargon-z80.asm");
                return Ok(());
            }
            println!(
                "{:<16} {:<64} {:>6} {:<10}  SOURCES",
                "NAME", "IMAGE SHA-256", "BYTES", "VERIFIED"
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
                            "{:<16} {} {:>6} {:<10}  {}",
                            n,
                            r.meta.image_sha256,
                            r.meta.size,
                            if r.verified() { "yes" } else { "NO" },
                            sources.join(", ")
                        );
                        if r.verified() && !r.meta.allowed_differences.is_empty() {
                            println!(
                                "{:<16} differs from the known image only where no search runs or reads (allowed): {}",
                                "",
                                r.meta.allowed_differences.join(", ")
                            );
                        }
                    }
                    Err(e) => println!("{n:<16} unusable: {e}"),
                }
            }
            Ok(())
        }
        RomCommand::Info { name } => {
            let rom = store
                .load(name.as_deref())
                .map_err(|e| e.naming_the_rom_as("sargon rom info NAME"))?;
            print_rom(&rom);
            let syms = emu::Symbols::resolve(&rom)
                .context("this ROM cannot be used by the emulator harness")?;
            println!(
                "harness:       ready (all {} symbols present, hook points verified)",
                emu::REQUIRED_SYMBOLS.len()
            );
            for p in HookPoint::ALL {
                println!("  {:<22} {:#06x}", p.name(), syms.hooks[p as usize]);
            }
            Ok(())
        }
        RomCommand::Coverage {
            name,
            corpus,
            depths,
            book,
            list,
        } => coverage(
            store,
            name.as_deref(),
            &corpus,
            depths.as_deref(),
            book,
            list,
        ),
        RomCommand::Verify { name, full } => {
            let scope = if full { Scope::Full } else { Scope::Quick };
            let progress = Progress::new(scope.cases().len() as u64, "searches");
            let t = Instant::now();
            // The findings are printed as soon as the check ends, before they are recorded:
            // a record that fails then loses nothing.
            let print_findings = |rom: &rom::Rom, verification: &verify::Verification| {
                progress.finish();
                println!("name:          {}", rom.meta.name);
                println!("image SHA-256: {}", rom.meta.image_sha256);
                print!("{}", verification.report());
            };
            let checked = verify::verify_stored(
                store,
                name.as_deref(),
                scope,
                &|case| {
                    progress.set_message(case.label.clone());
                    progress.inc();
                },
                &print_findings,
            );
            progress.finish();
            let (rom, verification) = checked.map_err(|e| match e {
                VerifyError::Rom(e) => {
                    VerifyError::Rom(e.naming_the_rom_as("sargon rom verify NAME"))
                }
                e => e,
            })?;
            if !verification.verified() {
                anyhow::bail!(
                    "ROM `{}` is not the known Sargon image (recorded as unverified; {:.1} s)",
                    rom.meta.name,
                    t.elapsed().as_secs_f64()
                );
            }
            println!(
                "verified: recorded in {}",
                store.dir().join(&rom.meta.name).join("rom.json").display()
            );
            Ok(())
        }
    }
}

/// The searches of `verify` or `golden` (`scope`, named `corpus`) at `depths` (all of
/// them without), and what they are for people. Depths none of them has are refused.
fn named_cases(scope: Scope, corpus: &str, depths: Option<&[u8]>) -> Result<(Vec<Case>, String)> {
    let all = scope.cases();
    let Some(depths) = depths else {
        return Ok((all, scope.describe().to_string()));
    };
    let shown = |d: &[u8]| d.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
    let cases: Vec<Case> = all
        .iter()
        .filter(|c| depths.contains(&c.depth))
        .cloned()
        .collect();
    if cases.is_empty() {
        let mut has: Vec<u8> = all.iter().map(|c| c.depth).collect();
        has.sort_unstable();
        has.dedup();
        anyhow::bail!(
            "the `{corpus}` searches have none at depths {}: theirs are {}",
            shown(depths),
            shown(&has)
        );
    }
    let what = format!("{}, those of depths {}", scope.describe(), shown(depths));
    Ok((cases, what))
}

/// `sargon rom coverage`.
fn coverage(
    store: &RomStore,
    name: Option<&str>,
    corpus: &str,
    depths: Option<&str>,
    book: bool,
    list: bool,
) -> Result<()> {
    // The options are checked before the ROM is loaded or anything runs.
    let depths = depths
        .map(|range| -> Result<Vec<u8>> {
            let depths = super::diff::parse_depth_range(range)?;
            if let Some(&d) = depths.iter().find(|&&d| d > emu::MAX_DEPTH) {
                anyhow::bail!(
                    "depth {d} is beyond the original's limit of {}",
                    emu::MAX_DEPTH
                );
            }
            Ok(depths)
        })
        .transpose()?;
    let named = match corpus {
        "verify" => Some(Scope::Quick),
        "golden" => Some(Scope::Full),
        _ => None,
    };
    if let (Some(_), true) = (named, book) {
        anyhow::bail!(
            "--book is for an EPD file: the `{corpus}` searches each have their own book \
             setting (leave --book out)"
        );
    }
    let rom = store
        .load(name)
        .map_err(|e| e.naming_the_rom_as("sargon rom coverage NAME"))?;
    let (cases, what) = match named {
        Some(scope) => named_cases(scope, corpus, depths.as_deref())?,
        None => {
            let file = corpus;
            let depths = depths.unwrap_or_else(|| vec![1, 2]);
            let path = std::path::Path::new(file);
            let fens = super::diff::read_epd(path)
                .with_context(|| "--corpus takes `verify`, `golden` or an EPD file".to_string())?;
            let mut cases = Vec::new();
            for (i, fen) in fens.iter().enumerate() {
                for &d in &depths {
                    cases.push(Case::unknown(&format!("line {}", i + 1), d, fen, book));
                }
            }
            let what = format!(
                "{} positions of {} at depths {}",
                fens.len(),
                path.display(),
                depths
                    .iter()
                    .map(u8::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            );
            (cases, what)
        }
    };
    let progress = Progress::new(cases.len() as u64, "searches");
    let t = Instant::now();
    let report = verify::coverage(&rom, &cases, verify::default_workers(), &|case| {
        progress.set_message(case.label.clone());
        progress.inc();
    });
    progress.finish();
    let report = report?;
    println!(
        "coverage of ROM `{}` by {} searches ({what}), {:.1} s",
        rom.meta.name,
        cases.len(),
        t.elapsed().as_secs_f64()
    );
    println!(
        "\n{:<10} {:>6} {:>6} {:>7}   {:>6} {:>6} {:>7}",
        "ROUTINE", "INSTR", "RAN", "", "BRANCH", "TAKEN", ""
    );
    for r in &report.routines {
        println!(
            "{:<10} {:>6} {:>6} {:>6.1}%   {:>6} {:>6} {:>6.1}%",
            r.name,
            r.instructions,
            r.instructions_ran,
            percent((r.instructions, r.instructions_ran)),
            r.directions,
            r.directions_ran,
            percent((r.directions, r.directions_ran))
        );
    }
    let (instructions, directions) = (report.instructions(), report.directions());
    println!(
        "\nsearch routines: {} of {} instructions ran ({:.1}%), {} of {} branch directions taken ({:.1}%)",
        instructions.1,
        instructions.0,
        percent(instructions),
        directions.1,
        directions.0,
        percent(directions)
    );
    let gaps: Vec<_> = report.routines.iter().flat_map(|r| &r.gaps).collect();
    if !gaps.is_empty() {
        println!(
            "\nnot exercised ({}{}):",
            gaps.len(),
            if list {
                ""
            } else {
                "; --list shows each instruction"
            }
        );
        for g in gaps {
            if list {
                println!(
                    "  {:#06x} {:<12} {:<24} {}",
                    g.addr,
                    g.at,
                    g.instruction.text(),
                    g.missed.describe()
                );
            } else {
                println!("  {:#06x} {:<12} {}", g.addr, g.at, g.missed.describe());
            }
        }
    }
    let bytes = report.table_bytes();
    println!(
        "\ndata: {} of {} bytes of tables and variables read while they held the image's values ({:.1}%)",
        bytes.1,
        bytes.0,
        percent(bytes)
    );
    println!("{:<24} {:>6} {:>6}  NEVER READ", "TABLE", "BYTES", "READ");
    for t in &report.tables {
        let unread: Vec<String> = t
            .unread
            .iter()
            .map(|r| {
                if r.len() == 1 {
                    format!("[{}]", r.start)
                } else {
                    format!("[{}..{}]", r.start, r.end - 1)
                }
            })
            .collect();
        let unread = if t.read == 0 {
            "all".to_string()
        } else {
            unread.join(" ")
        };
        println!("{:<24} {:>6} {:>6}  {unread}", t.name, t.bytes, t.read);
    }
    Ok(())
}

fn print_rom(rom: &rom::Rom) {
    println!("name:          {}", rom.meta.name);
    println!("image SHA-256: {}", rom.meta.image_sha256);
    println!(
        "known image:   {}",
        rom.known_as().unwrap_or("no (not in roms/known.tsv)")
    );
    match rom.unverified_reason() {
        None => println!(
            "verified:      yes{}",
            rom.meta
                .verification
                .as_deref()
                .map(|v| format!(": {v}"))
                .unwrap_or_default()
        ),
        Some(why) => println!("verified:      NO ({why})"),
    }
    println!("load address:  {:#06x}", rom.meta.load_address);
    println!("size:          {} bytes", rom.meta.size);
    println!("symbols:       {}", rom.symbols.len());
    for s in &rom.meta.sources {
        println!(
            "source:        {} ({}, SHA-256 {})",
            s.file, s.kind, s.sha256
        );
    }
}
