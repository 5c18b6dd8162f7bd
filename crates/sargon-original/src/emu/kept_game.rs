//! One side's memory kept between its moves of a game ([`sargon_core::engine::Memory`]).

/// One side's memory kept between its moves of a game: the whole 64 KB, and while reads
/// are tracked, which bytes the game's searches have touched, so that a byte an earlier
/// search wrote is not taken for one of the image's.
#[derive(Clone)]
pub(super) struct KeptGame {
    pub(super) mem: Vec<u8>,
    pub(super) first_access: Option<Vec<u8>>,
}
