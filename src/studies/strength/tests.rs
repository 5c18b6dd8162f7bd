//! Tests of the ratings: names, repeated games, anchoring, chaining, combining, depths.

use super::matches::sargon_depth;
use super::rating::{combine, Combination};
use super::*;
use sargon_chess::elo::Tally;

fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
    Tally {
        wins,
        draws,
        losses,
    }
}

fn value(r: Option<Rating>) -> (f64, f64, f64) {
    match r {
        Some(Rating::Value { elo, low, high, .. }) => (elo, low, high),
        other => panic!("not a value: {other:?}"),
    }
}

#[test]
fn repeated_games_count_once() {
    let text = |white: &str, moves: &str, result: &str| {
        format!("[White \"{white}\"]\n[Black \"B\"]\n[Result \"{result}\"]\n\n{moves} {result}\n\n")
    };
    let file = [
        text("A", "1. e4 e5", "1/2-1/2"),
        text("A", "1. e4 e5", "1/2-1/2"), // a repeat
        text("A", "1. e4 e6", "1/2-1/2"), // other moves
        text("A", "1. e4 e5", "1-0"),     // other result
        text("C", "1. e4 e5", "1/2-1/2"), // other players
        text("A", "1. e4 e5", "1/2-1/2"), // a repeat again
    ]
    .concat();
    let games = sargon_chess::pgn::read_games(&file).unwrap();
    let (kept, repeats) = distinct_games(&games);
    assert_eq!((kept.len(), repeats), (4, 2));
    assert_eq!(kept[2].moves.len(), 2);
    assert_eq!(kept[2].result, "1-0");
}

#[test]
fn names() {
    assert_eq!(sargon_depth("Sargon 1978 (port, depth 3)"), Some(3));
    assert_eq!(
        sargon_depth("Sargon 1978 (port, depth 12, no book)"),
        Some(12)
    );
    assert_eq!(
        sargon_depth("Sargon 1978 (emulator, depth 2) [ROM x NOT VERIFIED]"),
        Some(2)
    );
    assert_eq!(sargon_depth("Stockfish 15.1 (depth 3)"), None);
    assert_eq!(sargon_depth("Sargon 1978 (port)"), None);
    assert_eq!(
        uci_elo_in("Stockfish 15.1 (movetime 200 ms, UCI_Elo=1350)"),
        Some(1350.0)
    );
    assert_eq!(uci_elo_in("Stockfish"), None);
}

#[test]
fn anchored_and_bounds() {
    // 3/1/0 = 87.5%: -400 log10(1/0.875 - 1) = +338.04.
    let (elo, low, high) = value(Rating::against(1350.0, &tally(3, 1, 0)));
    assert!((elo - 1688.04).abs() < 0.01, "{elo}");
    assert!(low < elo && high.is_infinite());
    assert_eq!(
        Rating::against(1350.0, &tally(4, 0, 0)),
        Some(Rating::Above { bound: 1350.0 })
    );
    assert_eq!(
        Rating::against(1350.0, &tally(0, 0, 2))
            .unwrap()
            .to_string(),
        "< 1350"
    );
    assert_eq!(Rating::against(1350.0, &tally(0, 0, 0)), None);
}

fn rating(elo: f64, low: f64, high: f64, sigma: f64) -> Rating {
    Rating::Value {
        elo,
        low,
        high,
        sigma,
    }
}

#[test]
fn chaining_adds_in_quadrature() {
    // The link 10/0/10 is +0 with half-widths h = elo_of_score(0.5 + 1.96 * 0.5 /
    // sqrt(20)) = 163.3 (checked in elo.rs) and a standard error of 77.69; above it,
    // 1500 -300/+400, σ 150.
    let above = rating(1500.0, 1200.0, 1900.0, 150.0);
    let h = tally(10, 0, 10).elo().unwrap().high;
    let Some(Rating::Value {
        elo,
        low,
        high,
        sigma,
    }) = above.chained(&tally(10, 0, 10))
    else {
        panic!("a value chains to a value")
    };
    assert!((elo - 1500.0).abs() < 1e-9);
    assert!((1500.0 - low - (300f64.powi(2) + h * h).sqrt()).abs() < 1e-9);
    assert!((high - 1500.0 - (400f64.powi(2) + h * h).sqrt()).abs() < 1e-9);
    // By hand: sqrt(300² + 163.3²) = 341.6, sqrt(150² + 77.69²) = 168.9.
    assert!((1500.0 - low - 341.6).abs() < 0.2, "{low}");
    assert!((sigma - 168.9).abs() < 0.1, "{sigma}");
    // A 75% link: k is 190.85 above k+1.
    let (elo, ..) = value(above.chained(&tally(3, 0, 1)));
    assert!((elo - 1690.85).abs() < 0.01);
    // Whole-match links and bounds.
    assert_eq!(
        above.chained(&tally(2, 0, 0)),
        Some(Rating::Above { bound: 1500.0 })
    );
    let bound = Rating::Above { bound: 1400.0 };
    assert_eq!(
        bound.chained(&tally(1, 0, 3)).unwrap().to_string(),
        "> 1209"
    );
    assert_eq!(bound.chained(&tally(0, 0, 3)), None);
}

