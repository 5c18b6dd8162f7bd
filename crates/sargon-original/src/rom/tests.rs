//! Tests of the store: known images, where it is, errors naming what failed, quoting.

use std::fs;
use std::path::{Path, PathBuf};

use super::bytes::{looks_like_text, printable};
use super::image::{known_image, KNOWN_IMAGES};
use super::store::store_dir;
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
    // As main prints errors: the whole chain, each cause after its error.
    let mut shown = err.to_string();
    let mut cause = std::error::Error::source(&err);
    while let Some(e) = cause {
        shown = format!("{shown}: {e}");
        cause = e.source();
    }
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
