//! The ratings per depth as an SVG plot ([`svg_plot`]).

use std::fmt::Write as _;

use super::depths::DepthRating;
use super::rating::Rating;
use crate::studies::svg;

/// The combined ratings per depth as an SVG plot: a point per depth with its 95% interval
/// as an error bar (an arrow where it is unbounded, a bare arrow for a bound), the direct
/// and chained ratings as small markers beside it, and each anchor as a horizontal line
/// labelled with `anchor_engine` (the rated opponent, "Stockfish 15.1" say).
pub(crate) fn svg_plot(depths: &[DepthRating], subtitle: &str, anchor_engine: &str) -> String {
    const W: f64 = 760.0;
    const H: f64 = 560.0;
    let (left, right, top, bottom) = (80.0, 30.0, 70.0, 122.0);
    let (pw, ph) = (W - left - right, H - top - bottom);
    let max_depth = depths.iter().map(|d| d.depth).max().unwrap_or(6).max(1);
    // The y range: every finite value shown, rounded out to 100s, at least 400 wide.
    let mut values: Vec<f64> = Vec::new();
    for d in depths {
        for r in [d.direct, d.chained, d.combined].into_iter().flatten() {
            values.push(r.centre());
            if let Rating::Value { low, high, .. } = r {
                values.extend([low, high].into_iter().filter(|x| x.is_finite()));
            }
        }
        values.extend(&d.anchors);
    }
    let (mut lo, mut hi) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    if !lo.is_finite() {
        (lo, hi) = (1000.0, 1600.0);
    }
    lo = (lo / 100.0).floor() * 100.0 - 100.0;
    hi = (hi / 100.0).ceil() * 100.0 + 100.0;
    if hi - lo < 400.0 {
        hi = lo + 400.0;
    }
    let x = |depth: f64| left + (depth - 0.5) / f64::from(max_depth) * pw;
    let y = |elo: f64| top + ph - (elo.clamp(lo, hi) - lo) / (hi - lo) * ph;
    let mut s = svg::open(W, H);
    svg::title(
        &mut s,
        W,
        "Sargon (1978): Elo by search depth, with 95% intervals",
        subtitle,
    );
    // Grid.
    let step = if hi - lo > 1200.0 { 200.0 } else { 100.0 };
    let mut v = lo;
    while v <= hi + 1e-9 {
        let yy = y(v);
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{v:.0}</text>"##,
            left + pw,
            left - 8.0,
            yy + 4.5
        );
        v += step;
    }
    let _ = writeln!(
        s,
        r##"<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#333"/>"##
    );
    for depth in 1..=max_depth {
        let xx = x(f64::from(depth));
        let _ = writeln!(
            s,
            r##"<text x="{xx:.1}" y="{:.1}" text-anchor="middle">{depth}</text>"##,
            top + ph + 20.0
        );
    }
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="14">Sargon's search depth (plies)</text>"##,
        left + pw / 2.0,
        top + ph + 42.0
    );
    let _ = writeln!(
        s,
        r##"<text transform="translate(22,{:.1}) rotate(-90)" text-anchor="middle" font-size="14">Elo (the anchor's scale)</text>"##,
        top + ph / 2.0
    );
    // Anchors.
    let red = "#c0392b";
    let mut anchors: Vec<f64> = depths.iter().flat_map(|d| d.anchors.clone()).collect();
    anchors.sort_by(f64::total_cmp);
    anchors.dedup();
    for a in &anchors {
        let yy = y(*a);
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="{red}" stroke-width="2" stroke-dasharray="7,5"/><text x="{:.1}" y="{:.1}" fill="{red}" text-anchor="end">anchor: {}, UCI_Elo={a:.0}</text>"##,
            left + pw,
            left + pw - 6.0,
            yy - 6.0,
            svg::escape(anchor_engine),
        );
    }
    // The ratings: direct and chained small, left and right; combined large, centred.
    let series = [
        (-14.0, 3.5, 1.2, "#7f8c8d", 0usize),
        (14.0, 3.5, 1.2, "#e67e22", 1),
        (0.0, 6.0, 2.5, "#1f5fa8", 2),
    ];
    for d in depths {
        for &(dx, radius, width, colour, which) in &series {
            let r = match which {
                0 => d.direct,
                1 => d.chained,
                _ => d.combined,
            };
            let Some(r) = r else { continue };
            let xx = x(f64::from(d.depth)) + dx;
            draw_rating(&mut s, &r, xx, radius, width, colour, &y, (top, top + ph));
        }
    }
    // Legend, under the plot (the data can reach every corner of it).
    let rows = [
        (
            "#1f5fa8",
            6.0,
            "combined (bar: 95% interval, arrow: open end or bound)",
        ),
        ("#7f8c8d", 3.5, "direct: against the anchor"),
        ("#e67e22", 3.5, "chained: depth + 1 and their match"),
    ];
    let legend_top = top + ph + 66.0;
    for (i, (colour, radius, label)) in rows.iter().enumerate() {
        let (lx, ly) = if i == 0 {
            (left + 10.0, legend_top)
        } else {
            (left + 10.0 + 330.0 * (i - 1) as f64, legend_top + 22.0)
        };
        let _ = writeln!(
            s,
            r##"<circle cx="{lx:.1}" cy="{ly:.1}" r="{radius}" fill="{colour}"/><text x="{:.1}" y="{:.1}">{label}</text>"##,
            lx + 14.0,
            ly + 4.5
        );
    }
    let (lx, ly) = (left + 430.0, legend_top);
    let _ = writeln!(
        s,
        r##"<line x1="{lx:.1}" y1="{ly:.1}" x2="{:.1}" y2="{ly:.1}" stroke="{red}" stroke-width="2" stroke-dasharray="7,5"/><text x="{:.1}" y="{:.1}">an anchor's level</text>"##,
        lx + 24.0,
        lx + 32.0,
        ly + 4.5
    );
    s.push_str("</svg>\n");
    s
}

