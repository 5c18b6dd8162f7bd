//! The original's traces, kept on disk so that a rerun of the same `sargon diff` costs only
//! the other side.
//!
//! A port author reruns one comparison after every change to the port; the original's side
//! never changes, and it is the slow one (an emulated Z80). So each search the emulator
//! finishes is kept here, keyed by everything its trace depends on: the image's SHA-256, the
//! bytes written into Sargon for the position ([`Setup`]: board, colour, MOVENO, the
//! replayed move), the depth and the book's random byte. A later search with the same key
//! reads the events back instead of running the emulator; any other image or position has
//! another key, so it can never meet a stale entry.
//!
//! An entry is one file: two text lines (a magic line, then a JSON header with the key, the
//! number of events, the SHA-256 of the event bytes and the trace's [`Digest`](sargon_core::digest::Digest)), then the
//! events, gzip-compressed, in a small binary form (`codec`). An entry is checked whole
//! (gzip's CRC, the count, the SHA-256) before any event of it is used; one that fails is
//! removed and the search runs on the emulator. Entries are written under a temporary name
//! and renamed, so shards that share the directory never see half an entry. The directory
//! is kept under a size limit by removing the entries used least recently.
//!
//! Only complete searches are kept: a search stopped at a divergence, or failed, is not.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use sargon_core::engine::{Engine, EngineKind, SearchError, SearchOptions, SearchOutcome};
use sargon_core::position::Setup;
use sargon_core::record;
use sargon_core::trace::{Detail, Event};

use crate::diff::{cpu_timed, EngineCost};

mod codec;
use codec::{EventReader, Writer};

/// The first line of every entry. The number is the version of the entry's form *and* of
/// the trace it holds: raise it when the events an engine emits change meaning (a new kind
/// of event, a hook moved), so that traces recorded before are never compared again.
const MAGIC: &str = "sargon trace cache 1";

/// The size limit when none is given: 2 GB.
pub const DEFAULT_LIMIT: u64 = 2_000_000_000;

/// Why the cache could not be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CacheError {
    /// The directory cannot be made or read.
    #[error("trace cache {}: {source}", dir.display())]
    Dir {
        /// The cache directory.
        dir: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// No directory is given and none can be found: no `$SARGON_CACHE`,
    /// `$XDG_CACHE_HOME` or `$HOME`.
    #[error("no trace cache directory: set SARGON_CACHE (or XDG_CACHE_HOME or HOME), or give --no-cache")]
    NoHome,
}

/// The default directory: `$SARGON_CACHE`, else `$XDG_CACHE_HOME/sargon/traces`, else
/// `$HOME/.cache/sargon/traces`.
pub fn default_dir() -> Result<PathBuf, CacheError> {
    let var = |name| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = var("SARGON_CACHE") {
        return Ok(PathBuf::from(dir));
    }
    if let Some(dir) = var("XDG_CACHE_HOME") {
        return Ok(PathBuf::from(dir).join("sargon").join("traces"));
    }
    var("HOME")
        .map(|home| {
            PathBuf::from(home)
                .join(".cache")
                .join("sargon")
                .join("traces")
        })
        .ok_or(CacheError::NoHome)
}

/// What a cache did during a run.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CacheCounts {
    /// Searches whose trace was read from the cache.
    pub hits: u64,
    /// Searches run on the engine and kept.
    pub stored: u64,
    /// Entries that failed their check: removed, and the search run instead.
    pub corrupt: u64,
    /// Entries removed to keep the directory under its limit.
    pub evicted: u64,
}

/// What is in the directory.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CacheSize {
    /// Entries.
    pub entries: u64,
    /// Their bytes.
    pub bytes: u64,
}

/// A directory of the original's traces, bounded in size. Shared by the threads of a run
/// (`&TraceCache` is enough for every operation).
#[derive(Debug)]
pub struct TraceCache {
    dir: PathBuf,
    limit: u64,
    /// Bytes in the directory as this process believes (others may write too: the
    /// directory is measured again before anything is removed).
    bytes: AtomicU64,
    counts: Mutex<CacheCounts>,
}

/// An entry's file extension.
const EXT: &str = "trace";

