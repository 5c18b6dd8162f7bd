//! The files a command writes: one place for the rules every command follows, so that
//! nothing of the user's is lost.
//!
//! - Before any work, every output is checked ([`Files::check`]): it can be written (its
//!   directory exists, it is no directory, a results file is a regular file), it is not the
//!   same file as one of the command's inputs (same device and inode: through hard and
//!   symbolic links too), not the same file as another of its outputs, and not inside the
//!   ROM store. A search of minutes never ends in "cannot write" with its result lost, and
//!   an output never replaces the file it was read from.
//! - A whole-file output (a plot, a saved report, annotated games, a tree) is written to a
//!   temporary file in the same directory and renamed over the old one
//!   ([`write_whole`]): a run interrupted at any moment leaves the old file as it was.
//! - A results file that runs append to (`diff --out`, `history games --out`, `play
//!   --pgn`) is opened once for the run and locked ([`open_results`]): a second run on the
//!   same file is refused, naming the process that holds it, instead of recording every
//!   search twice.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::input::echo;

/// Why a command's files cannot be written as asked. Each message names the option and
/// the path, quoted as any user text is ([`echo`]), and says what to do instead.
#[derive(Debug, Error)]
pub enum OutputError {
    /// One file given twice (or through two names) among inputs that are added together.
    #[error("{what} {path} is {which}: what it holds would count twice; give each file once")]
    CountedTwice {
        /// The option naming the inputs (`--load`).
        what: String,
        /// The file, as shown.
        path: String,
        /// "given twice" or "the same file as ...".
        which: String,
    },
    /// An output that is one of the command's inputs.
    #[error("{what} {path} is {which}: writing it would destroy what is read; name another file")]
    WouldDestroyInput {
        /// The option naming the output.
        what: String,
        /// The file, as shown.
        path: String,
        /// Which input it is.
        which: String,
    },
    /// Two outputs naming one file.
    #[error("{first} and {second} name the same file {path}: give each its own")]
    SameOutput {
        /// The option named first.
        first: String,
        /// The option named second.
        second: String,
        /// The file, as shown.
        path: String,
    },
    /// An output inside the ROM store.
    #[error(
        "{what} {path} is inside the ROM store {store}: the store holds the imported program; \
         write elsewhere"
    )]
    InsideStore {
        /// The option naming the output.
        what: String,
        /// The file, as shown.
        path: String,
        /// The store, as shown.
        store: String,
    },
    /// A directory where a file was meant.
    #[error("{path} is a directory: {goes} to a file{hint}")]
    IsDirectory {
        /// The directory, as shown.
        path: String,
        /// "the output goes" or "the results go".
        goes: &'static str,
        /// ` (--out FILE)`, where the option is known.
        hint: String,
    },
    /// A device or pipe given as a results file.
    #[error(
        "{what}{path} is not a regular file: results are appended to a file that --resume can \
         read back"
    )]
    NotRegular {
        /// The option naming the file and a space, or nothing.
        what: String,
        /// The file, as shown.
        path: String,
    },
    /// The file cannot be written, with the system's cause.
    #[error("cannot write {what}{path}: {why}")]
    CannotWrite {
        /// The option naming the file and a space, or nothing.
        what: String,
        /// The file, as shown.
        path: String,
        /// The cause, without Rust's "(os error N)".
        why: String,
    },
    /// Another run holds the results file's lock.
    #[error("{path} is being written by another run ({holder}): wait for it to end, or give another file")]
    Busy {
        /// The file, as shown.
        path: String,
        /// The process holding it, where the system says.
        holder: String,
    },
    /// The results file could not be locked.
    #[error("cannot lock {path}: {why}")]
    CannotLock {
        /// The file, as shown.
        path: String,
        /// The system's cause.
        why: String,
    },
}

type Result<T, E = OutputError> = std::result::Result<T, E>;

/// A path as messages quote it: escaped and cut as any other user text.
fn shown(path: &Path) -> String {
    echo(&path.display().to_string())
}

