//! The ROM store: the user's own copy of Sargon, imported once, kept outside the repository.
//!
//! Sargon's code is copyrighted, so this project never ships it. As emulator users bring
//! ROMs, Sargon's users bring the published Z80 transcription (or its zmac listing);
//! `sargon rom import` assembles it with the project's own assembler ([`crate::original::asm`]) and
//! stores the image and its symbol table here:
//!
//! ```text
//! <store>/<name>/image.bin      the bytes from the load address to the last byte emitted
//! <store>/<name>/symbols.json   every label and EQU, upper-cased
//! <store>/<name>/rom.json       name, load address, size, SHA-256 of image and sources
//! <store>/<name>/source.asm     the imported text (source.lst for a listing); both when
//!                               both were imported and gave the same image
//! ```
//!
//! The store is `--roms DIR`, else `$SARGON_ROMS`, else `$XDG_DATA_HOME/sargon/roms`, else
//! `~/.local/share/sargon/roms`. Every write goes to a temporary directory first and is
//! renamed into place, so an interrupted import never leaves a half-written ROM.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::original::asm::{self, Assembly};

/// The table of known images committed in `roms/known.tsv`: SHA-256 and description.
const KNOWN_IMAGES: &str = include_str!("../../../roms/known.tsv");

/// Name a ROM gets when `--name` is not given.
pub const DEFAULT_NAME: &str = "sargon";

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
}

/// Look an image's SHA-256 up in the committed table of known images.
pub fn known_image(sha256: &str) -> Option<&'static str> {
    KNOWN_IMAGES
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .find(|(sha, _)| sha.trim().eq_ignore_ascii_case(sha256))
        .map(|(_, desc)| desc.trim())
}

/// Why a ROM could not be imported or loaded.
#[derive(Debug, thiserror::Error)]
pub enum RomError {
    #[error("no Sargon ROM imported in {store}\n  import your copy of the Z80 transcription with: sargon rom import path/to/sargon-z80.asm\n  (see roms/README.md; the store is chosen by --roms, $SARGON_ROMS or $XDG_DATA_HOME)")]
    /// The store holds no ROM.
    NoneImported {
        /// The store's directory.
        store: PathBuf,
    },
    #[error("no ROM named `{name}` in {store} (imported: {available})")]
    /// No ROM has the name asked.
    NotFound {
        /// The name asked.
        name: String,
        /// The store's directory.
        store: PathBuf,
        /// The names imported.
        available: String,
    },
    #[error("several ROMs in {store} ({available}): choose one with --rom NAME")]
    /// Several ROMs are stored and none was named.
    Ambiguous {
        /// The store's directory.
        store: PathBuf,
        /// The names imported.
        available: String,
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
    #[error("cannot assemble {file}: {source}")]
    /// The source did not assemble.
    Assemble {
        /// The source file.
        file: String,
        /// The assembler's error.
        source: asm::AsmError,
    },
    #[error("{file} emitted no bytes: is it the Sargon transcription?")]
    /// The source assembled to no bytes.
    Empty {
        /// The source file.
        file: String,
    },
    #[error("ROM `{rom}` lacks the symbol {symbol}, which the emulator harness needs: is it the Sargon transcription?")]
    /// The ROM lacks a symbol the harness needs.
    MissingSymbol {
        /// The ROM's name.
        rom: String,
        /// The symbol missing.
        symbol: String,
    },
    #[error("ROM `{name}` in {dir} is corrupt: {why}")]
    /// A stored ROM does not match its record.
    Corrupt {
        /// The ROM's name.
        name: String,
        /// Its directory.
        dir: PathBuf,
        /// What does not match.
        why: String,
    },
    #[error("{context}: {source}")]
    /// Reading or writing a file failed.
    Io {
        /// What was being done.
        context: String,
        /// The error.
        source: io::Error,
    },
}

fn io_err(context: impl Into<String>) -> impl FnOnce(io::Error) -> RomError {
    let context = context.into();
    move |source| RomError::Io { context, source }
}

/// Hex SHA-256 of some bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// The store directory from `--roms`, `$SARGON_ROMS`, `$XDG_DATA_HOME` or the home directory.
pub fn store_dir(explicit: Option<&Path>) -> PathBuf {
    if let Some(p) = explicit {
        return p.to_path_buf();
    }
    if let Some(p) = std::env::var_os("SARGON_ROMS").filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    let data = std::env::var_os("XDG_DATA_HOME")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let home = std::env::var_os("HOME")
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from("."));
            home.join(".local").join("share")
        });
    data.join("sargon").join("roms")
}

/// The ROM store in one directory.
#[derive(Clone, Debug)]
pub struct RomStore {
    dir: PathBuf,
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

impl RomStore {
    /// The store in `dir`.
    pub fn new(dir: PathBuf) -> Self {
        RomStore { dir }
    }

