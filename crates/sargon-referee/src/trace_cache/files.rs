//! Which files are the cache's: the one place that decides it. The cache removes, counts
//! and replaces only what this module says it wrote; everything else in the directory a
//! person names with `--cache-dir` is theirs, and is left alone.
//!
//! The layout, inside the cache directory `DIR`:
//!
//! - `DIR/sargon-trace-cache/` ([`OWN_DIR`]): the cache's own subdirectory. Only the cache
//!   writes in it; nothing of the cache is written anywhere else.
//! - `DIR/sargon-trace-cache/CACHEDIR.TAG` ([`MARKER`]): says that the subdirectory is
//!   sargon's trace cache (in the form of the Cache Directory Tagging Specification, so that
//!   backup programs skip it). A subdirectory of that name without it was not made by the
//!   cache: it is refused, never used.
//! - `DIR/sargon-trace-cache/<64 hex digits>.trace`: an entry, recognised by its name *and*
//!   its first line (`sargon trace cache <version>`).
//! - `DIR/sargon-trace-cache/<64 hex digits>.<pid>.<n>.tmp`: an entry being written (or left
//!   by a killed run), recognised by its name and by being empty or starting as an entry.
//!
//! Caches made before the subdirectory (by sargon up to 55e555d) kept their entries at the
//! top of `DIR`. Those are recognised the same way (name and first line) and moved into the
//! subdirectory when a cache is opened for a run ([`super::TraceCache::open`]), or removed by
//! [`clear`].

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use super::{unique, CacheError, CacheSize, MAGIC};

/// The cache's own subdirectory of the directory it is given.
pub const OWN_DIR: &str = "sargon-trace-cache";

/// The file that marks [`OWN_DIR`] as sargon's trace cache.
pub const MARKER: &str = "CACHEDIR.TAG";

/// The marker's text: the Cache Directory Tagging Specification's signature line, then who
/// made it.
const MARKER_TEXT: &str = "Signature: 8a477f597d28d172789f06886806bc55\n\
# This directory is sargon's trace cache: `sargon diff` keeps the original's searches\n\
# here, and `sargon cache clear` empties it. sargon writes nothing else in it, and touches\n\
# no file in it that it did not write.\n";

/// What the first line of every entry starts with; the version number follows.
const MAGIC_PREFIX: &str = "sargon trace cache ";

/// A file that belongs to the cache.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CacheFile {
    /// A kept search.
    Entry,
    /// An entry being written, or left half-written by a run that was killed.
    Unfinished,
}

/// Whether the file at `path` is one the cache wrote, and which kind: by its name and its
/// first bytes. A directory, a link or any other file is `None`: never the cache's.
///
/// ```
/// use sargon_referee::trace_cache::{cache_file, CacheFile};
///
/// let dir = tempfile::tempdir()?;
/// let entry = dir.path().join(format!("{}.trace", "0".repeat(64)));
/// std::fs::write(&entry, "sargon trace cache 1\n{}\n")?;
/// assert_eq!(cache_file(&entry), Some(CacheFile::Entry));
/// // The right name is not enough: the first line must be an entry's.
/// std::fs::write(&entry, "my notes\n")?;
/// assert_eq!(cache_file(&entry), None);
/// assert_eq!(cache_file(dir.path()), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn cache_file(path: &Path) -> Option<CacheFile> {
    let name = path.file_name()?.to_str()?;
    let kind = if is_entry_name(name) {
        CacheFile::Entry
    } else if is_unfinished_name(name) {
        CacheFile::Unfinished
    } else {
        return None;
    };
    if !fs::symlink_metadata(path).ok()?.file_type().is_file() {
        return None;
    }
    let mut first = Vec::new();
    File::open(path)
        .ok()?
        .take(MAGIC_PREFIX.len() as u64 + 12)
        .read_to_end(&mut first)
        .ok()?;
    match kind {
        CacheFile::Entry if starts_as_entry(&first) => Some(kind),
        CacheFile::Unfinished if first.is_empty() || starts_as_entry(&first) => Some(kind),
        _ => None,
    }
}

/// `<64 lowercase hex digits>.trace`.
fn is_entry_name(name: &str) -> bool {
    name.strip_suffix(".trace").is_some_and(is_stem)
}

