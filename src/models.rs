//! The minimax models of "A Window into Sargon" (placeholder; being written).

use crate::engine::Engine;

/// Output form of `sargon models`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ModelFormat {
    Text,
    Json,
}

/// Run the examples (all five, or one) on `engine` and render them.
pub fn run_models(_engine: &mut dyn Engine, _example: Option<u8>, _format: ModelFormat) -> anyhow::Result<String> {
    anyhow::bail!("the models are not implemented yet")
}
