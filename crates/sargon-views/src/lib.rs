//! # sargon-views
//!
//! Views of a search by either Sargon engine, each made from what
//! [`sargon_core::record`] records and nothing else: the analysis of a position with its
//! principal variation ([`analysis`]), the search tree as text, Graphviz or an explorer's
//! JSON ([`tree`]), and the minimax models of "A Window into Sargon" run on an engine
//! ([`models`]). They see an engine only through [`sargon_core::Engine`], so they show
//! the original, the port and other people's ports alike.

#![warn(unreachable_pub)]
pub mod analysis;
pub mod models;
pub mod tree;

pub use analysis::{analyse, Analysis};
