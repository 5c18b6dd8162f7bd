//! `sargon uci`: speak the UCI protocol on stdin/stdout, for chess GUIs (see `docs/uci.md`).

use std::io;

use anyhow::{bail, Context, Result};

use super::{make_engine_on, CoreArgs, EngineArgs};
use sargon_original::rom::RomStore;
use sargon_tools::uci::{Settings, Uci};

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
    let kind = args.engine.engine;
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
    let store = store.clone();
    let rom = args.engine.rom.clone();
    let core = args.core.core.unwrap_or_default();
    let factory = Box::new(move |kind| make_engine_on(&store, kind, rom.as_deref(), core));
    let mut uci = Uci::new(factory, crate::streams::Stdout, settings);
    // An engine that cannot run is an error now, before `uciok` tells the GUI all is well.
    uci.open_engine()?;
    uci.run(io::stdin().lock()).context("reading UCI commands")
}
