//! Hook points: named places in Sargon's search where Rust code can watch and steer it.
//!
//! The same points exist in both engines. In the emulator a hook point is an address of the
//! imported program (a symbol plus a documented offset, see `docs/hooks.md`) and fires just
//! before the instruction there executes; in the native port it is the corresponding line
//! of the ported routine.
//!
//! # Why hooks see typed views, and why one memory trait
//!
//! What a register holds at a point depends on the point (A is a verdict at one, a score at
//! another, a random byte at a third), so a hook gets a [`HookEvent`]: one variant per point,
//! each a view with named accessors of the right types (a [`PathVerdict`], a [`Score`](crate::vocab::Score), a
//! [`Sq`](crate::vocab::Sq), a [`Piece`](crate::vocab::Piece)) and setters only for what the point lets a hook change.
//!
//! "A hook never cares which engine" holds by construction: every view reads the engine
//! through one small trait, [`SargonMemory`], which says where Sargon's variables and tables
//! are and reads a byte of its data area. Both engines implement only that; the path from
//! the root, the move-list walk (with one limit, [`MAX_LIST_WALK`]), the board, the scores
//! compared at the `search.*` points (through SCRIX, as the original's HL) are all written
//! once, here. The only things an engine hands over at a point are the registers A and B
//! ([`Registers`]), and it takes back what the hooks left in them.
//!
//! Nothing is built unless a hook asked for the point: engines test the [`HookMask`] bit
//! first, so an unhooked search pays one bit test per point.
//!
//! # Example: count the calls of POINTS
//!
//! ```
//! use sargon_core::{setup, Book, Engine, FnHook, HookEvent, HookPoint, Hooks, SearchOptions};
//!
//! let mut calls = 0;
//! let mut leaves_at_ply_2 = 0;
//! let mut count = FnHook::new(&[HookPoint::PointsEnd], |event| {
//!     if let HookEvent::PointsEnd(view) = event {
//!         calls += 1;
//!         if view.search().ply() == 2 {
//!             leaves_at_ply_2 += 1;
//!         }
//!     }
//! });
//! let mut hooks = Hooks::new();
//! hooks.add(&mut count);
//! let setup = setup(&shakmaty::Chess::default(), Book::Off)?;
//! // The port here; the original in the emulator (crate sargon-original) fires the same hook.
//! sargon_port::Port::new().search(&setup, &SearchOptions::depth(2), &mut hooks)?;
//! drop(hooks);
//! drop(count);
//! // The root, the 20 moves of White sorted, and Black's replies to them.
//! assert!(leaves_at_ply_2 > 0 && calls > 20 + leaves_at_ply_2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// What an engine implements for its hooks has a module of its own, which the whole-state
// comparison (`crate::state`) uses too; its names stay where they always were, here.
pub use crate::memory::{Pointer, SargonMemory, Table, Var};

mod dispatch;
mod event;
mod points;
mod search;
mod views;

pub use dispatch::{FnHook, Hook, Hooks};
pub use event::HookEvent;
pub use points::{HookMask, HookPoint, Registers, MAX_LIST_WALK};
pub use search::{PathVerdict, Search};
pub use views::*;

#[cfg(test)]
mod tests;