impl TraceCache {
    /// Open (and make, if need be) the cache in `dir`, kept under `limit` bytes.
    pub fn open(dir: impl Into<PathBuf>, limit: u64) -> Result<TraceCache, CacheError> {
        let dir = dir.into();
        let failed = |source| CacheError::Dir {
            dir: dir.clone(),
            source,
        };
        fs::create_dir_all(&dir).map_err(failed)?;
        let cache = TraceCache {
            bytes: AtomicU64::new(0),
            counts: Mutex::new(CacheCounts::default()),
            limit,
            dir: dir.clone(),
        };
        let size = cache.size().map_err(failed)?;
        cache.bytes.store(size.bytes, Ordering::Relaxed);
        Ok(cache)
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The size limit in bytes.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// What this cache did so far.
    pub fn counts(&self) -> CacheCounts {
        *self.counts.lock().unwrap()
    }

    fn count(&self, f: impl FnOnce(&mut CacheCounts)) {
        f(&mut self.counts.lock().unwrap())
    }

    /// The entries now in the directory, with their sizes and last use.
    fn entries(&self) -> io::Result<Vec<(PathBuf, u64, SystemTime)>> {
        let mut out = Vec::new();
        for entry in fs::read_dir(&self.dir)? {
            let entry = entry?;
            let path = entry.path();
            if path.extension().and_then(|e| e.to_str()) != Some(EXT) {
                continue;
            }
            // An entry another process removed in the meantime is simply not there.
            let Ok(meta) = entry.metadata() else { continue };
            let used = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            out.push((path, meta.len(), used));
        }
        Ok(out)
    }

    /// Entries and bytes in the directory.
    pub fn size(&self) -> io::Result<CacheSize> {
        let entries = self.entries()?;
        Ok(CacheSize {
            entries: entries.len() as u64,
            bytes: entries.iter().map(|e| e.1).sum(),
        })
    }

    /// Remove every entry (and any temporary file left by a killed run); returns what was
    /// removed.
    pub fn clear(&self) -> io::Result<CacheSize> {
        let mut removed = CacheSize::default();
        for entry in fs::read_dir(&self.dir)? {
            let path = entry?.path();
            let ours = path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| e == EXT || e == "tmp");
            if !ours {
                continue;
            }
            let bytes = fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
            match fs::remove_file(&path) {
                Ok(()) => {
                    removed.entries += 1;
                    removed.bytes += bytes;
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(e),
            }
        }
        self.bytes.store(0, Ordering::Relaxed);
        Ok(removed)
    }

    fn path_of(&self, key: &Key) -> PathBuf {
        self.dir.join(format!("{}.{EXT}", key.file_stem()))
    }

    /// The entry for `key`, checked whole, or `None` (no entry, or a bad one, removed).
    fn lookup(&self, key: &Key) -> Option<Entry> {
        let path = self.path_of(key);
        let entry = match read_entry(&path, key) {
            Ok(entry) => entry,
            Err(Lookup::Missing) => return None,
            Err(Lookup::Bad) => {
                let _ = fs::remove_file(&path);
                self.count(|c| c.corrupt += 1);
                return None;
            }
        };
        // Mark it used, for the limit's least-recently-used order.
        if let Ok(file) = File::options().append(true).open(&path) {
            let _ = file.set_modified(SystemTime::now());
        }
        Some(entry)
    }

    /// Keep a finished search's events under `key`.
    fn store(&self, key: &Key, written: Writer, outcome: &SearchOutcome) -> io::Result<()> {
        let Writer {
            gz,
            sha,
            digest,
            events,
            ..
        } = written;
        let payload = gz.finish()?;
        let digest = digest.finish();
        let header = Header {
            key: key.text.clone(),
            events,
            payload_sha256: hex::encode(sha.finalize()),
            digest_sha256: digest.sha256,
            counts: digest
                .counts
                .into_iter()
                .map(|(k, n)| (k.to_string(), n))
                .collect(),
            z80_instructions: outcome.stats.z80_instructions,
        };
        let mut bytes = format!("{MAGIC}\n").into_bytes();
        serde_json::to_writer(&mut bytes, &header).map_err(io::Error::other)?;
        bytes.push(b'\n');
        bytes.extend_from_slice(&payload);
        let size = bytes.len() as u64;
        if size > self.limit {
            return Ok(()); // larger than the whole cache may be: not kept
        }
        let path = self.path_of(key);
        let tmp = self.dir.join(format!(
            "{}.{}.{}.tmp",
            key.file_stem(),
            std::process::id(),
            unique()
        ));
        let written = (|| {
            let mut f = File::create(&tmp)?;
            f.write_all(&bytes)?;
            f.sync_data()?;
            fs::rename(&tmp, &path)
        })();
        if let Err(e) = written {
            let _ = fs::remove_file(&tmp);
            return Err(e);
        }
        self.count(|c| c.stored += 1);
        let total = self.bytes.fetch_add(size, Ordering::Relaxed) + size;
        if total > self.limit {
            self.shrink()?;
        }
        Ok(())
    }

    /// Remove the least recently used entries until the directory is within nine tenths
    /// of its limit (so that it is not measured again at every search).
    fn shrink(&self) -> io::Result<()> {
        let mut entries = self.entries()?;
        let mut total: u64 = entries.iter().map(|e| e.1).sum();
        entries.sort_by_key(|e| e.2);
        let target = self.limit / 10 * 9;
        for (path, bytes, _) in entries {
            if total <= target {
                break;
            }
            match fs::remove_file(&path) {
                Ok(()) => self.count(|c| c.evicted += 1),
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(e),
            }
            total -= bytes;
        }
        self.bytes.store(total, Ordering::Relaxed);
        Ok(())
    }
}

/// A number no other temporary file of this process has.
fn unique() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Everything a search's trace depends on, as text (kept in the entry, and compared when
/// it is read), and the file name made from it.
struct Key {
    text: String,
}

impl Key {
    fn new(image_sha256: &str, setup: &Setup, opts: &SearchOptions) -> Key {
        let replay = match setup.replay {
            Some((from, to)) => format!("{} {}", from.0, to.0),
            None => "none".to_string(),
        };
        Key {
            text: format!(
                "image {image_sha256} board {} color {} moveno {} replay {replay} depth {} \
                 book_random {}",
                hex::encode(setup.board),
                setup.side.byte(),
                setup.moveno,
                opts.depth,
                opts.book_random,
            ),
        }
    }

