//! Bad input to the ROM store (issue 11, "ROM store errors"): each gets an exit code, one
//! line naming its one cause, and no panic. None of these needs Sargon's code.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Run `sargon` with a clean environment for the store: no `SARGON_ROMS` or
/// `XDG_DATA_HOME` from the caller, `HOME` in a temporary directory.
fn sargon(home: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sargon"));
    cmd.env_remove("SARGON_ROMS")
        .env_remove("XDG_DATA_HOME")
        .env("HOME", home)
        .current_dir(home)
        .args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("the sargon binary runs")
}

/// The one-line error of a failed command: exit 1, one line on stderr, no panic.
fn one_line_error(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "exit code; stderr: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err:?}");
    assert!(err.starts_with("error: "), "{err}");
    err.trim_end().to_string()
}

struct Dir {
    tmp: tempfile::TempDir,
}

impl Dir {
    fn new() -> Dir {
        Dir {
            tmp: tempfile::tempdir().unwrap(),
        }
    }
    fn path(&self) -> &Path {
        self.tmp.path()
    }
    fn file(&self, name: &str, content: &[u8]) -> PathBuf {
        let p = self.path().join(name);
        std::fs::write(&p, content).unwrap();
        p
    }
    fn store(&self) -> String {
        self.path().join("store").display().to_string()
    }
}

#[test]
fn a_missing_file_names_its_cause_once() {
    let d = Dir::new();
    let out = sargon(
        d.path(),
        &[
            "--roms",
            &d.store(),
            "rom",
            "import",
            "/nonexistent/sargon-z80.asm",
        ],
        &[],
    );
    let err = one_line_error(&out);
    assert_eq!(
        err,
        "error: cannot read /nonexistent/sargon-z80.asm: No such file or directory (os error 2)"
    );
}

#[test]
fn binary_input_is_not_echoed() {
    let d = Dir::new();
    let mut binary = b"\x7fELF\x02\x01\x01\x00".to_vec();
    binary.extend((0..9000u32).map(|i| (i * 7919 % 251) as u8));
    let file = d.file("sargon-z80.asm", &binary);
    let mut files = vec![file];
    if Path::new("/bin/ls").is_file() {
        files.push(PathBuf::from("/bin/ls"));
    }
    for f in files {
        let f = f.display().to_string();
        let out = sargon(d.path(), &["--roms", &d.store(), "rom", "import", &f], &[]);
        let err = one_line_error(&out);
        assert_eq!(
            err,
            format!("error: {f} is not a text file (Z80 source or zmac listing expected)")
        );
    }
}

#[test]
fn an_echoed_line_is_cut_and_escaped() {
    let d = Dir::new();
    let mut text = b"\x1b[2J\x1b[31m".to_vec();
    text.extend(std::iter::repeat_n(b'Q', 5000));
    text.extend(b" \xff\xfe\n");
    let file = d.file("garbage.asm", &text);
    let out = sargon(
        d.path(),
        &[
            "--roms",
            &d.store(),
            "rom",
            "import",
            &file.display().to_string(),
        ],
        &[],
    );
    let err = one_line_error(&out);
    assert!(err.contains("cannot assemble"), "{err}");
    assert!(err.contains("line 1: "), "{err}");
    assert!(err.contains("\\x1b[2J"), "escaped: {err}");
    assert!(!err.contains('\u{1b}'), "no raw escape: {err}");
    assert!(err.len() < 300, "{} characters: {err}", err.len());
    assert_eq!(err.matches("line 1:").count(), 1, "the cause once: {err}");
}

#[test]
fn an_empty_file_is_named() {
    let d = Dir::new();
    let file = d.file("empty.asm", b"; nothing but a comment\n");
    let out = sargon(
        d.path(),
        &[
            "--roms",
            &d.store(),
            "rom",
            "import",
            &file.display().to_string(),
        ],
        &[],
    );
    let err = one_line_error(&out);
    assert!(err.contains("emitted no bytes"), "{err}");
}

#[test]
fn a_store_that_is_a_file_is_an_error_for_every_rom_command() {
    let d = Dir::new();
    let not_a_dir = d.file("roms", b"a file, not a store\n");
    let not_a_dir = not_a_dir.display().to_string();
    let source = d.file("x.asm", b" LD A,1\n").display().to_string();
    let commands: [&[&str]; 5] = [
        &["rom", "list"],
        &["rom", "info"],
        &["rom", "verify"],
        &["rom", "import", &source],
        &["analyze", "--engine", "emulator", "-d", "1", "startpos"],
    ];
    for args in commands {
        // Through the environment and through --roms.
        let out = sargon(d.path(), args, &[("SARGON_ROMS", &not_a_dir)]);
        let err = one_line_error(&out);
        assert!(
            err.contains(&format!("the ROM store {not_a_dir} is not a directory")),
            "{args:?}: {err}"
        );
        let mut with_flag = vec!["--roms", &not_a_dir];
        with_flag.extend_from_slice(args);
        let out = sargon(d.path(), &with_flag, &[]);
        let err = one_line_error(&out);
        assert!(err.contains("is not a directory"), "{args:?}: {err}");
    }
}