/// `<64 lowercase hex digits>.<digits>.<digits>.tmp`.
fn is_unfinished_name(name: &str) -> bool {
    let Some(rest) = name.strip_suffix(".tmp") else {
        return false;
    };
    let parts: Vec<&str> = rest.split('.').collect();
    matches!(parts[..], [stem, pid, n]
        if is_stem(stem) && is_number(pid) && is_number(n))
}

fn is_stem(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Whether `bytes` (an entry's first bytes, or all of it) begin with an entry's first line:
/// `sargon trace cache <version>` and a newline. Any version: an entry of another version
/// of sargon is still the cache's (never read as this version's: the version is in the key).
pub(super) fn starts_as_entry(bytes: &[u8]) -> bool {
    let Some(rest) = bytes.strip_prefix(MAGIC_PREFIX.as_bytes()) else {
        return false;
    };
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    digits > 0 && rest.get(digits) == Some(&b'\n')
}

/// Where the cache in `dir` keeps its files.
pub(super) fn own_dir(dir: &Path) -> PathBuf {
    dir.join(OWN_DIR)
}

/// The cache's files directly in `dir` (not in its subdirectories), with their sizes.
fn cache_files_in(dir: &Path) -> io::Result<Vec<(PathBuf, CacheFile, fs::Metadata)>> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        let Some(kind) = cache_file(&path) else {
            continue;
        };
        // A file another process removed in the meantime is simply not there.
        let Ok(meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        out.push((path, kind, meta));
    }
    Ok(out)
}

/// The entries kept in the cache's subdirectory `own`, with their metadata.
pub(super) fn entries_in(own: &Path) -> io::Result<Vec<(PathBuf, fs::Metadata)>> {
    Ok(cache_files_in(own)?
        .into_iter()
        .filter(|(_, kind, _)| *kind == CacheFile::Entry)
        .map(|(path, _, meta)| (path, meta))
        .collect())
}

/// `dir` as a message quotes it.
pub(super) fn shown(dir: &Path) -> String {
    sargon_core::input::echo(&dir.display().to_string())
}

fn unusable(dir: &Path, why: impl Into<String>) -> CacheError {
    CacheError::Unusable {
        dir: dir.to_path_buf(),
        why: why.into(),
    }
}

/// Why `dir`, which could not be made or read (`error`), is no directory: `dir` itself or
/// one of the directories above it is a file. `None` when that is not the cause.
fn not_a_directory(dir: &Path) -> Option<String> {
    dir.ancestors()
        .filter(|p| !p.as_os_str().is_empty())
        .find(|p| p.exists() && !p.is_dir())
        .map(|file| {
            if file == dir {
                "it is a file, not a directory".to_string()
            } else {
                format!("{} is a file, not a directory", shown(file))
            }
        })
}

/// What a cache directory is, before it is used.
#[derive(Debug)]
pub(super) enum State {
    /// `dir` does not exist.
    Missing,
    /// `dir` exists; the cache's subdirectory does not.
    NoOwnDir,
    /// The cache's subdirectory exists, marked as the cache's.
    Made,
}

/// Look at `dir` without changing anything: what it is, or why it cannot be a cache
/// directory (a file; a subdirectory of the cache's name that is not the cache's).
pub(super) fn state(dir: &Path) -> Result<State, CacheError> {
    if let Some(why) = not_a_directory(dir) {
        return Err(unusable(dir, why));
    }
    if !dir.exists() {
        return Ok(State::Missing);
    }
    let own = own_dir(dir);
    match fs::symlink_metadata(&own) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(State::NoOwnDir),
        Err(e) => return Err(unusable(dir, format!("cannot read {}: {e}", shown(&own)))),
        Ok(meta) if !meta.is_dir() => {
            return Err(unusable(
                dir,
                format!(
                    "{} is not sargon's trace cache (it is not a directory): it is left alone; give another --cache-dir",
                    shown(&own)
                ),
            ))
        }
        Ok(_) => {}
    }
    let marker = fs::read_to_string(own.join(MARKER)).unwrap_or_default();
    if marker != MARKER_TEXT {
        return Err(unusable(
            dir,
            format!(
                "{} is not sargon's trace cache (it has no {MARKER} of sargon's): it is left alone; give another --cache-dir",
                shown(&own)
            ),
        ));
    }
    Ok(State::Made)
}

