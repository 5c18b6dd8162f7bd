//! The classic "Sargon benchmark" positions, in one place for the command (`sargon bench`,
//! `history`) and the port's profiling example.

/// The classic "Sargon benchmark" set: 12 middlegame and endgame positions, mostly
/// tactical; two appear twice, as in the set's original form. The benchmark divides the
/// manual's level-6 time per move by a program's average time per search at depth 6 over
/// this set (`sargon bench`).
pub const CLASSIC_POSITIONS: [&str; 12] = [
    "r2n2k1/5ppp/6q1/5N2/b7/1P6/3Q1PPP/3R2K1 w - - 0 1",
    "r2n2k1/5ppp/6q1/5N2/b7/1P6/3Q1PPP/3R2K1 w - - 0 1",
    "2r1nrk1/5pbp/1p2p1p1/8/p2B4/PqNR2P1/1P3P1P/1Q1R2K1 w - - 0 1",
    "5k2/3KR3/4B3/8/3P4/8/8/6q1 w - - 0 1",
    "3r2k1/1pq2ppp/pb1pp1b1/8/3B4/2N5/PPP1QPPP/4R1K1 w - - 0 1",
    "r4r2/6kp/2pqppp1/p1R5/b2P4/4QN2/1P3PPP/2R3K1 w - - 0 1",
    "8/8/q2pk3/2p5/8/3N4/8/4K2R w K - 0 1",
    "3k4/8/8/7P/8/8/1p6/1K6 w - - 0 1",
    "2k5/8/8/8/7P/8/1p6/1K6 w - - 0 1",
    "6B1/2N5/7p/pR4p1/1b2P3/2N1kP2/PPPR2PP/2K5 w - - 0 34",
    "6B1/2N5/7p/pR4p1/1b2P3/2N1kP2/PPPR2PP/2K5 w - - 0 34",
    "2rq1r1k/3npp1p/3p1n1Q/pp1P2N1/8/2P4P/1P4P1/R4R1K w - - 0 1",
];
