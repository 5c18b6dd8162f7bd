//! Links from the port to the original: which of Sargon's routines and labels the port's
//! comments cite, and where.
//!
//! The port (crate `sargon-port`) is written routine by routine beside the original, and says
//! so in its comments: `// MV1` on the line that does what the original does at MV1, and
//! `/// PATH: step M2 ...` on the function that ports PATH. This module reads those
//! citations from the port's own source text, embedded at build time (`build.rs` lists
//! every `.rs` file under `crates/sargon-port/src`, so files may move and split freely), so that
//!
//! * a test can check that every name the port cites is a symbol of the user's imported
//!   image (a typo or a renamed label fails it), and
//! * `sargon listing ROUTINE --port` can show, at each label of the original's code, the
//!   port function and source line that implement it, and `sargon listing --port` which
//!   routines and labels the port cites and which it does not.
//!
//! ## The convention (also in docs/port.md, "Links to the original")
//!
//! A *label* is written as the original writes it: an upper-case letter, then upper-case
//! letters, digits and `_`, two characters at least (`MV1`, `PT6AA`, `FNDMOV`, `O_O`). A
//! *label group* is one label, alternatives joined by `/` (`MV21/MV22`: both), or a range
//! `FROM..THROUGH` (`PT5..PT25`: every label of the image from FROM through THROUGH, by
//! address).
//!
//! * **Comment citation**: a line comment `//` (on its own line or after code) whose text is
//!   a label group alone, or followed by `:` or by a parenthesis: `// MV1`,
//!   `// PF2: scan one direction`, `// PT6A..PT6D`, `// PVALUE (pawn .. king)`. It says
//!   that this line implements the label; the link records the function around it.
//! * **Doc citation**: the doc comment (`///`) of a function or of an enum variant whose
//!   first line begins with a label group: `/// PATH: step M2 ...`,
//!   `/// PT5..PT25 over all squares`, `/// FM35: evaluate the move just made`. It says
//!   that the item implements the label (or the part it names).
//! * **Mentions**: every other upper-case word of a doc comment (`///` or `//!`) outside
//!   backticks, such as the routines a function's doc names as its callers and callees,
//!   is a name of the original too, and must be a symbol of the image.
//!
//! Nothing else counts: prose in a line comment (`// PNCK left the attack direction in D`,
//! `// WACT or BACT`) is no citation, code in backticks is code, and the words of
//! `NOT_LABELS` (the Z80's registers, condition flags and a few mnemonics, a few abbreviations) are never
//! labels. The names of the port's own `const` and `static` items (`DIRECTIONS`, `INDEX`)
//! may appear in doc comments without being symbols of the image. Comments in the port's
//! tests (a `tests.rs` file or a `mod tests`) are checked but implement nothing.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use sargon_core::hooks::HookPoint;
use sargon_original::listing;
use sargon_original::program::Program;

/// The port's source files as compiled, `(path from the workspace root, text)`: every `.rs`
/// file under `crates/sargon-port/src` (listed by `build.rs`).
pub(crate) const PORT_SOURCES: &[(&str, &str)] =
    include!(concat!(env!("OUT_DIR"), "/port_sources.rs"));

/// The listing of one routine or label with, under each label, the port's functions and
/// source lines that implement it (`; -> port FILE:LINE ITEM`), or `; -> port: not cited`.
pub(crate) fn port_listing_of(
    program: &Program,
    hooks: &[(u16, HookPoint)],
    links: &PortLinks,
    name: &str,
) -> Result<String, listing::ListingError> {
    let sites = links.sites(program);
    let notes = |label: &str| -> Vec<String> {
        match sites.get(label) {
            Some(sites) => sites
                .iter()
                .map(|c| {
                    let range = if c.through.is_some() {
                        format!(" ({})", c.written())
                    } else {
                        String::new()
                    };
                    format!("-> port {}{range}", c.place())
                })
                .collect(),
            None => vec!["-> port: not cited".to_string()],
        }
    };
    listing::listing_with_notes(program, hooks, &notes, name)
}

/// Upper-case words of the port's comments that are never labels: the Z80's register
/// pairs and condition flags (single letters are never taken for labels anyway), and a
/// few abbreviations of the prose.
pub(crate) const NOT_LABELS: &[&str] = &[
    // register pairs and index registers
    "AF", "BC", "DE", "HL", "IX", "IY", "SP", "PC", // condition flags
    "NZ", "NC", "PO",
    "PE", // instructions named in prose ("where the original does CALL POINTS")
    "CALL", "JP", "JR", "RET", "LD", // words
    "FEN", "PV", "UCI", "TODO", "FIXME", "Z80", "MB",
];