/// Make the cache's subdirectory in `dir`, marked, if it is not there. `Ok(Err(why))` when
/// it cannot be made for a reason that is no mistake in the path (permissions, a read-only
/// or full file system): the run goes on without keeping anything.
pub(super) fn make(dir: &Path) -> Result<Result<(), String>, CacheError> {
    if let State::Made = state(dir)? {
        return Ok(Ok(()));
    }
    if let Err(e) = fs::create_dir_all(dir) {
        return match not_a_directory(dir) {
            Some(why) => Err(unusable(dir, why)),
            None => Ok(Err(format!("cannot make {}: {e}", shown(dir)))),
        };
    }
    // Made whole under a temporary name, then renamed: another process never sees the
    // subdirectory without its marker (which would read as someone else's directory).
    let own = own_dir(dir);
    let tmp = dir.join(format!("{OWN_DIR}.{}.{}.tmp", std::process::id(), unique()));
    let made = (|| {
        fs::create_dir(&tmp)?;
        let mut marker = File::create(tmp.join(MARKER))?;
        marker.write_all(MARKER_TEXT.as_bytes())?;
        marker.sync_all()?;
        // Not over a directory of that name someone made meanwhile.
        if fs::symlink_metadata(&own).is_err() {
            fs::rename(&tmp, &own)?;
        }
        Ok::<(), io::Error>(())
    })();
    // Ours whether or not it was renamed: only the marker is in it.
    let _ = fs::remove_file(tmp.join(MARKER));
    let _ = fs::remove_dir(&tmp);
    // Another process may have made it first (then the rename failed, or was not tried):
    // what counts is what is there now.
    match (state(dir)?, made) {
        (State::Made, _) => Ok(Ok(())),
        (_, Err(e)) => Ok(Err(format!("cannot make {}: {e}", shown(&own)))),
        (_, Ok(())) => Ok(Err(format!("cannot make {}", shown(&own)))),
    }
}

/// Check that files can be written in the cache's subdirectory `own`: a read-only cache is
/// said once, when it is opened, rather than found at the first search kept.
pub(super) fn probe(own: &Path) -> Result<(), String> {
    let path = own.join(format!(
        "{}.{}.{}.tmp",
        "0".repeat(64),
        std::process::id(),
        unique()
    ));
    let written = (|| {
        let mut f = File::options().write(true).create_new(true).open(&path)?;
        f.write_all(format!("{MAGIC}\n").as_bytes())
    })();
    let _ = fs::remove_file(&path);
    written.map_err(|e| format!("cannot write in {}: {e}", shown(own)))
}

/// Move the entries an earlier sargon kept at the top of `dir` into the cache's
/// subdirectory, and remove the unfinished ones it left there. Best effort: an entry that
/// cannot be moved is searched again.
pub(super) fn migrate(dir: &Path) {
    let own = own_dir(dir);
    let Ok(files) = cache_files_in(dir) else {
        return;
    };
    for (path, kind, _) in files {
        let target = own.join(path.file_name().expect("a file in a directory"));
        match kind {
            CacheFile::Entry if fs::symlink_metadata(&target).is_err() => {
                let _ = fs::rename(&path, &target);
            }
            // Already kept in the subdirectory, or something not the cache's is there
            // (left alone): the old copy is the cache's own, and goes.
            CacheFile::Entry | CacheFile::Unfinished => {
                let _ = fs::remove_file(&path);
            }
        }
    }
}

/// What a cache directory holds, by who wrote it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Survey {
    /// Whether the cache's subdirectory exists.
    pub made: bool,
    /// Entries in the cache's subdirectory.
    pub entries: CacheSize,
    /// Entries an earlier sargon kept at the top of the directory (moved into the
    /// subdirectory by the next run that opens the cache).
    pub old_layout: CacheSize,
    /// Files and directories that are not the cache's, in the directory and in the
    /// cache's subdirectory: left alone.
    pub others: u64,
}

