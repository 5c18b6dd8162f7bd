//! `sargon rom`: import, list, inspect and verify the user's copy of the original program.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};

use super::progress::Progress;
use sargon_core::hooks::HookPoint;
use sargon_original::emu;
use sargon_original::rom::{self, ImportResult, RomStore};
use sargon_tools::verify::{self, Scope, VerifyError};

#[derive(clap::Subcommand, Debug)]
pub enum RomCommand {
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
}

pub fn run(store: &RomStore, command: RomCommand) -> Result<()> {
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
        RomCommand::Verify { name, full } => {
            let scope = if full { Scope::Full } else { Scope::Quick };
            let progress = Progress::new(scope.cases().len() as u64, "searches");
            let t = Instant::now();
            let checked = verify::verify_stored(store, name.as_deref(), scope, &|case| {
                progress.set_message(case.label.clone());
                progress.inc();
            });
            progress.finish();
            let (rom, verification) = checked.map_err(|e| match e {
                VerifyError::Rom(e) => {
                    VerifyError::Rom(e.naming_the_rom_as("sargon rom verify NAME"))
                }
                e => e,
            })?;
            println!("name:          {}", rom.meta.name);
            println!("image SHA-256: {}", rom.meta.image_sha256);
            print!("{}", verification.report());
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
