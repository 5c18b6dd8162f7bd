//! `sargon uci`: speak the UCI protocol on stdin/stdout, for chess GUIs (see `docs/uci.md`).

use std::io;

use anyhow::{bail, Context, Result};

use super::{open_with, CoreArgs, EngineArgs};
use sargon_chess::uci::{Settings, Uci};
use sargon_engines::engines::EngineSpec;
use sargon_original::rom::RomStore;

#[derive(clap::Args, Debug)]
pub(crate) struct UciArgs {
    #[command(flatten)]
    pub engine: EngineArgs,
    // The GUI can switch the engine with the `Engine` option, so `--core` is taken even
    // with the port: it applies when the emulator is chosen.
    #[command(flatten)]
    pub core: CoreArgs,
    /// Start value of the FixedDepth option (0: iterative deepening under the clock)
    #[arg(long, default_value_t = 0, value_parser = super::numbers::fixed_depth, allow_negative_numbers = true)]
    pub fixed_depth: u8,
}

pub(crate) fn run(store: &RomStore, args: UciArgs) -> Result<()> {
    let kind = args.engine.engine.clone();
    if args.fixed_depth > kind.max_depth() {
        bail!(
            "--fixed-depth {}: the {kind} engine searches at most depth {}",
            args.fixed_depth,
            kind.max_depth()
        );
    }
    let settings = Settings {
        engine: kind,
        fixed_depth: args.fixed_depth,
        book: !args.engine.no_book,
        book_random: args.engine.book_random,
        ..Settings::default()
    };
    // `setoption name Engine value emulator` runs the ROM and core given here.
    let options = super::open_options(store);
    let rom = args.engine.rom.clone();
    let core = args.core.core.map(|c| c.to_string());
    let factory = Box::new(move |spec: &EngineSpec| {
        let spec = spec
            .clone()
            .with_rom_and_core(rom.as_deref(), core.as_deref());
        open_with(&spec, &options)
    });
    let mut uci = Uci::new(factory, crate::streams::Stdout, settings);
    // An engine that cannot run is an error now, before `uciok` tells the GUI all is well.
    uci.open_engine()?;
    uci.run(io::stdin().lock()).context("reading UCI commands")
}
