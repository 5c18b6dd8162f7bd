//! Many positions at once: EPD files, test-suite scoring, and a work queue over the
//! machine's cores. Used by `sargon analyze --epd`; [`run_ordered`] and [`workers`] serve
//! other batch commands too.
//!
//! * [`epd`]: EPD lines read into positions and the moves that solve them;
//! * [`rows`]: one analysed position as a [`BatchRow`], in CSV or JSON Lines;
//! * [`run`]: [`run_ordered`] spreads the work over threads, one engine each, and hands
//!   the results back in input order.
//!
//! Their items are re-exported here, where the commands use them.

pub mod epd;
pub mod rows;
pub mod run;

pub use epd::{
    epd_line, format_operation, parse_epd, parse_epd_line, parse_operations, played_line, EpdEntry,
    EpdError, EpdOp, OperationsError,
};
pub use rows::{analyse_entry, csv_field, BatchRow};
pub use run::{run_ordered, workers};
