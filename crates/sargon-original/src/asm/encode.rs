//! Z80 instruction encoding: from a mnemonic and its operand texts to a byte template.
//!
//! The template ([`Piece`]s) is fixed by the operands' *forms* alone (register, `(HL)`,
//! `(IX+d)`, `(nn)`, immediate…), never by their values, which is why the assembler can
//! lay out every address before any symbol is known. Values are filled in by the emitter.
//! The regular parts of the instruction set use the manual's bit fields (`r` in bits 0–2
//! or 3–5, `dd`/`qq` in bits 4–5, `cc` in bits 3–5); only the irregular rest is spelled out.

use super::expr::{self, Expr};
use super::AsmErrorKind;

/// One part of an instruction's encoding.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Piece {
    Byte(u8),
    /// An 8-bit value (immediate or port).
    Imm8(Expr),
    /// A 16-bit value, low byte first.
    Imm16(Expr),
    /// An index displacement `d` of `(IX+d)`: signed 8 bits.
    Disp(Expr),
    /// A relative jump target, turned into `target - (address after the instruction)`.
    Rel(Expr),
    /// `RST p`: the byte `C7h | p`.
    Rst(Expr),
    /// `IM n`'s second byte.
    Im(Expr),
    /// A bit instruction's opcode byte: the base with the bit number in bits 3–5.
    Bit(u8, Expr),
}

impl Piece {
    pub(crate) fn size(&self) -> usize {
        match self {
            Piece::Imm16(_) => 2,
            _ => 1,
        }
    }
}

/// Instructions without operands: (mnemonic, prefix or 0, opcode).
const SIMPLE: &[(&str, u8, u8)] = &[
    ("NOP", 0, 0x00),
    ("HALT", 0, 0x76),
    ("DI", 0, 0xF3),
    ("EI", 0, 0xFB),
    ("DAA", 0, 0x27),
    ("CPL", 0, 0x2F),
    ("CCF", 0, 0x3F),
    ("SCF", 0, 0x37),
    ("RLCA", 0, 0x07),
    ("RRCA", 0, 0x0F),
    ("RLA", 0, 0x17),
    ("RRA", 0, 0x1F),
    ("EXX", 0, 0xD9),
    ("NEG", 0xED, 0x44),
    ("RETI", 0xED, 0x4D),
    ("RETN", 0xED, 0x45),
    ("RLD", 0xED, 0x6F),
    ("RRD", 0xED, 0x67),
    ("LDI", 0xED, 0xA0),
    ("LDIR", 0xED, 0xB0),
    ("LDD", 0xED, 0xA8),
    ("LDDR", 0xED, 0xB8),
    ("CPI", 0xED, 0xA1),
    ("CPIR", 0xED, 0xB1),
    ("CPD", 0xED, 0xA9),
    ("CPDR", 0xED, 0xB9),
    ("INI", 0xED, 0xA2),
    ("INIR", 0xED, 0xB2),
    ("IND", 0xED, 0xAA),
    ("INDR", 0xED, 0xBA),
    ("OUTI", 0xED, 0xA3),
    ("OTIR", 0xED, 0xB3),
    ("OUTD", 0xED, 0xAB),
    ("OTDR", 0xED, 0xBB),
];

/// The eight accumulator operations, in the order of their 3-bit field.
const ALU: [&str; 8] = ["ADD", "ADC", "SUB", "SBC", "AND", "XOR", "OR", "CP"];
/// The CB-prefixed rotates and shifts, in the order of their 3-bit field (6 is undocumented).
const ROT: [&str; 8] = ["RLC", "RRC", "RL", "RR", "SLA", "SRA", "", "SRL"];
/// Mnemonics with operands.
const OTHERS: &[&str] = &[
    "LD", "PUSH", "POP", "EX", "INC", "DEC", "BIT", "SET", "RES", "JP", "JR", "DJNZ", "CALL",
    "RET", "RST", "IM", "IN", "OUT",
];

/// Is this (upper-case) word a Z80 mnemonic?
pub(crate) fn is_mnemonic(word: &str) -> bool {
    SIMPLE.iter().any(|s| s.0 == word)
        || ALU.contains(&word)
        || (ROT.contains(&word) && !word.is_empty())
        || OTHERS.contains(&word)
}

