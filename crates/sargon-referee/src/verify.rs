//! Trusting the user's image: is the imported program the Sargon whose behaviour the
//! project knows?
//!
//! A transcription with one opcode changed assembles, passes the harness's checks, and
//! then scores positions unlike Sargon (POINTS's first `XOR a` made `OR a`: -1.00 where
//! Sargon says +0.00, see `roms/README.md`). So an image is stored only after it has
//! shown the known behaviour: [`import`] assembles the file ([`RomStore::prepare`]),
//! replays the known searches on it in the emulator ([`verify`], over
//! [`crate::behaviour`]) and names the routines whose code differs from the known
//! transcription ([`sargon_original::rom::fingerprint`]). An image that behaves
//! differently, or whose code or data differs where the search runs or reads, is refused,
//! or stored marked unverified when the user insists
//! (`--accept-different`); every result made with it then says so.
//!
//! This is the one place that puts the ROM store, the emulator, the port (the reference
//! events come from it) and the tools together, above [`sargon_engines::engines`].

use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use crate::behaviour::{self, Case};
use sargon_core::engine::Engine;
use sargon_engines::engines::OpenError;
use sargon_original::coverage::{self, SharedCoverage};
use sargon_original::emu::Emulator;
use sargon_original::emu::ImageReads;
use sargon_original::rom::fingerprint::{self, Differences};
use sargon_original::rom::{ImportResult, Rom, RomError, RomStore, Verdict};

/// How much of the known behaviour to replay.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The golden searches of depths 1-2, the five models and the games: seconds, at
    /// every import.
    Quick,
    /// The whole golden corpus (depths 1-5), the models and the games: minutes (`rom
    /// verify --full`).
    Full,
}

impl Scope {
    /// The known cases this scope replays.
    ///
    /// ```
    /// use sargon_referee::verify::Scope;
    /// let (quick, full) = (Scope::Quick.cases(), Scope::Full.cases());
    /// assert!(quick.iter().all(|c| c.quick()));
    /// assert!(quick.len() < full.len() && full.iter().any(|c| c.depth == 5));
    /// ```
    pub fn cases(self) -> Vec<Case> {
        behaviour::known_cases()
            .into_iter()
            .filter(|c| self == Scope::Full || c.quick())
            .collect()
    }

    /// What the scope replays, for people.
    ///
    /// ```
    /// use sargon_referee::verify::Scope;
    /// assert_eq!(Scope::Quick.describe(), "the golden searches of depths 1-2, the five models and three games");
    /// assert_eq!(sargon_referee::behaviour::GAMES.len(), 3); // the text counts them
    /// ```
    pub fn describe(self) -> &'static str {
        match self {
            Scope::Quick => "the golden searches of depths 1-2, the five models and three games",
            Scope::Full => "the whole golden corpus, the five models and three games",
        }
    }
}

/// What a check of an image found.
#[derive(Clone, Debug)]
pub struct Verification {
    /// How much was replayed.
    pub scope: Scope,
    /// What the replay found.
    pub behaviour: behaviour::Report,
    /// Where the image differs from the known transcription (routines and tables), sorted
    /// by whether the search runs or reads there.
    pub differences: Differences,
    /// Wall-clock seconds the check took.
    pub seconds: f64,
}

impl Verification {
    /// Did the image behave as the known Sargon in every search replayed?
    ///
    /// ```
    /// use sargon_original::rom::fingerprint::Differences;
    /// use sargon_referee::behaviour::Report;
    /// use sargon_referee::verify::{Scope, Verification};
    ///
    /// let behaviour = Report { searches: 40, not_run: 0, failed: false, differing: None, first: None };
    /// let mut check = Verification { scope: Scope::Quick, behaviour, differences: Differences::default(), seconds: 1.0 };
    /// assert!(check.alike());
    /// check.behaviour.differing = Some("model-1.d3".into());
    /// assert!(!check.alike());
    /// ```
    pub fn alike(&self) -> bool {
        self.behaviour.alike()
    }

