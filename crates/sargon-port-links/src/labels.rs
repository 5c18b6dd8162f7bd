//! The convention's words: what a label and a label group are, and which words never are.

/// Upper-case words of the port's comments that are never labels: the Z80's register
/// pairs and condition flags (single letters are never taken for labels anyway), and a
/// few abbreviations of the prose.
pub(crate) const NOT_LABELS: &[&str] = &[
    // register pairs and index registers
    "AF", "BC", "DE", "HL", "IX", "IY", "SP", "PC", // condition flags
    "NZ", "NC", "PO",
    "PE", // instructions named in prose ("where the original does CALL POINTS")
    "CALL", "JP", "JR", "RET", "LD", // words
    "FEN", "PV", "UCI", "TODO", "FIXME", "Z80", "MB", "SAFETY", // an unsafe block's comment
];

/// A label: an upper-case letter, then upper-case letters, digits and `_`; at least two
/// characters; none of `NOT_LABELS`.
pub(crate) fn is_label(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && chars.all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        && word.len() >= 2
        && !NOT_LABELS.contains(&word)
}

/// The longest run of word characters (letters, digits, `_`) at the start of `s`.
pub(super) fn word_at(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// A label group: its labels, each with the last label of its range (`PT5..PT25`).
pub(crate) type LabelGroup = Vec<(String, Option<String>)>;

/// The label group `text` begins with (after spaces), and the text after it; `None` if it
/// begins with no label.
pub(crate) fn label_group(text: &str) -> Option<(LabelGroup, &str)> {
    let mut rest = text.trim_start();
    let mut group = Vec::new();
    loop {
        let first = word_at(rest);
        if !is_label(first) {
            return None;
        }
        rest = &rest[first.len()..];
        let mut through = None;
        if let Some(after) = rest.strip_prefix("..") {
            let last = word_at(after);
            if !is_label(last) {
                return None;
            }
            through = Some(last.to_string());
            rest = &after[last.len()..];
        }
        group.push((first.to_string(), through));
        match rest.strip_prefix('/') {
            Some(after) if is_label(word_at(after)) => rest = after,
            _ => return Some((group, rest)),
        }
    }
}

/// The label group of a comment citation: the comment is the group alone, or the group
/// followed by `:` or a parenthesis.
pub(super) fn comment_citation(text: &str) -> Option<LabelGroup> {
    let (group, rest) = label_group(text)?;
    let rest = rest.trim_start();
    (rest.is_empty() || rest.starts_with(':') || rest.starts_with('(')).then_some(group)
}

/// The upper-case words of doc text outside backticks that [`is_label`] accepts.
pub(super) fn doc_names(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for (k, part) in text.split('`').enumerate() {
        if k % 2 == 1 {
            continue; // code
        }
        let mut rest = part;
        while !rest.is_empty() {
            let w = word_at(rest);
            if w.is_empty() {
                let c = rest.chars().next().expect("not empty");
                rest = &rest[c.len_utf8()..];
                continue;
            }
            if is_label(w) {
                out.push(w);
            }
            rest = &rest[w.len()..];
        }
    }
    out
}
