//! Splitting a source line into label, operation and operands.
//!
//! The dialect is zmac's as the Sargon transcription uses it: a word starting in column 1
//! is a label (colon optional), `;` starts a comment outside quotes, and `AF'` is a
//! register, not the start of a character constant. These rules live here so that macro
//! expansion and the statement parser see lines the same way.

use super::expr::{is_ident_char, is_ident_start};
use super::AsmErrorKind;

/// One source line taken apart; all parts borrow from the line.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Line<'a> {
    pub label: Option<&'a str>,
    pub op: Option<&'a str>,
    /// Everything after the operation, comment removed, trimmed.
    pub rest: &'a str,
}

/// Does the quote at byte `i` close the register name `AF'` (so it is not a string)?
fn is_af_prime(s: &[u8], i: usize) -> bool {
    i >= 2 && s[i - 2..i].eq_ignore_ascii_case(b"AF") && (i == 2 || !is_ident_char(s[i - 3]))
}

/// Walk the code of a line, calling `f(index, in_string)` for every byte outside a
/// comment; returns where the comment starts (or the line's length).
fn walk(line: &str, mut f: impl FnMut(usize, bool)) -> usize {
    let s = line.as_bytes();
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        match quote {
            Some(q) => {
                f(i, true);
                if c == q {
                    if s.get(i + 1) == Some(&q) {
                        f(i + 1, true);
                        i += 1;
                    } else {
                        quote = None;
                    }
                }
            }
            None => {
                if c == b';' {
                    return i;
                }
                let opens = c == b'"' || (c == b'\'' && !is_af_prime(s, i));
                f(i, opens);
                if opens {
                    quote = Some(c);
                }
            }
        }
        i += 1;
    }
    s.len()
}

/// The line without its comment.
pub(crate) fn code(line: &str) -> &str {
    &line[..walk(line, |_, _| {})]
}

/// Split operands at commas outside strings and brackets.
pub(crate) fn split_operands(rest: &str) -> Vec<&str> {
    let rest = rest.trim();
    if rest.is_empty() {
        return Vec::new();
    }
    let s = rest.as_bytes();
    let mut cuts = Vec::new();
    let mut depth = 0i32;
    walk(rest, |i, in_string| {
        if !in_string {
            match s[i] {
                b'(' | b'[' => depth += 1,
                b')' | b']' => depth -= 1,
                b',' if depth == 0 => cuts.push(i),
                _ => {}
            }
        }
    });
    let mut out = Vec::with_capacity(cuts.len() + 1);
    let mut start = 0;
    for c in cuts {
        out.push(rest[start..c].trim());
        start = c + 1;
    }
    out.push(rest[start..].trim());
    out
}

/// Replace whole identifiers outside strings (macro parameters by their arguments).
pub(crate) fn substitute(code: &str, lookup: impl Fn(&str) -> Option<String>) -> String {
    let s = code.as_bytes();
    let mut in_str = vec![false; s.len()];
    walk(code, |i, q| in_str[i] = q);
    let mut out = String::with_capacity(code.len());
    let mut i = 0;
    while i < s.len() {
        if !in_str[i] && is_ident_start(s[i]) && (i == 0 || !is_ident_char(s[i - 1])) {
            let start = i;
            while i < s.len() && is_ident_char(s[i]) && !in_str[i] {
                i += 1;
            }
            let word = &code[start..i];
            match lookup(word) {
                Some(rep) => out.push_str(&rep),
                None => out.push_str(word),
            }
        } else {
            let ch_len = code[i..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&code[i..i + ch_len]);
            i += ch_len;
        }
    }
    out
}