/// A directory this process cannot write into: a read-only temporary directory, or (for
/// root, whom permissions do not stop) a path under /sys.
fn unwritable_store(d: &Dir) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let ro = d.path().join("read-only");
    std::fs::create_dir(&ro).unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
    if std::fs::create_dir(ro.join("probe")).is_err() {
        return Some(ro.join("store"));
    }
    let sys = PathBuf::from("/sys/sargon-test-store");
    std::fs::create_dir(&sys).is_err().then_some(sys)
}

#[test]
fn a_read_only_store_is_named() {
    let d = Dir::new();
    let Some(store) = unwritable_store(&d) else {
        eprintln!("skipped: no unwritable directory to try");
        return;
    };
    let store = store.display().to_string();
    let source = d.file("x.asm", b" LD A,1\n").display().to_string();
    let out = sargon(d.path(), &["--roms", &store, "rom", "import", &source], &[]);
    let err = one_line_error(&out);
    assert!(
        err.starts_with(&format!("error: cannot write to the ROM store {store}: ")),
        "{err}"
    );
    assert!(
        !err.contains(".tmp-") && !err.contains(".sargon-probe-"),
        "{err}"
    );
}

#[test]
fn no_home_is_an_error_not_a_store_here() {
    let d = Dir::new();
    let source = d.file("x.asm", b" LD A,1\n").display().to_string();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_sargon"))
            .env_remove("SARGON_ROMS")
            .env_remove("XDG_DATA_HOME")
            .env_remove("HOME")
            .current_dir(d.path())
            .args(args)
            .output()
            .unwrap()
    };
    let before: Vec<_> = std::fs::read_dir(d.path()).unwrap().collect();
    for args in [
        &["rom", "list"][..],
        &["rom", "import", &source][..],
        &["analyze", "--engine", "emulator", "-d", "1", "startpos"][..],
    ] {
        let err = one_line_error(&run(args));
        assert!(
            err.contains("no ROM store: $HOME is not set"),
            "{args:?}: {err}"
        );
        assert!(err.contains("--roms"), "{err}");
    }
    // Nothing was created in the current directory.
    let after: Vec<_> = std::fs::read_dir(d.path()).unwrap().collect();
    assert_eq!(before.len(), after.len());
    // The port needs no store.
    let out = run(&["analyze", "-d", "1", "startpos", "--no-book"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn an_empty_store_is_no_error_for_list() {
    let d = Dir::new();
    let out = sargon(d.path(), &["--roms", &d.store(), "rom", "list"], &[]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("no ROM imported in "));
}

/// Every path under `dir`, relative to it, sorted.
fn tree(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let path = e.unwrap().path();
            out.push(path.strip_prefix(dir).unwrap().to_path_buf());
            if path.is_dir() {
                todo.push(path);
            }
        }
    }
    out.sort();
    out
}

/// A refused import creates nothing: not the store (it left an empty one behind), nor
/// anything in an existing one.
#[test]
fn a_refused_import_leaves_the_store_as_it_was() {
    let d = Dir::new();
    let prose = d.file("notes.asm", b"not a transcription of anything\n");
    let binary = d.file("image.asm", b"\x7fELF\x02\x01\x01\x00\x00\x00");
    let store = d.path().join("nested").join("store");
    let before = tree(d.path());
    for file in [&prose, &binary] {
        let file = file.display().to_string();
        let out = sargon(
            d.path(),
            &[
                "--roms",
                &store.display().to_string(),
                "rom",
                "import",
                &file,
            ],
            &[],
        );
        one_line_error(&out);
        assert_eq!(tree(d.path()), before, "rom import {file}");
    }
    // An existing store with a ROM in it (a stand-in: its record is all the store lists).
    std::fs::create_dir_all(store.join("mine")).unwrap();
    std::fs::write(store.join("mine").join("rom.json"), "{}").unwrap();
    let before = tree(d.path());
    let out = sargon(
        d.path(),
        &[
            "--roms",
            &store.display().to_string(),
            "rom",
            "import",
            &prose.display().to_string(),
        ],
        &[],
    );
    one_line_error(&out);
    assert_eq!(tree(d.path()), before);
}