/// One rating: a dot with its error bar, arrows for open ends; a bound is an arrow from it.
#[allow(clippy::too_many_arguments)]
fn draw_rating(
    s: &mut String,
    r: &Rating,
    xx: f64,
    radius: f64,
    width: f64,
    colour: &str,
    y: &dyn Fn(f64) -> f64,
    (plot_top, plot_bottom): (f64, f64),
) {
    let arrow = |s: &mut String, from: f64, up: bool| {
        let end = if up {
            plot_top + 4.0
        } else {
            plot_bottom - 4.0
        };
        let tip = if up { 7.0 } else { -7.0 };
        let _ = writeln!(
            s,
            r##"<line x1="{xx:.1}" y1="{from:.1}" x2="{xx:.1}" y2="{end:.1}" stroke="{colour}" stroke-width="{width}" stroke-opacity="0.6"/><polyline points="{:.1},{:.1} {xx:.1},{end:.1} {:.1},{:.1}" fill="none" stroke="{colour}" stroke-width="{width}" stroke-opacity="0.6"/>"##,
            xx - 5.0,
            end + tip,
            xx + 5.0,
            end + tip
        );
    };
    match *r {
        Rating::Value { elo, low, high, .. } => {
            let (y1, y2) = (y(low), y(high));
            let _ = writeln!(
                s,
                r##"<line x1="{xx:.1}" y1="{y1:.1}" x2="{xx:.1}" y2="{y2:.1}" stroke="{colour}" stroke-width="{width}" stroke-opacity="0.6"/>"##
            );
            for (end, open, up) in [
                (y1, low.is_infinite(), false),
                (y2, high.is_infinite(), true),
            ] {
                if open {
                    arrow(s, end, up);
                } else {
                    let _ = writeln!(
                        s,
                        r##"<line x1="{:.1}" y1="{end:.1}" x2="{:.1}" y2="{end:.1}" stroke="{colour}" stroke-width="{width}" stroke-opacity="0.6"/>"##,
                        xx - 5.0,
                        xx + 5.0
                    );
                }
            }
            let _ = writeln!(
                s,
                r##"<circle cx="{xx:.1}" cy="{:.1}" r="{radius}" fill="{colour}"/>"##,
                y(elo)
            );
        }
        Rating::Above { bound } => arrow(s, y(bound), true),
        Rating::Below { bound } => arrow(s, y(bound), false),
    }
}