/// What the cache directory `dir` holds, changing nothing. `None` when `dir` does not exist.
///
/// ```
/// use sargon_referee::trace_cache::{survey, TraceCache, DEFAULT_LIMIT};
///
/// let dir = tempfile::tempdir()?;
/// assert_eq!(survey(&dir.path().join("nothing"))?, None);
/// std::fs::write(dir.path().join("notes.txt"), "mine")?;
/// TraceCache::open(dir.path(), DEFAULT_LIMIT)?;
/// let found = survey(dir.path())?.unwrap();
/// assert!(found.made);
/// assert_eq!((found.entries.entries, found.others), (0, 1)); // the notes are not the cache's
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn survey(dir: &Path) -> Result<Option<Survey>, CacheError> {
    let made = match state(dir)? {
        State::Missing => return Ok(None),
        State::NoOwnDir => false,
        State::Made => true,
    };
    let read = |d: &Path| {
        let failed = |e: io::Error| unusable(dir, format!("cannot read {}: {e}", shown(d)));
        let all = fs::read_dir(d).map_err(failed)?.count() as u64;
        let ours = cache_files_in(d).map_err(failed)?;
        Ok::<_, CacheError>((all, ours))
    };
    let size = |files: &[(PathBuf, CacheFile, fs::Metadata)]| {
        let entries: Vec<_> = files.iter().filter(|f| f.1 == CacheFile::Entry).collect();
        CacheSize {
            entries: entries.len() as u64,
            bytes: entries.iter().map(|f| f.2.len()).sum(),
        }
    };
    let (top_all, top_ours) = read(dir)?;
    let mut survey = Survey {
        made,
        old_layout: size(&top_ours),
        // The subdirectory itself is the cache's.
        others: top_all.saturating_sub(top_ours.len() as u64 + u64::from(made)),
        ..Survey::default()
    };
    if made {
        let own = own_dir(dir);
        let (all, ours) = read(&own)?;
        survey.entries = size(&ours);
        survey.others += all.saturating_sub(ours.len() as u64 + 1); // less the marker
    }
    Ok(Some(survey))
}

/// What [`clear`] did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Cleared {
    /// The entries removed (the old layout's included).
    pub removed: CacheSize,
    /// Files and directories that are not the cache's: left where they are.
    pub others: u64,
}

