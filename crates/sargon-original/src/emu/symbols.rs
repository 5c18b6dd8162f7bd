//! The harness's addresses: the symbols it calls and reads, and where each hook point is.

use crate::rom::{Rom, RomError};

use sargon_core::hooks::HookPoint;

/// Addresses the harness uses, resolved from the ROM's symbol table.
#[derive(Clone, Debug)]
pub struct Symbols {
    /// FNDMOV: the search routine.
    pub fndmov: u16,
    /// ROYALT: the routine that rebuilds the royalty table.
    pub royalt: u16,
    /// VALMOV: the routine that checks and makes a player's move.
    pub valmov: u16,
    /// MOVE: makes the move MLPTRJ points at on the board (a game's move, as CPTRMV does).
    pub make_move: u16,
    /// BOARDA: the 10x12 board.
    pub boarda: u16,
    /// COLOR: the colour of the side to move.
    pub color: u16,
    /// KOLOR: the computer's colour.
    pub kolor: u16,
    /// MOVENO: the current move number.
    pub moveno: u16,
    /// PLYMAX: the maximum search depth.
    pub plymax: u16,
    /// PMATE: the move number at which the search saw a mate.
    pub pmate: u16,
    /// NPLY: the current ply.
    pub nply: u16,
    /// MLPTRJ: pointer to the move being processed.
    pub mlptrj: u16,
    /// MLPTRI: pointer into the ply table.
    pub mlptri: u16,
    /// BESTM: pointer to the best move so far.
    pub bestm: u16,
    /// SCORE: the score table, one byte per ply.
    pub score: u16,
    /// SCRIX: pointer into the score table.
    pub scrix: u16,
    /// PLYIX: the ply table of move-list pointers.
    pub plyix: u16,
    /// MVEMSG: the move VALMOV checks (from and to squares).
    pub mvemsg: u16,
    /// STACK: the top of Sargon's stack.
    pub stack: u16,
    /// P1: working copy of a board square's contents.
    pub p1: u16,
    /// T1: working table index.
    pub t1: u16,
    /// M1: working board index (the from square).
    pub m1: u16,
    /// M2: working board index (the to square).
    pub m2: u16,
    /// VALM: the score of the move being examined.
    pub valm: u16,
    /// Address of each hook point, indexed by `HookPoint as usize`.
    pub hooks: [u16; 8],
    /// Where the whole-state comparison reads ([`sargon_core::state`]); each `None` where
    /// the image has no such symbol.
    pub state: StateSymbols,
}

/// The addresses of what [`sargon_core::state::DataState`] reads, from the image's symbols.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateSymbols {
    /// Each of [`sargon_core::state::VARIABLES`].
    pub variables: Vec<Option<u16>>,
    /// Each of [`sargon_core::state::POINTERS`].
    pub pointers: Vec<Option<u16>>,
    /// DIRECT: TBASE - 0x80, where the table area starts.
    pub tables: Option<u16>,
    /// BMOVES: the book.
    pub book: Option<u16>,
    /// MLIST: the move list.
    pub move_list: Option<u16>,
}

impl StateSymbols {
    fn resolve(rom: &Rom) -> StateSymbols {
        let s = |n: &str| rom.symbol(n).ok();
        StateSymbols {
            variables: sargon_core::state::VARIABLES.iter().map(|n| s(n)).collect(),
            pointers: sargon_core::state::POINTERS.iter().map(|n| s(n)).collect(),
            tables: s("TBASE").map(|t| t.wrapping_sub(0x80)),
            book: s("BMOVES"),
            move_list: s("MLIST"),
        }
    }
}

/// How each hook point is found: symbol, offset, and the instruction bytes expected there
/// (`None` in the pattern: any byte; `Sym` bytes: low/high byte of a symbol's address).
pub(super) struct HookSpec {
    point: HookPoint,
    symbol: &'static str,
    offset: u16,
    /// Bytes expected at `symbol + check_offset`, with `check_offset` relative to the symbol.
    check_offset: u16,
    expect: &'static [Pat],
    what: &'static str,
}

