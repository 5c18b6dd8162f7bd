//! The report over a run's results files: is every search of the run there exactly once,
//! were they all made alike, and what did they find.
//!
//! A run over many shards is only as good as its bookkeeping: a shard that never started,
//! one that ran twice, or one that ran on another ROM image would each make the summary
//! wrong without any divergence showing. So the report checks coverage (each position of
//! the input at each depth exactly once, matched by index *and* FEN) and consistency (one
//! ROM image, one pair of engines) before it counts, and fails on any gap.

mod build;
mod causes;
mod contents;
#[cfg(test)]
mod tests;
mod text;
mod words;

pub use build::build;
pub use causes::{causes, causes_of_records, causes_text};
pub use contents::{
    Cause, Comparison, Consistency, Coverage, DepthPlan, DepthRow, Duplicate, FenMismatch, Finding,
    Program, Report, RomImage, SearchKey, Summary, Unexpected,
};
pub use text::summary_line;
