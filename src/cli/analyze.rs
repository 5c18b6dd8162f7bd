//! `sargon analyze`: Sargon's move, PV and score for one position.

use anyhow::Result;

use super::{make_engine, EngineArgs, Format};
use crate::analysis::{self, Analysis};
use crate::position;
use crate::rom::RomStore;

#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    /// A FEN, or `startpos`
    pub position: String,
    /// Search depth in plies (Sargon's PLYMAX)
    #[arg(long, short, default_value_t = 3)]
    pub depth: u8,
    #[command(flatten)]
    pub engine: EngineArgs,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(store: &RomStore, args: AnalyzeArgs) -> Result<()> {
    let setup = args.engine.setup(&args.position)?;
    let (mut engine, rom) = make_engine(store, args.engine.engine, args.engine.rom.as_deref())?;
    let opts = args.engine.options(args.depth);
    let (a, _) = analysis::analyse(engine.as_mut(), rom, &setup, &opts)?;
    match args.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&a)?),
        Format::Text => print!("{}", render_text(&a)),
    }
    Ok(())
}

/// The text form of an analysis.
pub fn render_text(a: &Analysis) -> String {
    let mut out = String::new();
    let mut line = |s: String| {
        out.push_str(&s);
        out.push('\n');
    };
    line(format!("Position   {}", a.fen));
    let rom = a
        .rom
        .as_ref()
        .map(|r| format!(" (ROM {r})"))
        .unwrap_or_default();
    line(format!("Engine     {}{rom}, depth {}", a.engine, a.depth));
    match (&a.best_san, &a.best_uci) {
        (Some(san), Some(uci)) => {
            let book = if a.from_book {
                "  (from the opening book)"
            } else {
                ""
            };
            line(format!("Best move  {san} ({uci}){book}"));
        }
        _ => line("Best move  none: no legal move (checkmate or stalemate)".to_string()),
    }
    if !a.pv_san.is_empty() && !a.from_book {
        let pos = position::parse_position(&a.fen).expect("our own FEN");
        line(format!(
            "PV         {}",
            crate::pv::numbered_line(&pos, &a.pv_san)
        ));
    }
    if !a.from_book && !a.no_legal_move {
        let mate = if a.mate { "  mate found" } else { "" };
        line(format!(
            "Score      {:+.2} pawns for the side to move, {:+} cp for White (Sargon byte {:#04x}){mate}",
            a.score_pawns, a.score_cp, a.sargon_score
        ));
    }
    if let (Some(n), Some(t)) = (a.z80_instructions, a.t_states) {
        let trs = a.trs80_seconds.unwrap_or(0.0);
        line(format!(
            "Z80        {n} instructions, {t} T-states = {} on a TRS-80 Model I (1.774 MHz)",
            super::human_duration(trs)
        ));
    }
    match a.z80_mips {
        Some(m) => line(format!(
            "Time       {:.3} s ({m:.1} M Z80 instructions/s)",
            a.wall_ms / 1000.0
        )),
        None => line(format!("Time       {:.3} s", a.wall_ms / 1000.0)),
    }
    out
}