/// Take a line apart. `is_op` says whether a word is an operation (mnemonic, directive or
/// macro): such a word in column 1 without a colon is taken as the operation, unless the
/// next word defines a name (`EQU`, `=`, `MACRO`).
pub(crate) fn split_line<'a>(
    line: &'a str,
    is_op: impl Fn(&str) -> bool,
) -> Result<Line<'a>, AsmErrorKind> {
    let code = code(line);
    let trimmed = code.trim_start();
    if trimmed.is_empty() || (code.starts_with('*')) {
        return Ok(Line::default());
    }
    let in_col1 = trimmed.len() == code.len();
    let (first, after_first) = word(trimmed);
    if first.is_empty() {
        if let Some(r) = trimmed.strip_prefix('=') {
            return Err(AsmErrorKind::EqualsWithoutName {
                rest: r.trim().to_string(),
            });
        }
        return Err(AsmErrorKind::Unexpected {
            text: trimmed.trim_end().to_string(),
        });
    }
    let mut label = None;
    let mut rest = after_first;
    if let Some(r) = after_first.strip_prefix(':') {
        label = Some(first);
        rest = r.strip_prefix(':').unwrap_or(r);
    } else {
        let next = word(rest.trim_start()).0;
        let defines = rest.trim_start().starts_with('=')
            || ["EQU", "MACRO", "DEFL"]
                .iter()
                .any(|d| next.eq_ignore_ascii_case(d));
        if (in_col1 && !is_op(first)) || defines {
            label = Some(first);
        } else {
            rest = trimmed;
        }
    }
    let rest = rest.trim_start();
    if let Some(r) = rest.strip_prefix('=') {
        return Ok(Line {
            label,
            op: Some("="),
            rest: r.trim(),
        });
    }
    let (op, after) = word(rest);
    if op.is_empty() {
        if !rest.trim().is_empty() {
            return Err(AsmErrorKind::Unexpected {
                text: rest.trim().to_string(),
            });
        }
        return Ok(Line {
            label,
            op: None,
            rest: "",
        });
    }
    if !after.is_empty() && !after.starts_with(|c: char| c.is_ascii_whitespace()) {
        return Err(AsmErrorKind::UnexpectedAfterOperation {
            text: after.trim().to_string(),
            operation: op.to_string(),
        });
    }
    Ok(Line {
        label,
        op: Some(op),
        rest: after.trim(),
    })
}

/// The identifier at the start of `s` and what follows it.
fn word(s: &str) -> (&str, &str) {
    let b = s.as_bytes();
    if b.is_empty() || !is_ident_start(b[0]) {
        return ("", s);
    }
    let end = b.iter().position(|&c| !is_ident_char(c)).unwrap_or(b.len());
    s.split_at(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ops(w: &str) -> bool {
        ["LD", "NOP", "RET", "EQU", "ORG"]
            .iter()
            .any(|o| w.eq_ignore_ascii_case(o))
    }

    #[test]
    fn labels_and_comments() {
        let l = split_line("LOOP:   LD A,B ; copy", ops).unwrap();
        assert_eq!(
            l,
            Line {
                label: Some("LOOP"),
                op: Some("LD"),
                rest: "A,B"
            }
        );
        let l = split_line("LOOP    LD A,';' ; semicolon", ops).unwrap();
        assert_eq!(
            l,
            Line {
                label: Some("LOOP"),
                op: Some("LD"),
                rest: "A,';'"
            }
        );
        let l = split_line("        EX AF,AF' ; swap", ops).unwrap();
        assert_eq!(
            l,
            Line {
                label: None,
                op: Some("EX"),
                rest: "AF,AF'"
            }
        );
        let l = split_line("NAME    EQU 5", ops).unwrap();
        assert_eq!(
            l,
            Line {
                label: Some("NAME"),
                op: Some("EQU"),
                rest: "5"
            }
        );
        let l = split_line("ORG 100H", ops).unwrap();
        assert_eq!(
            l,
            Line {
                label: None,
                op: Some("ORG"),
                rest: "100H"
            }
        );
        let l = split_line("   X = 3", ops).unwrap();
        assert_eq!(
            l,
            Line {
                label: Some("X"),
                op: Some("="),
                rest: "3"
            }
        );
        let l = split_line("HERE:", ops).unwrap();
        assert_eq!(
            l,
            Line {
                label: Some("HERE"),
                op: None,
                rest: ""
            }
        );
        assert_eq!(
            split_line("   ; only a comment", ops).unwrap(),
            Line::default()
        );
        assert_eq!(
            split_line("* old style comment", ops).unwrap(),
            Line::default()
        );
        assert!(split_line("  LD, A", ops).is_err());
    }

    #[test]
    fn operands() {
        assert_eq!(split_operands("A , (IX+2)"), vec!["A", "(IX+2)"]);
        assert_eq!(
            split_operands("'a,b',\"x;y\",3"),
            vec!["'a,b'", "\"x;y\"", "3"]
        );
        assert_eq!(split_operands("(1,2),3"), vec!["(1,2)", "3"]);
        assert_eq!(split_operands(""), Vec::<&str>::new());
        assert_eq!(code("DB 'it''s; fine' ; comment"), "DB 'it''s; fine' ");
    }

    #[test]
    fn substitution() {
        let f = |w: &str| (w.eq_ignore_ascii_case("NAME")).then(|| "TEXT".to_string());
        assert_eq!(
            substitute(" DW NAME,NAMES,'NAME'", f),
            " DW TEXT,NAMES,'NAME'"
        );
    }
}