/// How a command writes an output.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Written whole at the end, through a temporary file and a rename.
    Whole,
    /// Appended to during the run (a results file), locked for the run; with `--resume`
    /// it is read back.
    Results,
}

/// A command's files: what it reads and what it writes, each with the option (or
/// argument) that names it, for the messages.
#[derive(Debug, Default)]
pub struct Files {
    inputs: Vec<(String, PathBuf)>,
    /// Lists of inputs whose contents a command adds together (`--load A B`): each file
    /// once, or what it holds would count twice.
    lists: Vec<(String, Vec<PathBuf>)>,
    outputs: Vec<(String, PathBuf, Mode)>,
    store: Option<PathBuf>,
}

impl Files {
    /// No files yet.
    ///
    /// ```
    /// use sargon_core::outputs::Files;
    /// assert!(Files::new().check().is_ok()); // nothing to check
    /// ```
    pub fn new() -> Files {
        Files::default()
    }

    /// A file the command reads, named by `what` (`--epd`, `the PGN file`).
    ///
    /// ```
    /// use sargon_core::outputs::{Files, Mode};
    /// let dir = tempfile::tempdir()?;
    /// let epd = dir.path().join("a.epd");
    /// std::fs::write(&epd, "")?;
    /// let files = Files::new().input("--epd", Some(&epd)).output("-o", Some(&epd), Mode::Whole);
    /// assert!(files.check().unwrap_err().to_string().contains("also an input (--epd)"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn input(mut self, what: &str, path: Option<&Path>) -> Files {
        if let Some(path) = path {
            self.inputs.push((what.to_string(), path.to_path_buf()));
        }
        self
    }

    /// Files the command reads and adds together, all named by `what`: each must be a
    /// different file.
    ///
    /// ```
    /// use sargon_core::outputs::Files;
    /// let dir = tempfile::tempdir()?;
    /// let a = dir.path().join("a.json");
    /// std::fs::write(&a, "")?;
    /// assert!(Files::new().inputs("--load", &[a.clone()]).check().is_ok());
    /// assert!(Files::new().inputs("--load", &[a.clone(), a]).check().is_err()); // would count twice
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn inputs(mut self, what: &str, paths: &[PathBuf]) -> Files {
        for path in paths {
            self = self.input(what, Some(path));
        }
        self.lists.push((what.to_string(), paths.to_vec()));
        self
    }

    /// The ROM store directory: the program's own input, never a place for an output.
    ///
    /// ```
    /// use sargon_core::outputs::{Files, Mode};
    /// let dir = tempfile::tempdir()?;
    /// let inside = dir.path().join("out.txt");
    /// let files = Files::new().store(dir.path()).output("-o", Some(&inside), Mode::Whole);
    /// assert!(files.check().is_err()); // never an output in the ROM store
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn store(mut self, dir: &Path) -> Files {
        self.store = Some(dir.to_path_buf());
        self
    }

    /// A file the command writes, named by `what` (`--plot`, `-o`).
    ///
    /// ```
    /// use sargon_core::outputs::{Files, Mode};
    /// let dir = tempfile::tempdir()?;
    /// let out = dir.path().join("plot.svg");
    /// let twice = Files::new().output("--plot", Some(&out), Mode::Whole).output("-o", Some(&out), Mode::Whole);
    /// assert!(twice.check().unwrap_err().to_string().starts_with("--plot and -o name the same file"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn output(mut self, what: &str, path: Option<&Path>, mode: Mode) -> Files {
        if let Some(path) = path {
            self.outputs
                .push((what.to_string(), path.to_path_buf(), mode));
        }
        self
    }

    /// Check every output before any work: writable, not an input, not another output,
    /// not in the ROM store.
    ///
    /// ```
    /// use sargon_core::outputs::{Files, Mode};
    /// let dir = tempfile::tempdir()?;
    /// let ok = dir.path().join("results.jsonl");
    /// assert!(Files::new().output("--out", Some(&ok), Mode::Results).check().is_ok());
    /// let nowhere = dir.path().join("no-such-dir").join("results.jsonl");
    /// assert!(Files::new().output("--out", Some(&nowhere), Mode::Results).check().is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check(&self) -> Result<()> {
        for (what, paths) in &self.lists {
            for (i, path) in paths.iter().enumerate() {
                if let Some(first) = paths[..i].iter().find(|p| *p == path || same_file(p, path)) {
                    let which = if first == path {
                        "given twice".to_string()
                    } else {
                        format!("the same file as {}", shown(first))
                    };
                    return Err(OutputError::CountedTwice {
                        what: what.clone(),
                        path: shown(path),
                        which,
                    });
                }
            }
        }
        for (i, (what, path, mode)) in self.outputs.iter().enumerate() {
            for (input_what, input) in &self.inputs {
                if same_file(path, input) {
                    let which = if path == input {
                        format!("also an input ({input_what})")
                    } else {
                        format!("the same file as {input_what} {} (an input)", shown(input))
                    };
                    return Err(OutputError::WouldDestroyInput {
                        what: what.clone(),
                        path: shown(path),
                        which,
                    });
                }
            }
            for (other_what, other, _) in &self.outputs[..i] {
                if path == other || same_file(path, other) {
                    return Err(OutputError::SameOutput {
                        first: other_what.clone(),
                        second: what.clone(),
                        path: shown(path),
                    });
                }
            }
            if let Some(store) = &self.store
                && inside(path, store)
            {
                return Err(OutputError::InsideStore {
                    what: what.clone(),
                    path: shown(path),
                    store: shown(store),
                });
            }
            check_writable(what, path, *mode)?;
        }
        Ok(())
    }
}

