//! The emulator harness (placeholder).
