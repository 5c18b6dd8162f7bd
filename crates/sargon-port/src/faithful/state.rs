//! The port's machine state: Sargon's data area in a 64 KiB byte memory addressed by `u16`
//! "pointers", and its one-byte variables as plain fields.
//!
//! Why a byte memory and not Rust collections: Sargon's data structures overlap and alias
//! on purpose. The ply table's slots double as move-list heads (the first move of a ply is
//! linked from a PLYIX slot, and SORTM relinks from there), BESTM may point into the book
//! table as if it were a move entry, null pointers are recognised by their high byte only,
//! and a few overflows (attack-list slots, the pin list, the move list) spill into whatever
//! the original has next to them. Keeping the same bytes with the same relative layout makes
//! all of that behave as in the original without special cases.
//!
//! The table area (DIRECT .. PLYIX) is laid out exactly as in the original, relative to a
//! page-aligned `TBASE`, because the original indexes several tables from one base with
//! 8-bit offsets. TBASE and MLIST are also at the original's addresses: the ply table holds
//! move-list pointers, and a board index can reach the ply table (docs/port.md, "Past the tables"), so
//! their high bytes must be the original's for such a read to see the same "piece". No
//! pointer ever points into the tables (the only addresses with a high byte of 0), so the
//! high-byte null test never mistakes a real pointer for null. SCRATCH and the book are
//! ours, out of a board index's reach.

use sargon_core::vocab::BOARD_SIZE;

/// Base of the byte-indexed tables (page aligned, as in the original).
pub(crate) const TBASE: u16 = 0x0100;
/// Direction table: 24 signed steps (diagonals, orthogonals, knight jumps, pawn moves).
pub(crate) const DIRECT: u16 = TBASE - 0x80;
/// Where each piece type's directions start in DIRECT (index: piece type, 0 = black pawn).
pub(crate) const DPOINT: u16 = DIRECT + 24;
/// How many directions each piece type has.
pub(crate) const DCOUNT: u16 = DPOINT + 7;
/// Piece values, addressed as `PVALUE + type` for types 1..=6 (so `PVALUE + 0` is the last
/// byte of DCOUNT, as in the original).
pub(crate) const PVALUE: u16 = DCOUNT + 7 - 1;
/// The initial back rank (only kept so the layout matches).
pub(crate) const PIECES: u16 = PVALUE + 1 + 6;
/// Sargon's 10x12 board.
pub(crate) const BOARDA: u16 = PIECES + 8;
/// Attack list: a count byte and 6 nibble-pair slots per colour.
pub(crate) const ATKLST: u16 = BOARDA + BOARD_SIZE as u16;
/// WACT: the white half of the attack list.
pub(crate) const WACT: u16 = ATKLST;
/// BACT: the black half of the attack list.
pub(crate) const BACT: u16 = ATKLST + 7;
/// Pin list: 10 pinned-piece squares, then 10 pin directions.
pub(crate) const PLISTA: u16 = ATKLST + 14;
/// The pin list as the original indexes it: entry n (1-based) at `PLIST + n`.
pub(crate) const PLIST: u16 = PLISTA - 1;
/// PLISTD: the pin directions, entry n (1-based) at `PLISTD + n`.
pub(crate) const PLISTD: u16 = PLIST + 10;
/// Royalty table: white king, black king, white queen, black queen, then a 0xff end mark.
pub(crate) const POSK: u16 = PLISTA + 20;
/// POSQ: the queen positions, white then black.
pub(crate) const POSQ: u16 = POSK + 2;
/// The royalty table's 0xff end mark.
pub(crate) const ROYAL_END: u16 = POSQ + 2;
/// Score table, one byte per ply plus two dummy plies.
pub(crate) const SCORE: u16 = ROYAL_END + 1;

/// The zeroed 6-byte move entry MLPTRJ points at before a search (see `Port::search`).
pub(crate) const SCRATCH: u16 = 0x02E0;
/// The book: four (from, to, flags) entries. BESTM = `BMOVES - 2 + 3k` reads as a move entry.
/// Placed so that adding up to 9 to the low byte of `BMOVES - 2` never carries (the
/// original's book increments only the low byte of BESTM).
pub(crate) const BMOVES: u16 = 0x02F0;
/// Start of the move list (the original's address: see the module's notes).
pub(crate) const MLIST: u16 = 0x0300;

/// Sizes of the areas that grow with the depth. Up to depth 6 they are the original's
/// (score table of 12 bytes, ply table of 40, a 2048-byte move list with its end at
/// MLIST+2040), so that even overflows behave identically; deeper searches get room for
/// 20 plies plus the check extension.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    /// PLYIX: (list start, current move) pointer pairs, one pair per ply.
    pub plyix: u16,
    /// MLEND: the last address at which ADMOVE may still start an entry.
    pub mlend: u16,
}

