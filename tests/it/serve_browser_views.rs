//! The explorer's views in a real browser (issue 36: scores anyone can read, the drawn
//! subtree, the layouts): tests/browser/views.mjs against a fresh `sargon serve`, run by
//! `serve_browser::run_script`. It checks the score convention in each view, every mark's
//! explanation on hover, the first Search on the start position (a book move, and the
//! search without the book it offers), the memory view's moment (both engines with a ROM),
//! the model boards and a model click, the drawn subtree and its refuted filter, and the
//! page at 390, 1024 and 1400 px wide.

use crate::common;
use crate::serve_browser::{keep_screenshots, run_script};

#[test]
fn the_views_explain_their_scores_and_marks_in_a_real_browser() {
    let test = "the_views_explain_their_scores_and_marks_in_a_real_browser";
    let Some(ran) = run_script(test, "views.mjs", &[], &[]) else {
        return;
    };
    for line in [
        "views: Search on the start position with the book says \"book move\"",
        "views: every mark of the tree explains itself on hover ok",
        "views: the subtree is drawn",
        "views: the memory view names its moment",
        "views: the models draw 15 boards",
        "views: 390 px with the models drawn: no horizontal scroll",
    ] {
        assert!(ran.stdout.contains(line), "missing: {line}");
    }
    if ran.rom {
        assert!(ran.stdout.contains("BOARDA (2 engine(s))"));
        common::ran_with_rom(test);
    } else {
        assert!(ran.stdout.contains("BOARDA (1 engine(s))"));
        common::skip_for_want_of_rom(test, "the original's memory was not read");
    }
    keep_screenshots(
        &ran,
        &[
            "explorer-marks.png",
            "explorer-subtree.png",
            "explorer-models.png",
            "explorer-narrow.png",
        ],
    );
}