    /// Is the image the known Sargon wherever a search runs or reads: the same behaviour in
    /// every search replayed, and the same code and data as the known transcription in
    /// every routine a search can reach and every table a search read? (Differences only
    /// where no search runs or reads are allowed, and named.)
    ///
    /// ```
    /// use sargon_original::rom::fingerprint::Differences;
    /// use sargon_referee::behaviour::Report;
    /// use sargon_referee::verify::{Scope, Verification};
    ///
    /// let behaviour = Report { searches: 40, not_run: 0, failed: false, differing: None, first: None };
    /// let mut check = Verification { scope: Scope::Quick, behaviour, differences: Differences::default(), seconds: 1.0 };
    /// // Differences where no search runs are allowed; where it runs, not.
    /// check.differences.other_code.push("DSPBRD".into());
    /// assert!(check.verified());
    /// check.differences.search_code.push("POINTS".into());
    /// assert!(check.alike() && !check.verified());
    /// ```
    pub fn verified(&self) -> bool {
        self.alike() && !self.differences.in_search()
    }

    /// The verdict as the store records it.
    pub(crate) fn verdict(&self) -> Verdict {
        Verdict {
            verified: self.verified(),
            summary: self.summary(),
            allowed_differences: if self.verified() {
                self.differences.outside_names()
            } else {
                Vec::new()
            },
        }
    }

    /// The differences as one clause each, for [`Verification::summary`].
    fn difference_clauses(&self) -> Vec<String> {
        let d = &self.differences;
        let mut out = Vec::new();
        if d.in_search() {
            out.push(format!(
                "differs from the known transcription where the search runs or reads: {}",
                d.in_search_names().join(", ")
            ));
        }
        if !d.outside_names().is_empty() {
            out.push(format!(
                "differs only where no search runs or reads (allowed): {}",
                d.outside_names().join(", ")
            ));
        }
        out
    }

    /// One line, as `rom.json` keeps it.
    ///
    /// ```
    /// use sargon_original::rom::fingerprint::Differences;
    /// use sargon_referee::behaviour::Report;
    /// use sargon_referee::verify::{Scope, Verification};
    ///
    /// let behaviour = Report { searches: 40, not_run: 0, failed: false, differing: None, first: None };
    /// let check = Verification { scope: Scope::Quick, behaviour, differences: Differences::default(), seconds: 1.0 };
    /// assert!(check.summary().starts_with(
    ///     "behaves as the known Sargon image in 40 searches (the golden searches of depths 1-2, the five models and three games)"
    /// ));
    /// ```
    pub fn summary(&self) -> String {
        let b = &self.behaviour;
        let mut s = if self.alike() {
            format!(
                "behaves as the known Sargon image in {} searches ({})",
                b.searches,
                self.scope.describe()
            )
        } else {
            let mut s = format!(
                "behaves differently from the known Sargon image at search {} of {}",
                b.searches,
                b.searches + b.not_run
            );
            if let Some(m) = &b.first {
                let _ = match m.case.replay {
                    behaviour::Replay::Search { .. } | behaviour::Replay::Game { .. } => write!(
                        s,
                        ", first {} at depth {}, event #{}",
                        m.case.label, m.case.depth, m.event
                    ),
                    behaviour::Replay::Model(_) => {
                        write!(s, ", first {}, event #{}", m.case.label, m.event)
                    }
                };
            }
            s
        };
        for clause in self.difference_clauses() {
            let _ = write!(s, "; {clause}");
        }
        s
    }

