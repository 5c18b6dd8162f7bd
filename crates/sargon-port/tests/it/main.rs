//! The port's integration tests, one test binary (`cargo test -p sargon-port --test it`):
//! the port against the golden files recorded from the original, and core's search
//! pipeline driven by the port.

// The golden files' reading and comparison, shared with the root's tests.
#[path = "../../../../tests/it/common/golden.rs"]
mod golden_files;

mod golden;
mod pipeline;
