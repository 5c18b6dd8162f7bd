//! The ROM store: the user's own copy of Sargon, imported once, kept outside the repository.
//!
//! Sargon's code is copyrighted, so this project never ships it. As emulator users bring
//! ROMs, Sargon's users bring the published Z80 transcription (or its zmac listing);
//! `sargon rom import` assembles it with the project's own assembler ([`crate::asm`]) and
//! stores the image and its symbol table here:
//!
//! ```text
//! <store>/<name>/image.bin      the bytes from the load address to the last byte emitted
//! <store>/<name>/symbols.json   every label and EQU, upper-cased
//! <store>/<name>/rom.json       name, load address, size, SHA-256 of image and sources,
//!                               and whether the image was verified (see below)
//! <store>/<name>/source.asm     the imported text (source.lst for a listing); both when
//!                               both were imported and gave the same image
//! ```
//!
//! The store is `--roms DIR`, else `$SARGON_ROMS`, else `$XDG_DATA_HOME/sargon/roms`, else
//! `$HOME/.local/share/sargon/roms`; with none of them set there is no store (an error at
//! the first use, never a store relative to the current directory). Every write goes to a
//! temporary directory first and is renamed into place, so an interrupted import never
//! leaves a half-written ROM.
//!
//! **Trusting the image.** A transcription typed or copied by hand can be wrong in one
//! byte and still assemble. Importing is therefore two steps: [`RomStore::prepare`]
//! assembles the file into a [`Candidate`] without storing anything, and
//! [`RomStore::store`] writes it with the verdict of a behavioural check
//! (`crate::verify`, which replays the known Sargon's searches on the candidate). The
//! verdict is kept in `rom.json` (`verified`, `verification`) and shown by every result
//! made with the ROM. [`fingerprint`] names the routines whose code differs from the
//! known transcription.

pub mod fingerprint;

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::asm::{self, Assembly};
use sargon_core::input::echo;

/// A path as the store's errors quote it: escaped and cut as any other user text (a
/// `--roms` of 100 KB or with terminal escapes is not echoed as it is).
fn shown(path: &Path) -> String {
    echo(&path.display().to_string())
}

/// The table of known images committed in `roms/known.tsv`: SHA-256 and description.
const KNOWN_IMAGES: &str = include_str!("../../../../roms/known.tsv");

/// Name a ROM gets when `--name` is not given.
pub const DEFAULT_NAME: &str = "sargon";

/// How much of an input line an error message shows.
pub(crate) const ECHO_CHARS: usize = 100;

/// What the store records about one imported ROM.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct RomMeta {
    /// The name it is stored under.
    pub name: String,
    /// Where the image is loaded in the address space.
    pub load_address: u16,
    /// The image's length in bytes.
    pub size: usize,
    /// SHA-256 of the image, in hex.
    pub image_sha256: String,
    /// The source texts it was built from.
    pub sources: Vec<SourceRecord>,
    /// Seconds since the Unix epoch.
    pub imported_at: u64,
    /// Whether the image behaved as the known Sargon image when it was checked: `false`
    /// when it was stored anyway (`--accept-different`) or failed `sargon rom verify`.
    /// Absent in ROMs imported before the check existed (see [`Rom::verified`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verified: Option<bool>,
    /// What the check found, in one line: the reason when `verified` is false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verification: Option<String>,
    /// Where a verified image differs from the known transcription in code or data no
    /// search runs or reads (`DSPBRD`, `PIECES`): allowed, and named wherever the ROM is.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed_differences: Vec<String>,
}

/// The verdict of a check, as the store records it in `rom.json`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    /// The image is the known Sargon wherever a search runs or reads.
    pub verified: bool,
    /// What the check found, in one line.
    pub summary: String,
    /// Regions that differ where no search runs or reads (allowed).
    pub allowed_differences: Vec<String>,
}

impl RomMeta {
    fn set_verdict(&mut self, verdict: Verdict) {
        self.verified = Some(verdict.verified);
        self.verification = Some(verdict.summary);
        self.allowed_differences = verdict.allowed_differences;
    }
}

