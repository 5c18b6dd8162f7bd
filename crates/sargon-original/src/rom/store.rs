//! The store on disk ([`RomStore`]): where it is, listing, loading, preparing, storing.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::bytes::{looks_like_text, printable, sha256_hex, shown, ECHO_CHARS};
use super::error::RomError;
use super::image::{Rom, RomMeta, SourceRecord, Verdict};
use crate::asm::{self, Assembly};
use sargon_core::input::echo;

/// Name a ROM gets when `--name` is not given.
pub const DEFAULT_NAME: &str = "sargon";

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
    pub(super) dir: PathBuf,
    /// The store could not be located (no home directory): every use is this error.
    pub(super) unlocated: bool,
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
    ///
    /// ```
    /// use sargon_original::rom::RomStore;
    /// let dir = tempfile::tempdir()?;
    /// let store = RomStore::new(dir.path().join("roms"));
    /// assert_eq!(store.dir(), dir.path().join("roms"));
    /// assert!(store.names()?.is_empty()); // a store not yet made holds nothing
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(dir: PathBuf) -> Self {
        RomStore {
            dir,
            unlocated: false,
        }
    }

    /// The store chosen by `explicit` (`--roms`) or the environment. Opening never fails,
    /// so that commands that do not need the store (the port) run without one; a store
    /// that cannot be located is an error at its first use.
    ///
    /// ```standalone_crate
    /// use sargon_original::rom::RomStore;
    /// // `--roms DIR` wins over the environment.
    /// let dir = tempfile::tempdir()?;
    /// assert_eq!(RomStore::open(Some(dir.path())).dir(), dir.path());
    /// // SAFETY: this example runs in a process of its own (`standalone_crate`, not merged
    /// // with the other examples), where no other thread reads the environment.
    /// unsafe { std::env::set_var("SARGON_ROMS", dir.path().join("from-env")) };
    /// assert_eq!(RomStore::open(None).dir(), dir.path().join("from-env"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
    ///
    /// ```
    /// use sargon_original::rom::RomStore;
    /// let store = RomStore::new("/somewhere/roms".into());
    /// assert_eq!(store.dir(), std::path::Path::new("/somewhere/roms"));
    /// ```
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
    ///
    /// ```
    /// use sargon_original::rom::{RomStore, Verdict};
    ///
    /// let dir = tempfile::tempdir()?;
    /// let store = RomStore::new(dir.path().join("roms"));
    /// let file = dir.path().join("tiny.asm");
    /// std::fs::write(&file, "        ORG 100H\nSTART:  RET\n")?;
    /// for name in ["b-copy", "a-copy"] {
    ///     store.store(store.prepare(&file, name, false)?, false, Verdict::default())?;
    /// }
    /// assert_eq!(store.names()?, ["a-copy", "b-copy"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
    ///
    /// ```
    /// use sargon_original::rom::{RomStore, Verdict};
    ///
    /// let dir = tempfile::tempdir()?;
    /// let store = RomStore::new(dir.path().join("roms"));
    /// assert!(store.load(None).unwrap_err().to_string().starts_with("no Sargon ROM imported in "));
    /// let file = dir.path().join("tiny.asm");
    /// std::fs::write(&file, "        ORG 100H\nSTART:  LD A,42\n        RET\n")?;
    /// store.store(store.prepare(&file, "tiny", false)?, false, Verdict::default())?;
    /// // The only ROM is the one loaded when none is named.
    /// let rom = store.load(None)?;
    /// assert_eq!((rom.meta.name.as_str(), rom.image.as_slice()), ("tiny", &[0x3E, 42, 0xC9][..]));
    /// assert!(store.load(Some("other")).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
    ///
    /// ```
    /// use sargon_original::rom::RomStore;
    ///
    /// let dir = tempfile::tempdir()?;
    /// let store = RomStore::new(dir.path().join("roms"));
    /// let file = dir.path().join("tiny.asm");
    /// std::fs::write(&file, "        ORG 100H\nSTART:  LD A,42\n        RET\n")?;
    /// let candidate = store.prepare(&file, "tiny", false)?;
    /// assert_eq!((candidate.kind.as_str(), candidate.rom.meta.load_address), ("asm", 0x100));
    /// assert_eq!(candidate.rom.symbol("start")?, 0x100);
    /// assert!(store.names()?.is_empty()); // nothing stored yet
    /// assert!(store.prepare(&file, "../elsewhere", false).is_err()); // not a name
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
    ///
    /// ```
    /// use sargon_original::rom::{ImportResult, RomStore, Verdict};
    ///
    /// let dir = tempfile::tempdir()?;
    /// let store = RomStore::new(dir.path().join("roms"));
    /// let file = dir.path().join("tiny.asm");
    /// std::fs::write(&file, "        ORG 100H\nSTART:  RET\n")?;
    /// let verdict = Verdict { verified: false, summary: "not Sargon".into(), ..Verdict::default() };
    /// let (rom, result) = store.store(store.prepare(&file, "tiny", false)?, false, verdict.clone())?;
    /// assert_eq!(result, ImportResult::Created);
    /// assert_eq!(rom.unverified_reason().as_deref(), Some("not Sargon"));
    /// let (_, again) = store.store(store.prepare(&file, "tiny", false)?, false, verdict)?;
    /// assert_eq!(again, ImportResult::SameImage);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
    ///
    /// ```
    /// use sargon_original::rom::{RomStore, Verdict};
    ///
    /// let dir = tempfile::tempdir()?;
    /// let store = RomStore::new(dir.path().join("roms"));
    /// let file = dir.path().join("tiny.asm");
    /// std::fs::write(&file, "        ORG 100H\nSTART:  RET\n")?;
    /// store.store(store.prepare(&file, "tiny", false)?, false, Verdict::default())?;
    /// assert!(store.check_recordable("tiny").is_ok());
    /// assert!(store.check_recordable("never-imported").is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
    ///
    /// ```
    /// use sargon_original::rom::{RomStore, Verdict};
    ///
    /// let dir = tempfile::tempdir()?;
    /// let store = RomStore::new(dir.path().join("roms"));
    /// let file = dir.path().join("tiny.asm");
    /// std::fs::write(&file, "        ORG 100H\nSTART:  RET\n")?;
    /// store.store(store.prepare(&file, "tiny", false)?, false, Verdict::default())?;
    /// let verdict = Verdict { verified: false, summary: "behaves differently".into(), ..Verdict::default() };
    /// let rom = store.record_verification("tiny", verdict)?;
    /// assert_eq!(rom.meta.verification.as_deref(), Some("behaves differently"));
    /// assert_eq!(store.load(Some("tiny"))?.meta.verified, Some(false)); // kept in rom.json
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
    pub(super) fn probe_writable(&self) -> Result<(), RomError> {
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
        // Unique per call, not only per process: two threads storing at once (two stores
        // under one new directory) probe the same ancestor.
        static PROBES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = PROBES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let probe = existing.join(format!(".sargon-probe-{}-{n}", std::process::id()));
        fs::create_dir(&probe).map_err(unwritable)?;
        let _ = fs::remove_dir(&probe);
        Ok(())
    }

    /// Write a ROM directory under a temporary name, then swap it into place. Failures
    /// name the store, not the temporary directory the user never asked about.
    pub(super) fn write_atomically(
        &self,
        name: &str,
        files: &[(String, Vec<u8>)],
    ) -> Result<(), RomError> {
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
        if dest.exists()
            && let Err(e) = fs::rename(&dest, &old)
        {
            let _ = fs::remove_dir_all(&tmp);
            return Err(unwritable(e));
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
///
/// ```
/// use sargon_original::asm::assemble;
/// use sargon_original::rom::image_of;
///
/// let a = assemble("        ORG 200H\n        LD A,1\n        RET\n")?;
/// assert_eq!(image_of(&a), Some((vec![0x3E, 1, 0xC9], 0x200)));
/// assert_eq!(image_of(&assemble("N       EQU 5\n")?), None); // no byte emitted
/// # Ok::<(), sargon_original::asm::AsmError>(())
/// ```
pub fn image_of(a: &Assembly) -> Option<(Vec<u8>, u16)> {
    let (lo, hi) = a.extent?;
    Some((a.memory[lo as usize..=hi as usize].to_vec(), lo))
}
