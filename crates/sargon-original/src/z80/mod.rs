//! The Z80 itself, apart from any program on it: a table-driven decoder that gives each
//! instruction's text, length, T-states and control flow, and the profiler's timing cache.
//!
//! The documented Z80 instruction set, with the CB, ED, DD and FD prefixes, is described by
//! tables written from the opcode and timing tables of Zilog's *Z80 CPU User Manual*
//! ([`tables`](self::MAIN)):
//!
//! * [`MAIN`]: the 256 unprefixed opcodes, as templates (`LD BC,nn`, `JR NZ,e`, ...) with
//!   their T-states; for conditional instructions the T-states when the condition fails
//!   and when it holds (`RET NZ`: 5/11).
//! * [`ED`]: the ED page (block instructions, 16-bit arithmetic with carry, I/O through C).
//! * the CB page is regular (eight operations on eight operands), so it is built from the
//!   [`ROT`] names and the operand order;
//! * [`INDEXED`]: the opcodes that a DD or FD prefix turns into an IX or IY instruction,
//!   with their own T-states; their text is the [`MAIN`] template with `HL` read as `IX`
//!   and `(HL)` as `(IX+d)`.
//!
//! Anything else (undocumented opcodes) decodes as a data byte (`DB`). The decoder is
//! generic: what it knows of Sargon comes from outside, through its `Names`. `sargon listing`
//! uses it, with [`crate::program`]'s names, to print the user's imported image,
//! and the profiler ([`TimingCache`]) to know each executed instruction's documented timing.
//! It sits beside the assembler ([`crate::asm`]), which reads the same syntax
//! that [`Instruction::text`] writes.

mod decode;
mod tables;
mod timing;

pub(crate) use decode::Names;
pub use decode::{decode, hex_number, sweep, Flow, Instruction, Operand, Timing};
pub use tables::{ED, INDEXED, MAIN, ROT};
pub use timing::TimingCache;
