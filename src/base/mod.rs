//! The core: Sargon's vocabulary and the contracts both engines share.
//!
//! Everything here is engine-neutral. The original ([`crate::original`]) and the port
//! ([`crate::port`]) implement [`engine::Engine`] and fire [`hooks`] at the same points;
//! the tools ([`crate::tools`]) drive either through these types alone.

pub mod clock;
pub mod engine;
pub mod hooks;
pub mod input;
pub mod position;
pub mod svg;
pub mod trace;
pub mod vocab;
