//! The few pieces every hand-written SVG plot of the project starts with (the level and
//! game-time charts of `sargon history`, the strength chart): one look, written once.
//! The plots are plain text so that they can be committed and diffed; no plotting crate.

use std::fmt::Write as _;

/// The opening of a `width` × `height` document: the `<svg>` element with the project's
/// font, a white background and the bold style class `v` for value labels. Close it with
/// `</svg>`.
pub(crate) fn open(width: f64, height: f64) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="13">"##
    );
    let _ = writeln!(
        s,
        r##"<rect width="{width}" height="{height}" fill="white"/>"##
    );
    let _ = writeln!(s, r##"<style>.v {{ font-weight: bold; }}</style>"##);
    s
}

/// The title and, under it, a grey subtitle, centred on a document `width` wide.
pub(crate) fn title(s: &mut String, width: f64, title: &str, subtitle: &str) {
    let _ = writeln!(
        s,
        r##"<text x="{}" y="28" font-size="18" font-weight="bold" text-anchor="middle">{}</text>"##,
        width / 2.0,
        escape(title)
    );
    let _ = writeln!(
        s,
        r##"<text x="{}" y="48" fill="#444" text-anchor="middle">{}</text>"##,
        width / 2.0,
        escape(subtitle)
    );
}

/// A polyline's `points` attribute.
pub(crate) fn points(p: &[(f64, f64)]) -> String {
    p.iter()
        .map(|(x, y)| format!("{x:.1},{y:.1}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Text made safe for an SVG text node or attribute.
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces() {
        let mut s = open(10.0, 20.0);
        assert!(s.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="20""#));
        title(&mut s, 10.0, "a < b", "c & d");
        assert!(
            s.contains(">a &lt; b</text>") && s.contains(">c &amp; d</text>"),
            "{s}"
        );
        assert_eq!(points(&[(1.0, 2.26), (3.0, 4.04)]), "1.0,2.3 3.0,4.0");
    }
}