/// Remove every entry of the cache in `dir` (and every unfinished one), in its
/// subdirectory and at the top (an earlier sargon's); nothing else. `None` when `dir`
/// does not exist.
///
/// ```
/// use sargon_referee::trace_cache::{clear, TraceCache, DEFAULT_LIMIT, OWN_DIR};
///
/// let dir = tempfile::tempdir()?;
/// TraceCache::open(dir.path(), DEFAULT_LIMIT)?;
/// let entry = dir.path().join(OWN_DIR).join(format!("{}.trace", "a".repeat(64)));
/// std::fs::write(&entry, "sargon trace cache 1\n{}\n")?;
/// std::fs::write(dir.path().join("notes.txt"), "mine")?;
/// let cleared = clear(dir.path())?.unwrap();
/// assert_eq!((cleared.removed.entries, cleared.others), (1, 1));
/// assert!(!entry.exists() && dir.path().join("notes.txt").exists());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn clear(dir: &Path) -> Result<Option<Cleared>, CacheError> {
    let Some(survey) = survey(dir)? else {
        return Ok(None);
    };
    let mut removed = CacheSize::default();
    let mut places = vec![dir.to_path_buf()];
    if survey.made {
        places.push(own_dir(dir));
    }
    for place in places {
        let failed = |e: io::Error| unusable(dir, format!("cannot clear {}: {e}", shown(&place)));
        for (path, kind, meta) in cache_files_in(&place).map_err(failed)? {
            match fs::remove_file(&path) {
                Ok(()) if kind == CacheFile::Entry => {
                    removed.entries += 1;
                    removed.bytes += meta.len();
                }
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(failed(e)),
            }
        }
    }
    Ok(Some(Cleared {
        removed,
        others: survey.others,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_first_lines_make_a_cache_file() {
        let dir = tempfile::tempdir().unwrap();
        let stem = "ab".repeat(32);
        let write = |name: &str, text: &[u8]| {
            let path = dir.path().join(name);
            fs::write(&path, text).unwrap();
            path
        };
        let entry = format!("{MAGIC}\n{{}}\nrest");
        assert_eq!(
            cache_file(&write(&format!("{stem}.trace"), entry.as_bytes())),
            Some(CacheFile::Entry)
        );
        // Another version's entry is still the cache's.
        assert_eq!(
            cache_file(&write(
                &format!("{stem}.trace"),
                b"sargon trace cache 77\n{}"
            )),
            Some(CacheFile::Entry)
        );
        assert_eq!(
            cache_file(&write(&format!("{stem}.12.0.tmp"), b"")),
            Some(CacheFile::Unfinished)
        );
        assert_eq!(
            cache_file(&write(&format!("{stem}.12.0.tmp"), entry.as_bytes())),
            Some(CacheFile::Unfinished)
        );
        // Not the cache's: a person's trace, a wrong name, a first line that is not an
        // entry's, a directory.
        assert_eq!(cache_file(&write("my.trace", entry.as_bytes())), None);
        assert_eq!(
            cache_file(&write(
                &format!("{}.trace", "AB".repeat(32)),
                entry.as_bytes()
            )),
            None
        );
        assert_eq!(
            cache_file(&write(&format!("x{stem}.trace"), entry.as_bytes())),
            None
        );
        for text in [
            &b"hello\n"[..],
            b"",
            b"sargon trace cache\n",
            b"sargon trace cache 1",
        ] {
            assert_eq!(cache_file(&write(&format!("{stem}.trace"), text)), None);
        }
        assert_eq!(
            cache_file(&write(&format!("{stem}.12.0.tmp"), b"{\"a\":1}")),
            None
        );
        let sub = dir.path().join(format!("{}.trace", "cd".repeat(32)));
        fs::create_dir(&sub).unwrap();
        assert_eq!(cache_file(&sub), None);
        assert!(
            MAGIC.starts_with(MAGIC_PREFIX) && starts_as_entry(format!("{MAGIC}\n").as_bytes())
        );
    }

    #[test]
    fn a_subdirectory_of_the_caches_name_that_is_not_the_caches_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(state(dir.path()), Ok(State::NoOwnDir)));
        let own = own_dir(dir.path());
        fs::create_dir(&own).unwrap();
        fs::write(own.join("notes.txt"), "mine").unwrap();
        let refused = |d: &Path| match make(d) {
            Err(e) => e.to_string(),
            Ok(r) => panic!("made: {r:?}"),
        };
        let e = refused(dir.path());
        assert!(
            e.contains("is not sargon's trace cache") && e.contains("left alone"),
            "{e}"
        );
        fs::write(
            own.join(MARKER),
            "Signature: 8a477f597d28d172789f06886806bc55\n",
        )
        .unwrap();
        refused(dir.path());
        assert_eq!(fs::read_to_string(own.join("notes.txt")).unwrap(), "mine");
        // Made in a fresh directory, it is the cache's, and found so again.
        let fresh = dir.path().join("fresh");
        make(&fresh).unwrap().unwrap();
        assert!(matches!(state(&fresh), Ok(State::Made)));
        make(&fresh).unwrap().unwrap();
        assert_eq!(
            fs::read_dir(&fresh).unwrap().count(),
            1,
            "only the subdirectory"
        );
    }

    #[test]
    fn processes_making_the_cache_at_once_all_get_it() {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("cache");
        let made: Vec<_> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..8).map(|_| s.spawn(|| make(&cache))).collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for m in made {
            assert!(matches!(m, Ok(Ok(()))), "{m:?}");
        }
        assert_eq!(
            fs::read_dir(&cache).unwrap().count(),
            1,
            "no temporary left"
        );
    }

    #[test]
    fn a_file_on_the_path_is_not_a_directory() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        fs::write(&file, "x").unwrap();
        for (path, why) in [
            (file.clone(), "it is a file, not a directory".to_string()),
            (
                file.join("x"),
                format!("{} is a file, not a directory", file.display()),
            ),
        ] {
            let e = make(&path).unwrap_err().to_string();
            assert!(e.ends_with(&why), "{e}");
            assert!(!e.contains("os error"), "{e}");
        }
        assert_eq!(fs::read_to_string(&file).unwrap(), "x");
    }
}