/// One imported source text.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct SourceRecord {
    /// `asm` (assembled by the project's assembler) or `lst` (a zmac listing, read as is).
    pub kind: String,
    /// File name as given to `rom import`.
    pub file: String,
    /// SHA-256 of the file, in hex.
    pub sha256: String,
}

/// An imported ROM: its image placed in a 64 KiB address space, and its symbols.
#[derive(Clone, Debug)]
pub struct Rom {
    /// What the store records about it.
    pub meta: RomMeta,
    /// The 64 KiB address space with the image at its load address.
    pub image: Vec<u8>,
    /// Symbol addresses by name.
    pub symbols: BTreeMap<String, u16>,
}

impl Rom {
    /// The address of a symbol, or an error naming it.
    pub fn symbol(&self, name: &str) -> Result<u16, RomError> {
        self.symbols
            .get(&name.to_ascii_uppercase())
            .copied()
            .ok_or_else(|| RomError::MissingSymbol {
                rom: self.meta.name.clone(),
                symbol: name.to_ascii_uppercase(),
            })
    }

    /// The 64 KiB memory with the image at its load address.
    pub fn memory(&self) -> Vec<u8> {
        let mut mem = vec![0u8; 0x10000];
        let start = self.meta.load_address as usize;
        mem[start..start + self.image.len()].copy_from_slice(&self.image);
        mem
    }

    /// The description of this image in the table of known images, if it is there.
    pub fn known_as(&self) -> Option<&'static str> {
        known_image(&self.meta.image_sha256)
    }

    /// Can results made with this ROM be trusted to be the original Sargon's? Yes when its
    /// check found it behaving as the known image; for a ROM imported before checks
    /// existed, yes exactly when it *is* a known image (the reference behaviour was
    /// recorded from it).
    pub fn verified(&self) -> bool {
        self.meta
            .verified
            .unwrap_or_else(|| self.known_as().is_some())
    }

    /// Why the ROM is not verified (`None` when it is).
    pub fn unverified_reason(&self) -> Option<String> {
        if self.verified() {
            return None;
        }
        Some(match (&self.meta.verified, &self.meta.verification) {
            (Some(false), Some(why)) => why.clone(),
            (Some(false), None) => "it behaves differently from the known Sargon image".into(),
            _ => format!(
                "it was imported before images were checked; run `sargon rom verify {}`",
                self.meta.name
            ),
        })
    }
}

/// Look an image's SHA-256 up in the committed table of known images.
pub(crate) fn known_image(sha256: &str) -> Option<&'static str> {
    KNOWN_IMAGES
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .find(|(sha, _)| sha.trim().eq_ignore_ascii_case(sha256))
        .map(|(_, desc)| desc.trim())
}

