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
//! The cache touches only its own files: its subdirectory of the directory it is given,
//! the marker in it, and the entries it wrote, recognised by their name and first line
//! ([`cache_file`] decides what is the cache's). Any other file is left alone: never counted,
//! removed or replaced.
//!
//! Only complete searches are kept: a search that failed or was stopped is not. A
//! divergence does not stop the original's search when it is to be kept: it runs to its end
//! in the same run (its trace does not depend on the other side), so that the rerun after a
//! fix runs no original search at all ([`crate::diff`]). A
//! cache that cannot be written (read-only, full) is still read; what could not be kept is
//! counted, and the first reason is kept for the caller to say once
//! ([`TraceCache::unsaid_write_failure`]).

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use sargon_core::engine::{Engine, SearchError, SearchOptions, SearchOutcome};
use sargon_core::position::Setup;
use sargon_core::record;
use sargon_core::trace::{Detail, Event};

use crate::cost::{cpu_timed, EngineCost};

mod codec;
mod files;
use codec::{EventReader, Writer};
pub use files::{cache_file, clear, survey, CacheFile, Cleared, Survey, MARKER, OWN_DIR};

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
    /// The directory is no directory, or holds a subdirectory of the cache's name that is
    /// not the cache's, or cannot be read.
    #[error("cannot use {} as the trace cache: {why}", files::shown(dir))]
    Unusable {
        /// The cache directory.
        dir: PathBuf,
        /// Why, in words (what the system said included, once).
        why: String,
    },
    /// No directory is given and none can be found: no `$SARGON_CACHE`,
    /// `$XDG_CACHE_HOME` or `$HOME`.
    #[error("no trace cache directory: give --cache-dir, or set SARGON_CACHE (or XDG_CACHE_HOME or HOME)")]
    NoHome,
}

/// The default directory: `$SARGON_CACHE`, else `$XDG_CACHE_HOME/sargon/traces`, else
/// `$HOME/.cache/sargon/traces`.
///
/// ```standalone_crate
/// use sargon_referee::trace_cache::default_dir;
/// // SAFETY (the three calls): this example runs in a process of its own
/// // (`standalone_crate`, not merged with the other examples), where no other thread reads
/// // the environment.
/// unsafe { std::env::set_var("SARGON_CACHE", "/var/cache/sargon-traces") };
/// assert_eq!(default_dir()?, std::path::PathBuf::from("/var/cache/sargon-traces"));
/// unsafe { std::env::remove_var("SARGON_CACHE") };
/// unsafe { std::env::set_var("XDG_CACHE_HOME", "/home/me/.cache") };
/// assert_eq!(default_dir()?, std::path::PathBuf::from("/home/me/.cache/sargon/traces"));
/// # Ok::<(), sargon_referee::trace_cache::CacheError>(())
/// ```
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
    /// Searches run on the engine that could not be kept: the cache could not be written.
    pub unkept: u64,
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
    /// The directory given.
    dir: PathBuf,
    /// The cache's own subdirectory of it, where every file of the cache is.
    own: PathBuf,
    limit: u64,
    /// Bytes in the directory as this process believes (others may write too: the
    /// directory is measured again before anything is removed).
    bytes: AtomicU64,
    counts: Mutex<CacheCounts>,
    write_failure: Mutex<WriteFailure>,
}

/// Why the cache could not be written, once it could not.
#[derive(Debug, Default)]
struct WriteFailure {
    /// The first reason.
    why: Option<String>,
    /// Whether it was handed to the caller to say.
    said: bool,
    /// Set when the cache was found unwritable on opening: nothing is tried.
    at_open: bool,
}

/// An entry's file extension.
const EXT: &str = "trace";

