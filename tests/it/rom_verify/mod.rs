//! Trusting the user's image (issue 11): the known behaviour (`roms/behaviour.tsv`) and
//! code fingerprints (`roms/routines.tsv`), and `sargon rom import` / `rom verify` on
//! copies of the user's transcription changed at run time.
//!
//! * `UPDATE_GOLDENFILES=1 cargo test --test it rom_verify::` records both files from the
//!   known image (the only way they are written); without it the files are checked.
//! * Everywhere: the behaviour table agrees with the golden files and with the port.
//! * With a ROM imported (the known image, with its `source.asm`): copies of its source
//!   with one opcode changed, one table entry changed, or cut in half are refused with the
//!   right routine named; `--accept-different` stores the first marked unverified, and
//!   results made with it say so. No Sargon text is in these files or written outside a
//!   temporary directory.
//!
//! - `tables`: the two files, recorded or checked (what `UPDATE_GOLDENFILES=1` runs);
//! - `copies`: helpers for the changed copies; `refused`, `accept_different`, `coverage`,
//!   `data_tables`, `runaway`, `store`: the changed copies and what `sargon` says of them.

mod accept_different;
mod copies;
mod coverage;
mod data_tables;
mod refused;
mod runaway;
mod store;
mod tables;
