//! `sargon models`: the examples of "A Window into Sargon" on Sargon's own search.

use anyhow::Result;

use super::{open_engine, parse_engine, spec_with, CoreArgs};
use sargon_core::engine::Capability;
use sargon_engines::engines::EngineSpec;
use sargon_original::rom::RomStore;
use sargon_views::models::{self, ModelFormat, MODELS};
use sargon_views::tree;

/// Output forms of `sargon models`.
#[derive(Copy, Clone, Debug, clap::ValueEnum, PartialEq, Eq)]
pub(crate) enum ModelsFormat {
    /// The lesson, for people
    Text,
    /// Every figure, for programs
    Json,
    /// The trees as one Graphviz DOT graph
    Dot,
    /// The trees as SVG, made by Graphviz's `dot` (must be installed)
    Svg,
}

#[derive(clap::Args, Debug)]
pub(crate) struct ModelsArgs {
    /// Run only this example (1-5)
    #[arg(long, value_parser = super::numbers::example, allow_negative_numbers = true)]
    pub example: Option<u8>,
    /// Which engine runs the search
    #[arg(long, default_value = "port", value_parser = parse_engine)]
    pub engine: EngineSpec,
    /// ROM to run with the emulator
    #[arg(long)]
    pub rom: Option<String>,
    #[command(flatten)]
    pub core: CoreArgs,
    #[arg(long, value_enum, default_value_t = ModelsFormat::Text)]
    pub format: ModelsFormat,
}

pub(crate) fn run(store: &RomStore, args: ModelsArgs) -> Result<()> {
    let spec = spec_with(&args.engine, args.rom.as_deref(), &args.core)?;
    if args.format == ModelsFormat::Svg && super::graphviz::graphviz_version().is_none() {
        // The explanation, before any search.
        super::graphviz::render_svg("")?;
    }
    let mut engine = open_engine(store, &spec)?;
    // The models replace Sargon's scores at its hook points.
    engine.require(Capability::Hooks, "sargon models")?;
    // Results from a ROM that did not behave as the known image say so in the output
    // itself, not only in stderr's warning (text as a note first, DOT and SVG in the title,
    // JSON as a `rom_verified: false` field in each example).
    let note = engine.rom_id().and_then(|r| r.unverified_note());
    let format = match args.format {
        ModelsFormat::Text => ModelFormat::Text,
        ModelsFormat::Json => ModelFormat::Json,
        ModelsFormat::Dot | ModelsFormat::Svg => {
            let numbers: Vec<u8> = match args.example {
                Some(n) => vec![n],
                None => MODELS.iter().map(|m| m.number).collect(),
            };
            let runs = numbers
                .into_iter()
                .map(|n| models::run_example(engine.as_mut(), n))
                .collect::<std::result::Result<Vec<_>, _>>()?;
            let dot = tree::models_dot(&runs, note.as_deref());
            if args.format == ModelsFormat::Dot {
                print!("{dot}");
            } else {
                print!("{}", super::graphviz::render_svg(&dot)?);
            }
            return Ok(());
        }
    };
    let output = models::run_models(engine.as_mut(), args.example, format)?;
    match (&note, format) {
        (None, _) => print!("{output}"),
        (Some(note), ModelFormat::Text) => print!("Note: {note}\n\n{output}"),
        (Some(_), ModelFormat::Json) => {
            let mut all: serde_json::Value = serde_json::from_str(&output)?;
            for example in all.as_array_mut().into_iter().flatten() {
                example["rom_verified"] = serde_json::Value::Bool(false);
            }
            println!("{}", serde_json::to_string_pretty(&all)?);
        }
    }
    Ok(())
}
