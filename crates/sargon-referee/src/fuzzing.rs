//! Entry points for the fuzz targets in `fuzz/` (cargo-fuzz, nightly), and for
//! `tests/it/fuzz_corpus.rs`, which replays every committed corpus file through the same
//! functions on the stable toolchain.
//!
//! Each function takes arbitrary bytes and must return without panicking, in bounded time
//! and memory, whatever the bytes are: a refusal is an `Err` inside, never a panic. Where
//! a property is cheap to state (a FEN the program writes reads back as the same
//! position), the function asserts it, so that the fuzzer finds broken properties as well
//! as crashes. The functions live in the library, not in the fuzz targets, so that a
//! finding can be replayed by an ordinary test.
//!
//! The functions sit at the crate root beside [`sargon_engines::engines`] and [`crate::verify`]:
//! they reach into `base`, `original` and `tools` at once.

use shakmaty::Position;

use sargon_chess::batch::epd;
use sargon_core::engine::{Capabilities, Engine, SearchError, SearchOptions, SearchOutcome};

use sargon_core::hooks::Hooks;
use sargon_core::position::Book;
use sargon_core::position::{self, Setup};
use sargon_engines::engines::EngineSpec;

/// The most input lines the UCI target reads from one input: each `go` may start a
/// search, so a long script would make one run slow.
pub(crate) const UCI_MAX_LINES: usize = 32;

/// The deepest search the UCI target lets its engine run: depth 2 on the port takes
/// milliseconds in any position.
pub(crate) const UCI_MAX_DEPTH: u8 = 2;

/// FEN and EPD reading and Sargon's set-up of what was read.
///
/// The input (as UTF-8, lossily) goes through [`position::parse_position`],
/// [`position::read_position`] and, line by line and whole, the EPD reader of
/// `analyze --epd` ([`epd::parse_epd`]). Every position read is set up for a search with
/// and without the book ([`position::setup`]), and its FEN ([`position::fen_of`]) must
/// read back, strictly, as the same position.
pub fn fen(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(pos) = position::parse_position(&text) {
        check_position(&pos);
    }
    if let Ok(read) = position::read_position(&text) {
        check_position(&read.position);
    }
    for (n, line) in text.lines().enumerate() {
        if let Ok(Some(entry)) = epd::parse_epd_line(line, n + 1) {
            check_position(&entry.position);
            // The entry's own FEN is what a batch writes back out.
            let again = position::parse_position(&entry.fen)
                .unwrap_or_else(|e| panic!("EPD entry FEN `{}` does not read: {e}", entry.fen));
            assert_eq!(position::fen_of(&again), position::fen_of(&entry.position));
            let _ = epd::epd_line(&entry, &[]);
        }
    }
    let _ = epd::parse_epd(&text);
}

/// Files of positions, as `diff --epd`, `analyze --epd` and `play --openings` read them.
///
/// The input (as UTF-8, lossily) goes through [`crate::diff_run::read_positions`] (EPD
/// and FEN lines, `startpos moves ...` and `<FEN> moves ...` lines), whose every FEN must
/// read as a position or be refused with an error, and through the openings reader of
/// `play --openings` ([`sargon_chess::play::Opening::from_epd`]). Every position read is checked
/// as [`fen`] checks it: set up with and without the book, its FEN read back the same.
pub fn epd_file(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(fens) = crate::diff_run::read_positions(&text) {
        for fen in fens {
            if let Ok(pos) = position::parse_position(&fen) {
                check_position(&pos);
            }
        }
    }
    if let Ok(openings) = sargon_chess::play::Opening::from_epd(&text) {
        for opening in openings {
            check_position(&opening.position());
        }
    }
}

