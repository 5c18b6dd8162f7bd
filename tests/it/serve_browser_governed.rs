//! The explorer's server governing its work, in a real browser (tests/browser/governed.mjs):
//! a page of another origin that frames the explorer is refused, the page runs under its
//! own Content-Security-Policy without a violation, the depth box says each engine's
//! practical limit, a search past the node budget shows its partial tree, and, with the user's ROM, Compare shows both engines' moves, scores
//! and times with its progress, its Cancel stops it, and a profile asked while the one
//! worker is busy says it waits. Skipped as
//! tests/it/serve_browser.rs is where the browser is missing.

use crate::serve_browser::{keep_screenshots, run_script};

#[test]
fn the_governed_server_in_a_real_browser() {
    let Some(ran) = run_script(
        "the_governed_server_in_a_real_browser",
        "governed.mjs",
        &["--jobs", "1", "--keep-nodes", "3000"],
        &[],
    ) else {
        return;
    };
    assert!(ran
        .stdout
        .contains("governed: a page of another origin that frames the explorer is refused ok"));
    assert!(ran
        .stdout
        .contains("governed: a search past the node budget shows its partial tree"));
    if ran.rom {
        crate::common::ran_with_rom("the_governed_server_in_a_real_browser");
        assert!(ran
            .stdout
            .contains("governed: compare's Cancel stops it ok"));
        keep_screenshots(&ran, &["explorer-compare-engines.png"]);
    } else {
        crate::common::skip_for_want_of_rom(
            "the_governed_server_in_a_real_browser (compare)",
            "no ROM imported",
        );
    }
}
