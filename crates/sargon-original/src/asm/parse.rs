//! From source text to a flat list of statements: directives parsed, instructions encoded
//! into byte templates, macros expanded.
//!
//! Everything that does not depend on symbol values happens here, once, so the passes in
//! the parent module only evaluate expressions. Macro calls are expanded in place and
//! every statement of an expansion carries the call's line number, which is how zmac
//! lists them: all bytes of a macro call on the line that calls it.

use std::collections::HashMap;

use super::encode::{self, Piece};
use super::expr::{self, Expr};
use super::lexer::{self, Line};
use super::{AsmError, AsmErrorKind};

/// One statement, with the 1-based source line it comes from.
#[derive(Debug)]
pub(crate) struct Stmt {
    pub line: usize,
    /// Upper-cased.
    pub label: Option<String>,
    pub body: Body,
}

#[derive(Debug)]
pub(crate) enum Body {
    Empty,
    Equ(Expr),
    Org(Expr),
    Db(Vec<Item>),
    Dw(Vec<Expr>),
    /// Reserve space; with a fill value the space is filled (emitted).
    Ds(Expr, Option<Expr>),
    Instr(Vec<Piece>),
}

#[derive(Debug)]
pub(crate) enum Item {
    Bytes(Vec<u8>),
    Byte(Expr),
}

impl Body {
    /// Bytes the statement emits (not counting DS, whose size is a value).
    pub(crate) fn size(&self) -> usize {
        match self {
            Body::Db(items) => items
                .iter()
                .map(|i| if let Item::Bytes(b) = i { b.len() } else { 1 })
                .sum(),
            Body::Dw(words) => 2 * words.len(),
            Body::Instr(pieces) => pieces.iter().map(Piece::size).sum(),
            _ => 0,
        }
    }
}

struct Macro {
    params: Vec<String>,
    /// The body's lines, comments removed.
    body: Vec<String>,
}

/// Directives that only steer a listing; accepted and ignored.
const IGNORED: &[&str] = &[
    "TITLE", "SUBTTL", "EJECT", "PAGE", "LIST", "NOLIST", ".Z80", "Z80",
];
const DIRECTIVES: &[&str] = &[
    "EQU", "ORG", "DB", "DEFB", "DEFM", "DW", "DEFW", "DS", "DEFS", "END", "MACRO", "ENDM",
];
const MAX_MACRO_DEPTH: usize = 16;

fn error(line: usize, kind: AsmErrorKind) -> AsmError {
    AsmError::new(line, kind)
}

struct SourceParser {
    macros: HashMap<String, Macro>,
    out: Vec<Stmt>,
}

impl SourceParser {
    fn is_op(&self, word: &str) -> bool {
        let w = word.to_ascii_uppercase();
        encode::is_mnemonic(&w)
            || DIRECTIVES.contains(&w.as_str())
            || IGNORED.contains(&w.as_str())
            || self.macros.contains_key(&w)
    }

    fn split<'a>(&self, text: &'a str, line: usize) -> Result<Line<'a>, AsmError> {
        lexer::split_line(text, |w| self.is_op(w)).map_err(|kind| error(line, kind))
    }

    /// Expand a macro call from line `line` (all statements get that line number).
    fn expand(&mut self, name: &str, l: &Line, line: usize, depth: usize) -> Result<(), AsmError> {
        if depth > MAX_MACRO_DEPTH {
            return Err(error(
                line,
                AsmErrorKind::MacroTooDeep {
                    name: name.to_string(),
                },
            ));
        }
        let args = lexer::split_operands(l.rest);
        let mac = &self.macros[name];
        if args.len() > mac.params.len() {
            return Err(error(
                line,
                AsmErrorKind::TooManyMacroArguments {
                    name: name.to_string(),
                    parameters: mac.params.len(),
                    arguments: args.len(),
                },
            ));
        }
        let lookup = |w: &str| {
            mac.params
                .iter()
                .position(|p| p.eq_ignore_ascii_case(w))
                .map(|i| args.get(i).unwrap_or(&"").to_string())
        };
        let lines: Vec<String> = mac
            .body
            .iter()
            .map(|b| lexer::substitute(b, lookup))
            .collect();
        if let Some(label) = l.label {
            self.out.push(Stmt {
                line,
                label: Some(label.to_ascii_uppercase()),
                body: Body::Empty,
            });
        }
        for text in &lines {
            let l = self.split(text, line)?;
            let op = l.op.map(str::to_ascii_uppercase);
            match op.as_deref() {
                Some("MACRO" | "ENDM" | "END") => {
                    return Err(error(
                        line,
                        AsmErrorKind::DirectiveInMacro {
                            directive: op.unwrap_or_default(),
                            name: name.to_string(),
                        },
                    ));
                }
                Some(o) if self.macros.contains_key(o) => self.expand(o, &l, line, depth + 1)?,
                _ => {
                    let stmt = statement(&l, line)?;
                    self.out.push(stmt);
                }
            }
        }
        Ok(())
    }
}

