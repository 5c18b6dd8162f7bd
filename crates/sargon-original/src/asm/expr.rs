//! Expressions: parsed once into a small tree, evaluated on every pass.
//!
//! Parsing once keeps the passes cheap and lets the layout passes skip operands entirely:
//! on the Z80 an instruction's size never depends on an operand's value, only on its form.
//! Values are `i64` so that differences such as `$-BASE` stay negative instead of
//! wrapping; the emitter decides how a value fits a byte, word or displacement.

use std::collections::HashMap;

use super::ExprError;

/// A parsed expression.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Expr {
    Num(i64),
    /// A symbol, upper-cased.
    Sym(String),
    /// `$`, the address of the current statement.
    Here,
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    And,
    Or,
    Xor,
    Shl,
    Shr,
}

/// Why an expression has no value.
#[derive(Debug, PartialEq)]
pub(crate) enum EvalError {
    Undefined(String),
    DivisionByZero,
}

/// Symbol lookup for evaluation: this pass's values first, then the previous pass's.
pub(crate) struct Scope<'a> {
    pub current: &'a HashMap<String, i64>,
    pub previous: &'a HashMap<String, i64>,
    pub here: i64,
}

impl Scope<'_> {
    fn lookup(&self, name: &str) -> Option<i64> {
        self.current
            .get(name)
            .or_else(|| self.previous.get(name))
            .copied()
    }
}

impl Expr {
    pub(crate) fn eval(&self, scope: &Scope) -> Result<i64, EvalError> {
        Ok(match self {
            Expr::Num(n) => *n,
            Expr::Here => scope.here,
            Expr::Sym(s) => scope
                .lookup(s)
                .ok_or_else(|| EvalError::Undefined(s.clone()))?,
            Expr::Neg(e) => e.eval(scope)?.wrapping_neg(),
            Expr::Not(e) => !e.eval(scope)?,
            Expr::Bin(op, a, b) => {
                let (a, b) = (a.eval(scope)?, b.eval(scope)?);
                match op {
                    BinOp::Add => a.wrapping_add(b),
                    BinOp::Sub => a.wrapping_sub(b),
                    BinOp::Mul => a.wrapping_mul(b),
                    BinOp::Div | BinOp::Mod if b == 0 => {
                        return Err(EvalError::DivisionByZero);
                    }
                    BinOp::Div => a.wrapping_div(b),
                    BinOp::Mod => a.wrapping_rem(b),
                    BinOp::And => a & b,
                    BinOp::Or => a | b,
                    BinOp::Xor => a ^ b,
                    BinOp::Shl => u32::try_from(b)
                        .ok()
                        .and_then(|s| a.checked_shl(s))
                        .unwrap_or(0),
                    BinOp::Shr => u32::try_from(b)
                        .ok()
                        .and_then(|s| a.checked_shr(s))
                        .unwrap_or(0),
                }
            }
        })
    }
}

/// Characters that may appear in a symbol after its first character.
pub(crate) fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'?' | b'@')
}

/// Characters that may start a symbol.
pub(crate) fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || matches!(c, b'_' | b'.' | b'?' | b'@')
}

/// Parse a whole expression; trailing text is an error.
pub(crate) fn parse(text: &str) -> Result<Expr, ExprError> {
    let mut p = ExprParser {
        s: text.as_bytes(),
        i: 0,
        text,
        nodes: 0,
    };
    let e = p.expr(0)?;
    p.skip_ws();
    if p.i < p.s.len() {
        return Err(ExprError::Unexpected {
            text: text[p.i..].to_string(),
            expression: text.trim().to_string(),
        });
    }
    Ok(e)
}

struct ExprParser<'a> {
    s: &'a [u8],
    i: usize,
    text: &'a str,
    /// Operators and brackets so far: bounded, so that neither parsing nor evaluating
    /// (both recursive) can exhaust the stack on hostile input.
    nodes: usize,
}

/// More operators and brackets than any real expression has.
const MAX_NODES: usize = 1000;

/// Binary operators from loosest to tightest binding (C's order).
const LEVELS: &[&[(&str, BinOp)]] = &[
    &[("|", BinOp::Or)],
    &[("^", BinOp::Xor)],
    &[("&", BinOp::And)],
    &[("<<", BinOp::Shl), (">>", BinOp::Shr)],
    &[("+", BinOp::Add), ("-", BinOp::Sub)],
    &[("*", BinOp::Mul), ("/", BinOp::Div), ("%", BinOp::Mod)],
];