/// Whether `a` and `b` are one file: the same device and inode, whatever the links
/// between their names. A path that does not exist is no file yet, so no input.
///
/// ```
/// use sargon_core::outputs::same_file;
/// let dir = tempfile::tempdir()?;
/// let (a, link) = (dir.path().join("a"), dir.path().join("link"));
/// std::fs::write(&a, "")?;
/// std::fs::hard_link(&a, &link)?;
/// assert!(same_file(&a, &link));
/// assert!(!same_file(&a, &dir.path().join("missing")));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::metadata(a), fs::metadata(b)) {
        (Ok(a), Ok(b)) => same_inode(&a, &b),
        _ => false,
    }
}

#[cfg(unix)]
fn same_inode(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_inode(_: &fs::Metadata, _: &fs::Metadata) -> bool {
    false
}

/// Whether `path` (or where it would be created) lies in the directory `dir`.
fn inside(path: &Path, dir: &Path) -> bool {
    let Ok(dir) = fs::canonicalize(dir) else {
        return false;
    };
    let resolved = fs::canonicalize(path).or_else(|_| {
        let parent = parent_of(path);
        fs::canonicalize(parent).map(|p| p.join(path.file_name().unwrap_or_default()))
    });
    resolved.is_ok_and(|p| p.starts_with(&dir))
}

/// The directory a path's file is in (`.` for a bare name).
fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// The cause of an I/O error without Rust's "(os error N)".
fn cause(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// Whether `path` can be written as `mode` asks, with the real cause when not: a missing
/// directory, a directory given as the file, a device or pipe as a results file, no
/// permission.
fn check_writable(what: &str, path: &Path, mode: Mode) -> Result<()> {
    let cannot = |why: String| OutputError::CannotWrite {
        what: format!("{what} "),
        path: shown(path),
        why,
    };
    match fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Err(OutputError::IsDirectory {
            path: shown(path),
            goes: match mode {
                Mode::Whole => "the output goes",
                Mode::Results => "the results go",
            },
            hint: format!(" ({what} FILE)"),
        }),
        Ok(meta) if !meta.is_file() => match mode {
            // A device or a pipe (`-o /dev/stdout`) is written directly: it must open for
            // writing, and a device that refuses every write is known now, not after the
            // work.
            Mode::Whole => {
                if always_full(&meta) {
                    return Err(cannot(
                        "the device refuses every write (No space left on device)".into(),
                    ));
                }
                OpenOptions::new()
                    .write(true)
                    .open(path)
                    .map(drop)
                    .map_err(|e| cannot(cause(&e)))
            }
            Mode::Results => Err(OutputError::NotRegular {
                what: format!("{what} "),
                path: shown(path),
            }),
        },
        Ok(_) => {
            // A file made read-only is kept so, not replaced by a rename.
            OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|e| cannot(cause(&e)))?;
            if mode == Mode::Whole {
                probe_directory(&write_target(path)).map_err(cannot)?;
            }
            Ok(())
        }
        Err(_) => probe_directory(path).map_err(cannot),
    }
}

