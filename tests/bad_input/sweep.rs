//! The sweep: the kinds of cases tried again on the commands and options the issue
//! did not name (issue 32, "the rules hold for every command"). Each test here failed
//! before its fix.

use super::refused;

/// A file that is not there is named with its cause once, by every reader: the text-file
/// reader's I/O error had a `source()` too, so "No such file or directory" came twice.
#[test]
fn a_missing_file_says_its_cause_once() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing");
    let missing = missing.to_str().unwrap();
    // crosscheck, as diff, keeps exit 1 for a difference found.
    for (args, code) in [
        (&["analyze", "--epd", missing][..], 1),
        (&["annotate", missing][..], 1),
        (&["history", "strength", missing][..], 1),
        (&["history", "levels", "--positions", missing][..], 1),
        (&["history", "levels", "--load", missing][..], 1),
        (&["history", "games", "--load", missing][..], 1),
        (&["emulator", "crosscheck", missing][..], 2),
    ] {
        let message = refused(args, code, &[missing, "No such file or directory"]);
        assert_eq!(
            message.matches("No such file or directory").count(),
            1,
            "sargon {}: {message}",
            args.join(" ")
        );
    }
}