/// Parse a whole program.
pub(crate) fn program(source: &str) -> Result<Vec<Stmt>, AsmError> {
    let mut p = SourceParser {
        macros: HashMap::new(),
        out: Vec::new(),
    };
    let mut lines = source.lines().enumerate().map(|(i, t)| (i + 1, t));
    while let Some((n, text)) = lines.next() {
        let l = p.split(text, n)?;
        let op = l.op.map(str::to_ascii_uppercase);
        match op.as_deref() {
            Some("MACRO") => {
                let name = l
                    .label
                    .ok_or_else(|| error(n, AsmErrorKind::MacroWithoutName))?
                    .to_ascii_uppercase();
                if p.macros.contains_key(&name) || encode::is_mnemonic(&name) {
                    return Err(error(n, AsmErrorKind::MacroAlreadyDefined { name }));
                }
                let params: Vec<String> = lexer::split_operands(l.rest)
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
                if let Some(bad) = params.iter().find(|s| {
                    expr::parse(s)
                        .ok()
                        .is_none_or(|e| !matches!(e, Expr::Sym(_)))
                }) {
                    return Err(error(
                        n,
                        AsmErrorKind::BadMacroParameter {
                            parameter: bad.clone(),
                        },
                    ));
                }
                let mut body = Vec::new();
                let mut depth = 0;
                loop {
                    let Some((m, text)) = lines.next() else {
                        return Err(error(n, AsmErrorKind::MacroWithoutEndm { name }));
                    };
                    let bl = p.split(text, m)?;
                    match bl.op.map(str::to_ascii_uppercase).as_deref() {
                        Some("ENDM") if depth == 0 => break,
                        Some("ENDM") => depth -= 1,
                        Some("MACRO") => depth += 1,
                        _ => {}
                    }
                    body.push(lexer::code(text).to_string());
                }
                p.macros.insert(name, Macro { params, body });
            }
            Some("ENDM") => return Err(error(n, AsmErrorKind::EndmWithoutMacro)),
            Some("END") => break,
            Some(o) if p.macros.contains_key(o) => {
                let o = o.to_string();
                p.expand(&o, &l, n, 0)?;
            }
            _ => {
                let stmt = statement(&l, n)?;
                p.out.push(stmt);
            }
        }
    }
    Ok(p.out)
}

fn parse_expr(text: &str, line: usize) -> Result<Expr, AsmError> {
    if text.trim().is_empty() {
        return Err(error(line, AsmErrorKind::MissingExpression));
    }
    expr::parse(text).map_err(|e| error(line, AsmErrorKind::BadExpression(e)))
}

/// If `text` is exactly one string literal, its bytes.
fn string_literal(text: &str) -> Option<Vec<u8>> {
    let b = text.as_bytes();
    let q = *b.first()?;
    if q != b'\'' && q != b'"' {
        return None;
    }
    let mut out = Vec::new();
    let mut i = 1;
    while i < b.len() {
        if b[i] == q {
            if b.get(i + 1) == Some(&q) {
                out.push(q);
                i += 2;
                continue;
            }
            return (i == b.len() - 1).then_some(out);
        }
        out.push(b[i]);
        i += 1;
    }
    None
}

/// One statement from a line that is neither a macro definition nor a macro call.
fn statement(l: &Line, line: usize) -> Result<Stmt, AsmError> {
    let label = l.label.map(str::to_ascii_uppercase);
    let Some(op) = l.op else {
        return Ok(Stmt {
            line,
            label,
            body: Body::Empty,
        });
    };
    let upper = op.to_ascii_uppercase();
    let directive = upper.strip_prefix('.').unwrap_or(&upper);
    let operands = lexer::split_operands(l.rest);
    let one = || match operands[..] {
        [o] => parse_expr(o, line),
        _ => Err(error(
            line,
            AsmErrorKind::NotOneOperand {
                directive: directive.to_string(),
            },
        )),
    };
    let body = match directive {
        "EQU" | "=" => {
            if label.is_none() {
                return Err(error(
                    line,
                    AsmErrorKind::EquWithoutName {
                        directive: op.to_string(),
                    },
                ));
            }
            Body::Equ(one()?)
        }
        "ORG" => Body::Org(one()?),
        "DB" | "DEFB" | "DEFM" => {
            if operands.is_empty() {
                return Err(error(line, AsmErrorKind::DbWithoutValues));
            }
            let items = operands
                .iter()
                .map(|o| match string_literal(o) {
                    Some(b) => Ok(Item::Bytes(b)),
                    None => parse_expr(o, line).map(Item::Byte),
                })
                .collect::<Result<_, _>>()?;
            Body::Db(items)
        }
        "DW" | "DEFW" => {
            if operands.is_empty() {
                return Err(error(line, AsmErrorKind::DwWithoutValues));
            }
            Body::Dw(
                operands
                    .iter()
                    .map(|o| parse_expr(o, line))
                    .collect::<Result<_, _>>()?,
            )
        }
        "DS" | "DEFS" => match operands[..] {
            [n] => Body::Ds(parse_expr(n, line)?, None),
            [n, fill] => Body::Ds(parse_expr(n, line)?, Some(parse_expr(fill, line)?)),
            _ => return Err(error(line, AsmErrorKind::BadDsOperands)),
        },
        d if IGNORED.contains(&d) => Body::Empty,
        _ => match encode::encode(op, &operands) {
            Ok(pieces) => Body::Instr(pieces),
            Err(kind) => return Err(error(line, kind)),
        },
    };
    Ok(Stmt { line, label, body })
}