impl Layout {
    /// The original's sizes: 12 score bytes, 40 ply-table bytes, a 2048-byte move list.
    pub(crate) const CLASSIC: Layout = Layout {
        plyix: SCORE + 12,
        mlend: MLIST + 2040,
    };
    /// Room for 20 plies plus the extension: 24 score bytes, 88 ply-table bytes, and a move
    /// list filling memory up to 0xF000 (well clear of 0xFFFA, where ADMOVE's overflow
    /// path writes).
    pub(crate) const DEEP: Layout = Layout {
        plyix: SCORE + 24,
        mlend: 0xF000 - 8,
    };

    /// The layout for a search of `depth` plies: the original's layout up to depth 6, a deeper one above.
    pub(crate) fn for_depth(depth: u8) -> Layout {
        if depth <= 6 {
            Layout::CLASSIC
        } else {
            Layout::DEEP
        }
    }
}

/// The direction table (DIRECT) as signed steps in bytes: diagonals, orthogonals, knight
/// jumps, white pawn, black pawn. Nothing ever writes to the table, so ATTACK's unrolled
/// scan may take its steps from here instead of reading memory.
pub(crate) const DIRECTIONS: [u8; 24] = [
    9, 11, 0xF5, 0xF7, 10, 0xF6, 1, 0xFF, 0xEB, 0xF4, 8, 19, 21, 12, 0xF8, 0xED, 10, 10, 11, 9,
    0xF6, 0xF6, 0xF5, 0xF7,
];

/// Initial contents of the other constant tables, in layout order from DPOINT to PIECES.
const TABLES: [u8; 7 + 7 + 6 + 8] = [
    // DPOINT
    20, 16, 8, 0, 4, 0, 0, //
    // DCOUNT
    4, 4, 8, 4, 4, 8, 8, //
    // PVALUE (pawn .. king)
    1, 3, 3, 5, 9, 10, //
    // PIECES
    4, 2, 3, 5, 6, 3, 2, 4,
];

/// The book moves: 1.e4 / 1.d4 for White, 1...e5 / 1...d5 for Black (from, to, flags).
const BOOK: [u8; 12] = [35, 55, 0x10, 34, 54, 0x10, 85, 65, 0x10, 84, 64, 0x10];

/// Sargon's machine state.
#[derive(Clone)]
pub(crate) struct Machine {
    mem: Box<[u8; 0x10000]>,
    /// Where the ply table and move list sit in `mem`.
    pub layout: Layout,

    // Table indices (the original keeps them as words whose high byte is TBASE's page, so
    // only the low byte matters).
    /// M1: working board index (usually the from square).
    pub m1: u8,
    /// M2: working board index (usually the to square).
    pub m2: u8,
    /// M3: working board index.
    pub m3: u8,
    /// M4: working board index.
    pub m4: u8,
    /// T1: working index into the direction count, direction and piece value tables.
    pub t1: u8,
    /// T2: working table index, like T1.
    pub t2: u8,
    /// T3: working table index, like T1.
    pub t3: u8,
    /// NPINS: number of pins, the count of and index into the pinned piece list.
    pub npins: u8,

    // Pointers into `mem`.
    /// MLPTRI: pointer into the ply table, to the pointer pair in current use.
    pub mlptri: u16,
    /// MLPTRJ: pointer into the move list, to the move being processed.
    pub mlptrj: u16,
    /// SCRIX: pointer into the score table, for the ply being examined.
    pub scrix: u16,
    /// BESTM: pointer into the move list, to the move alpha-beta currently thinks best.
    pub bestm: u16,
    /// MLLST: pointer to the previous move placed in the move list (used while generating).
    pub mllst: u16,
    /// MLNXT: pointer to the next free space in the move list.
    pub mlnxt: u16,