/// How a label is cited (see the module documentation).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// `// LABEL` or `// LABEL: ...` on the line that implements it.
    Comment,
    /// The doc comment of the function or enum variant that implements it begins with it.
    Doc,
}

/// A label the port says it implements, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Citation {
    /// The label as cited (the first of a range).
    pub label: String,
    /// For a range `FROM..THROUGH`, the last label: the citation covers every label of
    /// the image from `label` through this one.
    pub through: Option<String>,
    /// The source file, from the workspace root (`crates/sargon-port/src/faithful/search.rs`).
    pub file: String,
    /// The line of the comment (1-based).
    pub line: usize,
    /// The function around the comment (`Machine::fndmov`), or the item a doc comment
    /// documents (`Machine::path`, `Fm::Fm35`).
    pub item: String,
    /// How the label is cited.
    pub form: Form,
}

impl Citation {
    /// The label (group) as written: `PT5` or `PT5..PT25`.
    pub(crate) fn written(&self) -> String {
        match &self.through {
            Some(t) => format!("{}..{t}", self.label),
            None => self.label.clone(),
        }
    }

    /// `src/port/search.rs:123 Machine::fndmov`.
    pub(crate) fn place(&self) -> String {
        format!("{}:{} {}", self.file, self.line, self.item)
    }
}

/// A name of the original the port's doc comments use, or that it cites: it must be a
/// symbol of the image.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct NameUse {
    /// The name.
    pub name: String,
    /// The file that uses it.
    pub file: String,
    /// The line (from 1).
    pub line: usize,
}

/// Everything the port's comments say about the original.
#[derive(Clone, Debug, Default)]
pub(crate) struct PortLinks {
    /// The labels the port implements, in file and line order.
    pub citations: Vec<Citation>,
    /// The upper-case names of its doc comments (citations not included).
    pub mentions: Vec<NameUse>,
    /// The names of the port's own `const` and `static` items.
    pub constants: BTreeSet<String>,
}

impl PortLinks {
    /// The links of the port as compiled into this program.
    pub(crate) fn of_port() -> PortLinks {
        PortLinks::extract(PORT_SOURCES)
    }

    /// The links of some source files, `(path, text)`.
    pub(crate) fn extract(files: &[(&str, &str)]) -> PortLinks {
        let mut links = PortLinks::default();
        for (path, text) in files {
            Scanner::new(path, &mut links).scan(text);
        }
        links
    }

    /// The names the port cites or mentions that are not symbols of the image (`symbols`:
    /// by upper-case name) nor constants of the port, in file and line order.
    pub(crate) fn unknown(&self, symbols: &BTreeMap<String, u16>) -> Vec<NameUse> {
        let cited = self.citations.iter().flat_map(|c| {
            std::iter::once(&c.label)
                .chain(&c.through)
                .map(move |name| NameUse {
                    name: name.clone(),
                    file: c.file.clone(),
                    line: c.line,
                })
        });
        let all: BTreeSet<NameUse> = cited
            .chain(self.mentions.iter().cloned())
            .filter(|u| !symbols.contains_key(&u.name) && !self.constants.contains(&u.name))
            .collect();
        let mut out: Vec<NameUse> = all.into_iter().collect();
        out.sort_by(|a, b| (&a.file, a.line, &a.name).cmp(&(&b.file, b.line, &b.name)));
        out
    }

    /// Where the port implements each symbol of `program`, by symbol name: ranges are
    /// spread over every symbol of the image from their first label through their last.
    /// A name the image lacks stays under its own name.
    pub(crate) fn sites(&self, program: &Program) -> BTreeMap<String, Vec<&Citation>> {
        let mut sites: BTreeMap<String, Vec<&Citation>> = BTreeMap::new();
        for c in &self.citations {
            let range = c
                .through
                .as_ref()
                .and_then(|t| Some((program.lookup(&c.label)?, program.lookup(t)?)));
            match range {
                Some((from, through)) if from <= through => {
                    for names in program.names.range(from..=through).map(|(_, n)| n) {
                        for n in names {
                            sites.entry(n.clone()).or_default().push(c);
                        }
                    }
                }
                _ => {
                    for name in std::iter::once(&c.label).chain(&c.through) {
                        sites.entry(name.clone()).or_default().push(c);
                    }
                }
            }
        }
        sites
    }

