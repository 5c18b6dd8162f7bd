//! One source file as text: its tokens, then what it says about modules: the modules it
//! declares (out of line, `mod x;`, or inline, `mod x { .. }`), the names each of its
//! modules defines, its `use` declarations, and the paths in its code.
//!
//! A hand-written scanner, not a parser: it needs only to tell code from comments and
//! string literals, to follow braces, and to read `use` trees and `a::b::c` paths. Doc
//! comments are comments: a link in documentation is not an import.

use std::collections::BTreeSet;

/// A token, as far as the import graph cares.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    /// An identifier or keyword (`$crate` too, `r#type` as `type`).
    Ident(String),
    /// A string literal's text (for `#[path = "..."]`).
    Str(String),
    /// `::`.
    PathSep,
    /// Any other punctuation character.
    Punct(char),
    /// A number, character literal or lifetime.
    Other,
}

fn ident_char(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// The tokens of `src`, without whitespace and comments.
pub(crate) fn tokens(src: &str) -> Vec<Tok> {
    let c: Vec<char> = src.chars().collect();
    let at = |i: usize| c.get(i).copied().unwrap_or('\0');
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && at(i + 1) == '*' {
            // Block comments nest in Rust.
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if ch == '"' {
            let (text, next) = string(&c, i);
            out.push(Tok::Str(text));
            i = next;
        } else if ch == '\'' {
            i = quote(&c, i);
            out.push(Tok::Other);
        } else if ch.is_ascii_digit() {
            while i < c.len() && ident_char(c[i]) {
                i += 1;
            }
            out.push(Tok::Other);
        } else if ident_char(ch) {
            let start = i;
            while i < c.len() && ident_char(c[i]) {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            let raw_prefix = matches!(word.as_str(), "r" | "br" | "cr");
            if word == "r" && at(i) == '#' && ident_char(at(i + 1)) {
                // A raw identifier: r#type is the identifier `type`.
                let start = i + 1;
                i = start;
                while i < c.len() && ident_char(c[i]) {
                    i += 1;
                }
                out.push(Tok::Ident(c[start..i].iter().collect()));
            } else if raw_prefix && (at(i) == '"' || at(i) == '#') {
                let (text, next) = raw_string(&c, i);
                out.push(Tok::Str(text));
                i = next;
            } else if matches!(word.as_str(), "b" | "c") && at(i) == '"' {
                let (text, next) = string(&c, i);
                out.push(Tok::Str(text));
                i = next;
            } else if word == "b" && at(i) == '\'' {
                i = quote(&c, i);
                out.push(Tok::Other);
            } else {
                out.push(Tok::Ident(word));
            }
        } else if ch == '$' && c[i + 1..].starts_with(&['c', 'r', 'a', 't', 'e']) {
            out.push(Tok::Ident("$crate".to_string()));
            i += 6;
        } else if ch == ':' && at(i + 1) == ':' {
            out.push(Tok::PathSep);
            i += 2;
        } else {
            out.push(Tok::Punct(ch));
            i += 1;
        }
    }
    out
}

/// A string literal starting at the `"` at `i`: its text and the index after it.
fn string(c: &[char], i: usize) -> (String, usize) {
    let mut j = i + 1;
    let mut text = String::new();
    while j < c.len() && c[j] != '"' {
        if c[j] == '\\' {
            j += 1;
        }
        if let Some(&ch) = c.get(j) {
            text.push(ch);
        }
        j += 1;
    }
    (text, j + 1)
}

/// A raw string starting at the `#` or `"` at `i` (after `r`): its text and the index after.
fn raw_string(c: &[char], i: usize) -> (String, usize) {
    let mut j = i;
    let mut hashes = 0;
    while j < c.len() && c[j] == '#' {
        hashes += 1;
        j += 1;
    }
    let start = j + 1;
    j = start;
    while j < c.len() {
        if c[j] == '"' && (1..=hashes).all(|k| c.get(j + k) == Some(&'#')) {
            return (c[start..j].iter().collect(), j + 1 + hashes);
        }
        j += 1;
    }
    (c[start.min(c.len())..].iter().collect(), c.len())
}

/// A character literal or a lifetime starting at the `'` at `i`: the index after it.
fn quote(c: &[char], i: usize) -> usize {
    if c.get(i + 1) == Some(&'\\') {
        // An escape: '\n', '\'', '\u{1F600}'.
        let mut j = i + 3;
        while j < c.len() && c[j] != '\'' {
            j += 1;
        }
        j + 1
    } else if c.get(i + 2) == Some(&'\'') {
        i + 3
    } else {
        // A lifetime or label: 'a, 'static.
        let mut j = i + 1;
        while j < c.len() && ident_char(c[j]) {
            j += 1;
        }
        j
    }
}

/// One name a `use` declaration brings in: `path` (as written, from its first segment)
/// under `alias` (`None` for a glob, `use path::*`).
#[derive(Clone, Debug)]
pub(crate) struct UseItem {
    pub(crate) path: Vec<String>,
    pub(crate) alias: Option<String>,
    /// `pub` (of any kind): a re-export other modules can name.
    pub(crate) public: bool,
}

/// An out-of-line module declaration, `mod name;`, with its `#[path]` if it has one.
#[derive(Clone, Debug)]
pub(crate) struct ChildDecl {
    pub(crate) name: String,
    pub(crate) path_attr: Option<String>,
}

/// What one module of a file (the file's own, or an inline `mod x { .. }` in it) holds.
#[derive(Clone, Debug, Default)]
pub(crate) struct ModFacts {
    /// The path of an inline module below the file's module; empty for the file's own.
    pub(crate) inline: Vec<String>,
    pub(crate) children: Vec<ChildDecl>,
    pub(crate) inline_children: Vec<String>,
    /// The names its items define (fn, struct, enum, trait, type, const, static, union).
    pub(crate) defs: BTreeSet<String>,
    /// Its `use` declarations at module level (those inside functions name nothing for
    /// other modules).
    pub(crate) uses: Vec<UseItem>,
}

/// A reference from the file to a path: a `use`, or a path of two segments or more in code.
#[derive(Clone, Debug)]
pub(crate) enum RefKind {
    Use(UseItem),
    Path(Vec<String>),
}

/// A reference, made from the module `scope` (an inline path below the file's module).
#[derive(Clone, Debug)]
pub(crate) struct Ref {
    pub(crate) scope: Vec<String>,
    pub(crate) kind: RefKind,
}

/// Everything the import graph needs of one file.
#[derive(Clone, Debug, Default)]
pub(crate) struct FileFacts {
    /// The file's own module first, then its inline modules.
    pub(crate) modules: Vec<ModFacts>,
    pub(crate) refs: Vec<Ref>,
    /// Every identifier in the file's code: what a glob import may have brought in.
    pub(crate) idents: BTreeSet<String>,
}

const ITEM_KEYWORDS: [&str; 8] = [
    "fn", "struct", "enum", "trait", "type", "const", "static", "union",
];

/// Read one file's source.
pub(crate) fn scan(src: &str) -> FileFacts {
    let toks = tokens(src);
    let ident = |i: usize| match toks.get(i) {
        Some(Tok::Ident(s)) => Some(s.as_str()),
        _ => None,
    };
    let punct = |i: usize, p: char| toks.get(i) == Some(&Tok::Punct(p));

    let mut facts = FileFacts {
        modules: vec![ModFacts::default()],
        ..FileFacts::default()
    };
    // The open braces: Some(module index) for a module's body, None for any other block.
    let mut stack: Vec<Option<usize>> = vec![Some(0)];
    let mut path_attr: Option<String> = None;
    let mut i = 0;
    while i < toks.len() {
        let module = stack.iter().rev().find_map(|s| *s).unwrap_or(0);
        let at_module_level = stack.last().copied().flatten().is_some();
        let scope = facts.modules[module].inline.clone();
        match &toks[i] {
            Tok::Punct('{') => {
                stack.push(None);
                i += 1;
            }
            Tok::Punct('}') => {
                if stack.len() > 1 {
                    stack.pop();
                }
                i += 1;
            }
            Tok::Punct(';') => {
                path_attr = None;
                i += 1;
            }
            Tok::Punct('#')
                if punct(i + 1, '[')
                    && ident(i + 2) == Some("path")
                    && punct(i + 3, '=')
                    && punct(i + 5, ']') =>
            {
                if let Some(Tok::Str(p)) = toks.get(i + 4) {
                    path_attr = Some(p.clone());
                }
                i += 6;
            }
            Tok::Ident(word) if word == "use" => {
                let public = ident(i.wrapping_sub(1)) == Some("pub")
                    || (punct(i.wrapping_sub(1), ')') && {
                        let open = (0..i).rev().find(|&k| punct(k, '('));
                        open.is_some_and(|k| ident(k.wrapping_sub(1)) == Some("pub"))
                    });
                let mut j = i + 1;
                let mut entries = Vec::new();
                use_tree(&toks, &mut j, Vec::new(), &mut entries);
                for (path, alias) in entries {
                    let item = UseItem {
                        path,
                        alias,
                        public,
                    };
                    if at_module_level {
                        facts.modules[module].uses.push(item.clone());
                    }
                    facts.refs.push(Ref {
                        scope: scope.clone(),
                        kind: RefKind::Use(item),
                    });
                }
                while j < toks.len() && !punct(j, ';') {
                    j += 1;
                }
                i = j;
            }
            Tok::Ident(word) if word == "mod" && ident(i + 1).is_some() => {
                let name = ident(i + 1).unwrap_or_default().to_string();
                if punct(i + 2, '{') {
                    let mut inline = scope.clone();
                    inline.push(name.clone());
                    facts.modules[module].inline_children.push(name);
                    facts.modules.push(ModFacts {
                        inline,
                        ..ModFacts::default()
                    });
                    stack.push(Some(facts.modules.len() - 1));
                    i += 3;
                } else {
                    facts.modules[module].children.push(ChildDecl {
                        name,
                        path_attr: path_attr.take(),
                    });
                    i += 2;
                }
            }
            Tok::Ident(word) => {
                if at_module_level && ITEM_KEYWORDS.contains(&word.as_str()) {
                    let mut n = i + 1;
                    if word == "static" && ident(n) == Some("mut") {
                        n += 1;
                    }
                    // `const fn f`, `const unsafe fn f`: the `fn` names it.
                    if let Some(name) =
                        ident(n).filter(|s| !matches!(*s, "fn" | "unsafe" | "async" | "extern"))
                    {
                        facts.modules[module].defs.insert(name.to_string());
                    }
                }
                // A path starts at an identifier not preceded by `::`.
                if toks.get(i.wrapping_sub(1)) == Some(&Tok::PathSep) {
                    facts.idents.insert(word.clone());
                    i += 1;
                    continue;
                }
                let mut path = vec![word.clone()];
                let mut j = i + 1;
                while toks.get(j) == Some(&Tok::PathSep) {
                    match ident(j + 1) {
                        Some(s) => path.push(s.to_string()),
                        None => break,
                    }
                    j += 2;
                }
                facts.idents.extend(path.iter().cloned());
                if path.len() > 1 {
                    facts.refs.push(Ref {
                        scope,
                        kind: RefKind::Path(path),
                    });
                }
                i = j;
            }
            _ => i += 1,
        }
    }
    facts
}

/// One `use` tree from `toks[*i]`, below `prefix`: each name it brings in, as (path,
/// alias); the alias is `None` for a glob.
fn use_tree(
    toks: &[Tok],
    i: &mut usize,
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    let mut path = prefix;
    if toks.get(*i) == Some(&Tok::PathSep) {
        if path.is_empty() {
            // `use ::name`: an extern crate.
            path.push("::".to_string());
        }
        *i += 1;
    }
    loop {
        match toks.get(*i) {
            Some(Tok::Ident(seg)) => {
                path.push(seg.clone());
                *i += 1;
                if toks.get(*i) == Some(&Tok::PathSep) {
                    *i += 1;
                    continue;
                }
                if path.last().map(String::as_str) == Some("self") {
                    // `use a::b::{self}` names `a::b` itself.
                    path.pop();
                }
                let mut alias = path.last().cloned();
                if toks.get(*i) == Some(&Tok::Ident("as".to_string())) {
                    if let Some(Tok::Ident(a)) = toks.get(*i + 1) {
                        alias = Some(a.clone());
                    }
                    *i += 2;
                }
                if alias.is_some() {
                    out.push((path, alias));
                }
                return;
            }
            Some(Tok::Punct('*')) => {
                *i += 1;
                out.push((path, None));
                return;
            }
            Some(Tok::Punct('{')) => {
                *i += 1;
                loop {
                    match toks.get(*i) {
                        Some(Tok::Punct('}')) => {
                            *i += 1;
                            return;
                        }
                        Some(Tok::Punct(',')) => *i += 1,
                        None => return,
                        Some(_) => {
                            let before = *i;
                            use_tree(toks, i, path.clone(), out);
                            if *i == before {
                                // Not a use tree: give up on this one rather than loop.
                                *i += 1;
                            }
                        }
                    }
                }
            }
            _ => return,
        }
    }
}
