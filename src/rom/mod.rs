//! The ROM store (placeholder).