    fn file_stem(&self) -> String {
        let mut sha = Sha256::new();
        sha.update(MAGIC.as_bytes());
        sha.update(b"\n");
        sha.update(self.text.as_bytes());
        hex::encode(sha.finalize())
    }
}

/// An entry's second line.
#[derive(Debug, Serialize, Deserialize)]
struct Header {
    /// The key it was kept under ([`Key`]'s text).
    key: String,
    /// Events in it, the result included.
    events: u64,
    /// SHA-256 of the uncompressed event bytes.
    payload_sha256: String,
    /// The trace's digest, as `sargon trace --digest` and the golden files give it.
    digest_sha256: String,
    /// Events per kind.
    counts: Vec<(String, u64)>,
    /// The Z80 instructions the search executed.
    z80_instructions: Option<u64>,
}

/// An entry found and checked, held in memory (compressed) so that what is replayed is
/// exactly what was checked, whatever another process does to the file meanwhile.
struct Entry {
    header: Header,
    /// The gzip stream of its events.
    compressed: Vec<u8>,
}

enum Lookup {
    Missing,
    Bad,
}

/// Read an entry: its key must be `key`, its gzip stream sound, its bytes those the
/// header's SHA-256 names and its events as many as it says.
fn read_entry(path: &Path, key: &Key) -> Result<Entry, Lookup> {
    let bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(Lookup::Missing),
        Err(_) => return Err(Lookup::Bad),
    };
    let mut lines = bytes.splitn(3, |&b| b == b'\n');
    let (Some(magic), Some(header), Some(compressed)) = (lines.next(), lines.next(), lines.next())
    else {
        return Err(Lookup::Bad);
    };
    if magic != MAGIC.as_bytes() {
        return Err(Lookup::Bad);
    }
    let header: Header = serde_json::from_slice(header).map_err(|_| Lookup::Bad)?;
    if header.key != key.text {
        return Err(Lookup::Bad);
    }
    let mut events = EventReader::new(compressed);
    let mut count = 0u64;
    loop {
        match events.next_event() {
            Ok(Some(_)) => count += 1,
            Ok(None) => break,
            Err(_) => return Err(Lookup::Bad),
        }
    }
    if count != header.events || hex::encode(events.sha.finalize()) != header.payload_sha256 {
        return Err(Lookup::Bad);
    }
    Ok(Entry {
        header,
        compressed: compressed.to_vec(),
    })
}

