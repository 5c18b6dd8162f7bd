//! A Z80 assembler for the dialect of Sargon's published Z80 transcription.
//!
//! Users import their own copy of the transcription, so the project needs an assembler
//! that turns it into exactly the bytes the zmac assembler produced for it (its listing is
//! the reference; `tests/it/assembler.rs` compares the two byte by byte). It is also the
//! assembler of the project's own Z80 test programs in `z80/`.
//!
//! How it works:
//! * `parse` reads the source once: lines are split (`lexer`), macros expanded,
//!   expressions parsed (`expr`) and instructions encoded into byte templates
//!   (`encode`). A Z80 instruction's size follows from its operands' forms alone, so
//!   after this step every statement's size is known except `DS`'s.
//! * Layout passes then assign addresses to labels and values to `EQU`s, each pass using
//!   the previous pass's values for forward references, until nothing changes (three
//!   passes for Sargon, whose `EQU`s refer forward).
//! * A final pass evaluates every operand and writes the bytes; only now are undefined
//!   symbols and out-of-range values errors.
//!
//! The dialect: labels start in column 1 (colon optional) or end with a colon; `EQU`/`=`,
//! `ORG`, `DB`/`DEFB`/`DEFM` (numbers and strings), `DW`/`DEFW`, `DS`/`DEFS` (reserve
//! without emitting, or fill with a second operand), `END`, `MACRO`/`ENDM` with
//! parameters (a macro call's bytes are listed on the calling line; labels inside a macro
//! body are not made local, so such a macro can be called once); `$` for the current statement's address; numbers as `0FFH`, `$FF`, `0x1F`,
//! `1010B`, `17Q`, decimal with optional sign; character constants `'a'`; operators
//! `+ - * / % & | ^ << >> ~` and parentheses with C's precedence. Mnemonics, registers
//! and symbols are case-insensitive; symbols are stored upper-cased. The whole documented
//! Z80 instruction set is accepted (no undocumented instructions or IXH/IXL registers).
//! An index displacement may be written as a 16-bit difference (`TABLE EQU $-BASE` used
//! as `(IX+TABLE)`) as long as it sign-extends from 8 bits.

use std::collections::{BTreeMap, HashMap, HashSet};

mod encode;
mod error;
mod expr;
mod lexer;
pub mod listing;
mod parse;
#[cfg(test)]
mod tests;

pub use error::{AsmError, AsmErrorKind, ExprError, Unrecoverable};

use encode::Piece;
use expr::{EvalError, Expr, Scope};
use parse::{Body, Item, Stmt};

/// The result of assembling a source or reading a listing.
#[derive(Clone, Debug)]
pub struct Assembly {
    /// The full 64 KiB address space; bytes nothing emitted are 0.
    pub memory: Vec<u8>,
    /// Lowest and highest address (inclusive) any byte was emitted at; `None` if none.
    pub extent: Option<(u16, u16)>,
    /// Every label and EQU, names upper-cased.
    pub symbols: BTreeMap<String, u16>,
    /// Per source line that emitted bytes: (1-based line number, address, bytes).
    pub lines: Vec<(usize, u16, Vec<u8>)>,
}

/// Layout passes before giving up on symbols that keep changing.
const MAX_PASSES: usize = 10;

/// Assemble Z80 source text.
///
/// ```
/// use sargon_original::asm::assemble;
///
/// let a = assemble("        ORG 100H\nSTART:  LD A,42\n        RET\n")?;
/// assert_eq!(a.symbols["START"], 0x100);
/// assert_eq!(&a.memory[0x100..0x103], &[0x3E, 42, 0xC9]);
/// assert_eq!(a.extent, Some((0x100, 0x102)));
/// assert!(assemble("        LD Q,1\n").is_err()); // no register Q
/// # Ok::<(), sargon_original::asm::AsmError>(())
/// ```
pub fn assemble(source: &str) -> Result<Assembly, AsmError> {
    let stmts = parse::program(source)?;
    let mut previous = HashMap::new();
    for _ in 0..MAX_PASSES {
        let (symbols, complete) = layout(&stmts, &previous)?;
        let settled = complete && symbols == previous;
        previous = symbols;
        if settled {
            break;
        }
    }
    // Either settled, or this reports what is undefined.
    emit(&stmts, &previous)
}

fn eval_error(line: usize, e: EvalError) -> AsmError {
    AsmError::new(
        line,
        match e {
            EvalError::Undefined(name) => AsmErrorKind::UndefinedSymbol { name },
            EvalError::DivisionByZero => AsmErrorKind::DivisionByZero,
        },
    )
}

/// The symbols defined so far in a pass, checking for duplicates.
struct SymbolTable {
    values: HashMap<String, i64>,
    seen: HashSet<String>,
}

impl SymbolTable {
    fn new() -> Self {
        SymbolTable {
            values: HashMap::new(),
            seen: HashSet::new(),
        }
    }