    /// Which routines and code labels of `program` the port cites.
    pub(crate) fn coverage(&self, program: &Program) -> Coverage {
        let sites = self.sites(program);
        let mut by_routine: BTreeMap<u16, RoutineCoverage> = program
            .routines
            .iter()
            .map(|(&addr, name)| {
                let implemented_by = sites
                    .get(name)
                    .map(|v| v.iter().map(|c| (*c).clone()).collect())
                    .unwrap_or_default();
                let rc = RoutineCoverage {
                    routine: name.clone(),
                    addr,
                    labels: Vec::new(),
                    implemented_by,
                };
                (addr, rc)
            })
            .collect();
        let mut seen = BTreeSet::new();
        for block in program.code_blocks().values() {
            for ins in block {
                if !seen.insert(ins.addr) {
                    continue;
                }
                let Some((r, _)) = program.routine_at(ins.addr) else {
                    continue;
                };
                let rc = by_routine.get_mut(&r).expect("a routine of the program");
                for name in program.names_at(ins.addr) {
                    rc.labels.push((name.clone(), sites.contains_key(name)));
                }
            }
        }
        let mut routines: Vec<RoutineCoverage> = by_routine.into_values().collect();
        for rc in &mut routines {
            // The routine's own name first, then its labels by address (as found).
            rc.labels.sort_by_key(|(n, _)| *n != rc.routine);
        }
        Coverage {
            routines,
            unknown: self.unknown(&program.symbols),
        }
    }
}

/// What [`PortLinks::coverage`] finds for one routine of the image.
#[derive(Clone, Debug)]
pub(crate) struct RoutineCoverage {
    /// The routine's name.
    pub routine: String,
    /// Its entry address.
    pub addr: u16,
    /// The symbols at instructions of the routine's code (its name included), and whether
    /// the port cites each.
    pub labels: Vec<(String, bool)>,
    /// The citations of the routine's own name.
    pub implemented_by: Vec<Citation>,
}

impl RoutineCoverage {
    /// How many of the routine's labels the port cites.
    pub(crate) fn cited(&self) -> usize {
        self.labels.iter().filter(|(_, c)| *c).count()
    }
}

/// Which routines and code labels of an image the port cites.
#[derive(Clone, Debug)]
pub(crate) struct Coverage {
    /// In address order.
    pub routines: Vec<RoutineCoverage>,
    /// Names the port cites or mentions that the image lacks.
    pub unknown: Vec<NameUse>,
}