/// The left side of a comparison, run: its result and cost, and whether it came from the
/// cache.
pub(crate) struct LeftRun {
    pub result: Result<(), SearchError>,
    pub cost: EngineCost,
}

/// Run the left engine's search, every event to `send`; or, when `cache` holds this
/// search of this image, read its events from there. Only the emulator's searches are
/// cached (the port changes with every build; the image is named by its SHA-256).
pub(crate) fn left_search(
    engine: &mut (dyn Engine + Send),
    cache: Option<&TraceCache>,
    setup: &Setup,
    opts: &SearchOptions,
    mut send: impl FnMut(Event),
) -> LeftRun {
    let key = match (cache, engine.kind(), engine.rom_id()) {
        (Some(_), EngineKind::Emulator, Some(rom)) => Some(Key::new(&rom.sha256, setup, opts)),
        _ => None,
    };
    let (Some(cache), Some(key)) = (cache, key) else {
        let (result, cpu) = cpu_timed(|| {
            record::search_streaming(engine, setup, opts, Detail::Full, &mut [], send)
        });
        return LeftRun {
            cost: EngineCost::of(cpu, &result),
            result: result.map(|_| ()),
        };
    };
    let (run, cpu) = cpu_timed(|| match cache.lookup(&key) {
        Some(entry) => {
            let z80 = entry.header.z80_instructions;
            let replayed = replay(&entry, &mut send, opts);
            if replayed.is_ok() {
                cache.count(|c| c.hits += 1);
            }
            (replayed, z80, true)
        }
        None => {
            let mut writer = Writer::new();
            let result =
                record::search_streaming(engine, setup, opts, Detail::Full, &mut [], |e| {
                    writer.add(&e);
                    send(e)
                });
            let z80 = result.as_ref().ok().and_then(|o| o.stats.z80_instructions);
            if let Ok(outcome) = &result {
                // A cache that cannot be written costs the next run time, not this run
                // its result.
                let _ = cache.store(&key, writer, outcome);
            }
            (result.map(|_| ()), z80, false)
        }
    });
    let (result, z80_instructions, cached) = run;
    LeftRun {
        result,
        cost: EngineCost {
            cpu,
            z80_instructions,
            cached,
        },
    }
}