/// Why a ROM could not be imported or loaded.
///
/// Each message carries its cause (the OS's or the assembler's words) itself, and none
/// has a `source()`: printed alone or through `anyhow`'s `{:#}`, the cause appears once.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RomError {
    #[error("no Sargon ROM imported in {}\n  import your copy of the Z80 transcription with: sargon rom import path/to/sargon-z80.asm\n  (see roms/README.md; the store is chosen by --roms, $SARGON_ROMS or $XDG_DATA_HOME)", shown(.store))]
    /// The store holds no ROM.
    NoneImported {
        /// The store's directory.
        store: PathBuf,
    },
    #[error("no ROM named `{name}` in {} (imported: {available})", shown(.store))]
    /// No ROM has the name asked.
    NotFound {
        /// The name asked, as [`echo`] quotes it.
        name: String,
        /// The store's directory.
        store: PathBuf,
        /// The names imported.
        available: String,
    },
    #[error("several ROMs in {} ({available}): choose one with {choose}", shown(.store))]
    /// Several ROMs are stored and none was named.
    Ambiguous {
        /// The store's directory.
        store: PathBuf,
        /// The names imported.
        available: String,
        /// How the command at hand names a ROM: `--rom NAME` from [`RomStore::load`],
        /// another syntax through [`RomError::naming_the_rom_as`].
        choose: &'static str,
    },
    #[error("a different image is already imported as `{name}` (SHA-256 {existing}); use --force to replace it or --name to import under another name")]
    /// Another image is stored under the name.
    Exists {
        /// The name.
        name: String,
        /// SHA-256 of the stored image.
        existing: String,
    },
    #[error("invalid ROM name `{0}`: use letters, digits, `-`, `_` and `.`")]
    /// The name has characters other than letters, digits, `-`, `_` and `.`.
    BadName(String),
    #[error("cannot assemble {file}: {cause}")]
    /// The source did not assemble.
    Assemble {
        /// The source file.
        file: String,
        /// The assembler's error, as text (printed once: not a `source`).
        cause: String,
    },
    #[error("{file} is not a text file (Z80 source or zmac listing expected)")]
    /// The file is binary: it is never echoed.
    NotText {
        /// The file.
        file: String,
    },
    #[error("{file} emitted no bytes: is it the Sargon transcription?")]
    /// The source assembled to no bytes.
    Empty {
        /// The source file.
        file: String,
    },
    #[error("{file} assembles only in part: {why}; nothing stored")]
    /// Part of the source did not assemble.
    Incomplete {
        /// The source file.
        file: String,
        /// What is missing.
        why: String,
    },
    #[error("ROM `{rom}` lacks the symbol {symbol}, which the emulator harness needs: is it the Sargon transcription?")]
    /// The ROM lacks a symbol the harness needs.
    MissingSymbol {
        /// The ROM's name.
        rom: String,
        /// The symbol missing.
        symbol: String,
    },
    #[error("ROM `{name}` in {} is corrupt: {why}", shown(.dir))]
    /// A stored ROM does not match its record.
    Corrupt {
        /// The ROM's name.
        name: String,
        /// Its directory.
        dir: PathBuf,
        /// What does not match.
        why: String,
    },
    #[error("the ROM store {} is not a directory (the store is chosen by --roms, $SARGON_ROMS or $XDG_DATA_HOME)", shown(.store))]
    /// The store's path names something other than a directory.
    StoreNotADirectory {
        /// The store's path.
        store: PathBuf,
    },
    #[error("cannot read the ROM store {}: {cause}", shown(.store))]
    /// The store cannot be read.
    StoreUnreadable {
        /// The store's directory.
        store: PathBuf,
        /// The OS error (printed once: not a `source`).
        cause: io::Error,
    },
    #[error("cannot write to the ROM store {}: {cause}", shown(.store))]
    /// The store cannot be written.
    StoreUnwritable {
        /// The store's directory.
        store: PathBuf,
        /// The OS error.
        cause: io::Error,
    },
    #[error("no ROM store: $HOME is not set; choose one with --roms DIR, $SARGON_ROMS or $XDG_DATA_HOME")]
    /// No store was named and `$HOME` is unset.
    NoHome,
    #[error("{context}: {cause}")]
    /// Reading or writing a file failed.
    Io {
        /// What was being done.
        context: String,
        /// The error.
        cause: io::Error,
    },
}

impl RomError {
    /// The error as a command that takes its ROM's name otherwise than by `--rom NAME`
    /// shows it: `syntax` (`sargon rom info NAME`) is the advice when several ROMs are
    /// stored and none was named, so that the advice is one the command accepts.
    pub fn naming_the_rom_as(self, syntax: &'static str) -> RomError {
        match self {
            RomError::Ambiguous {
                store, available, ..
            } => RomError::Ambiguous {
                store,
                available,
                choose: syntax,
            },
            other => other,
        }
    }
}

