//! Stepping the original in a real browser (issue 37): tests/browser/step.mjs against a
//! fresh `sargon serve`, run by `serve_browser::run_script`. With a ROM it opens a stepping
//! session at a node of the original's search, steps forward and back by instruction (what
//! the panel shows comes back exactly), over a CALL and to the next event, checks the
//! changed bytes are marked and PC's listing line is current, and that the page leaving
//! closes the session; without one, that the panel's button is off and says why.

use crate::common;
use crate::serve_browser::{keep_screenshots, run_script};

#[test]
fn the_original_steps_forward_and_back_in_a_real_browser() {
    let test = "the_original_steps_forward_and_back_in_a_real_browser";
    let Some(ran) = run_script(test, "step.mjs", &[], &[]) else {
        return;
    };
    if !ran.rom {
        assert!(ran
            .stdout
            .contains("step: without a ROM the step button is off and says why ok"));
        common::skip_for_want_of_rom(test, "the original cannot be stepped");
        return;
    }
    for line in [
        "step: 8 instruction(s) forward then back restore what is shown ok",
        "step: back to the previous event ok",
        "step: the listing shows PC's line ok",
        "step: the page leaving closes its session ok",
    ] {
        assert!(ran.stdout.contains(line), "missing: {line}");
    }
    common::ran_with_rom(test);
    keep_screenshots(&ran, &["explorer-step.png"]);
}
