//! `sargon rom`: import, list and inspect the user's copy of the original program.

use std::path::PathBuf;

use anyhow::{Context, Result};

use sargon::base::hooks::HookPoint;
use sargon::original::emu;
use sargon::original::rom::{self, ImportResult, RomStore};

#[derive(clap::Subcommand, Debug)]
pub enum RomCommand {
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

pub fn run(store: &RomStore, command: RomCommand) -> Result<()> {
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
            if let Err(e) = emu::Symbols::resolve(&rom) {
                println!("warning: the emulator harness cannot use this image: {e}");
            }
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
    }
}

fn print_rom(rom: &rom::Rom) {
    println!("name:          {}", rom.meta.name);
    println!("image SHA-256: {}", rom.meta.image_sha256);
    println!(
        "known image:   {}",
        rom.known_as().unwrap_or("no (not in roms/known.tsv)")
    );
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
