//! `sargon listing`: the imported image disassembled, with its symbols, T-states and the
//! harness's hook points; with `--port`, the port's functions beside the original's labels.
//!
//! The listing is made at run time from the user's own imported ROM (image and symbol
//! table): nothing of Sargon is stored in the project.

use anyhow::Result;

use sargon_original::listing::{full_listing, hook_addresses, listing_of};
use sargon_original::program::Program;
use sargon_original::rom::RomStore;
use sargon_port_links::{port_listing_of, PortLinks};

#[derive(clap::Args, Debug)]
pub(crate) struct ListingArgs {
    /// A routine or label (case-insensitive); without it, all the code
    pub routine: Option<String>,
    /// ROM to list (default: the only one imported, or `sargon`)
    #[arg(long)]
    pub rom: Option<String>,
    /// Show the port beside the original: under each label, the port function and
    /// source line that implement it; without a routine, which routines and labels the
    /// port cites and which it does not
    #[arg(long)]
    pub port: bool,
}

pub(crate) fn run(store: &RomStore, args: ListingArgs) -> Result<()> {
    let listing = text(store, &args)?;
    print!("{listing}");
    Ok(())
}

/// What `sargon listing` prints.
pub(crate) fn text(store: &RomStore, args: &ListingArgs) -> Result<String> {
    let rom = store.load(args.rom.as_deref())?;
    let hooks = hook_addresses(&rom);
    let program = Program::of_rom(&rom);
    let text = match (&args.routine, args.port) {
        (Some(name), false) => listing_of(&program, &hooks, name)?,
        (Some(name), true) => port_listing_of(&program, &hooks, &PortLinks::of_port(), name)?,
        (None, false) => full_listing(&program, &hooks),
        (None, true) => PortLinks::of_port().coverage(&program).report(),
    };
    // A listing of an image that did not behave as the known one says so first.
    Ok(match rom.unverified_reason() {
        Some(why) => format!("; ROM `{}` is NOT VERIFIED: {why}\n\n{text}", rom.meta.name),
        None => text,
    })
}
