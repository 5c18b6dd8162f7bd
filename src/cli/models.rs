//! `sargon models`: the examples of "A Window into Sargon" on Sargon's own search.

use anyhow::Result;

use super::{make_engine, Format};
use crate::engine::EngineKind;
use crate::models::{self, ModelFormat};
use crate::rom::RomStore;

#[derive(clap::Args, Debug)]
pub struct ModelsArgs {
    /// Run only this example (1-5)
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=5))]
    pub example: Option<u8>,
    /// Which engine runs the search
    #[arg(long, default_value = "port", value_parser = |s: &str| s.parse::<EngineKind>())]
    pub engine: EngineKind,
    /// ROM to run with the emulator
    #[arg(long)]
    pub rom: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(store: &RomStore, args: ModelsArgs) -> Result<()> {
    let (mut engine, _) = make_engine(store, args.engine, args.rom.as_deref())?;
    let format = match args.format {
        Format::Text => ModelFormat::Text,
        Format::Json => ModelFormat::Json,
    };
    print!(
        "{}",
        models::run_models(engine.as_mut(), args.example, format)?
    );
    Ok(())
}