/// PGN reading, as `annotate`, `play --openings` and `history strength` do it.
///
/// The input (as UTF-8, lossily) goes through [`sargon_chess::pgn::read_games`] and the openings
/// reader ([`sargon_chess::play::Opening::from_pgn`]). Every game read must be legal move by move
/// from its start, and must read back the same (start, moves, result) when written out
/// again as PGN: its `FEN` tag and its moves in SAN.
pub fn pgn(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(games) = sargon_chess::pgn::read_games(&text) {
        for game in &games {
            let mut pos = game.start.clone();
            for m in &game.moves {
                assert!(pos.is_legal(*m), "an illegal move in a game read: {m:?}");
                pos.play_unchecked(*m);
            }
            check_position(&game.end());
            let again = sargon_chess::pgn::read_games(&pgn_of(game))
                .unwrap_or_else(|e| panic!("a game written back does not read: {e}"));
            assert_eq!(again.len(), 1, "one game written, one read");
            assert_eq!(
                position::fen_of(&again[0].start),
                position::fen_of(&game.start)
            );
            assert_eq!(again[0].moves, game.moves);
            assert_eq!(again[0].result, game.result);
        }
    }
    if let Ok(openings) = sargon_chess::play::Opening::from_pgn(&text) {
        for opening in openings {
            check_position(&opening.position());
        }
    }
}

/// `game` as plain PGN: the `FEN` tag of its start and its moves in SAN.
fn pgn_of(game: &sargon_chess::pgn::PgnGame) -> String {
    let mut out = format!(
        "[SetUp \"1\"]\n[FEN \"{}\"]\n\n",
        position::fen_of(&game.start)
    );
    let mut pos = game.start.clone();
    for m in &game.moves {
        let san = shakmaty::san::SanPlus::from_move(pos.clone(), *m);
        let number = pos.fullmoves();
        match pos.turn() {
            shakmaty::Color::White => out.push_str(&format!("{number}. {san} ")),
            shakmaty::Color::Black => out.push_str(&format!("{number}... {san} ")),
        }
        pos.play_unchecked(*m);
    }
    out.push_str(&game.result);
    out.push('\n');
    out
}

/// A position read must set up (or be refused with an error) and its FEN must read back
/// as the same position.
fn check_position(pos: &shakmaty::Chess) {
    let fen = position::fen_of(pos);
    let again = position::parse_position(&fen)
        .unwrap_or_else(|e| panic!("the FEN written for a position, `{fen}`, does not read: {e}"));
    assert_eq!(position::fen_of(&again), fen, "FEN round trip");
    for book in [false, true] {
        let _ = position::setup(pos, Book::from(book));
    }
    let _ = pos.legal_moves();
}

/// An engine that searches no deeper than `max`: the UCI target wraps the port in it so
/// that `go depth 100`, `go infinite` and `FixedDepth 20` stay fast.
struct Shallow {
    inner: Box<dyn Engine + Send>,
    max: u8,
}

impl Engine for Shallow {
    fn id(&self) -> String {
        self.inner.id()
    }

    fn capabilities(&self) -> Capabilities {
        self.inner.capabilities()
    }

    fn max_depth(&self) -> u8 {
        self.max.min(self.inner.max_depth())
    }

    fn search(
        &mut self,
        setup: &Setup,
        opts: &SearchOptions,
        hooks: &mut Hooks,
    ) -> Result<SearchOutcome, SearchError> {
        // The session never asks deeper than max_depth; the assertion makes sure of it.
        assert!(
            opts.depth <= self.max_depth(),
            "the UCI session asked depth {} of an engine whose maximum is {}",
            opts.depth,
            self.max_depth()
        );
        self.inner.search(setup, opts, hooks)
    }
}