    fn declare(&mut self, name: &str, line: usize) -> Result<(), AsmError> {
        if !self.seen.insert(name.to_string()) {
            return Err(AsmError::new(
                line,
                AsmErrorKind::DuplicateLabel {
                    name: name.to_string(),
                },
            ));
        }
        Ok(())
    }
}

/// One address-assigning pass. Returns the symbols and whether every `EQU`, `ORG` and
/// `DS` could be evaluated.
fn layout(
    stmts: &[Stmt],
    previous: &HashMap<String, i64>,
) -> Result<(HashMap<String, i64>, bool), AsmError> {
    let mut syms = SymbolTable::new();
    let mut complete = true;
    let mut pc: i64 = 0;
    for s in stmts {
        let here = pc;
        let value = |e: &Expr, syms: &SymbolTable| {
            e.eval(&Scope {
                current: &syms.values,
                previous,
                here,
            })
        };
        let mut soft = |r: Result<i64, EvalError>| match r {
            Ok(v) => Ok(Some(v)),
            Err(EvalError::Undefined(_)) => {
                complete = false;
                Ok(None)
            }
            Err(e) => Err(eval_error(s.line, e)),
        };
        match &s.body {
            Body::Equ(e) => {
                let label = s.label.as_deref().unwrap_or_default();
                syms.declare(label, s.line)?;
                if let Some(v) = soft(value(e, &syms))? {
                    syms.values.insert(label.to_string(), v);
                }
                continue;
            }
            Body::Org(e) => {
                if let Some(v) = soft(value(e, &syms))? {
                    pc = org_address(v, s.line)?;
                }
            }
            _ => {}
        }
        if let Some(label) = &s.label {
            syms.declare(label, s.line)?;
            syms.values.insert(label.clone(), pc);
        }
        match &s.body {
            Body::Ds(e, _) => {
                if let Some(n) = soft(value(e, &syms))? {
                    pc += ds_size(n, s.line)?;
                }
            }
            b => pc += b.size() as i64,
        }
    }
    Ok((syms.values, complete))
}

fn org_address(v: i64, line: usize) -> Result<i64, AsmError> {
    if !(0..=0xFFFF).contains(&v) {
        return Err(AsmError::new(
            line,
            AsmErrorKind::OrgOutOfRange { value: v },
        ));
    }
    Ok(v)
}

fn ds_size(n: i64, line: usize) -> Result<i64, AsmError> {
    if !(0..=0x10000).contains(&n) {
        return Err(AsmError::new(
            line,
            AsmErrorKind::DsSizeOutOfRange { value: n },
        ));
    }
    Ok(n)
}

/// Where the final pass writes.
struct ImageWriter {
    memory: Vec<u8>,
    extent: Option<(u16, u16)>,
    lines: Vec<(usize, u16, Vec<u8>)>,
}

impl ImageWriter {
    fn write(&mut self, line: usize, addr: i64, bytes: &[u8]) -> Result<(), AsmError> {
        if bytes.is_empty() {
            return Ok(());
        }
        let end = addr + bytes.len() as i64 - 1;
        if addr < 0 || end > 0xFFFF {
            return Err(AsmError::new(
                line,
                AsmErrorKind::BeyondAddressSpace { address: addr },
            ));
        }
        let (start, end) = (addr as u16, end as u16);
        self.memory[start as usize..=end as usize].copy_from_slice(bytes);
        self.extent = Some(match self.extent {
            None => (start, end),
            Some((lo, hi)) => (lo.min(start), hi.max(end)),
        });
        // A macro call's statements share its line: list them as one run of bytes.
        if let Some((l, a, b)) = self.lines.last_mut()
            && *l == line
            && *a as usize + b.len() == start as usize
        {
            b.extend_from_slice(bytes);
            return Ok(());
        }
        self.lines.push((line, start, bytes.to_vec()));
        Ok(())
    }
}

