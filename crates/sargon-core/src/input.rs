//! Quoting what a person typed back to them in an error message.
//!
//! Error messages repeat the input they refuse so that the person sees what was read. An
//! input can be anything: a 2 MB line of an EPD file, a FEN pasted with a tab or a carriage
//! return in it, a terminal escape sequence. Quoted whole, such an input buries the message
//! or garbles the terminal, and an invisible character (a byte-order mark, a zero-width
//! space) quoted as it is shows nothing where the fault is. Every error that echoes input
//! goes through [`echo`]: at most `ECHO_CHARS` characters, control and invisible characters
//! escaped, and a count of what was cut.
//!
//! Numbers given as text (command-line options, `sargon:depth=N`) are read here too, by
//! [`whole_number`] and [`seconds`], so that every refusal states the range the number
//! takes, in one wording: "expected a whole number from 1 to 1024, got `-1`".

/// How many characters of an input an error message quotes.
pub(crate) const ECHO_CHARS: usize = 100;

/// `text` as an error message quotes it: control characters (newlines, tabs, escapes, ...)
/// and characters that print as nothing (`U+FEFF`, `U+200B`, direction overrides) written
/// as Rust escapes (`\n`, `\t`, `\u{1b}`, `\u{feff}`), and anything past `ECHO_CHARS`
/// characters replaced by "... (N more characters)".
///
/// ```
/// use sargon_core::input::echo;
/// assert_eq!(echo("bad\x1b[2Jline\n"), "bad\\u{1b}[2Jline\\n");
/// assert!(echo(&"x".repeat(150)).ends_with("... (50 more characters)"));
/// ```
pub fn echo(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    for c in chars.by_ref().take(ECHO_CHARS) {
        if c.is_control() {
            out.extend(c.escape_default());
        } else if is_invisible(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    let more = chars.count();
    if more > 0 {
        out.push_str(&format!("... ({more} more characters)"));
    }
    out
}

/// A whole number within `lo..=hi`, from `text` (spaces around it allowed). Whatever is
/// refused (a negative number, one too large for any type, a fraction, a word) gets the
/// same sentence, naming the range: "expected a whole number from 1 to 1024, got `-1`".
///
/// ```
/// use sargon_core::input::whole_number;
/// assert_eq!(whole_number(" 12 ", 1, 1024), Ok(12));
/// assert_eq!(
///     whole_number("-1", 1, 1024).unwrap_err().to_string(),
///     "expected a whole number from 1 to 1024, got `-1`"
/// );
/// ```
pub fn whole_number(text: &str, lo: u64, hi: u64) -> Result<u64, WholeNumberError> {
    match text.trim().parse::<u64>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(WholeNumberError {
            lo,
            hi,
            text: text.to_string(),
        }),
    }
}

/// Why [`whole_number`] refused a text: it is no whole number, or one outside `lo..=hi`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected a whole number from {lo} to {hi}, got `{}`", echo(.text))]
pub struct WholeNumberError {
    /// The smallest number taken.
    pub lo: u64,
    /// The largest number taken.
    pub hi: u64,
    /// The text refused, as given (the message quotes it through [`echo`]).
    pub text: String,
}

/// A number of seconds above 0 and at most `most`, from `text` (a fraction allowed:
/// `0.5`). Refused alike: 0, a negative number, one past `most` (`1e20`), `inf`, `NaN`.
///
/// ```
/// use sargon_core::input::seconds;
/// assert_eq!(seconds("0.5", 60.0), Ok(0.5));
/// assert!(seconds("NaN", 60.0).is_err() && seconds("0", 60.0).is_err());
/// ```
pub fn seconds(text: &str, most: f64) -> Result<f64, SecondsError> {
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s <= most => Ok(s),
        _ => Err(SecondsError {
            most,
            text: text.to_string(),
        }),
    }
}

/// Why [`seconds`] refused a text: it is no number, or not above 0 and at most `most`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("expected a number of seconds above 0 and at most {most}, got `{}`", echo(.text))]
pub struct SecondsError {
    /// The most seconds taken.
    pub most: f64,
    /// The text refused, as given (the message quotes it through [`echo`]).
    pub text: String,
}

