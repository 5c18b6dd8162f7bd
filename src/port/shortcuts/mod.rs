//! The port's shortcuts.

pub mod cache;
pub mod memo;