/// Send a checked entry's events, stopping early when the comparison is over.
fn replay(
    entry: &Entry,
    send: &mut impl FnMut(Event),
    opts: &SearchOptions,
) -> Result<(), SearchError> {
    let mut events = EventReader::new(&entry.compressed[..]);
    while let Some(event) = events
        .next_event()
        .expect("the entry's bytes were read whole and checked")
    {
        if opts
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            return Err(SearchError::Stopped);
        }
        send(event);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sargon_core::digest::DigestBuilder;
    use sargon_core::engine::SearchOptions;
    use sargon_core::position::Book;

    fn startpos(book: bool) -> Setup {
        sargon_core::position::setup(&shakmaty::Chess::default(), Book::from(book)).unwrap()
    }

    pub(super) fn trace(depth: u8) -> Vec<Event> {
        record::search(
            &mut sargon_port::Port::new(),
            &startpos(false),
            &SearchOptions::depth(depth),
            Detail::Full,
            &mut [],
        )
        .unwrap()
        .events
    }

    #[test]
    fn the_key_names_image_position_depth_and_book_byte() {
        let a = startpos(false);
        let d2 = SearchOptions::depth(2);
        let k = |sha: &str, s: &Setup, o: &SearchOptions| Key::new(sha, s, o).file_stem();
        let base = k("aa", &a, &d2);
        assert_eq!(base, k("aa", &a, &d2));
        assert_ne!(base, k("ab", &a, &d2));
        assert_ne!(base, k("aa", &startpos(true), &d2), "MOVENO differs");
        assert_ne!(base, k("aa", &a, &SearchOptions::depth(3)));
        let other_byte = SearchOptions {
            book_random: 1,
            ..SearchOptions::depth(2)
        };
        assert_ne!(base, k("aa", &a, &other_byte));
        let pos: shakmaty::Chess = shakmaty::fen::Fen::from_ascii(
            b"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        )
        .unwrap()
        .into_position(shakmaty::CastlingMode::Standard)
        .unwrap();
        let e4 = sargon_core::position::setup(&pos, Book::Off).unwrap();
        assert_ne!(base, k("aa", &e4, &d2));
    }

    #[test]
    fn a_digest_is_kept_with_the_events() {
        let events = trace(1);
        let mut writer = Writer::new();
        let mut expected = DigestBuilder::new();
        for e in &events {
            writer.add(e);
            expected.add(e);
        }
        assert_eq!(writer.finish_digest(), expected.finish());
    }

    /// The port dressed as the original: it says it is the emulator running an image, and
    /// counts the searches it really does.
    struct Dressed {
        port: sargon_port::Port,
        rom: sargon_core::engine::RomId,
        searches: u32,
    }

    impl Dressed {
        fn new(sha: &str) -> Dressed {
            Dressed {
                port: sargon_port::Port::new(),
                rom: sargon_core::engine::RomId {
                    name: "sargon".into(),
                    sha256: sha.into(),
                    verified: true,
                    allowed_differences: Vec::new(),
                },
                searches: 0,
            }
        }
    }

    impl Engine for Dressed {
        fn kind(&self) -> EngineKind {
            EngineKind::Emulator
        }
        fn rom_id(&self) -> Option<&sargon_core::engine::RomId> {
            Some(&self.rom)
        }
        fn search(
            &mut self,
            setup: &Setup,
            opts: &SearchOptions,
            hooks: &mut sargon_core::hooks::Hooks,
        ) -> Result<SearchOutcome, SearchError> {
            self.searches += 1;
            self.port.search(setup, opts, hooks)
        }
    }

    /// The events of one left search through the cache, and whether they were read from it.
    fn through(
        engine: &mut (dyn Engine + Send),
        cache: &TraceCache,
        setup: &Setup,
        opts: &SearchOptions,
    ) -> (Vec<Event>, bool) {
        let mut events = Vec::new();
        let run = left_search(engine, Some(cache), setup, opts, |e| events.push(e));
        run.result.expect("the search runs");
        (events, run.cost.cached)
    }

    fn entries(dir: &Path) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_finished_search_is_kept_and_read_back_instead_of_searched() {
        let dir = tempfile::tempdir().unwrap();
        let cache = TraceCache::open(dir.path(), DEFAULT_LIMIT).unwrap();
        let mut original = Dressed::new(&"aa".repeat(32));
        let (setup, opts) = (startpos(false), SearchOptions::depth(2));
        let (first, cached) = through(&mut original, &cache, &setup, &opts);
        assert!(!cached);
        assert_eq!(first, trace(2));
        assert_eq!(entries(dir.path()).len(), 1);
        let (again, cached) = through(&mut original, &cache, &setup, &opts);
        assert!(cached);
        assert_eq!(again, first);
        assert_eq!(original.searches, 1, "the second came from the cache");
        assert_eq!(
            cache.counts(),
            CacheCounts {
                hits: 1,
                stored: 1,
                ..CacheCounts::default()
            }
        );
        // The header carries the trace's digest, as the golden files give it.
        let text = fs::read(&entries(dir.path())[0]).unwrap();
        let mut expected = DigestBuilder::new();
        first.iter().for_each(|e| expected.add(e));
        let sha = expected.finish().sha256;
        assert!(text.windows(sha.len()).any(|w| w == sha.as_bytes()));
    }

    #[test]
    fn another_image_position_or_depth_never_meets_the_entry() {
        let dir = tempfile::tempdir().unwrap();
        let cache = TraceCache::open(dir.path(), DEFAULT_LIMIT).unwrap();
        let (setup, d1) = (startpos(false), SearchOptions::depth(1));
        let mut a = Dressed::new(&"aa".repeat(32));
        through(&mut a, &cache, &setup, &d1);
        let mut b = Dressed::new(&"bb".repeat(32));
        let (_, cached) = through(&mut b, &cache, &setup, &d1);
        assert!(!cached && b.searches == 1, "another image");
        let (_, cached) = through(&mut a, &cache, &startpos(true), &d1);
        assert!(!cached && a.searches == 2, "another MOVENO");
        let (_, cached) = through(&mut a, &cache, &setup, &SearchOptions::depth(2));
        assert!(!cached && a.searches == 3, "another depth");
        assert_eq!(entries(dir.path()).len(), 4);
        // The port is never cached: it changes with every build.
        let mut events = Vec::new();
        let run = left_search(
            &mut sargon_port::Port::new(),
            Some(&cache),
            &setup,
            &d1,
            |e| events.push(e),
        );
        assert!(run.result.is_ok() && !run.cost.cached);
        assert_eq!(entries(dir.path()).len(), 4);
    }

    #[test]
    fn a_damaged_entry_is_removed_and_the_search_run_again() {
        let dir = tempfile::tempdir().unwrap();
        let cache = TraceCache::open(dir.path(), DEFAULT_LIMIT).unwrap();
        let mut original = Dressed::new(&"aa".repeat(32));
        let (setup, opts) = (startpos(false), SearchOptions::depth(2));
        let (first, ..) = through(&mut original, &cache, &setup, &opts);
        let path = entries(dir.path()).remove(0);
        let mut bytes = fs::read(&path).unwrap();
        let last = bytes.len() - 20;
        bytes[last] ^= 0x01;
        fs::write(&path, &bytes).unwrap();
        let (again, cached) = through(&mut original, &cache, &setup, &opts);
        assert!(!cached);
        assert_eq!(again, first);
        assert_eq!(original.searches, 2);
        assert_eq!(cache.counts().corrupt, 1);
        // Kept again, whole.
        let (_, cached) = through(&mut original, &cache, &setup, &opts);
        assert!(cached);
        // A file that is not an entry at all, under an entry's name.
        fs::write(&path, b"hello\n").unwrap();
        let (_, cached) = through(&mut original, &cache, &setup, &opts);
        assert!(!cached);
        assert_eq!(cache.counts().corrupt, 2);
    }

    #[test]
    fn a_stopped_search_is_not_kept() {
        let dir = tempfile::tempdir().unwrap();
        let cache = TraceCache::open(dir.path(), DEFAULT_LIMIT).unwrap();
        let mut original = Dressed::new(&"aa".repeat(32));
        let opts = SearchOptions {
            stop: Some(std::sync::Arc::new(std::sync::atomic::AtomicBool::new(
                true,
            ))),
            ..SearchOptions::depth(4)
        };
        let run = left_search(&mut original, Some(&cache), &startpos(false), &opts, |_| {});
        assert!(
            matches!(run.result, Err(SearchError::Stopped)),
            "{:?}",
            run.result
        );
        assert!(entries(dir.path()).is_empty());
    }

    #[test]
    fn the_limit_removes_the_least_recently_used_entries() {
        let dir = tempfile::tempdir().unwrap();
        let d1 = SearchOptions::depth(1);
        // Measure one entry, then allow about two and a half.
        let size = {
            let cache = TraceCache::open(dir.path(), DEFAULT_LIMIT).unwrap();
            through(&mut Dressed::new("00"), &cache, &startpos(false), &d1);
            let size = cache.size().unwrap().bytes;
            cache.clear().unwrap();
            size
        };
        let cache = TraceCache::open(dir.path(), size * 5 / 2).unwrap();
        let old = SystemTime::now() - std::time::Duration::from_secs(3600);
        for (i, sha) in ["01", "02"].iter().enumerate() {
            through(&mut Dressed::new(sha), &cache, &startpos(false), &d1);
            // Distinct ages, whatever the file system's clock resolution: 01 is older.
            for path in entries(dir.path()) {
                let f = File::options().append(true).open(&path).unwrap();
                if i == 0 {
                    f.set_modified(old).unwrap();
                }
            }
        }
        // Using 01 makes 02 the least recently used.
        let (_, cached) = through(&mut Dressed::new("01"), &cache, &startpos(false), &d1);
        assert!(cached);
        through(&mut Dressed::new("03"), &cache, &startpos(false), &d1);
        assert_eq!(cache.counts().evicted, 1);
        assert!(cache.size().unwrap().bytes <= size * 5 / 2);
        let (_, cached) = through(&mut Dressed::new("01"), &cache, &startpos(false), &d1);
        assert!(cached, "01 was kept");
        let (_, cached) = through(&mut Dressed::new("02"), &cache, &startpos(false), &d1);
        assert!(!cached, "02 was removed");
    }
}