/// Whether `meta` is the always-full device (`/dev/full`, Linux's character device 1:7),
/// whose every write fails with "No space left on device".
#[cfg(target_os = "linux")]
fn always_full(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::{FileTypeExt as _, MetadataExt as _};
    const FULL: u64 = (1 << 8) | 7;
    meta.file_type().is_char_device() && meta.rdev() == FULL
}

#[cfg(not(target_os = "linux"))]
fn always_full(_meta: &fs::Metadata) -> bool {
    false
}

/// Whether a new file can be made beside `path` (made and removed again).
fn probe_directory(path: &Path) -> Result<(), String> {
    let dir = parent_of(path);
    match fs::metadata(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(format!("there is no directory {}", shown(dir)))
        }
        Err(e) => return Err(format!("{}: {}", shown(dir), cause(&e))),
        Ok(meta) if !meta.is_dir() => return Err(format!("{} is not a directory", shown(dir))),
        Ok(_) => {}
    }
    let probe = temporary_beside(path);
    match OpenOptions::new().write(true).create_new(true).open(&probe) {
        Ok(_) => {
            let _ = fs::remove_file(&probe);
            Ok(())
        }
        Err(e) => Err(format!(
            "no new file can be made in {}: {}",
            shown(dir),
            cause(&e)
        )),
    }
}

/// The file a write to `path` replaces: through a symbolic link, the file it points to
/// (renaming over the link would leave the file it names unchanged).
fn write_target(path: &Path) -> PathBuf {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    }
}

