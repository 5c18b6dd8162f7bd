//! The original's routines and nothing else: one Rust function per routine, named after it,
//! with the original's labels as comments (`// PT5`) at the lines that implement them and,
//! in each routine's doc comment, its callers and callees as the original's routine headers
//! name them. The port's own speed-ups are not here: where the original scores a position
//! (CALL PINFND, CALL POINTS in FNDMOV and EVAL) these routines call the
//! [`Scorer`](crate::scorer::Scorer) they are given, and
//! [`OriginalSteps`](crate::scorer::OriginalSteps) is the scorer that calls PINFND
//! and POINTS below.
//!
//! * [`state`]: the machine: memory with the original's table layout, and its variables.
//! * [`movegen`]: PATH, MPIECE, ENPSNT, ADJPTR, CASTLE, ADMOVE, GENMOV, INCHK, INCHK1,
//!   ATTACK, ATKSAV, PNCK.
//! * [`eval`]: PINFND, XCHNG, NEXTAD, POINTS, LIMIT.
//! * [`search`]: MOVE, UNMOVE, SORTM, EVAL, FNDMOV, ASCEND, BOOK, ROYALT, VALMOV.

pub(crate) mod eval;
pub(crate) mod movegen;
pub(crate) mod search;
pub(crate) mod state;