/// The final pass: evaluate everything strictly and write the bytes.
fn emit(stmts: &[Stmt], previous: &HashMap<String, i64>) -> Result<Assembly, AsmError> {
    let mut syms = SymbolTable::new();
    let mut out = ImageWriter {
        memory: vec![0; 0x10000],
        extent: None,
        lines: Vec::new(),
    };
    let mut pc: i64 = 0;
    let mut buf = Vec::with_capacity(8);
    for s in stmts {
        let here = pc;
        let line = s.line;
        let value = |e: &Expr, syms: &SymbolTable| {
            e.eval(&Scope {
                current: &syms.values,
                previous,
                here,
            })
            .map_err(|e| eval_error(line, e))
        };
        if let Body::Equ(e) = &s.body {
            let label = s.label.as_deref().unwrap_or_default();
            syms.declare(label, line)?;
            let v = value(e, &syms)?;
            settled(label, v, previous, line)?;
            syms.values.insert(label.to_string(), v);
            continue;
        }
        if let Body::Org(e) = &s.body {
            pc = org_address(value(e, &syms)?, line)?;
        }
        if let Some(label) = &s.label {
            syms.declare(label, line)?;
            settled(label, pc, previous, line)?;
            syms.values.insert(label.clone(), pc);
        }
        buf.clear();
        match &s.body {
            Body::Empty | Body::Equ(_) | Body::Org(_) => {}
            Body::Ds(n, fill) => {
                let n = ds_size(value(n, &syms)?, line)?;
                if let Some(fill) = fill {
                    let b = byte(value(fill, &syms)?, line)?;
                    buf.resize(n as usize, b);
                    out.write(line, pc, &buf)?;
                    buf.clear();
                }
                pc += n;
            }
            Body::Db(items) => {
                for item in items {
                    match item {
                        Item::Bytes(b) => buf.extend_from_slice(b),
                        Item::Byte(e) => buf.push(byte(value(e, &syms)?, line)?),
                    }
                }
            }
            Body::Dw(words) => {
                for e in words {
                    buf.extend_from_slice(&word(value(e, &syms)?, line)?.to_le_bytes());
                }
            }
            Body::Instr(pieces) => {
                let next = pc + s.body.size() as i64;
                for p in pieces {
                    match p {
                        Piece::Byte(b) => buf.push(*b),
                        Piece::Imm8(e) => buf.push(byte(value(e, &syms)?, line)?),
                        Piece::Imm16(e) => {
                            buf.extend_from_slice(&word(value(e, &syms)?, line)?.to_le_bytes())
                        }
                        Piece::Disp(e) => buf.push(displacement(value(e, &syms)?, line)?),
                        Piece::Rel(e) => buf.push(relative(value(e, &syms)?, next, line)?),
                        Piece::Rst(e) => {
                            let v = value(e, &syms)?;
                            if !(0..=0x38).contains(&v) || v % 8 != 0 {
                                return Err(AsmError::new(
                                    line,
                                    AsmErrorKind::BadRstTarget { value: v },
                                ));
                            }
                            buf.push(0xC7 | v as u8);
                        }
                        Piece::Im(e) => buf.push(match value(e, &syms)? {
                            0 => 0x46,
                            1 => 0x56,
                            2 => 0x5E,
                            v => {
                                return Err(AsmError::new(
                                    line,
                                    AsmErrorKind::BadInterruptMode { value: v },
                                ))
                            }
                        }),
                        Piece::Bit(base, e) => {
                            let v = value(e, &syms)?;
                            if !(0..=7).contains(&v) {
                                return Err(AsmError::new(
                                    line,
                                    AsmErrorKind::BadBitNumber { value: v },
                                ));
                            }
                            buf.push(base | (v as u8) << 3);
                        }
                    }
                }
            }
        }
        if !buf.is_empty() {
            out.write(line, pc, &buf)?;
            pc += buf.len() as i64;
        }
    }
    let symbols = syms
        .values
        .into_iter()
        .map(|(k, v)| (k, v as u16))
        .collect();
    Ok(Assembly {
        memory: out.memory,
        extent: out.extent,
        symbols,
        lines: out.lines,
    })
}

/// In the final pass every symbol must have the value the layout passes settled on, or
/// forward references to it would have used another value.
fn settled(
    name: &str,
    v: i64,
    previous: &HashMap<String, i64>,
    line: usize,
) -> Result<(), AsmError> {
    if previous.get(name).is_some_and(|&p| p != v) {
        return Err(AsmError::new(
            line,
            AsmErrorKind::SymbolDoesNotSettle {
                name: name.to_string(),
            },
        ));
    }
    Ok(())
}

/// A byte: -256..=255, or a 16-bit negative byte (0FF00h..=0FFFFh).
fn byte(v: i64, line: usize) -> Result<u8, AsmError> {
    if (-256..=255).contains(&v) || (0xFF00..=0xFFFF).contains(&v) {
        Ok(v as u8)
    } else {
        Err(AsmError::new(
            line,
            AsmErrorKind::ByteOutOfRange { value: v },
        ))
    }
}

/// A word: -65535..=65535 (negative values in two's complement).
fn word(v: i64, line: usize) -> Result<u16, AsmError> {
    if (-0xFFFF..=0xFFFF).contains(&v) {
        Ok(v as u16)
    } else {
        Err(AsmError::new(
            line,
            AsmErrorKind::WordOutOfRange { value: v },
        ))
    }
}

/// An index displacement: -128..=127, also when written as its 16-bit form 0FF80h..=0FFFFh.
fn displacement(v: i64, line: usize) -> Result<u8, AsmError> {
    if (-128..=127).contains(&v) || (0xFF80..=0xFFFF).contains(&v) {
        Ok(v as u8)
    } else {
        Err(AsmError::new(
            line,
            AsmErrorKind::DisplacementOutOfRange { value: v },
        ))
    }
}

/// A relative jump's offset from the address after the instruction.
fn relative(target: i64, next: i64, line: usize) -> Result<u8, AsmError> {
    let offset = target - next;
    if (-128..=127).contains(&offset) {
        Ok(offset as u8)
    } else {
        Err(AsmError::new(
            line,
            AsmErrorKind::JumpOutOfRange { target, offset },
        ))
    }
}
