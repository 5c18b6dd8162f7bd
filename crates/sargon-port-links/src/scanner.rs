//! Reading the links from the port's source text: a scanner of comments and the items around them.

use super::labels::{comment_citation, doc_names, label_group, word_at, LabelGroup};
use super::links::{Citation, Form, NameUse, PortLinks};

/// The port's source files as compiled, `(path from the workspace root, text)`: every `.rs`
/// file under `crates/sargon-port/src` (listed by `build.rs`).
pub const PORT_SOURCES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/port_sources.rs"));

impl PortLinks {
    /// The links of the port as compiled into this program.
    pub fn of_port() -> PortLinks {
        PortLinks::extract(PORT_SOURCES)
    }

    /// The links of some source files, `(path, text)`.
    pub fn extract(files: &[(&str, &str)]) -> PortLinks {
        let mut links = PortLinks::default();
        for (path, text) in files {
            Scanner::new(path, &mut links).scan(text);
        }
        links
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    Fn,
    Impl,
    Trait,
    Enum,
    Struct,
    Mod,
}

/// A named item whose braces are open.
struct Scope {
    kind: Kind,
    name: String,
    /// The brace depth inside its braces.
    depth: usize,
}

/// Where the lexer is at the end of a line: what continues onto the next one.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Carry {
    Code,
    /// Inside `/* */` comments, this deep.
    Block(usize),
    /// Inside a string literal.
    Str,
    /// Inside a raw string literal with this many `#`.
    Raw(usize),
}

/// One pass over a source file: a small Rust lexer (comments, strings, character
/// literals, braces) that knows enough of the items (`fn`, `impl`, `enum`, ...) to name the
/// function around a line.
struct Scanner<'a> {
    file: &'a str,
    links: &'a mut PortLinks,
    carry: Carry,
    scopes: Vec<Scope>,
    depth: usize,
    paren: usize,
    /// An item header seen, whose `{` has not come yet: kind, name, paren depth.
    pending: Option<(Kind, String, usize)>,
    /// The last `const` or `static` declared (names lines outside functions).
    last_const: Option<String>,
    /// The `///` lines waiting for the item they document: (line, text).
    doc: Vec<(usize, String)>,
    /// Test code: checked, but implements nothing.
    test_file: bool,
}

impl<'a> Scanner<'a> {
    fn new(file: &'a str, links: &'a mut PortLinks) -> Self {
        let test_file = file
            .split('/')
            .any(|part| part == "tests" || part == "tests.rs");
        Scanner {
            file,
            links,
            carry: Carry::Code,
            scopes: Vec::new(),
            depth: 0,
            paren: 0,
            pending: None,
            last_const: None,
            doc: Vec::new(),
            test_file,
        }
    }

    fn scan(mut self, text: &str) {
        for (k, line) in text.lines().enumerate() {
            self.line(k + 1, line);
        }
    }

    fn in_tests(&self) -> bool {
        self.test_file
            || self
                .scopes
                .iter()
                .any(|s| s.kind == Kind::Mod && s.name == "tests")
    }

    fn mention(&mut self, line: usize, text: &str) {
        for name in doc_names(text) {
            self.links.mentions.push(NameUse {
                name: name.to_string(),
                file: self.file.to_string(),
                line,
            });
        }
    }

    fn cite(&mut self, line: usize, group: LabelGroup, item: String, form: Form) {
        if self.in_tests() {
            if form == Form::Doc {
                return; // a doc comment's names are mentions already
            }
            // Checked like a doc comment's names, but no link.
            for (label, through) in group {
                for name in std::iter::once(label).chain(through) {
                    self.links.mentions.push(NameUse {
                        name,
                        file: self.file.to_string(),
                        line,
                    });
                }
            }
            return;
        }
        for (label, through) in group {
            self.links.citations.push(Citation {
                label,
                through,
                file: self.file.to_string(),
                line,
                item: item.clone(),
                form,
            });
        }
    }

    fn line(&mut self, number: usize, line: &str) {
        let trimmed = line.trim_start();
        if self.carry == Carry::Code {
            if let Some(doc) = trimmed.strip_prefix("///").filter(|d| !d.starts_with('/')) {
                self.mention(number, doc);
                self.doc.push((number, doc.to_string()));
                return;
            }
            if let Some(doc) = trimmed.strip_prefix("//!") {
                self.mention(number, doc);
                return;
            }
        }
        let (code, comment) = self.lex(line);
        if let Some(text) = comment.filter(|t| !t.starts_with('/') && !t.starts_with('!'))
            && let Some(group) = comment_citation(&text)
        {
            let item = self.item_here();
            self.cite(number, group, item, Form::Comment);
        }
        let code = code.trim();
        if code.is_empty() {
            return;
        }
        let tokens = tokens(code);
        if !self.doc.is_empty() && !code.starts_with("#[") && !code.starts_with("#!") {
            let doc = std::mem::take(&mut self.doc);
            if let Some(item) = self.documented_item(&tokens) {
                let (first_line, first) = &doc[0];
                if let Some((group, _)) = label_group(first) {
                    self.cite(*first_line, group, item, Form::Doc);
                }
            }
        }
        self.items(code, &tokens);
    }