    /// The store in `explicit`, or else where [`store_dir`] finds it.
    pub fn open(explicit: Option<&Path>) -> Self {
        RomStore::new(store_dir(explicit))
    }

    /// The store's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Names of the imported ROMs, sorted.
    pub fn names(&self) -> Vec<String> {
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok())
            .filter(|e| e.path().join("rom.json").is_file())
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| !n.starts_with('.'))
            .collect();
        names.sort();
        names
    }

    /// Load a ROM by name; with `None`, the only one, or the one called `sargon`.
    pub fn load(&self, name: Option<&str>) -> Result<Rom, RomError> {
        let names = self.names();
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
                name,
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

    /// Import a transcription (`.asm`) or zmac listing (`.lst`) under `name`.
    pub fn import(
        &self,
        file: &Path,
        name: &str,
        force: bool,
    ) -> Result<(Rom, ImportResult), RomError> {
        if name.is_empty()
            || name.starts_with('.')
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        {
            return Err(RomError::BadName(name.to_string()));
        }
        let display = file.display().to_string();
        let bytes = fs::read(file).map_err(io_err(format!("cannot read {display}")))?;
        let text = String::from_utf8_lossy(&bytes);
        let (kind, assembly) = if asm::listing::looks_like_listing(&text) {
            ("lst", asm::listing::parse_listing(&text))
        } else {
            ("asm", asm::assemble(&text))
        };
        let assembly = assembly.map_err(|source| RomError::Assemble {
            file: display.clone(),
            source,
        })?;
        let (image, load_address) = image_of(&assembly).ok_or(RomError::Empty {
            file: display.clone(),
        })?;
        let image_sha256 = sha256_hex(&image);
        let source = SourceRecord {
            kind: kind.to_string(),
            file: file
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or(display),
            sha256: sha256_hex(&bytes),
        };

        let mut sources = vec![source];
        let mut extra_files: Vec<(String, Vec<u8>)> = Vec::new();
        let result = match self.load(Some(name)) {
            Ok(existing) if existing.meta.image_sha256 == image_sha256 => {
                // Same image: keep the other kind of source alongside this one.
                for s in existing.meta.sources.iter().filter(|s| s.kind != kind) {
                    sources.push(s.clone());
                    let f = format!("source.{}", s.kind);
                    if let Ok(b) = fs::read(self.dir.join(name).join(&f)) {
                        extra_files.push((f, b));
                    }
                }
                ImportResult::SameImage
            }
            Ok(existing) => {
                if !force {
                    return Err(RomError::Exists {
                        name: name.to_string(),
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
        sources.sort_by(|a, b| a.kind.cmp(&b.kind));

        let meta = RomMeta {
            name: name.to_string(),
            load_address,
            size: image.len(),
            image_sha256,
            sources,
            imported_at: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0),
        };
        let symbols = assembly.symbols.clone();
        let mut files: Vec<(String, Vec<u8>)> = vec![
            ("image.bin".into(), image.clone()),
            (
                "symbols.json".into(),
                serde_json::to_vec_pretty(&symbols).expect("symbols serialise"),
            ),
            (
                "rom.json".into(),
                serde_json::to_vec_pretty(&meta).expect("meta serialises"),
            ),
            (format!("source.{kind}"), bytes),
        ];
        files.extend(extra_files);
        self.write_atomically(name, &files)?;
        Ok((
            Rom {
                meta,
                image,
                symbols,
            },
            result,
        ))
    }

    /// Write a ROM directory under a temporary name, then swap it into place.
    fn write_atomically(&self, name: &str, files: &[(String, Vec<u8>)]) -> Result<(), RomError> {
        fs::create_dir_all(&self.dir).map_err(io_err(format!(
            "cannot create the ROM store {}",
            self.dir.display()
        )))?;
        let pid = std::process::id();
        let tmp = self.dir.join(format!(".tmp-{name}-{pid}"));
        let old = self.dir.join(format!(".old-{name}-{pid}"));
        let _ = fs::remove_dir_all(&tmp);
        fs::create_dir(&tmp).map_err(io_err(format!("cannot create {}", tmp.display())))?;
        for (f, data) in files {
            fs::write(tmp.join(f), data)
                .map_err(io_err(format!("cannot write {}", tmp.join(f).display())))?;
        }
        let dest = self.dir.join(name);
        if dest.exists() {
            fs::rename(&dest, &old)
                .map_err(io_err(format!("cannot move {} aside", dest.display())))?;
        }
        if let Err(e) = fs::rename(&tmp, &dest) {
            // Put the previous ROM back so nothing is lost.
            if old.exists() {
                let _ = fs::rename(&old, &dest);
            }
            return Err(io_err(format!(
                "cannot move the new ROM into {}",
                dest.display()
            ))(e));
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
        assert_eq!(store_dir(Some(&explicit)), explicit);
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
                store.import(Path::new("/nonexistent"), bad, false),
                Err(RomError::BadName(_))
            ));
        }
    }
}
