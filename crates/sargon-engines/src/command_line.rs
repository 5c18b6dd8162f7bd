//! The command line of a UCI engine (`UciClient::spawn`) split into
//! words as a shell splits a simple command, without running a shell.

/// Why a command line does not split into words. The message does not quote the line: the
/// caller quotes it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SplitError {
    /// A quote (`'` or `"`) that is not closed.
    #[error("unclosed {0}")]
    Unclosed(char),
    /// A `\` with nothing after it to escape.
    #[error("a lone \\ at the end")]
    LoneBackslash,
    /// No word at all.
    #[error("an empty engine command")]
    Empty,
}

/// Split a command line into words: whitespace separates, `'...'` and `"..."` quote, `\`
/// escapes the next character (outside single quotes). An error says what is wrong without
/// quoting the line: the caller quotes it.
pub fn split_command(line: &str) -> Result<Vec<String>, SplitError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(SplitError::Unclosed('\'')),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c) => word.push(c),
                            None => return Err(SplitError::Unclosed('"')),
                        },
                        Some(c) => word.push(c),
                        None => return Err(SplitError::Unclosed('"')),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err(SplitError::LoneBackslash),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err(SplitError::Empty);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines() {
        assert_eq!(split_command("stockfish").unwrap(), ["stockfish"]);
        assert_eq!(
            split_command(r#"  "my engine" --x 'a b' c\ d "q\"t" "#).unwrap(),
            ["my engine", "--x", "a b", "c d", "q\"t"]
        );
        assert_eq!(split_command("   "), Err(SplitError::Empty));
        assert_eq!(split_command("a 'b"), Err(SplitError::Unclosed('\'')));
        assert_eq!(split_command("a \"b"), Err(SplitError::Unclosed('"')));
        assert_eq!(split_command("a\\"), Err(SplitError::LoneBackslash));
        // The words of the messages, as they were when they were strings.
        assert_eq!(SplitError::Unclosed('\'').to_string(), "unclosed '");
        assert_eq!(SplitError::Unclosed('"').to_string(), "unclosed \"");
        assert_eq!(
            SplitError::LoneBackslash.to_string(),
            "a lone \\ at the end"
        );
    }
}