    /// The function around the current line, with its `impl` type (`Machine::path`);
    /// outside functions, the innermost named item or the last constant.
    fn item_here(&self) -> String {
        if let Some(k) = self.scopes.iter().rposition(|s| s.kind == Kind::Fn) {
            return self.qualified(k);
        }
        if let Some(s) = self.scopes.last() {
            return s.name.clone();
        }
        self.last_const.clone().unwrap_or_else(|| "-".to_string())
    }

    /// The name of `scopes[k]` with the `impl` or `trait` it is in.
    fn qualified(&self, k: usize) -> String {
        let owner = self.scopes[..k]
            .iter()
            .rev()
            .find(|s| matches!(s.kind, Kind::Impl | Kind::Trait));
        match owner {
            Some(o) => format!("{}::{}", o.name, self.scopes[k].name),
            None => self.scopes[k].name.clone(),
        }
    }

    /// The item a doc comment ending above this line documents, if it is a function or an
    /// enum variant.
    fn documented_item(&self, tokens: &[Token<'_>]) -> Option<String> {
        if let Some(k) = tokens.iter().position(|t| *t == Token::Word("fn"))
            && let Some(Token::Word(name)) = tokens.get(k + 1)
        {
            let owner = self
                .scopes
                .iter()
                .rev()
                .find(|s| matches!(s.kind, Kind::Impl | Kind::Trait));
            return Some(match owner {
                Some(o) if !self.scopes.iter().any(|s| s.kind == Kind::Fn) => {
                    format!("{}::{name}", o.name)
                }
                _ => name.to_string(),
            });
        }
        let enclosing = self.scopes.last()?;
        if enclosing.kind == Kind::Enum
            && enclosing.depth == self.depth
            && let Some(Token::Word(variant)) = tokens.first()
        {
            return Some(format!("{}::{variant}", enclosing.name));
        }
        None
    }

    /// Follow the item headers and braces of a line's code.
    fn items(&mut self, code: &str, tokens: &[Token<'_>]) {
        // The first word after any visibility: where `impl`, `enum`, ... must stand.
        let head = tokens
            .iter()
            .position(|t| !matches!(t, Token::Word("pub")))
            .map(|k| {
                if tokens[k] == Token::Punct('(') {
                    // pub(crate), pub(super), pub(in path)
                    tokens[k..]
                        .iter()
                        .position(|t| *t == Token::Punct(')'))
                        .map_or(tokens.len(), |e| k + e + 1)
                } else {
                    k
                }
            })
            .unwrap_or(0);
        for (k, t) in tokens.iter().enumerate() {
            let next_word = match tokens.get(k + 1) {
                Some(Token::Word(w)) => Some(*w),
                _ => None,
            };
            match *t {
                Token::Word("fn") if self.pending.is_none() => {
                    if let Some(name) = next_word {
                        self.pending = Some((Kind::Fn, name.to_string(), self.paren));
                    }
                }
                Token::Word("impl") if self.pending.is_none() && k == head => {
                    self.pending = Some((Kind::Impl, impl_type(code), self.paren));
                }
                Token::Word(kw @ ("enum" | "struct" | "trait" | "mod"))
                    if self.pending.is_none() && k == head =>
                {
                    if let Some(name) = next_word {
                        let kind = match kw {
                            "enum" => Kind::Enum,
                            "struct" => Kind::Struct,
                            "trait" => Kind::Trait,
                            _ => Kind::Mod,
                        };
                        self.pending = Some((kind, name.to_string(), self.paren));
                    }
                }
                Token::Word("const" | "static") if k == head => {
                    let name = match next_word {
                        Some("mut") => match tokens.get(k + 2) {
                            Some(Token::Word(w)) => Some(*w),
                            _ => None,
                        },
                        Some("fn") => None,
                        other => other,
                    };
                    if let Some(name) = name.filter(|n| *n != "_") {
                        self.links.constants.insert(name.to_string());
                        self.last_const = Some(name.to_string());
                    }
                }
                Token::Punct('{') => {
                    self.depth += 1;
                    if let Some((kind, name, _)) = self.pending.take() {
                        self.scopes.push(Scope {
                            kind,
                            name,
                            depth: self.depth,
                        });
                    }
                }
                Token::Punct('}') => {
                    if self.scopes.last().is_some_and(|s| s.depth == self.depth) {
                        self.scopes.pop();
                    }
                    self.depth = self.depth.saturating_sub(1);
                }
                Token::Punct('(' | '[') => self.paren += 1,
                Token::Punct(')' | ']') => self.paren = self.paren.saturating_sub(1),
                Token::Punct(';') if self.pending.as_ref().is_some_and(|p| p.2 == self.paren) => {
                    self.pending = None;
                }
                _ => {}
            }
        }
    }

    /// Split a line into its code (string and character literals emptied, comments
    /// removed) and the text of its `//` comment, carrying strings and block comments over
    /// to the next line.
    fn lex(&mut self, line: &str) -> (String, Option<String>) {
        let chars: Vec<char> = line.chars().collect();
        let mut code = String::new();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            let next = chars.get(i + 1).copied();
            match self.carry {
                Carry::Block(depth) => {
                    if c == '*' && next == Some('/') {
                        self.carry = if depth == 1 {
                            Carry::Code
                        } else {
                            Carry::Block(depth - 1)
                        };
                        i += 2;
                    } else if c == '/' && next == Some('*') {
                        self.carry = Carry::Block(depth + 1);
                        i += 2;
                    } else {
                        i += 1;
                    }
                }
                Carry::Str => {
                    if c == '\\' {
                        i += 2;
                    } else {
                        if c == '"' {
                            self.carry = Carry::Code;
                        }
                        i += 1;
                    }
                }
                Carry::Raw(hashes) => {
                    let closes = c == '"' && (1..=hashes).all(|k| chars.get(i + k) == Some(&'#'));
                    if closes {
                        self.carry = Carry::Code;
                        i += 1 + hashes;
                    } else {
                        i += 1;
                    }
                }
                Carry::Code => {
                    let after_word =
                        i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
                    if c == '/' && next == Some('/') {
                        let text: String = chars[i + 2..].iter().collect();
                        return (code, Some(text.trim().to_string()));
                    } else if c == '/' && next == Some('*') {
                        self.carry = Carry::Block(1);
                        i += 2;
                    } else if c == '"' {
                        code.push_str("\"\"");
                        self.carry = Carry::Str;
                        i += 1;
                    } else if c == 'r' && !after_word && matches!(next, Some('"' | '#')) {
                        // r"...", r#"..."#; `r#ident` (a raw identifier) has no quote.
                        let hashes = chars[i + 1..].iter().take_while(|&&h| h == '#').count();
                        if chars.get(i + 1 + hashes) == Some(&'"') {
                            code.push_str("\"\"");
                            self.carry = Carry::Raw(hashes);
                            i += 2 + hashes;
                        } else {
                            code.push(c);
                            i += 1;
                        }
                    } else if c == '\'' {
                        // A character literal ('x', '\n', '\u{1F}') or a lifetime ('a).
                        if next == Some('\\') {
                            let end = chars[i + 2..].iter().position(|&q| q == '\'');
                            i = end.map_or(chars.len(), |e| i + 2 + e + 1);
                            code.push_str("' '");
                        } else if chars.get(i + 2) == Some(&'\'') {
                            i += 3;
                            code.push_str("' '");
                        } else {
                            code.push(c);
                            i += 1;
                        }
                    } else {
                        code.push(c);
                        i += 1;
                    }
                }
            }
        }
        (code, None)
    }
}

/// A word or a punctuation character of code.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Token<'a> {
    Word(&'a str),
    Punct(char),
}

fn tokens(code: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(c) = rest.chars().next() {
        let w = word_at(rest);
        if !w.is_empty() {
            out.push(Token::Word(w));
            rest = &rest[w.len()..];
        } else {
            if !c.is_whitespace() {
                out.push(Token::Punct(c));
            }
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// The type an `impl` line is for: `impl Machine {` and `impl<'a> Hook for Port<'a> {`
/// both name the type after `for` or, without one, after `impl` (its last path segment).
pub(super) fn impl_type(code: &str) -> String {
    let after = code.split_once("impl").map_or("", |(_, a)| a);
    let mut rest = after.trim_start();
    // Generic parameters of the impl itself.
    if rest.starts_with('<') {
        let mut depth = 0;
        let end = rest
            .char_indices()
            .find(|&(_, c)| {
                match c {
                    '<' => depth += 1,
                    '>' => depth -= 1,
                    _ => {}
                }
                depth == 0
            })
            .map_or(rest.len(), |(k, _)| k + 1);
        rest = &rest[end..];
    }
    let ty = match rest.split_once(" for ") {
        Some((_, t)) => t,
        None => rest,
    };
    let path = ty
        .trim_start()
        .split(|c: char| c == '<' || c == '{' || c.is_whitespace())
        .next()
        .unwrap_or("");
    path.rsplit("::").next().unwrap_or(path).to_string()
}
