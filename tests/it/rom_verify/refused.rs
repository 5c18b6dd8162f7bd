//! Modified copies of the user's transcription refused by `sargon rom import`: a changed
//! opcode, a changed table entry, half the source, code the search runs, the opening book;
//! what differs where no search runs or reads is named and allowed.

use crate::common;

use common::source_edit::{instruction_tokens, with_changed_opcode, with_changed_table};

use super::copies::{
    allowed_line, code_line, first_half, line_after, sargon, stored_source, text,
    with_line_changed, workspace,
};

#[test]
fn a_changed_opcode_is_refused_and_points_is_named() {
    let Some(source) = stored_source("a_changed_opcode_is_refused_and_points_is_named") else {
        return;
    };
    let ws = workspace();
    let file = ws.write(
        "changed-opcode.asm",
        &with_changed_opcode(&source, "POINTS"),
    );
    let out = sargon(&ws.store, &["rom", "import", &file, "--name", "changed"]);
    let err = text(&out.stderr);
    eprintln!("{err}");
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("is refused: it is not the known Sargon image"),
        "{err}"
    );
    assert!(
        err.contains("first difference: ") && err.contains("event #"),
        "{err}"
    );
    assert!(
        err.contains("  known: ") && err.contains("  image: "),
        "{err}"
    );
    assert_eq!(code_line(&err), Some("POINTS"), "{err}");
    assert!(err.contains("--accept-different"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(!ws.stored("changed"), "nothing may be stored");
}

#[test]
fn a_changed_table_entry_is_refused_and_its_table_is_named() {
    let Some(source) = stored_source("a_changed_table_entry_is_refused_and_its_table_is_named")
    else {
        return;
    };
    let ws = workspace();
    let file = ws.write("changed-table.asm", &with_changed_table(&source, "PVALUE"));
    let out = sargon(&ws.store, &["rom", "import", &file, "--name", "changed"]);
    let err = text(&out.stderr);
    eprintln!("{err}");
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("is refused: it is not the known Sargon image"),
        "{err}"
    );
    assert_eq!(code_line(&err), Some("PVALUE"), "{err}");
    assert!(!ws.stored("changed"));
}