impl TraceCache {
    /// Open the cache in `dir`, kept under `limit` bytes: make its subdirectory and marker
    /// if need be, and move in the entries an earlier sargon kept at the top of `dir`.
    ///
    /// Refused when `dir` is no directory (a file, or under one) or holds a subdirectory of
    /// the cache's name that is not the cache's. A cache that cannot be written (no
    /// permission, a read-only or full file system) is opened all the same: it is read
    /// from, nothing is kept, and [`TraceCache::unsaid_write_failure`] says why.
    ///
    /// ```
    /// use sargon_referee::trace_cache::{TraceCache, DEFAULT_LIMIT, MARKER, OWN_DIR};
    ///
    /// let dir = tempfile::tempdir()?;
    /// let cache = TraceCache::open(dir.path(), DEFAULT_LIMIT)?;
    /// assert!(dir.path().join(OWN_DIR).join(MARKER).is_file());
    /// assert_eq!(cache.size()?.entries, 0);
    /// // A file is no directory for a cache.
    /// let file = dir.path().join("file");
    /// std::fs::write(&file, "")?;
    /// assert!(TraceCache::open(&file, DEFAULT_LIMIT).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open(dir: impl Into<PathBuf>, limit: u64) -> Result<TraceCache, CacheError> {
        let dir = dir.into();
        let own = files::own_dir(&dir);
        let mut failure = WriteFailure::default();
        match files::make(&dir)? {
            Ok(()) => {
                files::migrate(&dir);
                if let Err(why) = files::probe(&own) {
                    failure.why = Some(why);
                }
            }
            Err(why) => failure.why = Some(why),
        }
        failure.at_open = failure.why.is_some();
        let cache = TraceCache {
            bytes: AtomicU64::new(0),
            counts: Mutex::new(CacheCounts::default()),
            limit,
            dir: dir.clone(),
            own,
            write_failure: Mutex::new(failure),
        };
        if cache.own.is_dir() {
            let size = cache.size().map_err(|e| CacheError::Unusable {
                why: format!("cannot read {}: {e}", files::shown(&cache.own)),
                dir,
            })?;
            cache.bytes.store(size.bytes, Ordering::Relaxed);
        }
        Ok(cache)
    }

    /// The directory given.
    ///
    /// ```
    /// use sargon_referee::trace_cache::{TraceCache, DEFAULT_LIMIT};
    /// let dir = tempfile::tempdir()?;
    /// assert_eq!(TraceCache::open(dir.path(), DEFAULT_LIMIT)?.dir(), dir.path());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Why the cache could not be written, the first time this is asked after it could
    /// not (on opening, or at a search it could not keep); `None` ever after, so that it
    /// is said once.
    ///
    /// ```
    /// use sargon_referee::trace_cache::{TraceCache, DEFAULT_LIMIT};
    /// let dir = tempfile::tempdir()?;
    /// let cache = TraceCache::open(dir.path(), DEFAULT_LIMIT)?;
    /// assert_eq!(cache.unsaid_write_failure(), None); // a writable cache has nothing to say
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn unsaid_write_failure(&self) -> Option<String> {
        let mut failure = self.write_failure.lock().unwrap();
        if failure.said {
            return None;
        }
        let why = failure.why.clone()?;
        failure.said = true;
        Some(why)
    }

    /// Why the cache could not be written, if it could not (said or not).
    ///
    /// ```
    /// use sargon_referee::trace_cache::{TraceCache, DEFAULT_LIMIT};
    /// let dir = tempfile::tempdir()?;
    /// assert_eq!(TraceCache::open(dir.path(), DEFAULT_LIMIT)?.write_failure(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_failure(&self) -> Option<String> {
        self.write_failure.lock().unwrap().why.clone()
    }

    /// The size limit in bytes.
    ///
    /// ```
    /// use sargon_referee::trace_cache::TraceCache;
    /// let dir = tempfile::tempdir()?;
    /// assert_eq!(TraceCache::open(dir.path(), 1_000_000)?.limit(), 1_000_000);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// What this cache did so far.
    ///
    /// ```
    /// use sargon_referee::trace_cache::{CacheCounts, TraceCache, DEFAULT_LIMIT};
    /// let dir = tempfile::tempdir()?;
    /// let cache = TraceCache::open(dir.path(), DEFAULT_LIMIT)?;
    /// assert_eq!(cache.counts(), CacheCounts::default()); // nothing read or kept yet
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn counts(&self) -> CacheCounts {
        *self.counts.lock().unwrap()
    }

    fn count(&self, f: impl FnOnce(&mut CacheCounts)) {
        f(&mut self.counts.lock().unwrap())
    }

    /// The entries now in the cache (its files only), with their sizes and last use.
    fn entries(&self) -> io::Result<Vec<(PathBuf, u64, SystemTime)>> {
        Ok(files::entries_in(&self.own)?
            .into_iter()
            .map(|(path, meta)| {
                let used = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
                (path, meta.len(), used)
            })
            .collect())
    }

    /// Entries and bytes in the cache.
    ///
    /// ```
    /// use sargon_referee::trace_cache::{CacheSize, TraceCache, DEFAULT_LIMIT};
    /// let dir = tempfile::tempdir()?;
    /// let cache = TraceCache::open(dir.path(), DEFAULT_LIMIT)?;
    /// assert_eq!(cache.size()?, CacheSize { entries: 0, bytes: 0 });
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn size(&self) -> io::Result<CacheSize> {
        let entries = self.entries()?;
        Ok(CacheSize {
            entries: entries.len() as u64,
            bytes: entries.iter().map(|e| e.1).sum(),
        })
    }

    fn path_of(&self, key: &Key) -> PathBuf {
        self.own.join(format!("{}.{EXT}", key.file_stem()))
    }

    /// The entry for `key`, checked whole, or `None` (no entry, or a bad one, removed).
    fn lookup(&self, key: &Key) -> Option<Entry> {
        let path = self.path_of(key);
        let entry = match read_entry(&path, key) {
            Ok(entry) => entry,
            Err(Lookup::Missing | Lookup::NotOurs) => return None,
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

    /// Keep a finished search's events under `key`; when it cannot be, count it and keep
    /// the first reason to say.
    fn keep(&self, key: &Key, written: Writer, outcome: &SearchOutcome) {
        if self.write_failure.lock().unwrap().at_open {
            self.count(|c| c.unkept += 1);
            return;
        }
        if let Err(why) = self.store(key, written, outcome) {
            self.count(|c| c.unkept += 1);
            self.write_failure.lock().unwrap().why.get_or_insert(why);
        }
    }

    /// Keep a finished search's events under `key`, or say why not.
    fn store(&self, key: &Key, written: Writer, outcome: &SearchOutcome) -> Result<(), String> {
        let Writer {
            gz,
            sha,
            digest,
            events,
            ..
        } = written;
        let payload = gz
            .finish()
            .map_err(|e| format!("cannot compress a trace: {e}"))?;
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
        serde_json::to_writer(&mut bytes, &header)
            .map_err(|e| format!("cannot write an entry's header: {e}"))?;
        bytes.push(b'\n');
        bytes.extend_from_slice(&payload);
        let size = bytes.len() as u64;
        if size > self.limit {
            return Ok(()); // larger than the whole cache may be: not kept
        }
        let path = self.path_of(key);
        // Never over a file that is not the cache's, even under an entry's name.
        if path.exists() && cache_file(&path).is_none() {
            return Err(format!(
                "{} is not the cache's: it is left alone",
                files::shown(&path)
            ));
        }
        let tmp = self.own.join(format!(
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
            return Err(format!("cannot write {}: {e}", files::shown(&tmp)));
        }
        self.count(|c| c.stored += 1);
        let total = self.bytes.fetch_add(size, Ordering::Relaxed) + size;
        if total > self.limit
            && let Err(e) = self.shrink()
        {
            // This search is kept; the cache may grow past its limit: said once.
            let why = format!(
                "cannot remove old entries from {}: {e}",
                files::shown(&self.own)
            );
            self.write_failure.lock().unwrap().why.get_or_insert(why);
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

/// An entry found and checked, held in memory (inflated) so that what is replayed is
/// exactly what was checked, whatever another process does to the file meanwhile.
struct Entry {
    header: Header,
    /// Its events' bytes (`codec`'s form), inflated from the gzip stream.
    events: Vec<u8>,
}

enum Lookup {
    Missing,
    /// A file under the entry's name that is not the cache's: left alone.
    NotOurs,
    /// An entry of the cache's that fails its check.
    Bad,
}

/// Read an entry: its key must be `key`, its gzip stream sound, its bytes those the
/// header's SHA-256 names and its events as many as it says.
fn read_entry(path: &Path, key: &Key) -> Result<Entry, Lookup> {
    match cache_file(path) {
        Some(CacheFile::Entry) => {}
        _ if !path.exists() => return Err(Lookup::Missing),
        _ => return Err(Lookup::NotOurs),
    }
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
    let events = codec::inflate(compressed).map_err(|_| Lookup::Bad)?;
    if hex::encode(Sha256::digest(&events)) != header.payload_sha256 {
        return Err(Lookup::Bad);
    }
    let mut reader = EventReader::new(&events);
    let mut count = 0u64;
    loop {
        match reader.next_event() {
            Ok(Some(_)) => count += 1,
            Ok(None) => break,
            Err(_) => return Err(Lookup::Bad),
        }
    }
    if count != header.events {
        return Err(Lookup::Bad);
    }
    Ok(Entry { header, events })
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
    // An engine that runs an imported image (the emulator) is cached under its SHA-256.
    let key = match (cache, engine.rom_id()) {
        (Some(_), Some(rom)) => Some(Key::new(&rom.sha256, setup, opts)),
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
            // Read instead of searched, even when the comparison stops the replay early.
            cache.count(|c| c.hits += 1);
            let replayed = replay(&entry, &mut send, opts);
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
                // its result: it is counted and said, and the run goes on.
                cache.keep(&key, writer, outcome);
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
    let mut events = EventReader::new(&entry.events);
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
mod fixtures;
#[cfg(test)]
mod tests;
