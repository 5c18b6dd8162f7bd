//! A game against Sargon in the explorer, in a real browser: tests/browser/game.mjs plays
//! as Black against the port at depth 2 (the board turned round), looks into the tree
//! mid-game and plays on, steps through the game with the arrow keys from the board and
//! the move list, opens the search behind one of Sargon's moves, checks the eval bar, the
//! score graph, the arrows and the PGN's players, and reloads the permalink. Skipped as
//! serve_browser's tests are where the browser is missing.

use crate::serve_browser::{keep_screenshots, run_script};

#[test]
fn a_game_in_the_explorer_survives_inspection_and_reloads() {
    let Some(ran) = run_script(
        "a_game_in_the_explorer_survives_inspection_and_reloads",
        "game.mjs",
        &[],
        &[],
    ) else {
        return;
    };
    for step in [
        "game: playing Black turns the board; Sargon's first move is highlighted ok",
        "game: after looking into the tree mid-game, back to the game and on ok",
        "game: ←/→/Home/End from the board and the move list ok",
        "game: the permalink restores the game ok",
    ] {
        assert!(ran.stdout.contains(step), "missing: {step}");
    }
    keep_screenshots(&ran, &["explorer-game.png", "explorer-game-black.png"]);
}
