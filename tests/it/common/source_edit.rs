//! Changing a copy of the user's transcription, for the tests that check what a changed
//! image does (tests/it/rom_verify/, tests/it/serve.rs). The copies live in temporary
//! directories only; nothing of the source is ever written into the repository.

/// The label a source line defines, if any (labels start in column 1).
pub fn label_of(line: &str) -> Option<&str> {
    if line.starts_with(|c: char| c.is_whitespace() || c == ';') || line.is_empty() {
        return None;
    }
    line.split(|c: char| c.is_whitespace() || c == ':')
        .next()
        .filter(|l| !l.is_empty())
}

/// The code of a line (before its comment), its tokens after any label.
pub fn instruction_tokens(line: &str) -> Vec<&str> {
    let code = line.split(';').next().unwrap_or("");
    let mut tokens: Vec<&str> = code.split_whitespace().collect();
    if label_of(line).is_some() && !tokens.is_empty() {
        // `LABEL: XOR a` or `LABEL XOR a`: drop the label (and a lone colon).
        tokens.remove(0);
    }
    tokens
}

pub fn line_of_label(lines: &[String], label: &str) -> usize {
    lines
        .iter()
        .position(|l| label_of(l).is_some_and(|n| n.eq_ignore_ascii_case(label)))
        .unwrap_or_else(|| panic!("the source has no {label} label"))
}

/// The source with `routine`'s first `XOR a` made `OR a` (same length: nothing moves).
pub fn with_changed_opcode(source: &str, routine: &str) -> String {
    let mut lines: Vec<String> = source.lines().map(str::to_string).collect();
    let start = line_of_label(&lines, routine);
    // The routine runs to the next routine's header, a comment line of asterisks.
    let at = (start..lines.len())
        .take_while(|&i| i == start || !lines[i].trim_start().starts_with(";*"))
        .find(|&i| {
            let t = instruction_tokens(&lines[i]);
            t.len() == 2 && t[0].eq_ignore_ascii_case("XOR") && t[1].eq_ignore_ascii_case("a")
        })
        .unwrap_or_else(|| panic!("an `XOR a` in {routine}"));
    let line = &lines[at];
    let code_end = line.find(';').unwrap_or(line.len());
    let pos = line[..code_end]
        .to_ascii_uppercase()
        .rfind("XOR")
        .expect("XOR on the line");
    lines[at] = format!("{}OR {}", &line[..pos], &line[pos + 3..]);
    lines.join("\n") + "\n"
}

/// The source with the first value of `table` (for PVALUE, the pawn's worth) one more.
pub fn with_changed_table(source: &str, table: &str) -> String {
    let mut lines: Vec<String> = source.lines().map(str::to_string).collect();
    let start = line_of_label(&lines, table);
    let at = (start..lines.len())
        .find(|&i| {
            instruction_tokens(&lines[i])
                .first()
                .is_some_and(|t| t.eq_ignore_ascii_case("DB"))
        })
        .unwrap_or_else(|| panic!("a DB line after {table}"));
    let line = lines[at].clone();
    let code_end = line.find(';').unwrap_or(line.len());
    let db = line[..code_end].to_ascii_uppercase().find("DB").unwrap() + 2;
    let values: Vec<&str> = line[db..code_end].split(',').collect();
    let first: i32 = values[0].trim().parse().expect("a decimal table value");
    let mut changed = vec![values[0].replacen(values[0].trim(), &(first + 1).to_string(), 1)];
    changed.extend(values[1..].iter().map(|v| v.to_string()));
    lines[at] = format!("{}{}{}", &line[..db], changed.join(","), &line[code_end..]);
    lines.join("\n") + "\n"
}