    /// The findings for people, several lines.
    ///
    /// ```
    /// use sargon_original::rom::fingerprint::Differences;
    /// use sargon_referee::behaviour::Report;
    /// use sargon_referee::verify::{Scope, Verification};
    ///
    /// let behaviour = Report { searches: 40, not_run: 0, failed: false, differing: Some("model-1.d3".into()), first: None };
    /// let check = Verification { scope: Scope::Quick, behaviour, differences: Differences::default(), seconds: 1.0 };
    /// assert!(check.report().starts_with(
    ///     "behaviour: DIFFERENT from the known Sargon image at search 40 of 40 (the golden \
    ///      searches of depths 1-2, the five models and three games), checked in 1.0 s\n"
    /// ));
    /// // The check stopped at the first search that differs.
    /// let behaviour = Report { searches: 3, not_run: 119, failed: false, differing: Some("model-1.d3".into()), first: None };
    /// let check = Verification { scope: Scope::Quick, behaviour, differences: Differences::default(), seconds: 1.0 };
    /// assert!(check.report().starts_with(
    ///     "behaviour: DIFFERENT from the known Sargon image at search 3 of 122 (the golden \
    ///      searches of depths 1-2, the five models and three games), checked in 1.0 s\n  \
    ///      (the check stops at the first search that differs: 119 not run)\n"
    /// ));
    /// assert!(check.summary().starts_with("behaves differently from the known Sargon image at search 3 of 122"));
    /// ```
    pub fn report(&self) -> String {
        let b = &self.behaviour;
        let mut out = String::new();
        if self.alike() {
            let _ = writeln!(
                out,
                "behaviour: as the known Sargon image in all {} searches ({}), checked in {:.1} s",
                b.searches,
                self.scope.describe(),
                self.seconds
            );
        } else {
            let _ = writeln!(
                out,
                "behaviour: DIFFERENT from the known Sargon image at search {} of {} ({}), checked in {:.1} s",
                b.searches,
                b.searches + b.not_run,
                self.scope.describe(),
                self.seconds
            );
            if b.not_run > 0 {
                let _ = writeln!(
                    out,
                    "  (the check stops at the first search that differs: {} not run)",
                    b.not_run
                );
            }
        }
        if let Some(m) = &b.first {
            let _ = writeln!(out, "{}", m.describe());
        }
        let d = &self.differences;
        if !d.any() {
            if !fingerprint::known().is_empty() {
                let _ = writeln!(out, "code: the same as the known transcription");
            }
        } else {
            if !d.search_code.is_empty() {
                let _ = writeln!(
                    out,
                    "code that differs from the known transcription where the search runs: {}",
                    d.search_code.join(", ")
                );
            }
            if !d.read_data.is_empty() {
                let _ = writeln!(
                    out,
                    "data that differs from the known transcription, read by the search: {}",
                    d.read_data.join(", ")
                );
            }
            if !d.outside_names().is_empty() {
                let _ = writeln!(
                    out,
                    "differs only where no search runs or reads (allowed): {}",
                    d.outside_names().join(", ")
                );
            }
        }
        if self.alike() && d.in_search() {
            let _ = writeln!(
                out,
                "verified: no: the searches replayed agree, but the code or data they depend on is not the known Sargon's"
            );
        }
        out
    }
}

/// Why an image could not be imported or checked.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum VerifyError {
    /// The store or the assembler failed.
    #[error(transparent)]
    Rom(#[from] RomError),
    /// The image behaves differently, or differs from the known transcription where the
    /// search runs or reads, and `--accept-different` was not given.
    #[error("{file} is refused: it is not the known Sargon image; nothing stored\n{report}  to store it anyway, marked unverified: sargon rom import {file} --accept-different")]
    Refused {
        /// The file imported.
        file: String,
        /// What differed, lines ending in newlines.
        report: String,
    },
    /// This build has no known behaviour to compare with.
    #[error("this build has no record of the known Sargon's behaviour (roms/behaviour.tsv is empty), so images cannot be checked")]
    NothingKnown,
    /// The replay itself failed (an engine could not be made for a worker). The message
    /// carries the causes itself, on one line.
    #[error("the check could not run: {}", sargon_core::causes::with_causes(.0))]
    Check(behaviour::RunError),
}

/// Worker threads for a check: one per core, at most four.
///
/// ```
/// let workers = sargon_referee::verify::default_workers();
/// assert!((1..=4).contains(&workers));
/// ```
pub fn default_workers() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(4))
}