impl ExprParser<'_> {
    fn skip_ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    /// The whole expression's text, for errors.
    fn expression(&self) -> String {
        self.text.trim().to_string()
    }

    fn count_node(&mut self) -> Result<(), ExprError> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(ExprError::TooComplex {
                expression: self.expression(),
            });
        }
        Ok(())
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.s.get(self.i).copied()
    }

    fn expr(&mut self, level: usize) -> Result<Expr, ExprError> {
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut lhs = self.expr(level + 1)?;
        'outer: loop {
            self.skip_ws();
            for (tok, op) in LEVELS[level] {
                if self.s[self.i..].starts_with(tok.as_bytes()) {
                    self.count_node()?;
                    self.i += tok.len();
                    let rhs = self.expr(level + 1)?;
                    lhs = Expr::Bin(*op, Box::new(lhs), Box::new(rhs));
                    continue 'outer;
                }
            }
            return Ok(lhs);
        }
    }

    fn unary(&mut self) -> Result<Expr, ExprError> {
        if matches!(self.peek(), Some(b'-' | b'+' | b'~' | b'(' | b'[')) {
            self.count_node()?;
        }
        match self.peek() {
            Some(b'-') => {
                self.i += 1;
                Ok(Expr::Neg(Box::new(self.unary()?)))
            }
            Some(b'+') => {
                self.i += 1;
                self.unary()
            }
            Some(b'~') => {
                self.i += 1;
                Ok(Expr::Not(Box::new(self.unary()?)))
            }
            _ => self.primary(),
        }
    }

    fn primary(&mut self) -> Result<Expr, ExprError> {
        let Some(c) = self.peek() else {
            return Err(ExprError::MissingOperand {
                expression: self.expression(),
            });
        };
        let start = self.i;
        match c {
            b'(' | b'[' => {
                let close = if c == b'(' { b')' } else { b']' };
                self.i += 1;
                let e = self.expr(0)?;
                if self.peek() != Some(close) {
                    return Err(ExprError::MissingBracket {
                        bracket: close as char,
                        expression: self.expression(),
                    });
                }
                self.i += 1;
                Ok(e)
            }
            b'$' => {
                self.i += 1;
                let digits = self.take_while(|c| c.is_ascii_alphanumeric());
                if digits.is_empty() {
                    Ok(Expr::Here)
                } else {
                    i64::from_str_radix(digits, 16).map(Expr::Num).map_err(|_| {
                        ExprError::BadHexNumber {
                            digits: digits.to_string(),
                        }
                    })
                }
            }
            b'\'' | b'"' => {
                self.i += 1;
                let mut bytes = Vec::new();
                loop {
                    match self.s.get(self.i) {
                        None => {
                            return Err(ExprError::UnterminatedCharacter {
                                expression: self.expression(),
                            })
                        }
                        Some(&q) if q == c => {
                            if self.s.get(self.i + 1) == Some(&c) {
                                bytes.push(c);
                                self.i += 2;
                            } else {
                                self.i += 1;
                                break;
                            }
                        }
                        Some(&b) => {
                            bytes.push(b);
                            self.i += 1;
                        }
                    }
                }
                match bytes[..] {
                    [b] => Ok(Expr::Num(i64::from(b))),
                    // Two characters make a word, first character in the high byte.
                    [h, l] => Ok(Expr::Num(i64::from(h) << 8 | i64::from(l))),
                    _ => Err(ExprError::NotACharacterConstant {
                        text: self.text[start..self.i].to_string(),
                    }),
                }
            }
            c if c.is_ascii_digit() => {
                let tok = self.take_while(|c| c.is_ascii_alphanumeric());
                parse_number(tok).ok_or_else(|| ExprError::BadNumber {
                    text: tok.to_string(),
                })
            }
            c if is_ident_start(c) => {
                let tok = self.take_while(is_ident_char);
                Ok(Expr::Sym(tok.to_ascii_uppercase()))
            }
            _ => Err(ExprError::Unexpected {
                text: self.text[start..].to_string(),
                expression: self.expression(),
            }),
        }
    }

    fn take_while(&mut self, f: impl Fn(u8) -> bool) -> &str {
        let start = self.i;
        while self.i < self.s.len() && f(self.s[self.i]) {
            self.i += 1;
        }
        &self.text[start..self.i]
    }
}