/// Hex SHA-256 of some bytes.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Text fit for an error message: control and non-ASCII characters escaped (`\x1b`,
/// `\u{fffd}`), cut after `max` characters. Input files are echoed only through this, so
/// that a wrong file cannot fill the terminal with raw bytes.
pub(crate) fn printable(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (shown, c) in text.chars().enumerate() {
        if shown == max {
            out.push_str("...");
            break;
        }
        match c {
            ' '..='~' => out.push(c),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x100 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    out
}

/// Does `bytes` look like a text file? A Z80 source or listing is text: no NUL byte, and
/// control characters other than tab, line ends, form feed and CP/M's end-of-file mark
/// are rare (allowed: one in a hundred bytes, for the odd stray one).
pub(crate) fn looks_like_text(bytes: &[u8]) -> bool {
    let sample = &bytes[..bytes.len().min(64 * 1024)];
    if sample.contains(&0) {
        return false;
    }
    let control = sample
        .iter()
        .filter(|&&b| (b < 0x20 && !b"\t\n\r\x0c\x1a".contains(&b)) || b == 0x7f)
        .count();
    control * 100 <= sample.len()
}

/// The store directory from `--roms`, `$SARGON_ROMS`, `$XDG_DATA_HOME` or the home
/// directory; an error when none is set.
pub(crate) fn store_dir(explicit: Option<&Path>) -> Result<PathBuf, RomError> {
    let var = |name: &str| std::env::var_os(name).filter(|p| !p.is_empty());
    if let Some(p) = explicit {
        return Ok(p.to_path_buf());
    }
    if let Some(p) = var("SARGON_ROMS") {
        return Ok(PathBuf::from(p));
    }
    let data = match (var("XDG_DATA_HOME"), var("HOME")) {
        (Some(data), _) => PathBuf::from(data),
        (None, Some(home)) => PathBuf::from(home).join(".local").join("share"),
        (None, None) => return Err(RomError::NoHome),
    };
    Ok(data.join("sargon").join("roms"))
}

/// The ROM store in one directory.
#[derive(Clone, Debug)]
pub struct RomStore {
    dir: PathBuf,
    /// The store could not be located (no home directory): every use is this error.
    unlocated: bool,
}

/// What an import did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImportResult {
    /// A new ROM directory was written.
    Created,
    /// The same image was already there; the source was added to its record.
    SameImage,
    /// A different image was replaced (`--force`).
    Replaced,
}

/// An assembled image not yet stored: what [`RomStore::prepare`] makes of a file.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// The ROM as it would be stored (its `verified` still unset).
    pub rom: Rom,
    /// `asm` or `lst`.
    pub kind: String,
    /// The imported file's bytes, kept as `source.<kind>`.
    pub source: Vec<u8>,
}

impl RomStore {
    /// The store in `dir`.
    pub fn new(dir: PathBuf) -> Self {
        RomStore {
            dir,
            unlocated: false,
        }
    }

    /// The store chosen by `explicit` (`--roms`) or the environment. Opening never fails,
    /// so that commands that do not need the store (the port) run without one; a store
    /// that cannot be located is an error at its first use.
    pub fn open(explicit: Option<&Path>) -> Self {
        match store_dir(explicit) {
            Ok(dir) => RomStore::new(dir),
            Err(_) => RomStore {
                dir: PathBuf::new(),
                unlocated: true,
            },
        }
    }

    /// The store's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Is the store usable: located, and a directory if it exists at all?
    pub(crate) fn check(&self) -> Result<(), RomError> {
        if self.unlocated {
            return Err(RomError::NoHome);
        }
        match fs::metadata(&self.dir) {
            Ok(m) if !m.is_dir() => Err(RomError::StoreNotADirectory {
                store: self.dir.clone(),
            }),
            _ => Ok(()),
        }
    }