    // One-byte variables.
    /// KOLOR: the computer's colour (white 0, black 0x80).
    pub kolor: u8,
    /// COLOR: the colour of the side to move.
    pub color: u8,
    /// P1: working copy of a board square's contents.
    pub p1: u8,
    /// P2: working copy of a board square's contents.
    pub p2: u8,
    /// P3: working copy of a board square's contents.
    pub p3: u8,
    /// PMATE: the move number at which look-ahead found a checkmate.
    pub pmate: u8,
    /// MOVENO: the current move number.
    pub moveno: u8,
    /// PLYMAX: the maximum search depth.
    pub plymax: u8,
    /// NPLY: the current ply.
    pub nply: u8,
    /// CKFLG: non-zero when the king is in check.
    pub ckflg: u8,
    /// MATEF: zero when there are no legal moves.
    pub matef: u8,
    /// VALM: the score of the move being examined.
    pub valm: u8,
    /// BRDC: mobility, squares white can move to minus squares black can.
    pub brdc: u8,
    /// PTSL: the most points the side not on the move could lose in an exchange.
    pub ptsl: u8,
    /// PTSW1: the most points the side not on the move could win in an exchange.
    pub ptsw1: u8,
    /// PTSW2: the second most points the side not on the move could win, by a different exchange.
    pub ptsw2: u8,
    /// MTRL: material balance, white's piece values minus black's.
    pub mtrl: u8,
    /// BC0: the board-control (mobility) count at ply 0.
    pub bc0: u8,
    /// MV0: the material balance at ply 0.
    pub mv0: u8,
    /// PTSCK: non-zero when the piece just moved has moved into a losing exchange.
    pub ptsck: u8,
    /// The move VALMOV looks for: from and to squares.
    pub mvemsg: [u8; 2],
    /// What BOOK reads where the original reads the refresh register.
    pub book_random: u8,
}

impl Machine {
    /// A machine holding the original's initial data (for the classic layout).
    pub(crate) fn new() -> Machine {
        let mem: Box<[u8; 0x10000]> = vec![0u8; 0x10000]
            .into_boxed_slice()
            .try_into()
            .expect("64 KiB");
        let mut m = Machine {
            mem,
            layout: Layout::CLASSIC,
            m1: 0,
            m2: 0,
            m3: 0,
            m4: 0,
            t1: 0,
            t2: 0,
            t3: 0,
            npins: 0,
            mlptri: 0,
            mlptrj: 0,
            scrix: 0,
            bestm: 0,
            mllst: 0,
            mlnxt: 0,
            kolor: 0,
            color: 0,
            p1: 0,
            p2: 0,
            p3: 0,
            pmate: 0,
            moveno: 0,
            plymax: 0,
            nply: 0,
            ckflg: 0,
            matef: 0,
            valm: 0,
            brdc: 0,
            ptsl: 0,
            ptsw1: 0,
            ptsw2: 0,
            mtrl: 0,
            bc0: 0,
            mv0: 0,
            ptsck: 0,
            mvemsg: [0; 2],
            book_random: 0,
        };
        m.reset(Layout::CLASSIC);
        m
    }

    /// Back to the original's initial data: zeroed memory with the constant tables, the
    /// initial royalty table and the book, and the variables' initial values.
    pub(crate) fn reset(&mut self, layout: Layout) {
        self.mem.fill(0);
        self.layout = layout;
        let direct = DIRECT as usize;
        self.mem[direct..direct + DIRECTIONS.len()].copy_from_slice(&DIRECTIONS);
        let tables = DPOINT as usize;
        self.mem[tables..tables + TABLES.len()].copy_from_slice(&TABLES);
        let book = BMOVES as usize;
        self.mem[book..book + BOOK.len()].copy_from_slice(&BOOK);
        // The royalty table's initial data and end mark.
        self.wr(POSK, 24);
        self.wr(POSK + 1, 95);
        self.wr(POSQ, 14);
        self.wr(POSQ + 1, 94);
        self.wr(ROYAL_END, 0xFF);

        (self.m1, self.m2, self.m3, self.m4) = (0, 0, 0, 0);
        (self.t1, self.t2, self.t3, self.npins) = (0, 0, 0, 0);
        self.mlptri = layout.plyix;
        self.mlptrj = 0;
        self.scrix = 0;
        self.bestm = 0;
        self.mllst = 0;
        self.mlnxt = MLIST;
        (self.kolor, self.color, self.p1, self.p2, self.p3) = (0, 0, 0, 0, 0);
        (self.pmate, self.moveno, self.plymax, self.nply) = (0, 0, 2, 0);
        (self.ckflg, self.matef, self.valm, self.brdc) = (0, 0, 0, 0);
        (self.ptsl, self.ptsw1, self.ptsw2, self.mtrl) = (0, 0, 0, 0);
        (self.bc0, self.mv0, self.ptsck) = (0, 0, 0);
        self.mvemsg = [0; 2];
    }

    /// Read a byte.
    #[inline(always)]
    pub(crate) fn rd(&self, addr: u16) -> u8 {
        self.mem[addr as usize]
    }

    /// Write a byte.
    #[inline(always)]
    pub(crate) fn wr(&mut self, addr: u16, v: u8) {
        self.mem[addr as usize] = v;
    }

    /// Set `len` bytes from `addr` (not wrapping) to `v`.
    pub(crate) fn fill(&mut self, addr: u16, len: usize, v: u8) {
        let a = addr as usize;
        self.mem[a..a + len].fill(v);
    }