#[test]
fn half_the_transcription_is_refused_even_with_accept_different() {
    let Some(source) =
        stored_source("half_the_transcription_is_refused_even_with_accept_different")
    else {
        return;
    };
    let ws = workspace();
    let file = ws.write("half.asm", &first_half(&source));
    for extra in [&[][..], &["--accept-different"][..]] {
        let mut args = vec!["rom", "import", &file, "--name", "half"];
        args.extend_from_slice(extra);
        let out = sargon(&ws.store, &args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        // Either the assembler stops at a missing label, or the harness lacks a symbol.
        assert!(
            err.contains("assembles only in part") || err.contains("cannot assemble"),
            "{err}"
        );
        assert!(!ws.stored("half"));
    }
}

#[test]
fn the_known_source_imports_verified_and_verifies_again() {
    let Some(source) = stored_source("the_known_source_imports_verified_and_verifies_again") else {
        return;
    };
    let ws = workspace();
    let file = ws.write("sargon.asm", &source);
    let out = sargon(&ws.store, &["rom", "import", &file]);
    let (stdout, err) = (text(&out.stdout), text(&out.stderr));
    eprintln!("{stdout}");
    assert!(out.status.success(), "{err}");
    assert!(
        stdout.contains("behaviour: as the known Sargon image in all"),
        "{stdout}"
    );
    assert!(
        stdout.contains("code: the same as the known transcription"),
        "{stdout}"
    );
    assert!(!err.contains("warning"), "{err}");
    let out = sargon(&ws.store, &["rom", "verify"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(ws.store.join("sargon").join("rom.json")).unwrap())
            .unwrap();
    assert_eq!(meta["verified"], serde_json::Value::Bool(true), "{meta}");
}

/// The helpers change exactly what they say, on a made-up source.
#[test]
fn the_changes_touch_one_line_each() {
    // A made-up source in the transcription's layout (none of Sargon's own lines).
    let source = "\
; header
MYTAB   EQU     $-BASE
        DB      2,4,6
;***
MYSUB:  XOR     a               ; first
        LD      (X),a
        XOR     a
;*********
OTHER:  XOR     a
";
    let changed = with_changed_opcode(source, "MYSUB");
    assert!(changed.contains("MYSUB:  OR      a               ; first"));
    assert_eq!(changed.matches("XOR").count(), 2);
    let changed = with_changed_table(source, "MYTAB");
    assert!(changed.contains("        DB      3,4,6"), "{changed}");
    assert_eq!(first_half(source).lines().count(), 4);
}

/// One import of a changed copy of the user's transcription into a fresh store: its exit
/// status, its stdout and its stderr.
fn import_changed(source: &str, name: &str) -> (Option<i32>, String, String, bool) {
    let ws = workspace();
    let file = ws.write(&format!("{name}.asm"), source);
    let out = sargon(&ws.store, &["rom", "import", &file, "--name", name]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    eprintln!("{name}: {stdout}{stderr}");
    (out.status.code(), stdout, stderr, ws.stored(name))
}

#[test]
fn code_the_search_runs_must_be_the_known_code_even_when_the_searches_agree() {
    let test = "code_the_search_runs_must_be_the_known_code_even_when_the_searches_agree";
    let Some(source) = stored_source(test) else {
        return;
    };
    // ENPSNT's upper bound of the en passant rank moved onto the board's border (69, right
    // of h5): no pawn stands there, so no search can tell, and the image is still not
    // Sargon.
    let at = line_after(&source, "ENPSNT", |t| {
        t == ["CP", "69"] || t == ["cp", "69"]
    });
    let changed = with_line_changed(&source, at, |l| l.replacen("69", "70", 1));
    let (code, _, err, stored) = import_changed(&changed, "enpsnt");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("behaviour: as the known Sargon image in all"),
        "{err}"
    );
    assert_eq!(code_line(&err), Some("ENPSNT"), "{err}");
    assert!(err.contains("verified: no"), "{err}");
    assert!(!stored, "nothing stored");
}

#[test]
fn differences_where_no_search_runs_or_reads_are_named_and_allowed() {
    let test = "differences_where_no_search_runs_or_reads_are_named_and_allowed";
    let Some(source) = stored_source(test) else {
        return;
    };
    // DSPBRD draws the board on the TRS-80's screen: no search reaches it. PIECES is the
    // piece order INITBD reads to set up a new game, which the harness never calls.
    let at = line_after(&source, "DSPBRD", |t| {
        t.len() == 2 && t[0].eq_ignore_ascii_case("PUSH")
    });
    let display = with_line_changed(&source, at, |l| {
        let t = instruction_tokens(l)[1];
        let other = if t.eq_ignore_ascii_case("hl") {
            "de"
        } else {
            "hl"
        };
        l.replacen(t, other, 1)
    });
    let pieces = with_changed_table(&source, "PIECES");
    for (name, changed, region) in [("display", display, "DSPBRD"), ("pieces", pieces, "PIECES")] {
        let (code, out, err, stored) = import_changed(&changed, name);
        assert_eq!(code, Some(0), "{err}");
        assert!(stored, "{name} is stored");
        assert!(out.contains("verified:      yes"), "{out}");
        assert_eq!(allowed_line(&out), Some(region), "{out}");
        assert!(code_line(&out).is_none(), "{out}");
    }
}

#[test]
fn every_entry_of_the_opening_book_is_checked() {
    let test = "every_entry_of_the_opening_book_is_checked";
    let Some(source) = stored_source(test) else {
        return;
    };
    // Each of the book's twelve values changed, in turn: the book's moves are read by the
    // searches from the initial position (random byte 0 and 1: 1.e4 and 1.d4) and after
    // 1.e4 and 1.d4 (1...e5, 1...d5), so every change is refused.
    let first = line_after(&source, "BMOVES", |t| {
        t.first().is_some_and(|d| d.eq_ignore_ascii_case("DB"))
    });
    for line in first..first + 4 {
        for value in 0..3 {
            let changed = with_line_changed(&source, line, |l| {
                let code_end = l.find(';').unwrap_or(l.len());
                let db = l[..code_end].to_ascii_uppercase().find("DB").unwrap() + 2;
                let mut values: Vec<String> = l[db..code_end]
                    .split(',')
                    .map(|v| v.trim().to_string())
                    .collect();
                values[value] = if values[value].ends_with(['H', 'h']) {
                    "11H".to_string()
                } else {
                    (values[value].parse::<i32>().unwrap() + 1).to_string()
                };
                format!("{} {}{}", &l[..db], values.join(","), &l[code_end..])
            });
            let (code, out, err, stored) =
                import_changed(&changed, &format!("book-{}-{value}", line - first));
            assert_eq!(
                code,
                Some(1),
                "BMOVES line {} value {value}: {out}{err}",
                line - first
            );
            // Named by the data region that holds the byte: BMOVES's, or for its last bytes
            // PLIST's (PLIST is a displacement from TBASE that lands inside the book).
            assert!(code_line(&err).is_some(), "{err}");
            assert!(!stored);
        }
    }
}
