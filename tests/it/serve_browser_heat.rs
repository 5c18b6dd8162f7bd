//! The heat of the listing in a real browser (issue 37, item 4): tests/browser/heat.mjs
//! against a fresh `sargon serve`, run by `serve_browser::run_script`. With a ROM it
//! profiles the original's depth-2 search, opens routines' listings and checks each
//! instruction carries its count and the scale's colour, the legend is shown and the
//! count shows on hover; then Compare with a port behind `exec:` that alters one event
//! opens the divergence as a node of the original's tree, both events side by side, and
//! its button opens the step view at that event; and a stepping session that waits for
//! one of the server's workers shows its place in line. Without a ROM, that the profile
//! button is off.

use crate::common;
use crate::serve_browser::{keep_screenshots, run_script};

#[test]
fn the_listing_is_coloured_by_its_heat_in_a_real_browser() {
    let test = "the_listing_is_coloured_by_its_heat_in_a_real_browser";
    // Compare with a port that alters one event (serve_compare_exec.rs), offered by --engine.
    let altered = crate::serve_compare_exec::altered_exec();
    let Some(ran) = run_script(test, "heat.mjs", &["--engine", &altered], &[&altered]) else {
        return;
    };
    if !ran.rom {
        assert!(ran
            .stdout
            .contains("heat: without a ROM the profile button is off ok"));
        common::skip_for_want_of_rom(test, "the original cannot be profiled");
        return;
    }
    for line in [
        "heat: the heat marks are drawn: run lines coloured, the count in each line's title ok",
        "heat: the legend is shown ok",
        "heat: compare with the altered exec: port opens its divergence as a node of the tree ok",
        "heat: the step view opened from the divergence stands at that event ok",
    ] {
        assert!(ran.stdout.contains(line), "missing: {line}");
    }
    assert!(ran.stdout.contains("the first ran"), "{}", ran.stdout);
    // With two workers (two cores or more), a session waits its turn and says so.
    if std::thread::available_parallelism().map_or(1, |n| n.get()) >= 2 {
        assert!(
            ran.stdout
                .contains("heat: a session waits for a worker, and says so"),
            "{}",
            ran.stdout
        );
    }
    common::ran_with_rom(test);
    keep_screenshots(&ran, &["explorer-heat.png", "explorer-divergence.png"]);
}
