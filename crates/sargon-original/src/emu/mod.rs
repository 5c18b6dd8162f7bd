//! The original Sargon, run as it was written: its Z80 code in the `iz80` emulator.
//!
//! The harness calls Sargon's routines by symbol, the way its own driver did, with a
//! sentinel return address: it pushes the sentinel, jumps to the routine and runs until
//! the program counter reaches the sentinel. Instructions and T-states are counted, and an
//! instruction budget turns a hang into an error.
//!
//! T-states are counted twice. `iz80`'s own count deviates from Zilog's manual for
//! instructions Sargon uses all the time (IX/IY prefixes, `JP cc`), about 7% low for a
//! search, so the run loop also adds up each executed instruction's documented T-states
//! through a per-address [`TimingCache`](crate::z80::TimingCache), the same one the profiler uses: one table lookup
//! per instruction, which costs the emulator a few per cent of its speed
//! (`docs/history.md` has the measurement).
//!
//! Hooks ([`sargon_core::hooks`]) are armed in a 64 KiB table indexed by address: the only
//! per-instruction cost is one table lookup. A hook fires *before* the instruction at its
//! address executes and sees the program's memory through [`SargonMemory`](sargon_core::hooks::SargonMemory) (the symbols say
//! where each variable is) and the registers A and B, which it may change. Each hook point is a symbol plus a documented offset (`docs/hooks.md`), and the
//! bytes found there are checked when a ROM is loaded, so a different or corrupt image is
//! refused with an explanation instead of hooks firing in the wrong place.
//!
//! The calls run on `iz80` by default, or on `z80emu` ([`Core`], [`Emulator::with_core`]):
//! the run loop is written once over what it needs of a core (`core::Z80`), and the hooks
//! fire at the same addresses with the same registers on both.
//!
//! Two things of the original are neutralised here without touching its code, both
//! documented in `docs/emulator.md`:
//! * FNDMOV stores the root's score through MLPTRJ before setting it; on a fresh image
//!   MLPTRJ is 0 and the byte lands in the variable M3. The harness points MLPTRJ at a zeroed
//!   scratch entry before each search ([`Emulator::set_mlptrj_fix`] turns this off, to show
//!   the failure).
//! * The book reads the Z80 refresh register (`LD A,R`) as a random number; the harness
//!   replaces it with [`SearchOptions::book_random`](sargon_core::engine::SearchOptions::book_random).

mod core;
mod emulator;
mod kept_game;
pub mod lockstep;
mod machine;
mod memory;
mod progress;
mod run;
mod search;
pub mod stepper;
mod symbols;

pub use self::core::{Core, UnknownCore};
pub use self::emulator::{Emulator, ImageReads};
pub use self::machine::Observer;
pub use self::progress::STALL_LIMIT;
pub use self::search::MAX_DEPTH;
pub use self::stepper::{Step, StepError, Stepper};
pub use self::symbols::{StateSymbols, Symbols, REQUIRED_SYMBOLS};