    /// Names of the imported ROMs, sorted (none when the store does not exist yet).
    pub fn names(&self) -> Result<Vec<String>, RomError> {
        self.check()?;
        let entries = match fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(cause) => {
                return Err(RomError::StoreUnreadable {
                    store: self.dir.clone(),
                    cause,
                })
            }
        };
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok())
            .filter(|e| e.path().join("rom.json").is_file())
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| !n.starts_with('.'))
            .collect();
        names.sort();
        Ok(names)
    }

    /// Load a ROM by name; with `None`, the only one, or the one called `sargon`.
    pub fn load(&self, name: Option<&str>) -> Result<Rom, RomError> {
        let names = self.names()?;
        let name = match name {
            Some(n) => n.to_string(),
            None => match names.as_slice() {
                [] => {
                    return Err(RomError::NoneImported {
                        store: self.dir.clone(),
                    })
                }
                [only] => only.clone(),
                _ if names.iter().any(|n| n == DEFAULT_NAME) => DEFAULT_NAME.to_string(),
                _ => {
                    return Err(RomError::Ambiguous {
                        store: self.dir.clone(),
                        available: names.join(", "),
                        choose: "--rom NAME",
                    })
                }
            },
        };
        if !names.contains(&name) {
            if names.is_empty() {
                return Err(RomError::NoneImported {
                    store: self.dir.clone(),
                });
            }
            return Err(RomError::NotFound {
                name: echo(&name),
                store: self.dir.clone(),
                available: names.join(", "),
            });
        }
        let dir = self.dir.join(&name);
        let corrupt = |why: String| RomError::Corrupt {
            name: name.clone(),
            dir: dir.clone(),
            why,
        };
        let meta: RomMeta = serde_json::from_slice(
            &fs::read(dir.join("rom.json")).map_err(|e| corrupt(format!("rom.json: {e}")))?,
        )
        .map_err(|e| corrupt(format!("rom.json: {e}")))?;
        let image =
            fs::read(dir.join("image.bin")).map_err(|e| corrupt(format!("image.bin: {e}")))?;
        if sha256_hex(&image) != meta.image_sha256 {
            return Err(corrupt(
                "image.bin does not match the SHA-256 recorded at import".into(),
            ));
        }
        if image.len() != meta.size || meta.load_address as usize + image.len() > 0x10000 {
            return Err(corrupt("image size does not match rom.json".into()));
        }
        let symbols: BTreeMap<String, u16> = serde_json::from_slice(
            &fs::read(dir.join("symbols.json"))
                .map_err(|e| corrupt(format!("symbols.json: {e}")))?,
        )
        .map_err(|e| corrupt(format!("symbols.json: {e}")))?;
        Ok(Rom {
            meta,
            image,
            symbols,
        })
    }

    /// Read and assemble a transcription (`.asm`) or zmac listing (`.lst`) to be stored as
    /// `name`, storing nothing. Checked here, before any verification is spent on it: the
    /// store is usable, the name is valid, the file is text that assembles to some bytes,
    /// and `force` is given if a different image already has the name.
    pub fn prepare(&self, file: &Path, name: &str, force: bool) -> Result<Candidate, RomError> {
        self.check()?;
        if name.is_empty()
            || name.starts_with('.')
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        {
            return Err(RomError::BadName(echo(name)));
        }
        // A store that cannot be written is found now, not after the check.
        self.probe_writable()?;
        let display = shown(file);
        // Bounded: a file that never ends (`/dev/zero`) is refused, not read until the
        // memory runs out.
        let bytes = sargon_core::text_file::read_bytes(file).map_err(|e| RomError::Io {
            context: format!("cannot read {display}"),
            cause: match e {
                sargon_core::text_file::TextFileError::Io(e) => e,
                other => io::Error::other(other.to_string()),
            },
        })?;
        if !looks_like_text(&bytes) {
            return Err(RomError::NotText { file: display });
        }
        // A byte-order mark is no part of the first line.
        let text = String::from_utf8_lossy(sargon_core::text_file::without_bom(&bytes));
        let (kind, assembly) = if asm::listing::looks_like_listing(&text) {
            ("lst", asm::listing::parse_listing(&text))
        } else {
            ("asm", asm::assemble(&text))
        };
        let assembly = assembly.map_err(|e| RomError::Assemble {
            file: display.clone(),
            cause: printable(&e.to_string(), ECHO_CHARS),
        })?;
        let (image, load_address) = image_of(&assembly).ok_or(RomError::Empty {
            file: display.clone(),
        })?;
        let image_sha256 = sha256_hex(&image);
        if !force {
            match self.load(Some(name)) {
                Ok(existing) if existing.meta.image_sha256 != image_sha256 => {
                    return Err(RomError::Exists {
                        name: name.to_string(),
                        existing: existing.meta.image_sha256,
                    })
                }
                Ok(_) | Err(RomError::NotFound { .. }) | Err(RomError::NoneImported { .. }) => {}
                Err(e) => return Err(e),
            }
        }
        let source = SourceRecord {
            kind: kind.to_string(),
            file: file
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or(display),
            sha256: sha256_hex(&bytes),
        };
        let meta = RomMeta {
            name: name.to_string(),
            load_address,
            size: image.len(),
            image_sha256,
            sources: vec![source],
            imported_at: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0),
            verified: None,
            verification: None,
            allowed_differences: Vec::new(),
        };
        Ok(Candidate {
            rom: Rom {
                meta,
                image,
                symbols: assembly.symbols,
            },
            kind: kind.to_string(),
            source: bytes,
        })
    }

    /// Store a prepared image with the verdict of its check: `verified` and a one-line
    /// `verification` (what was checked, or why it is not trusted).
    pub fn store(
        &self,
        candidate: Candidate,
        force: bool,
        verdict: Verdict,
    ) -> Result<(Rom, ImportResult), RomError> {
        let Candidate {
            mut rom,
            kind,
            source,
        } = candidate;
        let name = rom.meta.name.clone();
        let mut extra_files: Vec<(String, Vec<u8>)> = Vec::new();
        let result = match self.load(Some(&name)) {
            Ok(existing) if existing.meta.image_sha256 == rom.meta.image_sha256 => {
                // Same image: keep the other kind of source alongside this one.
                for s in existing.meta.sources.iter().filter(|s| s.kind != kind) {
                    rom.meta.sources.push(s.clone());
                    let f = format!("source.{}", s.kind);
                    if let Ok(b) = fs::read(self.dir.join(&name).join(&f)) {
                        extra_files.push((f, b));
                    }
                }
                ImportResult::SameImage
            }
            Ok(existing) => {
                if !force {
                    return Err(RomError::Exists {
                        name,
                        existing: existing.meta.image_sha256,
                    });
                }
                ImportResult::Replaced
            }
            Err(RomError::NotFound { .. }) | Err(RomError::NoneImported { .. }) => {
                ImportResult::Created
            }
            Err(RomError::Corrupt { .. }) if force => ImportResult::Replaced,
            Err(e) => return Err(e),
        };
        rom.meta.sources.sort_by(|a, b| a.kind.cmp(&b.kind));
        rom.meta.set_verdict(verdict);
        let mut files: Vec<(String, Vec<u8>)> = vec![
            ("image.bin".into(), rom.image.clone()),
            (
                "symbols.json".into(),
                serde_json::to_vec_pretty(&rom.symbols).expect("symbols serialise"),
            ),
            (
                "rom.json".into(),
                serde_json::to_vec_pretty(&rom.meta).expect("meta serialises"),
            ),
            (format!("source.{kind}"), source),
        ];
        files.extend(extra_files);
        self.write_atomically(&name, &files)?;
        Ok((rom, result))
    }

    /// Can the verdict of a check be recorded in the stored ROM `name`? A probe file made
    /// and removed in its directory, so that a read-only store is refused before minutes
    /// of checking, not after.
    pub fn check_recordable(&self, name: &str) -> Result<(), RomError> {
        let probe = self
            .dir
            .join(name)
            .join(format!(".sargon-probe-{}", std::process::id()));
        fs::write(&probe, b"").map_err(|cause| RomError::StoreUnwritable {
            store: self.dir.clone(),
            cause,
        })?;
        let _ = fs::remove_file(&probe);
        Ok(())
    }

    /// Record the verdict of a later check (`sargon rom verify`) in a stored ROM's
    /// `rom.json`, written under a temporary name and renamed over the old one.
    pub fn record_verification(&self, name: &str, verdict: Verdict) -> Result<Rom, RomError> {
        let mut rom = self.load(Some(name))?;
        rom.meta.set_verdict(verdict);
        let dir = self.dir.join(name);
        let tmp = dir.join(format!(".rom.json.tmp-{}", std::process::id()));
        let unwritable = |cause| RomError::StoreUnwritable {
            store: self.dir.clone(),
            cause,
        };
        fs::write(
            &tmp,
            serde_json::to_vec_pretty(&rom.meta).expect("meta serialises"),
        )
        .map_err(unwritable)?;
        if let Err(e) = fs::rename(&tmp, dir.join("rom.json")) {
            let _ = fs::remove_file(&tmp);
            return Err(unwritable(e));
        }
        Ok(rom)
    }

    /// Can a ROM be written into the store? A scratch directory is created and removed in
    /// the store, or, while there is no store yet, in the nearest directory above it that
    /// exists (where storing will create it). The store itself is created only when a ROM
    /// is stored, so that a refused import leaves the disk as it was.
    fn probe_writable(&self) -> Result<(), RomError> {
        let unwritable = |cause| RomError::StoreUnwritable {
            store: self.dir.clone(),
            cause,
        };
        // A relative store's last ancestor is the empty path: the current directory.
        let existing = self
            .dir
            .ancestors()
            .map(|d| {
                if d.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    d
                }
            })
            .find(|d| d.exists())
            .unwrap_or(Path::new("/"));
        let probe = existing.join(format!(".sargon-probe-{}", std::process::id()));
        fs::create_dir(&probe).map_err(unwritable)?;
        let _ = fs::remove_dir(&probe);
        Ok(())
    }

    /// Write a ROM directory under a temporary name, then swap it into place. Failures
    /// name the store, not the temporary directory the user never asked about.
    fn write_atomically(&self, name: &str, files: &[(String, Vec<u8>)]) -> Result<(), RomError> {
        let unwritable = |cause| RomError::StoreUnwritable {
            store: self.dir.clone(),
            cause,
        };
        fs::create_dir_all(&self.dir).map_err(unwritable)?;
        let pid = std::process::id();
        let tmp = self.dir.join(format!(".tmp-{name}-{pid}"));
        let old = self.dir.join(format!(".old-{name}-{pid}"));
        let _ = fs::remove_dir_all(&tmp);
        fs::create_dir(&tmp).map_err(unwritable)?;
        let written = files
            .iter()
            .try_for_each(|(f, data)| fs::write(tmp.join(f), data));
        if let Err(e) = written {
            let _ = fs::remove_dir_all(&tmp);
            return Err(unwritable(e));
        }
        let dest = self.dir.join(name);
        if dest.exists() {
            if let Err(e) = fs::rename(&dest, &old) {
                let _ = fs::remove_dir_all(&tmp);
                return Err(unwritable(e));
            }
        }
        if let Err(e) = fs::rename(&tmp, &dest) {
            // Put the previous ROM back so nothing is lost.
            if old.exists() {
                let _ = fs::rename(&old, &dest);
            }
            let _ = fs::remove_dir_all(&tmp);
            return Err(unwritable(e));
        }
        let _ = fs::remove_dir_all(&old);
        Ok(())
    }
}