/// A number starting with a digit: `0FFH` hex, `0x1F` hex, `101B` binary, `17O`/`17Q`
/// octal, `12D` or `12` decimal.
fn parse_number(tok: &str) -> Option<Expr> {
    let lower = tok.to_ascii_lowercase();
    let (digits, radix) = if let Some(d) = lower.strip_prefix("0x") {
        (d, 16)
    } else if let Some(d) = lower.strip_suffix('h') {
        (d, 16)
    } else if let Some(d) = lower
        .strip_suffix('b')
        .filter(|d| d.bytes().all(|c| c == b'0' || c == b'1'))
    {
        (d, 2)
    } else if let Some(d) = lower.strip_suffix('o').or_else(|| lower.strip_suffix('q')) {
        (d, 8)
    } else if let Some(d) = lower.strip_suffix('d') {
        (d, 10)
    } else {
        (lower.as_str(), 10)
    };
    if digits.is_empty() {
        return None;
    }
    i64::from_str_radix(digits, radix).ok().map(Expr::Num)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn val(text: &str) -> Result<i64, EvalError> {
        let mut syms = HashMap::new();
        syms.insert("TEN".to_string(), 10);
        syms.insert("BASE".to_string(), 0x100);
        let empty = HashMap::new();
        parse(text).unwrap().eval(&Scope {
            current: &syms,
            previous: &empty,
            here: 0x1234,
        })
    }

    #[test]
    fn numbers() {
        assert_eq!(val("0FFH"), Ok(255));
        assert_eq!(val("80h"), Ok(128));
        assert_eq!(val("$80"), Ok(128));
        assert_eq!(val("$AF"), Ok(0xAF));
        assert_eq!(val("+09"), Ok(9));
        assert_eq!(val("-11"), Ok(-11));
        assert_eq!(val("0x1f"), Ok(31));
        assert_eq!(val("1010B"), Ok(10));
        assert_eq!(val("17Q"), Ok(15));
        assert_eq!(val("0BH"), Ok(11));
        assert_eq!(val("'['"), Ok(0x5B));
        assert_eq!(val("''''"), Ok(0x27));
    }

    #[test]
    fn operators() {
        assert_eq!(val("$-BASE"), Ok(0x1134));
        assert_eq!(val("$ - base - 1"), Ok(0x1133));
        assert_eq!(val("ten+2*3"), Ok(16));
        assert_eq!(val("(ten+2)*3"), Ok(36));
        assert_eq!(val("1<<4|1"), Ok(17));
        assert_eq!(val("0F0H & 3CH"), Ok(0x30));
        assert_eq!(val("100/7"), Ok(14));
        assert_eq!(val("100%7"), Ok(2));
        assert_eq!(val("256>>4"), Ok(16));
        assert_eq!(val("-(2+3)"), Ok(-5));
        assert_eq!(val("~0 & 0FFH"), Ok(0xFF));
        assert_eq!(val("5^1"), Ok(4));
    }

    #[test]
    fn errors() {
        assert_eq!(val("NOPE+1"), Err(EvalError::Undefined("NOPE".into())));
        assert_eq!(val("1/0"), Err(EvalError::DivisionByZero));
        assert!(matches!(parse("1+"), Err(ExprError::MissingOperand { .. })));
        assert!(matches!(
            parse("(1+2"),
            Err(ExprError::MissingBracket { bracket: ')', .. })
        ));
        assert!(matches!(parse("12G"), Err(ExprError::BadNumber { .. })));
        assert!(matches!(parse("1 2"), Err(ExprError::Unexpected { .. })));
        assert!(matches!(
            parse("'abc'"),
            Err(ExprError::NotACharacterConstant { .. })
        ));
        assert!(matches!(
            parse("'a"),
            Err(ExprError::UnterminatedCharacter { .. })
        ));
        for hostile in ["(", "-", "1+"] {
            assert!(matches!(
                parse(&hostile.repeat(100_000)),
                Err(ExprError::TooComplex { .. })
            ));
        }
    }
}
