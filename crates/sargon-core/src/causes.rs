//! An error with its causes, on one line.

/// `error` and each of its causes (its `source()`, that one's, ...), joined by `": "`: the
/// line a command prints for an error, as anyhow's `{:#}` does in the `sargon` binary.
///
/// ```
/// # use sargon_core::causes::with_causes;
/// let e = "x".parse::<u8>().unwrap_err();
/// assert_eq!(with_causes(&e), "invalid digit found in string");
/// #[derive(Debug, thiserror::Error)]
/// #[error("reading the table")]
/// struct Reading(#[source] std::num::ParseIntError);
/// assert_eq!(with_causes(&Reading(e)), "reading the table: invalid digit found in string");
/// ```
pub fn with_causes(error: &dyn std::error::Error) -> String {
    let mut line = error.to_string();
    let mut cause = error.source();
    while let Some(e) = cause {
        line.push_str(": ");
        line.push_str(&e.to_string());
        cause = e.source();
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("reading the table")]
    struct Outer(#[source] std::num::ParseIntError);

    #[test]
    fn each_cause_follows_its_error() {
        let inner = "x".parse::<u8>().unwrap_err();
        assert_eq!(with_causes(&inner), "invalid digit found in string");
        assert_eq!(
            with_causes(&Outer(inner)),
            "reading the table: invalid digit found in string"
        );
    }
}