/// The emitted bytes of an assembly, from its lowest to its highest address.
pub fn image_of(a: &Assembly) -> Option<(Vec<u8>, u16)> {
    let (lo, hi) = a.extent?;
    Some((a.memory[lo as usize..=hi as usize].to_vec(), lo))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_table_parses() {
        assert_eq!(known_image("not-a-hash"), None);
        for line in KNOWN_IMAGES
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            let (sha, desc) = line.split_once('\t').expect("sha<TAB>description");
            assert_eq!(sha.len(), 64, "{line}");
            assert!(!desc.trim().is_empty());
        }
    }

    #[test]
    fn store_dir_precedence() {
        let explicit = PathBuf::from("/x/y");
        assert_eq!(store_dir(Some(&explicit)).unwrap(), explicit);
    }

    #[test]
    fn empty_store_explains_how_to_import() {
        let tmp = std::env::temp_dir().join(format!("sargon-empty-store-{}", std::process::id()));
        let store = RomStore::new(tmp.clone());
        let err = store.load(None).unwrap_err().to_string();
        assert!(err.contains("sargon rom import"), "{err}");
        assert!(err.contains(&tmp.display().to_string()));
    }

    #[test]
    fn bad_names_are_refused() {
        let store = RomStore::new(std::env::temp_dir().join("sargon-never-created"));
        for bad in ["", "../x", ".hidden", "a/b"] {
            assert!(matches!(
                store.prepare(Path::new("/nonexistent"), bad, false),
                Err(RomError::BadName(_))
            ));
        }
    }

    #[test]
    fn a_store_that_is_a_file_is_an_error() {
        let file = tempfile::NamedTempFile::new().unwrap();
        let store = RomStore::new(file.path().to_path_buf());
        assert!(matches!(
            store.names(),
            Err(RomError::StoreNotADirectory { .. })
        ));
        assert!(matches!(
            store.load(None),
            Err(RomError::StoreNotADirectory { .. })
        ));
    }

    #[test]
    fn an_unlocated_store_says_so_at_first_use() {
        let store = RomStore {
            dir: PathBuf::new(),
            unlocated: true,
        };
        let err = store.names().unwrap_err().to_string();
        assert!(err.contains("$HOME is not set"), "{err}");
        assert!(matches!(store.load(None), Err(RomError::NoHome)));
    }

    #[test]
    fn io_causes_appear_once() {
        let tmp = tempfile::tempdir().unwrap();
        let store = RomStore::new(tmp.path().join("store"));
        let err = store
            .prepare(Path::new("/nonexistent/sargon.asm"), "x", false)
            .unwrap_err();
        // As main prints errors: the whole chain.
        let shown = format!("{:#}", anyhow::Error::from(err));
        assert_eq!(
            shown.matches("No such file or directory").count(),
            1,
            "{shown}"
        );
    }

    #[cfg(unix)]
    /// A directory this process cannot write into: a read-only temporary directory, or
    /// (for root, whom permissions do not stop) a path under /sys. `None` if neither works.
    fn unwritable_dir() -> Option<(PathBuf, Option<tempfile::TempDir>)> {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().ok()?;
        fs::set_permissions(tmp.path(), fs::Permissions::from_mode(0o555)).ok()?;
        if fs::create_dir(tmp.path().join("probe")).is_err() {
            return Some((tmp.path().join("store"), Some(tmp)));
        }
        let sys = PathBuf::from("/sys/sargon-test-store");
        fs::create_dir(&sys).is_err().then_some((sys, None))
    }

    #[cfg(unix)]
    #[test]
    fn a_read_only_store_is_named_not_its_temporary_directory() {
        let Some((dir, _keep)) = unwritable_dir() else {
            eprintln!("skipped: no unwritable directory to try");
            return;
        };
        let store = RomStore::new(dir.clone());
        for err in [
            store.probe_writable().unwrap_err(),
            store
                .write_atomically("x", &[("rom.json".into(), b"{}".to_vec())])
                .unwrap_err(),
        ] {
            let shown = err.to_string();
            assert!(
                shown.starts_with(&format!("cannot write to the ROM store {}:", dir.display())),
                "{shown}"
            );
            assert!(
                !shown.contains(".tmp-") && !shown.contains(".sargon-probe-"),
                "{shown}"
            );
        }
    }

    #[test]
    fn printable_escapes_and_cuts() {
        assert_eq!(printable("LD A,(HL)", 100), "LD A,(HL)");
        assert_eq!(printable("a\u{1b}[2Jb\tc", 100), "a\\x1b[2Jb\\tc");
        assert_eq!(printable("\u{7f}\u{fffd}", 100), "\\x7f\\u{fffd}");
        assert_eq!(
            printable(&"x".repeat(500), 100),
            format!("{}...", "x".repeat(100))
        );
    }

    #[test]
    fn binary_is_not_text() {
        assert!(looks_like_text(b"START:\tLD A,1\r\n\x0c; next page\n\x1a"));
        assert!(looks_like_text(b""));
        assert!(!looks_like_text(b"\x7fELF\x02\x01\x01\x00\x00"));
        let mut noisy = vec![b'a'; 100];
        noisy.extend([1u8, 2, 3]);
        assert!(!looks_like_text(&noisy));
    }
}
