//! The level run as a chart: time per move against level, the TRS-80 manual's averages
//! beside the estimate, drawn as a self-contained SVG.

use std::fmt::Write as _;

use super::{duration, LevelsReport, MANUAL_SECONDS};
use crate::studies::svg::{self, points};

/// The comparison as an SVG plot: time per move (log scale) against level, the manual's
/// averages and the estimate (mean over the positions, with a bar from the least to the
/// greatest).
pub(crate) fn svg_plot(r: &LevelsReport) -> String {
    let n = r.positions.len();
    let text = PlotText {
        subtitle: format!(
            "estimate: T-states of Sargon's Z80 search / 1.774 MHz, {n} positions, book off"
        ),
        mean: "estimate: mean over the positions".to_string(),
        range: "estimate: fastest to slowest position".to_string(),
        values: "estimate".to_string(),
    };
    let levels: Vec<PlotLevel> = r
        .levels
        .iter()
        .map(|l| PlotLevel {
            level: l.level,
            mean: l.trs80_mean_seconds,
            low: l.trs80_min_seconds,
            high: l.trs80_max_seconds,
            estimate: false,
        })
        .collect();
    svg_plot_levels(&text, &levels)
}

/// The words of a plot that differ between the level run and the whole games.
pub(crate) struct PlotText {
    /// The line under the title.
    pub subtitle: String,
    /// The legend of the estimate's mean.
    pub mean: String,
    /// The legend of its range bar.
    pub range: String,
    /// The name of the row of values under the level numbers, beside "manual".
    pub values: String,
}

/// One level's estimate: its mean and the ends of its bar, in seconds.
pub(crate) struct PlotLevel {
    /// The level (1-6).
    pub level: u8,
    /// The mean time per move.
    pub mean: f64,
    /// The bar's lower end.
    pub low: f64,
    /// The bar's upper end.
    pub high: f64,
    /// The figures are an estimate (from counted evaluations), not measured: drawn hollow,
    /// with a legend line saying so.
    pub estimate: bool,
}