/// A classified operand.
#[derive(Clone, Debug, PartialEq)]
enum Opd {
    /// B C D E H L A as their 3-bit codes (0–5, 7).
    R8(u8),
    I,
    R,
    /// BC DE HL SP as their 2-bit codes.
    Rp(u8),
    Af,
    AfAlt,
    /// IX or IY, as their prefix byte.
    Xy(u8),
    /// (BC) (DE) (HL) (SP) by register-pair code.
    Ind(u8),
    /// (C), the port of IN/OUT.
    IndC,
    /// (IX+d) or (IY+d); `bare` when written `(IX)`.
    Idx(u8, Expr, bool),
    /// (nn)
    Mem(Expr),
    Imm(Expr),
}

const A: u8 = 7;
const HL: u8 = 2;
const SP: u8 = 3;

/// Index of the close bracket matching the open one at 0, skipping quoted characters.
fn matching_close(s: &[u8]) -> Option<usize> {
    let mut depth = 0;
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'(' | b'[' => depth += 1,
            b')' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            q @ (b'\'' | b'"') => {
                i += 1;
                while i < s.len() && s[i] != q {
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

fn register(word: &str) -> Option<Opd> {
    Some(match word {
        "B" => Opd::R8(0),
        "C" => Opd::R8(1),
        "D" => Opd::R8(2),
        "E" => Opd::R8(3),
        "H" => Opd::R8(4),
        "L" => Opd::R8(5),
        "A" => Opd::R8(A),
        "I" => Opd::I,
        "R" => Opd::R,
        "BC" => Opd::Rp(0),
        "DE" => Opd::Rp(1),
        "HL" => Opd::Rp(HL),
        "SP" => Opd::Rp(SP),
        "AF" => Opd::Af,
        "AF'" => Opd::AfAlt,
        "IX" => Opd::Xy(0xDD),
        "IY" => Opd::Xy(0xFD),
        _ => return None,
    })
}

fn expression(text: &str) -> Result<Expr, AsmErrorKind> {
    expr::parse(text).map_err(|error| AsmErrorKind::BadOperandExpression {
        operand: text.trim().to_string(),
        error,
    })
}

fn operand(text: &str) -> Result<Opd, AsmErrorKind> {
    let text = text.trim();
    if text.is_empty() {
        return Err(AsmErrorKind::MissingOperand);
    }
    let upper = text.to_ascii_uppercase();
    if let Some(r) = register(&upper) {
        return Ok(r);
    }
    let b = upper.as_bytes();
    if (b[0] == b'(' || b[0] == b'[') && matching_close(b) == Some(b.len() - 1) {
        let inner = upper[1..upper.len() - 1].trim();
        match inner {
            "BC" => return Ok(Opd::Ind(0)),
            "DE" => return Ok(Opd::Ind(1)),
            "HL" => return Ok(Opd::Ind(HL)),
            "SP" => return Ok(Opd::Ind(SP)),
            "C" => return Ok(Opd::IndC),
            _ => {}
        }
        let ib = inner.as_bytes();
        if ib.len() >= 2
            && (&ib[..2] == b"IX" || &ib[..2] == b"IY")
            && ib.get(2).is_none_or(|&c| !expr::is_ident_char(c))
        {
            let prefix = if ib[1] == b'X' { 0xDD } else { 0xFD };
            let disp = inner[2..].trim();
            if disp.is_empty() {
                return Ok(Opd::Idx(prefix, Expr::Num(0), true));
            }
            if !disp.starts_with(['+', '-']) {
                return Err(AsmErrorKind::BadIndexOperand {
                    operand: text.to_string(),
                });
            }
            // Parse the original text, not the upper-cased copy, for character constants.
            let disp_text = &text[1..text.len() - 1].trim()[2..];
            return Ok(Opd::Idx(prefix, expression(disp_text)?, false));
        }
        return Ok(Opd::Mem(expression(&text[1..text.len() - 1])?));
    }
    Ok(Opd::Imm(expression(text)?))
}

fn condition(text: &str) -> Option<u8> {
    Some(match text.trim().to_ascii_uppercase().as_str() {
        "NZ" => 0,
        "Z" => 1,
        "NC" => 2,
        "C" => 3,
        "PO" => 4,
        "PE" => 5,
        "P" => 6,
        "M" => 7,
        _ => return None,
    })
}

/// An operand the Z80 encodes as a 3-bit `r` field: a register, (HL) or (IX+d).
struct RField {
    prefix: Option<u8>,
    code: u8,
    disp: Option<Expr>,
}

fn r_field(o: &Opd) -> Option<RField> {
    match o {
        Opd::R8(r) => Some(RField {
            prefix: None,
            code: *r,
            disp: None,
        }),
        Opd::Ind(HL) => Some(RField {
            prefix: None,
            code: 6,
            disp: None,
        }),
        Opd::Idx(p, e, _) => Some(RField {
            prefix: Some(*p),
            code: 6,
            disp: Some(e.clone()),
        }),
        _ => None,
    }
}

/// prefix, opcode, displacement.
fn with_r(f: RField, op: u8) -> Vec<Piece> {
    let mut v = Vec::with_capacity(3);
    v.extend(f.prefix.map(Piece::Byte));
    v.push(Piece::Byte(op));
    v.extend(f.disp.map(Piece::Disp));
    v
}

/// CB-prefixed: `CB op`, or `DD CB d op` for an indexed operand.
fn cb_with_r(f: RField, op: Piece) -> Vec<Piece> {
    let mut v = Vec::with_capacity(4);
    v.extend(f.prefix.map(Piece::Byte));
    v.push(Piece::Byte(0xCB));
    v.extend(f.disp.map(Piece::Disp));
    v.push(op);
    v
}

fn bytes(b: &[u8]) -> Vec<Piece> {
    b.iter().map(|&b| Piece::Byte(b)).collect()
}

/// Encode one instruction. `mnemonic` in any case; `ops` are the operand texts.
pub(crate) fn encode(mnemonic: &str, ops: &[&str]) -> Result<Vec<Piece>, AsmErrorKind> {
    let m = mnemonic.to_ascii_uppercase();
    let operands = || ops.iter().map(|o| o.to_string()).collect();
    let bad = || AsmErrorKind::BadOperands {
        mnemonic: m.clone(),
        operands: operands(),
    };

    if let Some(&(_, prefix, op)) = SIMPLE.iter().find(|s| s.0 == m) {
        if !ops.is_empty() {
            return Err(AsmErrorKind::TakesNoOperands {
                mnemonic: m,
                operands: operands(),
            });
        }
        return Ok(if prefix == 0 {
            bytes(&[op])
        } else {
            bytes(&[prefix, op])
        });
    }
    if !is_mnemonic(&m) {
        return Err(AsmErrorKind::UnknownMnemonic { mnemonic: m });
    }

    // Instructions whose first operand may be a condition.
    if matches!(m.as_str(), "JP" | "JR" | "CALL" | "RET") {
        let cc = if ops.len() == 2 || (m == "RET" && ops.len() == 1) {
            Some(condition(ops[0]).ok_or_else(bad)?)
        } else {
            None
        };
        let target = match (m.as_str(), ops.len()) {
            ("RET", 0) => return Ok(bytes(&[0xC9])),
            ("RET", 1) => return Ok(bytes(&[0xC0 | cc.unwrap_or(0) << 3])),
            (_, 1) => operand(ops[0])?,
            (_, 2) => operand(ops[1])?,
            _ => return Err(bad()),
        };
        return match (m.as_str(), cc, target) {
            ("JP", None, Opd::Imm(e)) => Ok(vec![Piece::Byte(0xC3), Piece::Imm16(e)]),
            ("JP", None, Opd::Ind(HL)) => Ok(bytes(&[0xE9])),
            ("JP", None, Opd::Idx(p, _, true)) => Ok(bytes(&[p, 0xE9])),
            ("JP", Some(c), Opd::Imm(e)) => Ok(vec![Piece::Byte(0xC2 | c << 3), Piece::Imm16(e)]),
            ("CALL", None, Opd::Imm(e)) => Ok(vec![Piece::Byte(0xCD), Piece::Imm16(e)]),
            ("CALL", Some(c), Opd::Imm(e)) => Ok(vec![Piece::Byte(0xC4 | c << 3), Piece::Imm16(e)]),
            ("JR", None, Opd::Imm(e)) => Ok(vec![Piece::Byte(0x18), Piece::Rel(e)]),
            ("JR", Some(c), Opd::Imm(e)) if c < 4 => {
                Ok(vec![Piece::Byte(0x20 | c << 3), Piece::Rel(e)])
            }
            _ => Err(bad()),
        };
    }

    let opds = ops
        .iter()
        .map(|o| operand(o))
        .collect::<Result<Vec<_>, _>>()?;

    if let Some(k) = ALU.iter().position(|&a| a == m) {
        let k = k as u8;
        let src = match &opds[..] {
            [s] => s,
            [Opd::Rp(HL), s] if k == 0 => return add16(None, s).ok_or_else(bad),
            [Opd::Xy(p), s] if k == 0 => return add16(Some(*p), s).ok_or_else(bad),
            [Opd::Rp(HL), Opd::Rp(rp)] if k == 1 => return Ok(bytes(&[0xED, 0x4A | rp << 4])),
            [Opd::Rp(HL), Opd::Rp(rp)] if k == 3 => return Ok(bytes(&[0xED, 0x42 | rp << 4])),
            [Opd::R8(A), s] => s,
            _ => return Err(bad()),
        };
        if let Opd::Imm(e) = src {
            return Ok(vec![Piece::Byte(0xC6 | k << 3), Piece::Imm8(e.clone())]);
        }
        let f = r_field(src).ok_or_else(bad)?;
        let op = 0x80 | k << 3 | f.code;
        return Ok(with_r(f, op));
    }

    if let Some(k) = ROT.iter().position(|&r| r == m) {
        let [o] = &opds[..] else { return Err(bad()) };
        let f = r_field(o).ok_or_else(bad)?;
        let op = (k as u8) << 3 | f.code;
        return Ok(cb_with_r(f, Piece::Byte(op)));
    }

    match (m.as_str(), &opds[..]) {
        ("LD", [d, s]) => load(d, s).ok_or_else(bad),
        ("PUSH" | "POP", [o]) => {
            let base = if m == "PUSH" { 0xC5 } else { 0xC1 };
            match o {
                Opd::Rp(rp) if *rp != SP => Ok(bytes(&[base | rp << 4])),
                Opd::Af => Ok(bytes(&[base | 0x30])),
                Opd::Xy(p) => Ok(bytes(&[*p, base | 0x20])),
                _ => Err(bad()),
            }
        }
        ("EX", [a, b]) => match (a, b) {
            (Opd::Rp(1), Opd::Rp(HL)) | (Opd::Rp(HL), Opd::Rp(1)) => Ok(bytes(&[0xEB])),
            (Opd::Af, Opd::AfAlt) => Ok(bytes(&[0x08])),
            (Opd::Ind(SP), Opd::Rp(HL)) => Ok(bytes(&[0xE3])),
            (Opd::Ind(SP), Opd::Xy(p)) => Ok(bytes(&[*p, 0xE3])),
            _ => Err(bad()),
        },
        ("INC" | "DEC", [o]) => {
            let dec = m == "DEC";
            match o {
                Opd::Rp(rp) => Ok(bytes(&[if dec { 0x0B } else { 0x03 } | rp << 4])),
                Opd::Xy(p) => Ok(bytes(&[*p, if dec { 0x2B } else { 0x23 }])),
                _ => {
                    let f = r_field(o).ok_or_else(bad)?;
                    let op = if dec { 0x05 } else { 0x04 } | f.code << 3;
                    Ok(with_r(f, op))
                }
            }
        }
        ("BIT" | "RES" | "SET", [Opd::Imm(bit), o]) => {
            let base = match m.as_str() {
                "BIT" => 0x40,
                "RES" => 0x80,
                _ => 0xC0,
            };
            let f = r_field(o).ok_or_else(bad)?;
            let op = Piece::Bit(base | f.code, bit.clone());
            Ok(cb_with_r(f, op))
        }
        ("DJNZ", [Opd::Imm(e)]) => Ok(vec![Piece::Byte(0x10), Piece::Rel(e.clone())]),
        ("RST", [Opd::Imm(e)]) => Ok(vec![Piece::Rst(e.clone())]),
        ("IM", [Opd::Imm(e)]) => Ok(vec![Piece::Byte(0xED), Piece::Im(e.clone())]),
        ("IN", [Opd::R8(A), Opd::Mem(port)]) => {
            Ok(vec![Piece::Byte(0xDB), Piece::Imm8(port.clone())])
        }
        ("IN", [Opd::R8(r), Opd::IndC]) => Ok(bytes(&[0xED, 0x40 | r << 3])),
        ("OUT", [Opd::Mem(port), Opd::R8(A)]) => {
            Ok(vec![Piece::Byte(0xD3), Piece::Imm8(port.clone())])
        }
        ("OUT", [Opd::IndC, Opd::R8(r)]) => Ok(bytes(&[0xED, 0x41 | r << 3])),
        _ => Err(bad()),
    }
}

/// `ADD HL,ss` (prefix `None`) or `ADD IX,pp`: the source pair's code, where the index
/// register itself takes HL's place.
fn add16(prefix: Option<u8>, src: &Opd) -> Option<Vec<Piece>> {
    let rr = match (prefix, src) {
        (_, Opd::Rp(HL)) if prefix.is_some() => return None,
        (_, Opd::Rp(rr)) => *rr,
        (Some(p), Opd::Xy(q)) if p == *q => HL,
        _ => return None,
    };
    let op = 0x09 | rr << 4;
    Some(match prefix {
        None => bytes(&[op]),
        Some(p) => bytes(&[p, op]),
    })
}

/// All forms of LD.
fn load(d: &Opd, s: &Opd) -> Option<Vec<Piece>> {
    use Opd::*;
    let imm16 = |e: &Expr| Piece::Imm16(e.clone());
    Some(match (d, s) {
        (R8(d), R8(s)) => bytes(&[0x40 | d << 3 | s]),
        (R8(d), Ind(HL)) => bytes(&[0x46 | d << 3]),
        (R8(d), Idx(p, e, _)) => vec![
            Piece::Byte(*p),
            Piece::Byte(0x46 | d << 3),
            Piece::Disp(e.clone()),
        ],
        (Ind(HL), R8(s)) => bytes(&[0x70 | s]),
        (Idx(p, e, _), R8(s)) => vec![
            Piece::Byte(*p),
            Piece::Byte(0x70 | s),
            Piece::Disp(e.clone()),
        ],
        (R8(d), Imm(n)) => vec![Piece::Byte(0x06 | d << 3), Piece::Imm8(n.clone())],
        (Ind(HL), Imm(n)) => vec![Piece::Byte(0x36), Piece::Imm8(n.clone())],
        (Idx(p, e, _), Imm(n)) => {
            vec![
                Piece::Byte(*p),
                Piece::Byte(0x36),
                Piece::Disp(e.clone()),
                Piece::Imm8(n.clone()),
            ]
        }
        (R8(A), Ind(0)) => bytes(&[0x0A]),
        (R8(A), Ind(1)) => bytes(&[0x1A]),
        (R8(A), Mem(n)) => vec![Piece::Byte(0x3A), imm16(n)],
        (Ind(0), R8(A)) => bytes(&[0x02]),
        (Ind(1), R8(A)) => bytes(&[0x12]),
        (Mem(n), R8(A)) => vec![Piece::Byte(0x32), imm16(n)],
        (R8(A), I) => bytes(&[0xED, 0x57]),
        (R8(A), R) => bytes(&[0xED, 0x5F]),
        (I, R8(A)) => bytes(&[0xED, 0x47]),
        (R, R8(A)) => bytes(&[0xED, 0x4F]),
        (Rp(rp), Imm(n)) => vec![Piece::Byte(0x01 | rp << 4), imm16(n)],
        (Xy(p), Imm(n)) => vec![Piece::Byte(*p), Piece::Byte(0x21), imm16(n)],
        (Rp(HL), Mem(n)) => vec![Piece::Byte(0x2A), imm16(n)],
        (Rp(rp), Mem(n)) => vec![Piece::Byte(0xED), Piece::Byte(0x4B | rp << 4), imm16(n)],
        (Xy(p), Mem(n)) => vec![Piece::Byte(*p), Piece::Byte(0x2A), imm16(n)],
        (Mem(n), Rp(HL)) => vec![Piece::Byte(0x22), imm16(n)],
        (Mem(n), Rp(rp)) => vec![Piece::Byte(0xED), Piece::Byte(0x43 | rp << 4), imm16(n)],
        (Mem(n), Xy(p)) => vec![Piece::Byte(*p), Piece::Byte(0x22), imm16(n)],
        (Rp(SP), Rp(HL)) => bytes(&[0xF9]),
        (Rp(SP), Xy(p)) => bytes(&[*p, 0xF9]),
        _ => return None,
    })
}
