//! `sargon play` carries each Sargon's depth from move to move as the original does (issue
//! 38): after it finds a mate at the root its next search is two plies shallower, which in
//! this game also changes its moves; `--fresh-depth` searches every move at `--depth`.

use crate::common::{sargon, temp_file};

/// White mates in three at depth 5 (1.Kg6), not at depth 4.
const MATE_IN_THREE: &str = "7k/8/8/5K2/8/8/8/6R1 w - - id \"mate in three\"; hmvc 0; fmvn 40;\n";

/// The game's moves and comments, from the PGN `play` wrote with `extra` arguments.
fn game(extra: &[&str]) -> String {
    let openings = temp_file(".epd", MATE_IN_THREE);
    let pgn = temp_file(".pgn", "");
    std::fs::remove_file(pgn.path()).unwrap();
    let mut args = vec![
        "play",
        "--depth",
        "5",
        "--opponent",
        "sargon:depth=5",
        "--openings",
        openings.path().to_str().unwrap(),
        "--games",
        "1",
        "--pgn",
        pgn.path().to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let out = sargon(&args);
    assert!(out.status.success());
    let text = std::fs::read_to_string(pgn.path()).unwrap();
    let moves: Vec<&str> = text.lines().filter(|l| !l.starts_with('[')).collect();
    // The times in the comments vary: keep the score/depth.
    let joined = moves.join(" ");
    joined
        .split(' ')
        .filter(|w| !(w.ends_with("s}") && w.starts_with(|c: char| c.is_ascii_digit())))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_game_searches_two_plies_less_after_a_mate_is_found() {
    // The depth after each move's score: 5, then 3 after White found the mate at 5, then
    // 1 after it found it again at 3; Black, mated, keeps 5.
    assert_eq!(
        game(&[]).trim(),
        "40. Kg6 {+M3/5 40... Kg8 {-M2/5 41. Rf1 {+M2/3 41... Kh8 {-M1/5 42. Rf8# {+M1/1 \
         {White mates} 1-0"
    );
    // Afresh at 5, Sargon finds another mate in three and plays one move more.
    assert_eq!(
        game(&["--fresh-depth"]).trim(),
        "40. Kg6 {+M3/5 40... Kg8 {-M2/5 41. Rh1 {+M3/5 41... Kf8 {-M2/5 42. Re1 {+M2/5 \
         42... Kg8 {-M1/5 43. Re8# {+M1/1 {White mates} 1-0"
    );
}
