//! The original's routines.

pub mod eval;
pub mod movegen;
pub mod search;
pub mod state;
