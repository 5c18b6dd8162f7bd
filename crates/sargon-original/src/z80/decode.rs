//! Decoding one instruction: its text, length, T-states and where control goes next.

use std::fmt;

use super::tables::{CB_OPERANDS, CONDITIONS, ED, INDEXED, MAIN, ROT};

/// How long an instruction takes, in T-states (clock cycles).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Timing {
    /// Always the same.
    Fixed(u8),
    /// A conditional instruction: `not_taken` when the condition fails (no jump, call or
    /// return; for the repeating block instructions, the last iteration), `taken` otherwise.
    Cond {
        /// T-states when the condition fails.
        not_taken: u8,
        /// T-states when it holds.
        taken: u8,
    },
}

impl Timing {
    /// T-states for an outcome (`taken` is ignored for fixed timings).
    ///
    /// ```
    /// use sargon_original::z80::decode;
    /// let mut mem = vec![0u8; 0x10000];
    /// mem[0] = 0xC0; // RET NZ: 5 T-states when it goes on, 11 when it returns
    /// let ret_nz = decode(&mem, 0).timing;
    /// assert_eq!((ret_nz.t_states(false), ret_nz.t_states(true)), (5, 11));
    /// ```
    pub fn t_states(self, taken: bool) -> u8 {
        match self {
            Timing::Fixed(t) => t,
            Timing::Cond {
                not_taken,
                taken: t,
            } => {
                if taken {
                    t
                } else {
                    not_taken
                }
            }
        }
    }
}

impl fmt::Display for Timing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Timing::Fixed(t) => write!(f, "{t}"),
            Timing::Cond { not_taken, taken } => write!(f, "{not_taken}/{taken}"),
        }
    }
}

/// Where control goes after an instruction.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// To the next instruction.
    Next,
    /// `JP nn`, `JR e`: always to the target.
    Jump(u16),
    /// `JP cc`, `JR cc`, `DJNZ`: to the target or the next instruction.
    CondJump(u16),
    /// `CALL nn`, `RST p`: to the target, which returns to the next instruction.
    Call(u16),
    /// `CALL cc,nn`.
    CondCall(u16),
    /// `RET`, `RETI`, `RETN`.
    Return,
    /// `RET cc`.
    CondReturn,
    /// `JP (HL)`, `JP (IX)`, `JP (IY)`: somewhere only the registers know.
    JumpIndirect,
    /// `LDIR` and the other repeating block instructions: this instruction again or the next.
    Repeat,
    /// `HALT`.
    Halt,
}

impl Flow {
    /// Control never falls through to the next instruction.
    pub(crate) fn ends_block(self) -> bool {
        matches!(
            self,
            Flow::Jump(_) | Flow::Return | Flow::JumpIndirect | Flow::Halt
        )
    }

    /// The address a jump or call goes to, if known.
    pub(crate) fn target(self) -> Option<u16> {
        match self {
            Flow::Jump(t) | Flow::CondJump(t) | Flow::Call(t) | Flow::CondCall(t) => Some(t),
            _ => None,
        }
    }
}