/// A temporary name in `path`'s directory, hidden and marked as this process's.
fn temporary_beside(path: &Path) -> PathBuf {
    let name = path.file_name().map_or_else(
        || "output".to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    parent_of(path).join(format!(".{name}.sargon-{}.tmp", std::process::id()))
}

/// Write `bytes` as the whole of `path`: to a temporary file in its directory, synced,
/// then renamed over it, so that an interrupted run leaves the old file whole. The old
/// file's permissions are kept. A device or a pipe (`/dev/stdout`) is written directly.
///
/// ```
/// use sargon_core::outputs::write_whole;
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("report.txt");
/// write_whole(&path, b"old")?;
/// write_whole(&path, b"new")?;
/// assert_eq!(std::fs::read(&path)?, b"new");
/// assert_eq!(std::fs::read_dir(dir.path())?.count(), 1); // no temporary file left
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_whole(path: &Path, bytes: &[u8]) -> Result<()> {
    let context = |e: io::Error| OutputError::CannotWrite {
        what: String::new(),
        path: shown(path),
        why: cause(&e),
    };
    let target = write_target(path);
    let old = fs::metadata(&target).ok();
    if old.as_ref().is_some_and(|m| !m.is_file()) {
        return fs::write(&target, bytes).map_err(context);
    }
    let tmp = temporary_beside(&target);
    let written = (|| -> io::Result<()> {
        let mut file = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        if let Some(old) = &old {
            fs::set_permissions(&tmp, old.permissions())?;
        }
        fs::rename(&tmp, &target)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written.map_err(context)
}

/// Open a results file for the run: created if missing, read from the start, appended to
/// at the end, and locked so that no second run writes to it at the same time. A second
/// run is refused with the process that holds the lock, where the system says.
///
/// ```
/// use sargon_core::outputs::open_results;
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("results.jsonl");
/// let _first = open_results(&path)?;
/// assert!(open_results(&path).is_err()); // locked by the first run
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn open_results(path: &Path) -> Result<File> {
    if let Ok(meta) = fs::metadata(path) {
        if meta.is_dir() {
            return Err(OutputError::IsDirectory {
                path: shown(path),
                goes: "the results go",
                hint: String::new(),
            });
        }
        if !meta.is_file() {
            return Err(OutputError::NotRegular {
                what: String::new(),
                path: shown(path),
            });
        }
    }
    let file = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| OutputError::CannotWrite {
            what: String::new(),
            path: shown(path),
            why: cause(&e),
        })?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(fs::TryLockError::WouldBlock) => {
            let holder = match lock_holder(&file) {
                Some((pid, command)) if !command.is_empty() => {
                    format!("process {pid}, `{}`", echo(&command))
                }
                Some((pid, _)) => format!("process {pid}"),
                None => "another process".to_string(),
            };
            Err(OutputError::Busy {
                path: shown(path),
                holder,
            })
        }
        // A file system without locks: the run goes on unlocked rather than not at all.
        Err(fs::TryLockError::Error(e)) if e.kind() == io::ErrorKind::Unsupported => Ok(file),
        Err(fs::TryLockError::Error(e)) => Err(OutputError::CannotLock {
            path: shown(path),
            why: cause(&e),
        }),
    }
}

/// Run `work`, which writes the results file `path` (if any) through [`open_results`]; when
/// it fails, a results file it created and left empty (the run refused or failed before its
/// first result) is removed again, so that a failed command leaves nothing behind. Only
/// under the file's lock: an empty file another run has just created and is writing is
/// never touched.
///
/// ```
/// use sargon_core::outputs::{open_results, removing_an_empty_new_results_file};
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("results.jsonl");
/// let failed: Result<(), &str> = removing_an_empty_new_results_file(Some(&path), || {
///     let _file = open_results(&path).map_err(|_| "cannot open")?;
///     Err("the first search failed")
/// });
/// assert_eq!(failed, Err("the first search failed"));
/// assert!(!path.exists()); // the empty file it made is gone
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn removing_an_empty_new_results_file<T, E>(
    path: Option<&Path>,
    work: impl FnOnce() -> Result<T, E>,
) -> Result<T, E> {
    let existed = path.is_none_or(|p| fs::symlink_metadata(p).is_ok());
    let result = work();
    if let (Err(_), Some(path), false) = (&result, path, existed)
        && let Ok(file) = OpenOptions::new().read(true).open(path)
    {
        let empty = file.metadata().is_ok_and(|m| m.is_file() && m.len() == 0);
        if empty && file.try_lock().is_ok() {
            let _ = fs::remove_file(path);
        }
    }
    result
}

/// The process holding a lock on `file`, and its command line, from Linux's
/// `/proc/locks` (`1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF`: the pid, then the
/// device's major and minor numbers in hex and the inode).
#[cfg(target_os = "linux")]
fn lock_holder(file: &File) -> Option<(u32, String)> {
    use std::os::unix::fs::MetadataExt as _;
    let meta = file.metadata().ok()?;
    let dev = meta.dev();
    let (major, minor) = (libc::major(dev), libc::minor(dev));
    let id = format!("{major:02x}:{minor:02x}:{}", meta.ino());
    let locks = fs::read_to_string("/proc/locks").ok()?;
    let pid = locks.lines().find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        // A lock waiting for this one is marked `->` and shifts the fields by one.
        let at = fields.iter().position(|f| *f == id)?;
        let pid: u32 = fields.get(at.checked_sub(1)?)?.parse().ok()?;
        (pid != std::process::id()).then_some(pid)
    })?;
    let command = fs::read(format!("/proc/{pid}/cmdline"))
        .map(|bytes| {
            String::from_utf8_lossy(&bytes)
                .split('\0')
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default();
    Some((pid, command))
}

#[cfg(not(target_os = "linux"))]
fn lock_holder(_: &File) -> Option<(u32, String)> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_that_is_an_input_is_refused_through_links() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.pgn");
        fs::write(&input, "1. e4 *\n").unwrap();
        let hard = dir.path().join("hard.pgn");
        fs::hard_link(&input, &hard).unwrap();
        let files = |out: &Path| {
            Files::new()
                .input("the PGN file", Some(&input))
                .output("--plot", Some(out), Mode::Whole)
                .check()
        };
        for out in [&input, &hard] {
            let e = files(out).unwrap_err().to_string();
            assert!(e.contains("would destroy"), "{e}");
        }
        #[cfg(unix)]
        {
            let soft = dir.path().join("soft.pgn");
            std::os::unix::fs::symlink(&input, &soft).unwrap();
            assert!(files(&soft).is_err());
        }
        files(&dir.path().join("new.svg")).unwrap();
    }

    #[test]
    fn a_file_given_twice_in_one_list_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.jsonl");
        let b = dir.path().join("b.jsonl");
        fs::write(&a, "").unwrap();
        fs::write(&b, "").unwrap();
        let hard = dir.path().join("hard.jsonl");
        fs::hard_link(&a, &hard).unwrap();
        let check = |paths: &[PathBuf]| Files::new().inputs("--load", paths).check();
        for twice in [vec![a.clone(), a.clone()], vec![a.clone(), b.clone(), hard]] {
            let e = check(&twice).unwrap_err().to_string();
            assert!(e.contains("would count twice"), "{e}");
        }
        check(&[a, b]).unwrap();
    }

    #[test]
    fn two_outputs_on_one_file_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("x");
        let e = Files::new()
            .output("--save", Some(&out), Mode::Whole)
            .output("--plot", Some(&out), Mode::Whole)
            .check()
            .unwrap_err()
            .to_string();
        assert!(e.contains("--save and --plot name the same file"), "{e}");
    }

    #[test]
    fn a_whole_write_replaces_the_file_at_once_and_keeps_its_permissions() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("plot.svg");
        fs::write(&path, "old").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        }
        write_whole(&path, b"new").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o640);
        }
        let left: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file left: {left:?}");
    }

    #[cfg(unix)]
    #[test]
    fn a_whole_write_through_a_symlink_writes_the_file_it_names() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.txt");
        fs::write(&real, "old").unwrap();
        let link = dir.path().join("link.txt");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_whole(&link, b"new").unwrap();
        assert_eq!(fs::read(&real).unwrap(), b"new");
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
    }

    #[test]
    fn a_second_writer_of_a_results_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        let _first = open_results(&path).unwrap();
        let e = open_results(&path).unwrap_err().to_string();
        assert!(e.contains("is being written by another run"), "{e}");
    }

    #[test]
    fn a_failed_run_leaves_no_empty_results_file_it_created() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        let failed: Result<(), String> = removing_an_empty_new_results_file(Some(&path), || {
            open_results(&path).map_err(|e| e.to_string())?;
            Err("the engine would not start".to_string())
        });
        assert!(failed.is_err());
        assert!(!path.exists());
        // Not a file another run holds, though it is empty and new to this one (the
        // other run created it while this one was being refused).
        let other = dir.path().join("other.jsonl");
        let mut held = None;
        let failed: Result<(), String> = removing_an_empty_new_results_file(Some(&other), || {
            held = Some(open_results(&other).map_err(|e| e.to_string())?);
            Err("refused".to_string())
        });
        assert!(failed.is_err() && held.is_some());
        assert!(other.exists());
    }

    #[test]
    fn missing_directories_and_directories_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("no/such/x.svg");
        let e = Files::new()
            .output("--plot", Some(&missing), Mode::Whole)
            .check()
            .unwrap_err()
            .to_string();
        assert!(e.contains("there is no directory"), "{e}");
        let e = Files::new()
            .output("--out", Some(dir.path()), Mode::Results)
            .check()
            .unwrap_err()
            .to_string();
        assert!(e.contains("is a directory"), "{e}");
    }
}