/// The manual's times and `levels` as an SVG plot (see [`svg_plot`]).
pub(crate) fn svg_plot_levels(text: &PlotText, levels: &[PlotLevel]) -> String {
    const W: f64 = 760.0;
    const H: f64 = 540.0;
    let (left, right, top, bottom) = (92.0, 30.0, 92.0, 102.0);
    let (pw, ph) = (W - left - right, H - top - bottom);
    let max_level = 6u8;
    let mut lo = f64::INFINITY;
    let mut hi: f64 = 0.0;
    for l in levels {
        lo = lo.min(l.low);
        hi = hi.max(l.high);
    }
    for s in MANUAL_SECONDS {
        lo = lo.min(s);
        hi = hi.max(s);
    }
    let lo_exp = lo.max(1e-3).log10().floor();
    let hi_exp = hi.log10().ceil();
    let x = |level: f64| left + (level - 0.5) / f64::from(max_level) * pw;
    let y = |secs: f64| {
        let v = secs.max(1e-3).log10();
        top + ph - (v - lo_exp) / (hi_exp - lo_exp) * ph
    };
    let mut s = svg::open(W, H);
    svg::title(
        &mut s,
        W,
        "Sargon (1978): time per move by level, TRS-80 Model I",
        &text.subtitle,
    );
    // Grid and y ticks: readable durations.
    let ticks: [(f64, &str); 9] = [
        (0.01, "0.01 s"),
        (0.1, "0.1 s"),
        (1.0, "1 s"),
        (10.0, "10 s"),
        (60.0, "1 min"),
        (600.0, "10 min"),
        (3600.0, "1 h"),
        (36000.0, "10 h"),
        (360000.0, "100 h"),
    ];
    let (ylo, yhi) = (10f64.powf(lo_exp), 10f64.powf(hi_exp));
    for (v, label) in ticks {
        if v < ylo * 0.999 || v > yhi * 1.001 {
            continue;
        }
        let yy = y(v);
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#ddd"/>"##,
            left + pw
        );
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end">{label}</text>"##,
            left - 8.0,
            yy + 4.5
        );
    }
    // Minor grid: each decade's 2..9.
    let mut e = lo_exp;
    while e < hi_exp {
        for k in 2..10 {
            let v = f64::from(k) * 10f64.powf(e);
            let yy = y(v);
            let _ = writeln!(
                s,
                r##"<line x1="{left}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#f2f2f2"/>"##,
                left + pw
            );
        }
        e += 1.0;
    }
    // Axes.
    let _ = writeln!(
        s,
        r##"<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#333"/>"##
    );
    for level in 1..=max_level {
        let xx = x(f64::from(level));
        let _ = writeln!(
            s,
            r##"<line x1="{xx:.1}" y1="{:.1}" x2="{xx:.1}" y2="{:.1}" stroke="#333"/>"##,
            top + ph,
            top + ph + 5.0
        );
        let _ = writeln!(
            s,
            r##"<text x="{xx:.1}" y="{:.1}" text-anchor="middle">{level}</text>"##,
            top + ph + 21.0
        );
    }
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="14">level (look-ahead = search depth in plies)</text>"##,
        left + pw / 2.0,
        H - 16.0
    );
    let _ = writeln!(
        s,
        r##"<text transform="translate(22,{:.1}) rotate(-90)" text-anchor="middle" font-size="14">time per move (log scale)</text>"##,
        top + ph / 2.0
    );
    // The values, in two rows under the level numbers.
    let mut labels = String::new();
    for (row, name, colour) in [
        (42.0, "manual", "#c0392b"),
        (60.0, text.values.as_str(), "#1f5fa8"),
    ] {
        let _ = writeln!(
            labels,
            r##"<text class="v" x="{:.1}" y="{:.1}" fill="{colour}" text-anchor="end">{name}</text>"##,
            left - 8.0,
            top + ph + row
        );
    }
    // The manual's series.
    let manual: Vec<(f64, f64)> = (1..=6u8)
        .map(|l| (x(f64::from(l)), y(MANUAL_SECONDS[usize::from(l) - 1])))
        .collect();
    let red = "#c0392b";
    let blue = "#1f5fa8";
    let _ = writeln!(
        s,
        r##"<polyline points="{}" fill="none" stroke="{red}" stroke-width="2.5" stroke-dasharray="7,5"/>"##,
        points(&manual)
    );
    for (i, &(px, py)) in manual.iter().enumerate() {
        let _ = writeln!(
            s,
            r##"<rect x="{:.1}" y="{:.1}" width="10" height="10" fill="{red}"/>"##,
            px - 5.0,
            py - 5.0
        );
        let _ = writeln!(
            labels,
            r##"<text class="v" x="{px:.1}" y="{:.1}" fill="{red}" text-anchor="middle">{}</text>"##,
            top + ph + 42.0,
            duration(MANUAL_SECONDS[i])
        );
    }
    // The estimate: range bars, then the mean.
    for l in levels {
        let xx = x(f64::from(l.level));
        let (y1, y2) = (y(l.low), y(l.high));
        let _ = writeln!(
            s,
            r##"<line x1="{xx:.1}" y1="{y1:.1}" x2="{xx:.1}" y2="{y2:.1}" stroke="{blue}" stroke-opacity="0.45" stroke-width="2"/>"##
        );
        for yy in [y1, y2] {
            let _ = writeln!(
                s,
                r##"<line x1="{:.1}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="{blue}" stroke-opacity="0.45" stroke-width="2"/>"##,
                xx - 6.0,
                xx + 6.0
            );
        }
    }
    let est: Vec<(f64, f64)> = levels
        .iter()
        .map(|l| (x(f64::from(l.level)), y(l.mean)))
        .collect();
    let _ = writeln!(
        s,
        r##"<polyline points="{}" fill="none" stroke="{blue}" stroke-width="2.5"/>"##,
        points(&est)
    );
    for (l, &(px, py)) in levels.iter().zip(&est) {
        let fill = if l.estimate { "white" } else { blue };
        let _ = writeln!(
            s,
            r##"<circle cx="{px:.1}" cy="{py:.1}" r="5.5" fill="{fill}" stroke="{blue}" stroke-width="2"/>"##
        );
        let _ = writeln!(
            labels,
            r##"<text class="v" x="{px:.1}" y="{:.1}" fill="{blue}" text-anchor="middle">{}</text>"##,
            top + ph + 60.0,
            duration(l.mean) + if l.estimate { "*" } else { "" }
        );
    }
    s.push_str(&labels);
    // Legend.
    let any_estimate = levels.iter().any(|l| l.estimate);
    let (lx, ly) = (left + 14.0, top + 18.0);
    let _ = writeln!(
        s,
        r##"<rect x="{:.1}" y="{:.1}" width="392" height="{}" fill="white" fill-opacity="0.9" stroke="#bbb"/>"##,
        lx - 8.0,
        ly - 14.0,
        if any_estimate { 82 } else { 62 }
    );
    let _ = writeln!(
        s,
        r##"<line x1="{lx:.1}" y1="{ly:.1}" x2="{:.1}" y2="{ly:.1}" stroke="{red}" stroke-width="2.5" stroke-dasharray="7,5"/><rect x="{:.1}" y="{:.1}" width="10" height="10" fill="{red}"/>"##,
        lx + 34.0,
        lx + 12.0,
        ly - 5.0
    );
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}">TRS-80 manual: average time per move</text>"##,
        lx + 44.0,
        ly + 4.5
    );
    let ly2 = ly + 22.0;
    let _ = writeln!(
        s,
        r##"<line x1="{lx:.1}" y1="{ly2:.1}" x2="{:.1}" y2="{ly2:.1}" stroke="{blue}" stroke-width="2.5"/><circle cx="{:.1}" cy="{ly2:.1}" r="5.5" fill="{blue}"/>"##,
        lx + 34.0,
        lx + 17.0
    );
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}">{}</text>"##,
        lx + 44.0,
        ly2 + 4.5,
        text.mean
    );
    let ly3 = ly2 + 20.0;
    let _ = writeln!(
        s,
        r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{blue}" stroke-opacity="0.45" stroke-width="2"/>"##,
        lx + 17.0,
        ly3 - 7.0,
        lx + 17.0,
        ly3 + 7.0
    );
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}">{}</text>"##,
        lx + 44.0,
        ly3 + 4.5,
        text.range
    );
    if any_estimate {
        let estimated: Vec<String> = levels
            .iter()
            .filter(|l| l.estimate)
            .map(|l| l.level.to_string())
            .collect();
        let ly4 = ly3 + 20.0;
        let _ = writeln!(
            s,
            r##"<circle cx="{:.1}" cy="{ly4:.1}" r="5.5" fill="white" stroke="{blue}" stroke-width="2"/><text x="{:.1}" y="{:.1}">hollow, *: estimate, not measured (level{} {})</text>"##,
            lx + 17.0,
            lx + 44.0,
            ly4 + 4.5,
            if estimated.len() > 1 { "s" } else { "" },
            estimated.join(", ")
        );
    }
    s.push_str("</svg>\n");
    s
}
