//! `sargon listing`: the imported image disassembled, with its symbols, T-states and the
//! harness's hook points.
//!
//! The listing is made at run time from the user's own imported ROM (image and symbol
//! table): nothing of Sargon is stored in the project.

use anyhow::Result;

use sargon::original::listing::{full_listing, hook_addresses, listing_of};
use sargon::original::program::Program;
use sargon::original::rom::RomStore;

#[derive(clap::Args, Debug)]
pub struct ListingArgs {
    /// A routine or label (case-insensitive); without it, all the code
    pub routine: Option<String>,
    /// ROM to list (default: the only one imported, or `sargon`)
    #[arg(long)]
    pub rom: Option<String>,
}

pub fn run(store: &RomStore, args: ListingArgs) -> Result<()> {
    let rom = store.load(args.rom.as_deref())?;
    let hooks = hook_addresses(&rom);
    let program = Program::of_rom(&rom);
    let text = match &args.routine {
        Some(name) => listing_of(&program, &hooks, name)?,
        None => full_listing(&program, &hooks),
    };
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}