    /// `len` bytes from `addr` (not wrapping).
    #[inline]
    pub(crate) fn bytes(&self, addr: u16, len: usize) -> &[u8] {
        let a = addr as usize;
        &self.mem[a..a + len]
    }

    /// Copy `bytes` to `addr` (not wrapping).
    #[inline]
    pub(crate) fn set_bytes(&mut self, addr: u16, bytes: &[u8]) {
        let a = addr as usize;
        self.mem[a..a + bytes.len()].copy_from_slice(bytes);
    }

    /// Read a little-endian word (a link or a PLYIX pointer).
    #[inline(always)]
    pub(crate) fn rd16(&self, addr: u16) -> u16 {
        u16::from_le_bytes([self.rd(addr), self.rd(addr.wrapping_add(1))])
    }

    /// Write a little-endian word.
    #[inline(always)]
    pub(crate) fn wr16(&mut self, addr: u16, v: u16) {
        let [lo, hi] = v.to_le_bytes();
        self.wr(addr, lo);
        self.wr(addr.wrapping_add(1), hi);
    }

    /// The board byte at a board index (the original's `(ix+BOARD)` with ix = TBASE + index).
    #[inline(always)]
    pub(crate) fn board(&self, idx: u8) -> u8 {
        self.rd(BOARDA + u16::from(idx))
    }

    #[inline(always)]
    /// Set the board byte at a board index.
    pub(crate) fn set_board(&mut self, idx: u8, v: u8) {
        self.wr(BOARDA + u16::from(idx), v);
    }

    /// The whole board.
    pub(crate) fn board_array(&self) -> [u8; BOARD_SIZE] {
        let b = BOARDA as usize;
        self.mem[b..b + BOARD_SIZE].try_into().expect("board")
    }

    /// Set the whole board.
    pub(crate) fn set_board_array(&mut self, board: &[u8; BOARD_SIZE]) {
        let b = BOARDA as usize;
        self.mem[b..b + BOARD_SIZE].copy_from_slice(board);
    }

    /// The move entry at `entry` as (from, to, flags).
    pub(crate) fn entry_move(&self, entry: u16) -> sargon_core::vocab::SMove {
        use sargon_core::vocab::{SMove, Sq};
        SMove {
            from: Sq(self.rd(entry.wrapping_add(2))),
            to: Sq(self.rd(entry.wrapping_add(3))),
            flags: self.rd(entry.wrapping_add(4)),
        }
    }

    /// The moves of the list whose head link is at `head`, in list order, following links
    /// until one has a zero high byte (capped as the hooks' walk is, in case of a cycle).
    #[cfg(test)]
    pub(crate) fn list_from(&self, head: u16) -> Vec<sargon_core::vocab::SMove> {
        let mut out = Vec::new();
        let mut p = self.rd16(head);
        while p >> 8 != 0 && out.len() < sargon_core::hooks::MAX_LIST_WALK {
            out.push(self.entry_move(p));
            p = self.rd16(p);
        }
        out
    }
}

impl Machine {
    /// Where this machine's state differs from `other`'s: every byte of memory, then every
    /// variable. Empty: the same.
    pub(crate) fn differences(&self, other: &Machine) -> Vec<String> {
        let mut out = Vec::new();
        for (addr, (a, b)) in self.mem.iter().zip(other.mem.iter()).enumerate() {
            if a != b {
                out.push(format!("mem[{addr:#06x}]: {a:#04x} vs {b:#04x}"));
            }
        }
        macro_rules! fields {
            ($($f:ident),*) => {
                $(if self.$f != other.$f {
                    out.push(format!(
                        "{}: {:?} vs {:?}", stringify!($f), self.$f, other.$f
                    ));
                })*
            };
        }
        fields!(
            layout,
            m1,
            m2,
            m3,
            m4,
            t1,
            t2,
            t3,
            npins,
            mlptri,
            mlptrj,
            scrix,
            bestm,
            mllst,
            mlnxt,
            kolor,
            color,
            p1,
            p2,
            p3,
            pmate,
            moveno,
            plymax,
            nply,
            ckflg,
            matef,
            valm,
            brdc,
            ptsl,
            ptsw1,
            ptsw2,
            mtrl,
            bc0,
            mv0,
            ptsck,
            mvemsg,
            book_random
        );
        out
    }
}

impl Default for Machine {
    fn default() -> Self {
        Machine::new()
    }
}

/// The high-byte null test the original applies to every pointer.
#[inline(always)]
pub(crate) fn is_null(p: u16) -> bool {
    p >> 8 == 0
}