/// Check `rom`: replay `scope`'s known searches on it in the emulator (`workers`
/// threads, `progress` called per search) and compare its routines' fingerprints. An
/// image the harness cannot run is an error ([`RomError`]), not a verdict.
///
/// ```
/// use sargon_original::rom::RomStore;
/// use sargon_referee::verify::{verify, Scope};
///
/// // A tiny program of the project's assembler is no Sargon: the emulator refuses it
/// // before any search (the known image needs one imported: `sargon rom verify`).
/// let dir = tempfile::tempdir()?;
/// let file = dir.path().join("tiny.asm");
/// std::fs::write(&file, "        ORG 100H\nSTART:  RET\n")?;
/// let tiny = RomStore::new(dir.path().join("roms")).prepare(&file, "tiny", false)?.rom;
/// let e = verify(&tiny, Scope::Quick, 1, &|_| {}).unwrap_err();
/// let lacks = "ROM `tiny` lacks the symbol FNDMOV, which the emulator harness needs";
/// assert_eq!(e.to_string(), format!("{lacks}: is it the Sargon transcription?"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn verify(
    rom: &Rom,
    scope: Scope,
    workers: usize,
    progress: &(dyn Fn(&Case) + Sync),
) -> Result<Verification, VerifyError> {
    let t = Instant::now();
    let cases = scope.cases();
    if cases.is_empty() {
        return Err(VerifyError::NothingKnown);
    }
    // The harness's own checks first: a missing symbol or hook point is no behaviour.
    Emulator::new(rom.clone())?;
    // Every emulator of the check notes which of the image's bytes its searches read, so
    // that a difference in a table no search reads can be told from one that matters.
    let reads: ImageReads = std::sync::Arc::new(std::sync::Mutex::new(vec![false; 0x10000]));
    let make = || -> Result<Box<dyn Engine + Send>, OpenError> {
        let mut emulator = Emulator::new(rom.clone())?;
        emulator.track_reads(reads.clone());
        Ok(Box::new(emulator))
    };
    let behaviour =
        behaviour::check(&cases, &make, workers, progress).map_err(VerifyError::Check)?;
    let reads = reads.lock().unwrap_or_else(|e| e.into_inner());
    // A check cut short (a search that differs, or fails: a runaway) read only part of
    // what the searches read: no data difference is then known to be outside them.
    let read = (behaviour.not_run == 0 && !behaviour.failed).then_some(&reads[..]);
    let differences = fingerprint::differences(rom, read);
    Ok(Verification {
        scope,
        behaviour,
        differences,
        seconds: t.elapsed().as_secs_f64(),
    })
}

/// Run `cases` on `rom` in the emulator (`workers` threads, `progress` per search), noting
/// every instruction executed and every image byte read, and lay that over the program
/// map ([`sargon_original::coverage::report`]): `sargon rom coverage`.
///
/// ```
/// use sargon_original::rom::RomStore;
/// use sargon_referee::behaviour::Case;
/// use sargon_referee::verify::coverage;
///
/// let dir = tempfile::tempdir()?;
/// let file = dir.path().join("tiny.asm");
/// std::fs::write(&file, "        ORG 100H\nSTART:  RET\n")?;
/// let tiny = RomStore::new(dir.path().join("roms")).prepare(&file, "tiny", false)?.rom;
/// let cases = [Case::unknown("start", 1, "startpos", false)];
/// let e = coverage(&tiny, &cases, 1, &|_| {}).unwrap_err();
/// let lacks = "ROM `tiny` lacks the symbol FNDMOV, which the emulator harness needs";
/// assert_eq!(e.to_string(), format!("{lacks}: is it the Sargon transcription?"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn coverage(
    rom: &Rom,
    cases: &[Case],
    workers: usize,
    progress: &(dyn Fn(&Case) + Sync),
) -> Result<coverage::Report, VerifyError> {
    Emulator::new(rom.clone())?;
    let reads: ImageReads = std::sync::Arc::new(std::sync::Mutex::new(vec![false; 0x10000]));
    let executed: SharedCoverage = Default::default();
    let make = || -> Result<Box<dyn Engine + Send>, OpenError> {
        let mut emulator = Emulator::new(rom.clone())?;
        emulator.track_reads(reads.clone());
        emulator.track_coverage(executed.clone());
        Ok(Box::new(emulator))
    };
    behaviour::replay_all(cases, &make, workers, progress).map_err(VerifyError::Check)?;
    let reads = reads.lock().unwrap_or_else(|e| e.into_inner());
    let executed = executed.lock().unwrap_or_else(|e| e.into_inner());
    Ok(coverage::report(rom, &executed, &reads))
}