impl Coverage {
    /// The report `sargon listing --port` prints.
    pub(crate) fn report(&self) -> String {
        let mut out = String::new();
        let routines_cited = self
            .routines
            .iter()
            .filter(|r| !r.implemented_by.is_empty())
            .count();
        let labels: usize = self.routines.iter().map(|r| r.labels.len()).sum();
        let cited: usize = self.routines.iter().map(RoutineCoverage::cited).sum();
        let _ = writeln!(
            out,
            "; the port's links to the image's code (docs/port.md, \"Links to the original\"):"
        );
        let _ = writeln!(
            out,
            "; {routines_cited} of {} routines and {cited} of {labels} code labels cited by the port",
            self.routines.len()
        );
        for r in &self.routines {
            let _ = write!(
                out,
                "\n{:<8} {:#06x}  {:>3}/{:<3} labels",
                r.routine,
                r.addr,
                r.cited(),
                r.labels.len()
            );
            if r.implemented_by.is_empty() {
                out.push_str("  (routine not cited)");
            }
            out.push('\n');
            for c in &r.implemented_by {
                let _ = writeln!(out, "  ported by {}", c.place());
            }
            let missing: Vec<&str> = r
                .labels
                .iter()
                .filter(|(_, c)| !c)
                .map(|(n, _)| n.as_str())
                .collect();
            if !missing.is_empty() && missing.len() < r.labels.len() {
                let _ = writeln!(out, "  not cited: {}", missing.join(", "));
            }
        }
        if self.unknown.is_empty() {
            let _ = writeln!(
                out,
                "\n; every name the port cites is a symbol of the image"
            );
        } else {
            let _ = writeln!(out, "\n; cited by the port but not symbols of the image:");
            for u in &self.unknown {
                let _ = writeln!(out, ";   {} at {}:{}", u.name, u.file, u.line);
            }
        }
        out
    }
}

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
fn word_at(s: &str) -> &str {
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
fn comment_citation(text: &str) -> Option<LabelGroup> {
    let (group, rest) = label_group(text)?;
    let rest = rest.trim_start();
    (rest.is_empty() || rest.starts_with(':') || rest.starts_with('(')).then_some(group)
}

/// The upper-case words of doc text outside backticks that [`is_label`] accepts.
fn doc_names(text: &str) -> Vec<&str> {
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
        if let Some(text) = comment.filter(|t| !t.starts_with('/') && !t.starts_with('!')) {
            if let Some(group) = comment_citation(&text) {
                let item = self.item_here();
                self.cite(number, group, item, Form::Comment);
            }
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
        if let Some(k) = tokens.iter().position(|t| *t == Token::Word("fn")) {
            if let Some(Token::Word(name)) = tokens.get(k + 1) {
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
        }
        let enclosing = self.scopes.last()?;
        if enclosing.kind == Kind::Enum && enclosing.depth == self.depth {
            if let Some(Token::Word(variant)) = tokens.first() {
                return Some(format!("{}::{variant}", enclosing.name));
            }
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
fn impl_type(code: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn links(text: &str) -> PortLinks {
        PortLinks::extract(&[("src/port/x.rs", text)])
    }

    fn cited(l: &PortLinks) -> Vec<(String, usize, String, Form)> {
        l.citations
            .iter()
            .map(|c| (c.written(), c.line, c.item.clone(), c.form))
            .collect()
    }

    fn c(label: &str, line: usize, item: &str, form: Form) -> (String, usize, String, Form) {
        (label.to_string(), line, item.to_string(), form)
    }

    const SAMPLE: &str = r##"//! Moves: MOVE and UNMOVE.
use super::state::POSK;

/// The labels of FNDMOV.
enum Fm {
    /// FM5: one ply deeper.
    Fm5,
    /// FM36 with this score in A.
    Fm36(u8),
}

const TABLE: [u8; 2] = [
    // DPOINT
    1, 2,
];

impl<'a> Machine<'a> {
    /// MOVE (`move_`): make the move at MLPTRJ.
    #[inline]
    pub fn move_(&mut self, x: [u8; 2]) -> char {
        let s = "// FM99 { not a comment";
        let q = '{';
        // MV1
        if x[0] == 0 { // MV21/MV22: the royal piece
            // WACT or BACT
            // PNCK left the direction in D
            // HL: not a label
            // AT14's end of the line
        }
        // PT6A..PT6D
        let r = r#"}"#;
        /* a { block */ q
    }

    /// The lines before PT20.
    fn helper(&self) {
        // PT20: the loss
        return; // PC5
    }
}

/// PATH: step M2; callers MPIECE, ATTACK (`INDEX` is code).
pub(crate) fn path() {}

#[cfg(test)]
mod tests {
    // FM35
}
"##;

    #[test]
    fn citations_follow_the_convention_only() {
        let l = links(SAMPLE);
        assert_eq!(
            cited(&l),
            vec![
                c("FM5", 6, "Fm::Fm5", Form::Doc),
                c("FM36", 8, "Fm::Fm36", Form::Doc),
                c("DPOINT", 13, "TABLE", Form::Comment),
                c("MOVE", 18, "Machine::move_", Form::Doc),
                c("MV1", 23, "Machine::move_", Form::Comment),
                c("MV21", 24, "Machine::move_", Form::Comment),
                c("MV22", 24, "Machine::move_", Form::Comment),
                c("PT6A..PT6D", 30, "Machine::move_", Form::Comment),
                c("PT20", 37, "Machine::helper", Form::Comment),
                c("PC5", 38, "Machine::helper", Form::Comment),
                c("PATH", 42, "path", Form::Doc),
            ]
        );
        assert!(l.constants.contains("TABLE"));
    }

    #[test]
    fn doc_comments_mention_names_outside_backticks() {
        let l = links(SAMPLE);
        let names: BTreeSet<&str> = l.mentions.iter().map(|m| m.name.as_str()).collect();
        for n in [
            "MOVE", "UNMOVE", "FNDMOV", "FM5", "MLPTRJ", "PT20", "M2", "MPIECE", "ATTACK",
        ] {
            assert!(names.contains(n), "{n} not mentioned: {names:?}");
        }
        // Single letters, code in backticks, registers and prose words are not names.
        for n in ["A", "INDEX", "HL", "FM99", "WACT", "PNCK"] {
            assert!(!names.contains(n), "{n} taken for a name");
        }
    }

    #[test]
    fn a_label_the_image_lacks_is_reported_where_it_is_cited() {
        let l = links(SAMPLE);
        let symbols: BTreeMap<String, u16> = [
            "FNDMOV", "FM5", "FM36", "DPOINT", "MOVE", "UNMOVE", "MLPTRJ", "MV1", "MV21", "MV22",
            "PT6A", "PT6D", "PT20", "PC5", "PATH", "M2", "MPIECE", "ATTACK", "FM35",
        ]
        .iter()
        .enumerate()
        .map(|(k, n)| (n.to_string(), k as u16))
        .collect();
        assert_eq!(l.unknown(&symbols), vec![]);
        // A citation of a label that does not exist, in a comment and in a doc comment.
        let bad = links(
            &SAMPLE
                .replace("// MV1\n", "// MV99\n")
                .replace("/// The lines before PT20.", "/// The lines before PT21."),
        );
        let unknown: Vec<(String, usize)> = bad
            .unknown(&symbols)
            .into_iter()
            .map(|u| (u.name, u.line))
            .collect();
        assert_eq!(
            unknown,
            vec![("MV99".to_string(), 23), ("PT21".to_string(), 35)]
        );
        // The port's own constants are no missing labels.
        let with_const = links("const INDEX: u8 = 0;\n/// INDEX[i]: a place.\nstatic X: u8 = 0;\n");
        assert_eq!(with_const.unknown(&symbols), vec![]);
    }

    #[test]
    fn test_code_implements_nothing() {
        let l = PortLinks::extract(&[(
            "src/port/tests.rs",
            "/// GENMOV for a test.\nfn g() {\n    // GENMOV\n}\n",
        )]);
        assert!(l.citations.is_empty());
        let lines: Vec<usize> = l.mentions.iter().map(|m| m.line).collect();
        assert_eq!(lines, [1, 3], "checked all the same");
    }

    #[test]
    fn label_groups() {
        let g = |t: &str| label_group(t).map(|(g, rest)| (g, rest.to_string()));
        assert_eq!(
            g("MV21/MV22: x"),
            Some((
                vec![("MV21".into(), None), ("MV22".into(), None)],
                ": x".into()
            ))
        );
        assert_eq!(
            g("PT5..PT25 over"),
            Some((vec![("PT5".into(), Some("PT25".into()))], " over".into()))
        );
        assert_eq!(g("A: the score"), None);
        assert_eq!(g("Mv1"), None);
        assert_eq!(g("O_O"), Some((vec![("O_O".into(), None)], String::new())));
        assert!(comment_citation("PVALUE (pawn .. king)").is_some());
        assert!(comment_citation("AT14A/AT14B on the first square").is_none());
        assert!(comment_citation("TODO: later").is_none());
    }

    #[test]
    fn impl_types() {
        assert_eq!(impl_type("impl Machine {"), "Machine");
        assert_eq!(impl_type("impl<'a> Hook for Port<'a> {"), "Port");
        assert_eq!(impl_type("impl sargon_core::Engine for Port {"), "Port");
        assert_eq!(impl_type("impl Default for TimingCache {"), "TimingCache");
    }

    #[test]
    fn ranges_spread_over_the_image_by_address() {
        let symbols: BTreeMap<String, u16> = [
            ("R", 0x100),
            ("PT5", 0x101),
            ("PT6", 0x102),
            ("PT25", 0x103),
            ("X", 0x104),
        ]
        .iter()
        .map(|(n, a)| (n.to_string(), *a))
        .collect();
        let mut memory = vec![0u8; 0x10000];
        memory[0x104] = 0xC9; // RET
        let program = Program::new(memory, 0x100, 0x105, &symbols);
        let l = links("fn points() {\n    // PT5..PT25\n}\n");
        let sites = l.sites(&program);
        let names: Vec<&str> = sites.keys().map(String::as_str).collect();
        assert_eq!(names, ["PT25", "PT5", "PT6"]);
        assert_eq!(sites["PT6"][0].item, "points");
    }

    #[test]
    fn the_port_is_embedded_and_cites_its_routines() {
        assert!(PORT_SOURCES
            .iter()
            .any(|(p, _)| *p == "crates/sargon-port/src/lib.rs"));
        assert!(PORT_SOURCES
            .iter()
            .all(|(p, _)| p.starts_with("crates/sargon-port/src/")));
        let l = PortLinks::of_port();
        for routine in ["FNDMOV", "PATH", "POINTS", "ATTACK"] {
            assert!(
                l.citations.iter().any(|c| c.label == routine),
                "{routine} not cited"
            );
        }
    }
}