#[test]
fn combining_by_inverse_variance() {
    // σ 100 and 200: weights 4:1, so (4 * 1400 + 1900) / 5 = 1500; σ = 1/sqrt(1/100² +
    // 1/200²) = 89.44, half-width 1.96 * 89.44 = 175.3. The inputs' own intervals do
    // not enter (one is open above here).
    let a = rating(1400.0, 1204.0, 1596.0, 100.0);
    let b = rating(1900.0, 1508.0, f64::INFINITY, 200.0);
    let (r, how) = combine(Some(a), Some(b)).unwrap();
    assert_eq!(how, Combination::Weighted);
    let (elo, low, high) = value(Some(r));
    assert!((elo - 1500.0).abs() < 1e-6, "{elo}");
    assert!((high - elo - 175.3).abs() < 0.1, "{high}");
    assert!((elo - low - 175.3).abs() < 0.1);
    // A standard error of 0 is not weighed; a bound neither.
    let flat = rating(1600.0, 1600.0, 1600.0, 0.0);
    assert_eq!(
        combine(Some(flat), Some(b)),
        Some((b, Combination::ChainedKept))
    );
    assert_eq!(
        combine(Some(a), Some(flat)),
        Some((a, Combination::DirectKept))
    );
    assert_eq!(
        combine(Some(flat), Some(flat)),
        Some((flat, Combination::DirectKept))
    );
    let above = Rating::Above { bound: 1350.0 };
    assert_eq!(
        combine(Some(above), Some(a)),
        Some((a, Combination::ChainedKept))
    );
    assert_eq!(combine(None, Some(a)), Some((a, Combination::Chained)));
    assert_eq!(
        combine(Some(above), Some(Rating::Above { bound: 1420.0 })),
        Some((Rating::Above { bound: 1420.0 }, Combination::TighterBound))
    );
}

#[test]
fn depths_from_matches() {
    let sargon = |d: u8| format!("Sargon 1978 (port, depth {d})");
    let sf = "Stockfish 15.1 (movetime 200 ms, UCI_LimitStrength=true, UCI_Elo=1350)";
    let m = |p: String, o: String, t: Tally| Match {
        repeats: 0,
        player: p,
        opponent: o,
        tally: t,
    };
    let matches = vec![
        // Depth 3 scored 75% against the anchor: 1540.85.
        m(sargon(3), sf.to_string(), tally(3, 0, 1)),
        // Depth 2 against 3, written from 3's side: 3 won 3 of 4, so 2 is 190.85 below.
        m(sargon(3), sargon(2), tally(3, 0, 1)),
        // Depth 1 lost every game to depth 2.
        m(sargon(1), sargon(2), tally(0, 0, 5)),
        // Not part of the study.
        m("Someone".into(), sf.to_string(), tally(1, 0, 0)),
    ];
    let d = rate_depths(&matches, 3);
    assert_eq!(d.len(), 3);
    let (elo3, ..) = value(d[2].combined);
    assert!((elo3 - 1540.85).abs() < 0.01);
    assert_eq!(d[2].how, Some(Combination::Direct));
    assert_eq!(d[2].anchors, vec![1350.0]);
    let (elo2, ..) = value(d[1].chained);
    assert!((elo2 - 1350.0).abs() < 0.01, "{elo2}");
    assert_eq!(d[1].how, Some(Combination::Chained));
    assert_eq!(d[0].combined, Some(Rating::Below { bound: elo2 }));
    let table = render_depth_table(&d);
    assert!(
        table.contains("| 1 | - | < 1350 | < 1350 | chained only |"),
        "{table}"
    );
    let plot = svg_plot(&d, "test", "Stockfish 15.1");
    assert!(plot.starts_with("<svg") && plot.ends_with("</svg>\n"));
    assert!(
        plot.contains(">anchor: Stockfish 15.1, UCI_Elo=1350<"),
        "{plot}"
    );
    assert_eq!(
        plot.matches("<text").count(),
        plot.matches("</text>").count()
    );
    // Depth 3 has a dot for its direct and its combined rating, depth 2 for its
    // chained and combined ones; depth 1 only arrows (a bound).
    assert_eq!(
        plot.matches("<circle").count(),
        4 + 3,
        "4 ratings and 3 legend dots"
    );
}