/// Does `c` print as nothing (or not at all) although it is no control character? Rust's
/// debug escaping knows which characters are printable; a combining mark after a letter is
/// (it prints on the letter), so it is asked about `c` after a letter, where a combining
/// mark is not escaped.
fn is_invisible(c: char) -> bool {
    let mut after_a_letter = String::from("a");
    after_a_letter.push(c);
    after_a_letter.escape_debug().nth(1) == Some('\\') && !matches!(c, '"' | '\'' | '\\')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_state_their_range_whatever_is_wrong() {
        assert_eq!(whole_number("3", 1, 10), Ok(3));
        assert_eq!(whole_number(" 10 ", 1, 10), Ok(10));
        assert_eq!(whole_number("0", 0, u64::MAX), Ok(0));
        assert_eq!(
            whole_number("18446744073709551615", 0, u64::MAX),
            Ok(u64::MAX)
        );
        for bad in [
            "0",
            "11",
            "-1",
            "99999999999999999999999",
            "3.5",
            "x",
            "",
            "1e3",
        ] {
            assert_eq!(
                whole_number(bad, 1, 10).map_err(|e| e.to_string()),
                Err(format!("expected a whole number from 1 to 10, got `{bad}`")),
                "{bad}"
            );
        }
        let e = whole_number("\u{1b}[31m", 1, 2).unwrap_err().to_string();
        assert!(!e.contains('\u{1b}'), "{e}");
    }

    #[test]
    fn refusals_are_types_that_keep_the_range_and_the_text() {
        let e = whole_number("x", 1, 10).unwrap_err();
        assert_eq!((e.lo, e.hi, e.text.as_str()), (1, 10, "x"));
        let e = seconds("0", 5.0).unwrap_err();
        assert_eq!((e.most, e.text.as_str()), (5.0, "0"));
    }

    #[test]
    fn seconds_state_their_range() {
        assert_eq!(seconds("0.5", 10.0), Ok(0.5));
        assert_eq!(seconds("10", 10.0), Ok(10.0));
        for bad in ["0", "-1", "1e20", "10.5", "inf", "NaN", "x"] {
            assert_eq!(
                seconds(bad, 10.0).map_err(|e| e.to_string()),
                Err(format!(
                    "expected a number of seconds above 0 and at most 10, got `{bad}`"
                )),
                "{bad}"
            );
        }
    }

    #[test]
    fn short_printable_input_is_quoted_as_it_is() {
        assert_eq!(echo("e2e4"), "e2e4");
        assert_eq!(echo("Dürer ♞"), "Dürer ♞");
        assert_eq!(echo(""), "");
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(echo("a\tb\r\n"), "a\\tb\\r\\n");
        assert_eq!(echo("\u{1b}[2J"), "\\u{1b}[2J");
        assert_eq!(echo("\0"), "\\u{0}");
    }

    #[test]
    fn invisible_characters_are_escaped_and_marks_on_letters_kept() {
        assert_eq!(echo("\u{feff}startpos"), "\\u{feff}startpos");
        assert_eq!(echo("e2\u{200b}e4"), "e2\\u{200b}e4");
        assert_eq!(echo("a\u{202e}b"), "a\\u{202e}b");
        // Decomposed accents (as macOS writes file names) and quotes are text.
        assert_eq!(echo("Du\u{308}rer"), "Du\u{308}rer");
        assert_eq!(echo("\"it's\" \\"), "\"it's\" \\");
    }

    #[test]
    fn long_input_is_cut_with_a_count() {
        let long = "x".repeat(2_000_000);
        let e = echo(&long);
        assert_eq!(
            e,
            format!("{}... (1999900 more characters)", "x".repeat(100))
        );
        // Exactly the limit: nothing cut.
        assert_eq!(echo(&"y".repeat(ECHO_CHARS)), "y".repeat(ECHO_CHARS));
        // Counted in characters, not bytes.
        let e = echo(&"é".repeat(150));
        assert!(e.starts_with(&"é".repeat(100)) && e.ends_with("(50 more characters)"));
    }
}