#[derive(Copy, Clone)]
pub(super) enum Pat {
    B(u8),
    Lo(&'static str),
    Hi(&'static str),
}

pub(super) const HOOK_SPECS: [HookSpec; 8] = [
    HookSpec {
        point: HookPoint::MovegenPath,
        symbol: "MP10",
        offset: 3,
        check_offset: 0,
        expect: &[
            Pat::B(0xcd),
            Pat::Lo("PATH"),
            Pat::Hi("PATH"),
            Pat::B(0xfe),
            Pat::B(0x02),
        ],
        what: "CALL PATH followed by CP 2",
    },
    HookSpec {
        point: HookPoint::MovegenDone,
        symbol: "FM5",
        offset: 11,
        check_offset: 8,
        expect: &[Pat::B(0xcd), Pat::Lo("GENMOV"), Pat::Hi("GENMOV")],
        what: "CALL GENMOV",
    },
    HookSpec {
        point: HookPoint::PointsEnd,
        symbol: "REL016",
        offset: 2,
        check_offset: 0,
        expect: &[
            Pat::B(0xc6),
            Pat::B(0x80),
            Pat::B(0x32),
            Pat::Lo("VALM"),
            Pat::Hi("VALM"),
        ],
        what: "ADD A,80H followed by LD (VALM),A",
    },
    HookSpec {
        point: HookPoint::AlphaBeta,
        symbol: "FM37",
        offset: 0,
        check_offset: 0,
        expect: &[Pat::B(0xbe)],
        what: "CP (HL)",
    },
    HookSpec {
        point: HookPoint::BestTest,
        symbol: "FM37",
        offset: 9,
        check_offset: 5,
        expect: &[
            Pat::B(0xed),
            Pat::B(0x44),
            Pat::B(0x23),
            Pat::B(0xbe),
            Pat::B(0xda),
        ],
        what: "NEG, INC HL, CP (HL), JP C",
    },
    HookSpec {
        point: HookPoint::BestConfirmed,
        symbol: "FM37",
        offset: 16,
        check_offset: 15,
        expect: &[Pat::B(0x77), Pat::B(0x3a), Pat::Lo("NPLY"), Pat::Hi("NPLY")],
        what: "LD (HL),A followed by LD A,(NPLY)",
    },
    HookSpec {
        point: HookPoint::Ascend,
        symbol: "ASCEND",
        offset: 0,
        check_offset: 0,
        expect: &[Pat::B(0x21), Pat::Lo("COLOR"), Pat::Hi("COLOR")],
        what: "LD HL,COLOR",
    },
    HookSpec {
        point: HookPoint::BookRandom,
        symbol: "BOOK",
        offset: 23,
        check_offset: 21,
        expect: &[Pat::B(0xed), Pat::B(0x5f), Pat::B(0xcb), Pat::B(0x47)],
        what: "LD A,R followed by BIT 0,A",
    },
];

/// Every symbol the harness needs; `sargon rom info` checks them all.
pub const REQUIRED_SYMBOLS: &[&str] = &[
    "FNDMOV", "ROYALT", "VALMOV", "GENMOV", "PATH", "BOARDA", "COLOR", "KOLOR", "MOVENO", "PLYMAX",
    "NPLY", "MLPTRJ", "MLPTRI", "BESTM", "SCORE", "SCRIX", "PLYIX", "MVEMSG", "STACK", "P1", "T1",
    "M1", "M2", "VALM", "MP10", "FM5", "REL016", "FM37", "ASCEND", "BOOK", "MOVE",
];

impl Symbols {
    /// Resolve every address and check the instruction bytes at every hook point.
    ///
    /// ```
    /// use sargon_original::emu::Symbols;
    /// # let dir = tempfile::tempdir()?;
    /// # let file = dir.path().join("tiny.asm");
    /// # std::fs::write(&file, "        ORG 100H\nSTART:  LD A,42\n        RET\n")?;
    /// # let rom = sargon_original::rom::RomStore::new(dir.path().join("roms")).prepare(&file, "tiny", false)?.rom;
    /// // `rom`: a tiny program of the project's assembler (`START: LD A,42 / RET`), no Sargon.
    /// let e = Symbols::resolve(&rom).unwrap_err();
    /// assert!(e.to_string().starts_with("ROM `tiny` lacks the symbol FNDMOV"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resolve(rom: &Rom) -> Result<Symbols, RomError> {
        for s in REQUIRED_SYMBOLS {
            rom.symbol(s)?;
        }
        let s = |n: &str| rom.symbol(n).expect("checked above");
        let mem = rom.memory();
        let mut hooks = [0u16; 8];
        for spec in &HOOK_SPECS {
            let base = s(spec.symbol);
            let at = base.wrapping_add(spec.check_offset);
            let found: Vec<u8> = (0..spec.expect.len())
                .map(|i| mem[at.wrapping_add(i as u16) as usize])
                .collect();
            let ok = spec.expect.iter().zip(&found).all(|(p, &b)| match *p {
                Pat::B(x) => b == x,
                Pat::Lo(sym) => b == s(sym) as u8,
                Pat::Hi(sym) => b == (s(sym) >> 8) as u8,
            });
            if !ok {
                return Err(RomError::Corrupt {
                    name: rom.meta.name.clone(),
                    dir: std::path::PathBuf::from("(image)"),
                    why: format!(
                        "hook point {} expects {} at {}+{} ({:#06x}), found bytes {}",
                        spec.point.name(),
                        spec.what,
                        spec.symbol,
                        spec.check_offset,
                        at,
                        hex::encode(&found)
                    ),
                });
            }
            hooks[spec.point as usize] = base.wrapping_add(spec.offset);
        }
        Ok(Symbols {
            fndmov: s("FNDMOV"),
            royalt: s("ROYALT"),
            valmov: s("VALMOV"),
            make_move: s("MOVE"),
            boarda: s("BOARDA"),
            color: s("COLOR"),
            kolor: s("KOLOR"),
            moveno: s("MOVENO"),
            plymax: s("PLYMAX"),
            pmate: s("PMATE"),
            nply: s("NPLY"),
            mlptrj: s("MLPTRJ"),
            mlptri: s("MLPTRI"),
            bestm: s("BESTM"),
            score: s("SCORE"),
            scrix: s("SCRIX"),
            plyix: s("PLYIX"),
            mvemsg: s("MVEMSG"),
            stack: s("STACK"),
            p1: s("P1"),
            t1: s("T1"),
            m1: s("M1"),
            m2: s("M2"),
            valm: s("VALM"),
            hooks,
            state: StateSymbols::resolve(rom),
        })
    }
}
