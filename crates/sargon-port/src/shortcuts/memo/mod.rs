//! POINTS's memo of ATTACK: not part of the original, a cache that makes the port faster.
//!
//! POINTS runs ATTACK (with T1 = 7: list every attacker and defender) on all 64 squares for
//! every position it scores, and that is most of the port's time. Consecutive evaluations
//! are nearly always of sibling positions (SORTM scoring every move of a ply, FNDMOV
//! scoring the leaves one after the other), which differ in two to four squares; most of
//! the 9 scans of a square (8 lines, the knight jumps) read none of them.
//!
//! ATTACK with T1 = 7 is a scan that finds the attackers (`Part`: per line, the squares
//! read and the ATKSAV calls due), then the ATKSAV calls in order (see
//! [`Machine::attack`]). What it leaves behind (the attack list, which it finds cleared,
//! and M2, P2, T2) depends on nothing but
//!
//! * for each line, the square itself (P1, whose colour the scan compares with) and the
//!   squares the line read, up to the one it stopped on;
//! * for the knight jumps, the square itself and the 8 knight squares (M2/P2/T2 on exit
//!   are the last jump's square and the last knight square on the board: there are always
//!   at least two, so their values on entry do not matter);
//! * for the ATKSAV calls, the attackers' board bytes (on squares their line read), the
//!   pin list that PNCK reads (NPINS and the first NPINS entries), and constant tables
//!   (DIRECTIONS, PVALUE: nothing writes to them).
//!
//! So each square's memo keeps its 9 parts and the attack list ATTACK left (M2/P2/T2 are
//! needed only after the last square, and are read from the board then). Before each
//! POINTS the board is compared with the board of the previous POINTS. For each square, a
//! line that read a changed square is scanned again, and the knight jumps if a knight left
//! or came to a square a knight's jump away (only knights make their ATKSAV calls);
//! if its ATKSAV calls differ, or the pin list differs in a way PNCK can see for one of
//! the square's attackers (see `PointsMemo::changes`), the ATKSAV calls are made again
//! into a cleared list (a copy, not memory: the memo has its own copy of ATKSAV's steps,
//! `atksav_on_copy`); otherwise the kept list is the one. A part is scanned again in
//! place, each ATKSAV call compared with the kept one, and XCHNG's result stays as long as
//! the list comes out the same.
//!
//! XCHNG, which POINTS runs on the list of an occupied square, reads nothing but that list
//! and P1 (T3 is P1's type, PVALUE is constant): the memo keeps its result and the list
//! as XCHNG leaves it, for as long as the square's list and P1 stay the same.
//!
//! Between two squares nothing looks at the attack list or M2/P2/T2 (POINTS clears the
//! list before each ATTACK and ATTACK overwrites M2/P2/T2; there is no hook point inside
//! POINTS), so a list from the memo is written to memory only when XCHNG must read it, and
//! after the last square (`PointsMemo::finish`). POINTS ends with exactly the memory
//! and variables of the original.
//!
//! A square none of whose parts read a changed square, whose piece is the same and whose
//! attackers PNCK cannot judge otherwise adds to POINTS's sums exactly what it added last
//! time, so `PointsMemo::points` works out only the other squares (on a depth-6 search
//! about 40 of the 64) and adds the kept terms of the rest.
//!
//! The memo is used only while the board's frame of 0xff border bytes is intact and no
//! square of the board holds a border byte. (A hook could make a move onto the frame;
//! then scans could run off the board into the attack list, and POINTS runs exactly the
//! original's steps.) So the memo's own scans know that every square they find on the
//! board is empty or a piece, and the frame is where the board ends.

mod changes;
mod points;
mod square;
mod tables;

pub(crate) use changes::Changes;
pub(crate) use points::PointsMemo;
#[cfg(test)]
pub(crate) use points::SquareCounts;
pub(crate) use tables::{index, on_board, RAYS, SQUARES};
