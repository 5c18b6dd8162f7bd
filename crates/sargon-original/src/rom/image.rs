//! An imported ROM ([`Rom`]) and what the store records about it, and the table of known images.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::error::RomError;

/// The table of known images committed in `roms/known.tsv`: SHA-256 and description.
pub(super) const KNOWN_IMAGES: &str = include_str!("../../../../roms/known.tsv");

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
    pub(super) fn set_verdict(&mut self, verdict: Verdict) {
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
    ///
    /// ```
    /// use sargon_original::rom::RomStore;
    /// # let dir = tempfile::tempdir()?;
    /// # let file = dir.path().join("tiny.asm");
    /// # std::fs::write(&file, "        ORG 100H\nSTART:  LD A,42\n        RET\n")?;
    /// # let rom = RomStore::new(dir.path().join("roms")).prepare(&file, "tiny", false)?.rom;
    /// // `rom`: the tiny program `START: LD A,42 / RET` at 100H, prepared in a store.
    /// assert_eq!(rom.symbol("start")?, 0x100);
    /// assert_eq!(rom.symbol("FNDMOV").unwrap_err().to_string(),
    ///     "ROM `tiny` lacks the symbol FNDMOV, which the emulator harness needs: is it the Sargon transcription?");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
    ///
    /// ```
    /// use sargon_original::rom::RomStore;
    /// # let dir = tempfile::tempdir()?;
    /// # let file = dir.path().join("tiny.asm");
    /// # std::fs::write(&file, "        ORG 100H\nSTART:  LD A,42\n        RET\n")?;
    /// # let rom = RomStore::new(dir.path().join("roms")).prepare(&file, "tiny", false)?.rom;
    /// // `rom`: the tiny program `START: LD A,42 / RET` at 100H, prepared in a store.
    /// let memory = rom.memory();
    /// assert_eq!(memory.len(), 0x10000);
    /// assert_eq!(&memory[0xFF..0x104], &[0, 0x3E, 42, 0xC9, 0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn memory(&self) -> Vec<u8> {
        let mut mem = vec![0u8; 0x10000];
        let start = self.meta.load_address as usize;
        mem[start..start + self.image.len()].copy_from_slice(&self.image);
        mem
    }

    /// The description of this image in the table of known images, if it is there.
    ///
    /// ```
    /// use sargon_original::rom::RomStore;
    /// # let dir = tempfile::tempdir()?;
    /// # let file = dir.path().join("tiny.asm");
    /// # std::fs::write(&file, "        ORG 100H\nSTART:  LD A,42\n        RET\n")?;
    /// # let rom = RomStore::new(dir.path().join("roms")).prepare(&file, "tiny", false)?.rom;
    /// // `rom`: the tiny program `START: LD A,42 / RET` at 100H, prepared in a store.
    /// assert_eq!(rom.known_as(), None); // not an image of roms/known.tsv
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn known_as(&self) -> Option<&'static str> {
        known_image(&self.meta.image_sha256)
    }

    /// Can results made with this ROM be trusted to be the original Sargon's? Yes when its
    /// check found it behaving as the known image; for a ROM imported before checks
    /// existed, yes exactly when it *is* a known image (the reference behaviour was
    /// recorded from it).
    ///
    /// ```
    /// use sargon_original::rom::RomStore;
    /// # let dir = tempfile::tempdir()?;
    /// # let file = dir.path().join("tiny.asm");
    /// # std::fs::write(&file, "        ORG 100H\nSTART:  LD A,42\n        RET\n")?;
    /// # let mut rom = RomStore::new(dir.path().join("roms")).prepare(&file, "tiny", false)?.rom;
    /// // `rom`: the tiny program `START: LD A,42 / RET` at 100H, prepared in a store.
    /// assert!(!rom.verified()); // never checked, and not a known image
    /// rom.meta.verified = Some(true);
    /// assert!(rom.verified());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn verified(&self) -> bool {
        self.meta
            .verified
            .unwrap_or_else(|| self.known_as().is_some())
    }

    /// Why the ROM is not verified (`None` when it is).
    ///
    /// ```
    /// use sargon_original::rom::RomStore;
    /// # let dir = tempfile::tempdir()?;
    /// # let file = dir.path().join("tiny.asm");
    /// # std::fs::write(&file, "        ORG 100H\nSTART:  LD A,42\n        RET\n")?;
    /// # let mut rom = RomStore::new(dir.path().join("roms")).prepare(&file, "tiny", false)?.rom;
    /// // `rom`: the tiny program `START: LD A,42 / RET` at 100H, prepared in a store.
    /// assert_eq!(rom.unverified_reason().unwrap(),
    ///     "it was imported before images were checked; run `sargon rom verify tiny`");
    /// rom.meta.verified = Some(false);
    /// assert_eq!(rom.unverified_reason().unwrap(), "it behaves differently from the known Sargon image");
    /// rom.meta.verified = Some(true);
    /// assert_eq!(rom.unverified_reason(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
