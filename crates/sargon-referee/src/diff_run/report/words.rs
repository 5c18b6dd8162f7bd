//! Words of the report's text that more than one part of it writes.

/// `1 search`, `2 searches`.
pub(super) fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