/// The UCI command reader driving the real port engine (at most [`UCI_MAX_DEPTH`]).
///
/// The input's first [`UCI_MAX_LINES`] lines (as UTF-8, lossily) are handed one by one
/// to a [`sargon_chess::uci::Uci`] session, as `sargon uci` does with stdin; then the end
/// of the input is signalled as EOF is ([`sargon_chess::uci::Uci::finish`]), which must
/// end any search. The emulator is not offered: `setoption name Engine value emulator`
/// finds an engine that cannot start, as on a machine without a ROM. Answers go to a
/// sink.
pub fn uci(data: &[u8]) {
    use sargon_chess::uci::{Settings, Uci};

    let text = String::from_utf8_lossy(data);
    let factory: sargon_chess::uci::EngineFactory = Box::new(|spec| match spec {
        EngineSpec::Port => Ok(Box::new(Shallow {
            inner: Box::new(sargon_port::Port::new()),
            max: UCI_MAX_DEPTH,
        }) as Box<dyn Engine + Send>),
        other => Err(sargon_engines::engines::OpenError::NotOffered(
            other.clone(),
        )),
    });
    let mut session = Uci::new(factory, std::io::sink(), Settings::default());
    for line in text.lines().take(UCI_MAX_LINES) {
        if !session.handle_line(line) {
            return;
        }
    }
    session.finish();
}

/// The project's Z80 assembler and zmac listing reader on arbitrary text.
///
/// The text is assembled ([`sargon_original::asm::assemble`]) and read as a listing
/// ([`sargon_original::asm::listing::parse_listing`]); what assembles is cut into an
/// image as `rom import` does and disassembled over its extent.
#[cfg(feature = "emulator")]
pub fn assembler(data: &[u8]) {
    use sargon_original::asm;

    let text = String::from_utf8_lossy(data);
    for assembly in [asm::assemble(&text), asm::listing::parse_listing(&text)]
        .into_iter()
        .flatten()
    {
        assert_eq!(
            assembly.memory.len(),
            0x10000,
            "the address space is 64 KiB"
        );
        if let Some((lo, hi)) = assembly.extent {
            assert!(lo <= hi);
            let _ = sargon_original::z80::sweep(&assembly.memory, lo, hi as u32 + 1);
        }
        let _ = sargon_original::rom::image_of(&assembly);
    }
}

/// `rom import` of an arbitrary file into a fresh store in a temporary directory, without
/// the behavioural check.
///
/// The bytes are written to a file and prepared as `rom import` prepares a file
/// ([`sargon_original::rom::RomStore::prepare`]: text or binary, listing or source,
/// assembled, image cut). What prepares is offered to the emulator harness
/// ([`sargon_original::emu::Emulator::new`], which refuses an image without the symbols
/// and hook points it needs), fingerprinted by routine, stored marked unverified and
/// loaded back. The behavioural check ([`crate::verify::verify`]) is left out: it replays
/// dozens of searches (seconds per input), and no random input passes the harness's
/// symbol checks to reach it.
#[cfg(feature = "emulator")]
pub fn rom_import(data: &[u8]) {
    use sargon_original::rom::{fingerprint, RomStore};

    let base = std::env::temp_dir().join(format!("sargon-fuzz-rom-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).expect("a temporary directory for the fuzz store");
    let file = base.join("input.asm");
    std::fs::write(&file, data).expect("the input file written");
    let store = RomStore::new(base.join("store"));
    if let Ok(candidate) = store.prepare(&file, "fuzz", false) {
        let usable = sargon_original::emu::Emulator::new(candidate.rom.clone()).is_ok();
        let _ = fingerprint::regions(&candidate.rom);
        let sha = candidate.rom.meta.image_sha256.clone();
        let (rom, _) = store
            .store(
                candidate,
                false,
                sargon_original::rom::Verdict {
                    verified: false,
                    summary: "fuzz input".into(),
                    allowed_differences: Vec::new(),
                },
            )
            .expect("a prepared image stores in a fresh store");
        assert_eq!(rom.meta.image_sha256, sha);
        let back = store.load(Some("fuzz")).expect("a stored image loads");
        assert_eq!(back.meta.image_sha256, sha);
        assert!(
            !back.verified(),
            "an image stored unverified must read as unverified"
        );
        let _ = usable;
    }
    let _ = std::fs::remove_dir_all(&base);
}