/// One operand of a decoded instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    /// A register or register pair: `A`, `HL`, `AF'`, `I`, ...
    Reg(&'static str),
    /// A condition: `NZ`, `Z`, `NC`, `C`, `PO`, `PE`, `P`, `M`.
    Cond(&'static str),
    /// An 8-bit immediate value.
    Imm8(u8),
    /// A 16-bit immediate value (`LD HL,nn`): maybe an address, maybe a number.
    Imm16(u16),
    /// The address of a jump or call (`JP nn`, `CALL nn`, `JR e` and `DJNZ e` resolved).
    Target(u16),
    /// A memory operand `(nn)`.
    Mem(u16),
    /// An I/O port `(n)`.
    Port(u8),
    /// Memory through a register: `(HL)`, `(BC)`, `(DE)`, `(SP)`, `(C)` for I/O.
    Indirect(&'static str),
    /// `(IX+d)` or `(IY+d)`.
    Indexed(&'static str, i8),
    /// A small number that is part of the instruction: a bit number, an interrupt mode, a
    /// restart vector.
    Number(u8),
}

/// A decoded instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instruction {
    /// The instruction's address.
    pub addr: u16,
    /// The instruction's bytes (1 to 4).
    pub bytes: Vec<u8>,
    /// `LD`, `JP`, ...; `DB` for a byte that is no documented instruction.
    pub mnemonic: &'static str,
    /// The operands, in order.
    pub operands: Vec<Operand>,
    /// Its T-states.
    pub timing: Timing,
    /// How it affects the flow of control.
    pub flow: Flow,
}

impl Instruction {
    /// The instruction's length in bytes.
    pub(crate) fn len(&self) -> u16 {
        self.bytes.len() as u16
    }

    /// The address of the next instruction.
    ///
    /// ```
    /// use sargon_original::z80::decode;
    /// let mut mem = vec![0u8; 0x10000];
    /// mem[0xFFFF] = 0xC3; // JP nn at the top of memory: the address wraps
    /// assert_eq!(decode(&mem, 0xFFFF).next(), 2);
    /// assert_eq!(decode(&mem, 0).next(), 1); // NOP
    /// ```
    pub fn next(&self) -> u16 {
        self.addr.wrapping_add(self.len())
    }

    /// Not a documented instruction: shown as `DB`.
    ///
    /// ```
    /// use sargon_original::z80::decode;
    /// let mut mem = vec![0u8; 0x10000];
    /// mem[0..2].copy_from_slice(&[0xED, 0x00]); // not a documented instruction
    /// assert!(decode(&mem, 0).is_data());
    /// assert!(!decode(&mem, 2).is_data()); // NOP
    /// ```
    pub fn is_data(&self) -> bool {
        self.mnemonic == "DB"
    }

    /// The instruction in assembler syntax, numbers in hexadecimal.
    ///
    /// ```
    /// use sargon_original::z80::decode;
    /// let mut mem = vec![0u8; 0x10000];
    /// mem[0..4].copy_from_slice(&[0xDD, 0x7E, 0x05, 0xC9]); // LD A,(IX+5); RET
    /// assert_eq!(decode(&mem, 0).text(), "LD   A,(IX+5)");
    /// assert_eq!(decode(&mem, 3).text(), "RET");
    /// ```
    pub fn text(&self) -> String {
        self.text_with(&NoNames)
    }

    /// The instruction with operands named by `names` where it knows them.
    pub(crate) fn text_with(&self, names: &dyn Names) -> String {
        if self.operands.is_empty() {
            return self.mnemonic.to_string();
        }
        let ops: Vec<String> = self
            .operands
            .iter()
            .map(|o| operand_text(o, names))
            .collect();
        format!("{:<5}{}", self.mnemonic, ops.join(","))
    }
}

impl fmt::Display for Instruction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

/// Names for the numbers in operands; every method may decline with `None`.
pub(crate) trait Names {
    /// A label for a jump or call target.
    fn label(&self, _addr: u16) -> Option<String> {
        None
    }
    /// A name for a memory operand `(nn)`.
    fn data(&self, _addr: u16) -> Option<String> {
        None
    }
    /// A name for a 16-bit immediate (`LD HL,nn`).
    fn immediate(&self, _value: u16) -> Option<String> {
        None
    }
    /// A name for an index displacement (`(IX+d)`).
    fn displacement(&self, _d: i8) -> Option<String> {
        None
    }
}

/// Names nothing: plain numbers.
struct NoNames;
impl Names for NoNames {}

/// A number as the project's assembler reads it: decimal below 10, else hexadecimal with
/// an `H` suffix and a leading 0 when the first digit is a letter.
///
/// ```
/// use sargon_original::z80::hex_number;
/// assert_eq!(hex_number(7, 1), "7");
/// assert_eq!(hex_number(0xFF, 2), "0FFH");
/// assert_eq!(hex_number(0x1234, 4), "1234H");
/// ```
pub fn hex_number(v: u32, min_digits: usize) -> String {
    if v < 10 && min_digits <= 1 {
        return v.to_string();
    }
    let s = format!("{v:0min_digits$X}");
    if s.starts_with(|c: char| c.is_ascii_alphabetic()) {
        format!("0{s}H")
    } else {
        format!("{s}H")
    }
}

fn operand_text(o: &Operand, names: &dyn Names) -> String {
    match *o {
        Operand::Reg(r) | Operand::Cond(r) => r.to_string(),
        Operand::Imm8(n) => hex_number(n.into(), 1),
        Operand::Number(n) => {
            if n >= 8 {
                hex_number(n.into(), 2)
            } else {
                n.to_string()
            }
        }
        Operand::Imm16(v) => names
            .immediate(v)
            .unwrap_or_else(|| hex_number(v.into(), 1)),
        Operand::Target(a) => names.label(a).unwrap_or_else(|| hex_number(a.into(), 4)),
        Operand::Mem(a) => format!(
            "({})",
            names.data(a).unwrap_or_else(|| hex_number(a.into(), 4))
        ),
        Operand::Port(p) => format!("({})", hex_number(p.into(), 2)),
        Operand::Indirect(r) => format!("({r})"),
        Operand::Indexed(r, d) => match names.displacement(d) {
            Some(name) => format!("({r}+{name})"),
            None if d < 0 => format!("({r}-{})", -(d as i16)),
            None => format!("({r}+{d})"),
        },
    }
}

/// The documented ED-page instruction with this second byte.
fn ed_entry(op: u8) -> Option<(&'static str, u8, u8)> {
    ED.iter().find(|e| e.0 == op).map(|e| (e.1, e.2, e.3))
}

fn indexed_t(op: u8) -> Option<u8> {
    INDEXED.iter().find(|e| e.0 == op).map(|e| e.1)
}

/// Decode the instruction at `addr` of a 64 KiB memory (addresses wrap around).
///
/// ```
/// use sargon_original::z80::decode;
///
/// let mut mem = vec![0u8; 0x10000];
/// mem[0x100..0x103].copy_from_slice(&[0x3E, 0x2A, 0xC9]); // LD A,2AH; RET
/// let ld = decode(&mem, 0x100);
/// assert_eq!((ld.text(), ld.next(), ld.timing.t_states(false)), ("LD   A,2AH".to_string(), 0x102, 7));
/// assert_eq!(decode(&mem, 0x102).text(), "RET");
/// ```
pub fn decode(mem: &[u8], addr: u16) -> Instruction {
    let at = |k: u16| mem[addr.wrapping_add(k) as usize % mem.len()];
    let op = at(0);
    match op {
        0xCB => decode_cb(addr, &[op, at(1)], None),
        0xED => {
            let op2 = at(1);
            match ed_entry(op2) {
                Some((tpl, t, tt)) => build(addr, &[0xED, op2], tpl, t, tt, None, &at, 2),
                None => data(addr, &[0xED, op2], 8),
            }
        }
        0xDD | 0xFD => {
            let reg = if op == 0xDD { "IX" } else { "IY" };
            let op2 = at(1);
            if op2 == 0xCB {
                let d = at(2);
                let op4 = at(3);
                return decode_cb(addr, &[op, 0xCB, d, op4], Some((reg, d as i8)));
            }
            match indexed_t(op2) {
                Some(t) => {
                    let tpl = MAIN[op2 as usize].0;
                    let mut prefix = vec![op, op2];
                    // JP (HL) is the one (HL) that is no memory operand: JP (IX) has no displacement.
                    let has_d = tpl.contains("(HL)") && op2 != 0xE9;
                    if has_d {
                        prefix.push(at(2));
                    }
                    let d = has_d.then(|| (reg, at(2) as i8));
                    let start = prefix.len() as u16;
                    let mut ins = build(addr, &prefix, tpl, t, 0, d, &at, start);
                    // HL (not (HL)) means the index register itself.
                    for o in &mut ins.operands {
                        if *o == Operand::Reg("HL") {
                            *o = Operand::Reg(reg);
                        }
                        if *o == Operand::Indirect("HL") {
                            // JP (HL) becomes JP (IX); other (HL) were replaced by `d`.
                            *o = Operand::Indirect(reg);
                        }
                    }
                    ins
                }
                // A lone prefix: the Z80 spends 4 T-states on it and goes on.
                None => data(addr, &[op], 4),
            }
        }
        _ => {
            let (tpl, t, tt) = MAIN[op as usize];
            build(addr, &[op], tpl, t, tt, None, &at, 1)
        }
    }
}

fn data(addr: u16, bytes: &[u8], t: u8) -> Instruction {
    Instruction {
        addr,
        bytes: bytes.to_vec(),
        mnemonic: "DB",
        operands: bytes.iter().map(|&b| Operand::Imm8(b)).collect(),
        timing: Timing::Fixed(t),
        flow: Flow::Next,
    }
}

fn decode_cb(addr: u16, bytes: &[u8], index: Option<(&'static str, i8)>) -> Instruction {
    let op = *bytes.last().expect("CB opcode");
    let (x, y, z) = (op >> 6, (op >> 3) & 7, op & 7);
    // With an index register only the (IX+d) forms (operand field 6) are documented.
    if index.is_some() && (z != 6 || (x == 0 && y == 6)) {
        return data(addr, &bytes[..1], 4);
    }
    if x == 0 && y == 6 {
        return data(addr, bytes, 8);
    }
    let operand = match index {
        Some((r, d)) => Operand::Indexed(r, d),
        None if z == 6 => Operand::Indirect("HL"),
        None => Operand::Reg(CB_OPERANDS[z as usize]),
    };
    let memory = z == 6;
    let t = match (index.is_some(), x, memory) {
        (true, 1, _) => 20,
        (true, _, _) => 23,
        (false, 1, true) => 12,
        (false, _, true) => 15,
        (false, _, false) => 8,
    };
    let (mnemonic, operands) = match x {
        0 => (ROT[y as usize], vec![operand]),
        1 => ("BIT", vec![Operand::Number(y), operand]),
        2 => ("RES", vec![Operand::Number(y), operand]),
        _ => ("SET", vec![Operand::Number(y), operand]),
    };
    Instruction {
        addr,
        bytes: bytes.to_vec(),
        mnemonic,
        operands,
        timing: Timing::Fixed(t),
        flow: Flow::Next,
    }
}

/// Build an instruction from a template. `prefix` holds the bytes before any immediate
/// operand (opcode, displacement); `start` is where immediates begin.
#[allow(clippy::too_many_arguments)]
fn build(
    addr: u16,
    prefix: &[u8],
    tpl: &'static str,
    t: u8,
    t_taken: u8,
    index: Option<(&'static str, i8)>,
    at: &dyn Fn(u16) -> u8,
    start: u16,
) -> Instruction {
    let (mnemonic, ops) = match tpl.split_once(' ') {
        Some((m, o)) => (m, o),
        None => (tpl, ""),
    };
    let mut bytes = prefix.to_vec();
    let mut operands = Vec::new();
    let mut pos = start;
    let branch = matches!(mnemonic, "JP" | "JR" | "CALL" | "RET" | "DJNZ");
    let mut target = None;
    for (i, o) in ops.split(',').filter(|o| !o.is_empty()).enumerate() {
        let operand = match o {
            "n" => {
                let v = at(pos);
                bytes.push(v);
                pos += 1;
                Operand::Imm8(v)
            }
            "(n)" => {
                let v = at(pos);
                bytes.push(v);
                pos += 1;
                Operand::Port(v)
            }
            "nn" | "(nn)" => {
                let v = u16::from_le_bytes([at(pos), at(pos + 1)]);
                bytes.push(at(pos));
                bytes.push(at(pos + 1));
                pos += 2;
                if o == "(nn)" {
                    Operand::Mem(v)
                } else if branch {
                    target = Some(v);
                    Operand::Target(v)
                } else {
                    Operand::Imm16(v)
                }
            }
            "e" => {
                let e = at(pos) as i8;
                bytes.push(at(pos));
                pos += 1;
                let v = addr.wrapping_add(pos).wrapping_add(e as i16 as u16);
                target = Some(v);
                Operand::Target(v)
            }
            "(HL)" => match index {
                Some((r, d)) => Operand::Indexed(r, d),
                None => Operand::Indirect("HL"),
            },
            "(BC)" | "(DE)" | "(SP)" | "(C)" => Operand::Indirect(&o[1..o.len() - 1]),
            _ if branch && i == 0 && CONDITIONS.contains(&o) => Operand::Cond(o),
            _ if o.starts_with(|c: char| c.is_ascii_digit()) => {
                let v = if let Some(h) = o.strip_suffix('H') {
                    u8::from_str_radix(h, 16).expect("table number")
                } else {
                    o.parse().expect("table number")
                };
                Operand::Number(v)
            }
            _ => Operand::Reg(o),
        };
        operands.push(operand);
    }
    let conditional = operands
        .first()
        .is_some_and(|o| matches!(o, Operand::Cond(_)));
    let flow = match mnemonic {
        "JP" => match target {
            Some(t) if conditional => Flow::CondJump(t),
            Some(t) => Flow::Jump(t),
            None => Flow::JumpIndirect,
        },
        "JR" => {
            let t = target.expect("JR target");
            if conditional {
                Flow::CondJump(t)
            } else {
                Flow::Jump(t)
            }
        }
        "DJNZ" => Flow::CondJump(target.expect("DJNZ target")),
        "CALL" => {
            let t = target.expect("CALL target");
            if conditional {
                Flow::CondCall(t)
            } else {
                Flow::Call(t)
            }
        }
        "RST" => match operands.first() {
            Some(Operand::Number(p)) => Flow::Call(u16::from(*p)),
            _ => Flow::Next,
        },
        "RET" if conditional => Flow::CondReturn,
        "RET" | "RETI" | "RETN" => Flow::Return,
        "HALT" => Flow::Halt,
        "LDIR" | "LDDR" | "CPIR" | "CPDR" | "INIR" | "INDR" | "OTIR" | "OTDR" => Flow::Repeat,
        _ => Flow::Next,
    };
    let timing = if t_taken == 0 {
        Timing::Fixed(t)
    } else {
        Timing::Cond {
            not_taken: t,
            taken: t_taken,
        }
    };
    Instruction {
        addr,
        bytes,
        mnemonic,
        operands,
        timing,
        flow,
    }
}

/// Decode instructions one after another from `start` up to (not including) `end`. An
/// instruction that would run past `end` is cut into `DB` bytes, so that a label at `end`
/// starts a fresh instruction.
///
/// ```
/// use sargon_original::z80::sweep;
///
/// let mut mem = vec![0u8; 0x10000];
/// mem[0..4].copy_from_slice(&[0x00, 0x21, 0x34, 0x12]); // NOP; LD HL,1234H
/// let texts: Vec<String> = sweep(&mem, 0, 4).iter().map(|i| i.text()).collect();
/// assert_eq!(texts, ["NOP", "LD   HL,1234H"]); // mnemonics padded as a listing pads them
/// // Cut at 3, the LD would run past the end: its bytes are data.
/// assert!(sweep(&mem, 0, 3)[1].is_data());
/// ```
pub fn sweep(mem: &[u8], start: u16, end: u32) -> Vec<Instruction> {
    let mut out = Vec::new();
    let mut pc = u32::from(start);
    while pc < end {
        let ins = decode(mem, pc as u16);
        if pc + u32::from(ins.len()) > end {
            let n = (end - pc) as usize;
            out.push(data(pc as u16, &ins.bytes[..n], 4));
            break;
        }
        pc += u32::from(ins.len());
        out.push(ins);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mem(bytes: &[u8], at: u16) -> Vec<u8> {
        let mut m = vec![0u8; 0x10000];
        m[at as usize..at as usize + bytes.len()].copy_from_slice(bytes);
        m
    }

    fn dis(bytes: &[u8]) -> Instruction {
        decode(&mem(bytes, 0x100), 0x100)
    }

    #[test]
    fn templates_read_back() {
        assert_eq!(dis(&[0x3E, 0x12]).text(), "LD   A,12H");
        assert_eq!(dis(&[0xDD, 0x7E, 0xFB]).text(), "LD   A,(IX-5)");
        assert_eq!(dis(&[0xFD, 0x36, 0x02, 0x63]).text(), "LD   (IY+2),63H");
        assert_eq!(dis(&[0xDD, 0xCB, 0x01, 0x46]).text(), "BIT  0,(IX+1)");
        assert_eq!(dis(&[0xDD, 0xE9]).text(), "JP   (IX)");
        assert_eq!(dis(&[0x18, 0xFE]).flow, Flow::Jump(0x100));
        assert_eq!(dis(&[0x10, 0x02]).flow, Flow::CondJump(0x104));
        assert_eq!(dis(&[0xC4, 0x34, 0x12]).flow, Flow::CondCall(0x1234));
        assert_eq!(dis(&[0xFF]).flow, Flow::Call(0x38));
        assert_eq!(
            dis(&[0xED, 0xB1]).timing,
            Timing::Cond {
                not_taken: 16,
                taken: 21
            }
        );
        assert!(dis(&[0xED, 0x00]).is_data());
        assert!(dis(&[0xDD, 0x00]).is_data());
        assert_eq!(dis(&[0xDD, 0x00]).len(), 1);
    }

    #[test]
    fn every_table_entry_is_well_formed() {
        for op in 0..=255u8 {
            if matches!(op, 0xCB | 0xDD | 0xED | 0xFD) {
                continue;
            }
            let i = dis(&[op, 0x34, 0x12, 0x00]);
            assert!(!i.is_data(), "{op:#04x}");
            assert!((1..=3).contains(&i.len()), "{op:#04x}");
        }
        for &(op, t) in &INDEXED {
            let i = dis(&[0xDD, op, 0x05, 0x07]);
            assert_eq!(i.timing, Timing::Fixed(t));
            assert!(!i.text().contains("HL"), "{}", i.text());
        }
    }
}
