//! # sargon-port-links
//!
//! Links from the port to the original: which of Sargon's routines and labels the port's
//! comments cite, and where.
//!
//! The port (crate `sargon-port`) is written routine by routine beside the original, and says
//! so in its comments: `// MV1` on the line that does what the original does at MV1, and
//! `/// PATH: step M2 ...` on the function that ports PATH. This module reads those
//! citations from the port's own source text, embedded at build time (this crate's `build.rs`
//! lists every `.rs` file under `crates/sargon-port/src`, so files may move and split freely), so that
//!
//! * a test can check that every name the port cites is a symbol of the user's imported
//!   image (a typo or a renamed label fails it), and
//! * `sargon listing ROUTINE --port` can show, at each label of the original's code, the
//!   port function and source line that implement it, and `sargon listing --port` which
//!   routines and labels the port cites and which it does not.
//!
//! ## The convention (also in docs/port.md, "Links to the original")
//!
//! A *label* is written as the original writes it: an upper-case letter, then upper-case
//! letters, digits and `_`, two characters at least (`MV1`, `PT6AA`, `FNDMOV`, `O_O`). A
//! *label group* is one label, alternatives joined by `/` (`MV21/MV22`: both), or a range
//! `FROM..THROUGH` (`PT5..PT25`: every label of the image from FROM through THROUGH, by
//! address).
//!
//! * **Comment citation**: a line comment `//` (on its own line or after code) whose text is
//!   a label group alone, or followed by `:` or by a parenthesis: `// MV1`,
//!   `// PF2: scan one direction`, `// PT6A..PT6D`, `// PVALUE (pawn .. king)`. It says
//!   that this line implements the label; the link records the function around it.
//! * **Doc citation**: the doc comment (`///`) of a function or of an enum variant whose
//!   first line begins with a label group: `/// PATH: step M2 ...`,
//!   `/// PT5..PT25 over all squares`, `/// FM35: evaluate the move just made`. It says
//!   that the item implements the label (or the part it names).
//! * **Mentions**: every other upper-case word of a doc comment (`///` or `//!`) outside
//!   backticks, such as the routines a function's doc names as its callers and callees,
//!   is a name of the original too, and must be a symbol of the image.
//!
//! Nothing else counts: prose in a line comment (`// PNCK left the attack direction in D`,
//! `// WACT or BACT`) is no citation, code in backticks is code, and the words of
//! `NOT_LABELS` (the Z80's registers, condition flags and a few mnemonics, a few abbreviations) are never
//! labels. The names of the port's own `const` and `static` items (`DIRECTIONS`, `INDEX`)
//! may appear in doc comments without being symbols of the image. Comments in the port's
//! tests (a `tests.rs` file or a `mod tests`) are checked but implement nothing.

//!
//! It is a crate of its own, not a module of the referee: it always needs the original's
//! program (its symbols and listing, from `sargon-original`), which the referee carries
//! only with its `emulator` feature, and its build script has the one job of embedding
//! the port's text.

#![warn(unreachable_pub)]

mod labels;
mod links;
mod listing;
mod scanner;
#[cfg(test)]
mod tests;

pub use links::{Citation, Coverage, Form, NameUse, PortLinks, RoutineCoverage};
pub use listing::port_listing_of;
pub use scanner::PORT_SOURCES;
