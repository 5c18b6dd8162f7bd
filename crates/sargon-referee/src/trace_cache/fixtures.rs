//! What the cache's tests search: the port's full trace from the initial position. A
//! module of its own so that the codec's tests and the cache's share it without importing
//! each other.

use sargon_core::engine::SearchOptions;
use sargon_core::position::{Book, Setup};
use sargon_core::record;
use sargon_core::trace::{Detail, Event};

pub(super) fn startpos(book: bool) -> Setup {
    sargon_core::position::setup(&shakmaty::Chess::default(), Book::from(book)).unwrap()
}

pub(super) fn trace(depth: u8) -> Vec<Event> {
    record::search(
        &mut sargon_port::Port::new(),
        &startpos(false),
        &SearchOptions::depth(depth),
        Detail::Full,
        &mut [],
    )
    .unwrap()
    .events
}