/// What [`import`] did.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The ROM stored.
    pub rom: Rom,
    /// New, the same again, or replaced.
    pub result: ImportResult,
    /// What the check found.
    pub verification: Verification,
}

/// Import `file` as `name` after the quick check: refused (nothing stored) when it
/// behaves differently from the known Sargon, unless `accept_different`, which stores it
/// marked unverified. A file that assembles only in part (the harness lacks a symbol or
/// a hook point) is refused in any case: there is nothing to run.
///
/// ```
/// use sargon_original::rom::RomStore;
/// use sargon_referee::verify::import;
///
/// // A file that is not Sargon is refused, and nothing is stored.
/// let dir = tempfile::tempdir()?;
/// let file = dir.path().join("tiny.asm");
/// std::fs::write(&file, "        ORG 100H\nSTART:  RET\n")?;
/// let store = RomStore::new(dir.path().join("roms"));
/// let e = import(&store, &file, "tiny", false, false, &|_| {}).unwrap_err();
/// assert!(e.to_string().ends_with("tiny.asm assembles only in part: it lacks the symbol FNDMOV, \
///     which the emulator harness needs; nothing stored"));
/// assert!(store.names()?.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn import(
    store: &RomStore,
    file: &Path,
    name: &str,
    force: bool,
    accept_different: bool,
    progress: &(dyn Fn(&Case) + Sync),
) -> Result<Imported, VerifyError> {
    let candidate = store.prepare(file, name, force)?;
    let display = file.display().to_string();
    if let Err(e) = Emulator::new(candidate.rom.clone()) {
        let why = match e {
            RomError::MissingSymbol { symbol, .. } => {
                format!("it lacks the symbol {symbol}, which the emulator harness needs")
            }
            RomError::Corrupt { why, .. } => why,
            other => other.to_string(),
        };
        return Err(RomError::Incomplete { file: display, why }.into());
    }
    let verification = verify(&candidate.rom, Scope::Quick, default_workers(), progress)?;
    if !verification.verified() && !accept_different {
        return Err(VerifyError::Refused {
            file: display,
            report: verification.report(),
        });
    }
    let (rom, result) = store.store(candidate, force, verification.verdict())?;
    Ok(Imported {
        rom,
        result,
        verification,
    })
}

/// Check a stored ROM again (`sargon rom verify`) and record the verdict in its
/// `rom.json`.
///
/// A store where the verdict cannot be recorded is refused before the check; should the
/// record still fail after it, `verdict` has already been given the findings, so that
/// they are not lost with the error.
///
/// ```
/// use sargon_original::rom::RomStore;
/// use sargon_referee::verify::{verify_stored, Scope};
///
/// let dir = tempfile::tempdir()?;
/// let empty = RomStore::new(dir.path().to_path_buf());
/// let e = verify_stored(&empty, None, Scope::Quick, &|_| {}, &|_, _| {}).unwrap_err();
/// assert!(e.to_string().starts_with("no Sargon ROM imported in "));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn verify_stored(
    store: &RomStore,
    name: Option<&str>,
    scope: Scope,
    progress: &(dyn Fn(&Case) + Sync),
    verdict: &dyn Fn(&Rom, &Verification),
) -> Result<(Rom, Verification), VerifyError> {
    let rom = store.load(name)?;
    store.check_recordable(&rom.meta.name)?;
    if let Err(e) = Emulator::new(rom.clone()) {
        // Unusable is not verified either: say so in the ROM's record too.
        let why = format!("the emulator harness cannot use it: {e}");
        let verdict = Verdict {
            verified: false,
            summary: why,
            allowed_differences: Vec::new(),
        };
        store.record_verification(&rom.meta.name, verdict)?;
        return Err(e.into());
    }
    let verification = verify(&rom, scope, default_workers(), progress)?;
    verdict(&rom, &verification);
    let rom = store.record_verification(&rom.meta.name, verification.verdict())?;
    Ok((rom, verification))
}
