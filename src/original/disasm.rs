//! A table-driven Z80 disassembler: instruction text, length, T-states and control flow.
//!
//! The documented Z80 instruction set, with the CB, ED, DD and FD prefixes, is described by
//! tables written from the opcode and timing tables of Zilog's *Z80 CPU User Manual*:
//!
//! * [`MAIN`]: the 256 unprefixed opcodes, as templates (`LD BC,nn`, `JR NZ,e`, ...) with
//!   their T-states; for conditional instructions the T-states when the condition fails
//!   and when it holds (`RET NZ`: 5/11).
//! * [`ED`]: the ED page (block instructions, 16-bit arithmetic with carry, I/O through C).
//! * the CB page is regular (eight operations on eight operands), so it is built from the
//!   [`ROT`] names and the operand order;
//! * [`INDEXED`]: the opcodes that a DD or FD prefix turns into an IX or IY instruction,
//!   with their own T-states; their text is the [`MAIN`] template with `HL` read as `IX`
//!   and `(HL)` as `(IX+d)`.
//!
//! Anything else (undocumented opcodes) decodes as a data byte (`DB`). The disassembler is
//! used by `sargon listing` to print the user's imported image with its symbols, and by
//! the profiler to know each executed instruction's documented timing.

use std::fmt;

/// How long an instruction takes, in T-states (clock cycles).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Timing {
    /// Always the same.
    Fixed(u8),
    /// A conditional instruction: `not_taken` when the condition fails (no jump, call or
    /// return; for the repeating block instructions, the last iteration), `taken` otherwise.
    Cond { not_taken: u8, taken: u8 },
}

impl Timing {
    /// T-states for an outcome (`taken` is ignored for fixed timings).
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
    pub fn ends_block(self) -> bool {
        matches!(
            self,
            Flow::Jump(_) | Flow::Return | Flow::JumpIndirect | Flow::Halt
        )
    }

    /// The address a jump or call goes to, if known.
    pub fn target(self) -> Option<u16> {
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
    pub addr: u16,
    /// The instruction's bytes (1 to 4).
    pub bytes: Vec<u8>,
    /// `LD`, `JP`, ...; `DB` for a byte that is no documented instruction.
    pub mnemonic: &'static str,
    pub operands: Vec<Operand>,
    pub timing: Timing,
    pub flow: Flow,
}

impl Instruction {
    pub fn len(&self) -> u16 {
        self.bytes.len() as u16
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The address of the next instruction.
    pub fn next(&self) -> u16 {
        self.addr.wrapping_add(self.len())
    }

    /// Not a documented instruction: shown as `DB`.
    pub fn is_data(&self) -> bool {
        self.mnemonic == "DB"
    }

    /// The instruction in assembler syntax, numbers in hexadecimal.
    pub fn text(&self) -> String {
        self.text_with(&NoNames)
    }

    /// The instruction with operands named by `names` where it knows them.
    pub fn text_with(&self, names: &dyn Names) -> String {
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
pub trait Names {
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
pub struct NoNames;
impl Names for NoNames {}

/// A number as the project's assembler reads it: decimal below 10, else hexadecimal with
/// an `H` suffix and a leading 0 when the first digit is a letter.
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

/// The unprefixed opcodes: template and T-states (`(t, 0)` fixed; `(not taken, taken)`
/// for conditional ones). Templates: `n` an 8-bit immediate, `nn` a 16-bit one (an address
/// for `JP`/`CALL`), `(nn)` memory, `(n)` a port, `e` a relative jump target. `CB`, `DD`,
/// `ED` and `FD` are prefixes (empty templates).
#[rustfmt::skip]
pub const MAIN: [(&str, u8, u8); 256] = [
    // 0x00
    ("NOP", 4, 0), ("LD BC,nn", 10, 0), ("LD (BC),A", 7, 0), ("INC BC", 6, 0),
    ("INC B", 4, 0), ("DEC B", 4, 0), ("LD B,n", 7, 0), ("RLCA", 4, 0),
    ("EX AF,AF'", 4, 0), ("ADD HL,BC", 11, 0), ("LD A,(BC)", 7, 0), ("DEC BC", 6, 0),
    ("INC C", 4, 0), ("DEC C", 4, 0), ("LD C,n", 7, 0), ("RRCA", 4, 0),
    // 0x10
    ("DJNZ e", 8, 13), ("LD DE,nn", 10, 0), ("LD (DE),A", 7, 0), ("INC DE", 6, 0),
    ("INC D", 4, 0), ("DEC D", 4, 0), ("LD D,n", 7, 0), ("RLA", 4, 0),
    ("JR e", 12, 0), ("ADD HL,DE", 11, 0), ("LD A,(DE)", 7, 0), ("DEC DE", 6, 0),
    ("INC E", 4, 0), ("DEC E", 4, 0), ("LD E,n", 7, 0), ("RRA", 4, 0),
    // 0x20
    ("JR NZ,e", 7, 12), ("LD HL,nn", 10, 0), ("LD (nn),HL", 16, 0), ("INC HL", 6, 0),
    ("INC H", 4, 0), ("DEC H", 4, 0), ("LD H,n", 7, 0), ("DAA", 4, 0),
    ("JR Z,e", 7, 12), ("ADD HL,HL", 11, 0), ("LD HL,(nn)", 16, 0), ("DEC HL", 6, 0),
    ("INC L", 4, 0), ("DEC L", 4, 0), ("LD L,n", 7, 0), ("CPL", 4, 0),
    // 0x30
    ("JR NC,e", 7, 12), ("LD SP,nn", 10, 0), ("LD (nn),A", 13, 0), ("INC SP", 6, 0),
    ("INC (HL)", 11, 0), ("DEC (HL)", 11, 0), ("LD (HL),n", 10, 0), ("SCF", 4, 0),
    ("JR C,e", 7, 12), ("ADD HL,SP", 11, 0), ("LD A,(nn)", 13, 0), ("DEC SP", 6, 0),
    ("INC A", 4, 0), ("DEC A", 4, 0), ("LD A,n", 7, 0), ("CCF", 4, 0),
    // 0x40
    ("LD B,B", 4, 0), ("LD B,C", 4, 0), ("LD B,D", 4, 0), ("LD B,E", 4, 0),
    ("LD B,H", 4, 0), ("LD B,L", 4, 0), ("LD B,(HL)", 7, 0), ("LD B,A", 4, 0),
    ("LD C,B", 4, 0), ("LD C,C", 4, 0), ("LD C,D", 4, 0), ("LD C,E", 4, 0),
    ("LD C,H", 4, 0), ("LD C,L", 4, 0), ("LD C,(HL)", 7, 0), ("LD C,A", 4, 0),
    // 0x50
    ("LD D,B", 4, 0), ("LD D,C", 4, 0), ("LD D,D", 4, 0), ("LD D,E", 4, 0),
    ("LD D,H", 4, 0), ("LD D,L", 4, 0), ("LD D,(HL)", 7, 0), ("LD D,A", 4, 0),
    ("LD E,B", 4, 0), ("LD E,C", 4, 0), ("LD E,D", 4, 0), ("LD E,E", 4, 0),
    ("LD E,H", 4, 0), ("LD E,L", 4, 0), ("LD E,(HL)", 7, 0), ("LD E,A", 4, 0),
    // 0x60
    ("LD H,B", 4, 0), ("LD H,C", 4, 0), ("LD H,D", 4, 0), ("LD H,E", 4, 0),
    ("LD H,H", 4, 0), ("LD H,L", 4, 0), ("LD H,(HL)", 7, 0), ("LD H,A", 4, 0),
    ("LD L,B", 4, 0), ("LD L,C", 4, 0), ("LD L,D", 4, 0), ("LD L,E", 4, 0),
    ("LD L,H", 4, 0), ("LD L,L", 4, 0), ("LD L,(HL)", 7, 0), ("LD L,A", 4, 0),
    // 0x70
    ("LD (HL),B", 7, 0), ("LD (HL),C", 7, 0), ("LD (HL),D", 7, 0), ("LD (HL),E", 7, 0),
    ("LD (HL),H", 7, 0), ("LD (HL),L", 7, 0), ("HALT", 4, 0), ("LD (HL),A", 7, 0),
    ("LD A,B", 4, 0), ("LD A,C", 4, 0), ("LD A,D", 4, 0), ("LD A,E", 4, 0),
    ("LD A,H", 4, 0), ("LD A,L", 4, 0), ("LD A,(HL)", 7, 0), ("LD A,A", 4, 0),
    // 0x80
    ("ADD A,B", 4, 0), ("ADD A,C", 4, 0), ("ADD A,D", 4, 0), ("ADD A,E", 4, 0),
    ("ADD A,H", 4, 0), ("ADD A,L", 4, 0), ("ADD A,(HL)", 7, 0), ("ADD A,A", 4, 0),
    ("ADC A,B", 4, 0), ("ADC A,C", 4, 0), ("ADC A,D", 4, 0), ("ADC A,E", 4, 0),
    ("ADC A,H", 4, 0), ("ADC A,L", 4, 0), ("ADC A,(HL)", 7, 0), ("ADC A,A", 4, 0),
    // 0x90
    ("SUB B", 4, 0), ("SUB C", 4, 0), ("SUB D", 4, 0), ("SUB E", 4, 0),
    ("SUB H", 4, 0), ("SUB L", 4, 0), ("SUB (HL)", 7, 0), ("SUB A", 4, 0),
    ("SBC A,B", 4, 0), ("SBC A,C", 4, 0), ("SBC A,D", 4, 0), ("SBC A,E", 4, 0),
    ("SBC A,H", 4, 0), ("SBC A,L", 4, 0), ("SBC A,(HL)", 7, 0), ("SBC A,A", 4, 0),
    // 0xA0
    ("AND B", 4, 0), ("AND C", 4, 0), ("AND D", 4, 0), ("AND E", 4, 0),
    ("AND H", 4, 0), ("AND L", 4, 0), ("AND (HL)", 7, 0), ("AND A", 4, 0),
    ("XOR B", 4, 0), ("XOR C", 4, 0), ("XOR D", 4, 0), ("XOR E", 4, 0),
    ("XOR H", 4, 0), ("XOR L", 4, 0), ("XOR (HL)", 7, 0), ("XOR A", 4, 0),
    // 0xB0
    ("OR B", 4, 0), ("OR C", 4, 0), ("OR D", 4, 0), ("OR E", 4, 0),
    ("OR H", 4, 0), ("OR L", 4, 0), ("OR (HL)", 7, 0), ("OR A", 4, 0),
    ("CP B", 4, 0), ("CP C", 4, 0), ("CP D", 4, 0), ("CP E", 4, 0),
    ("CP H", 4, 0), ("CP L", 4, 0), ("CP (HL)", 7, 0), ("CP A", 4, 0),
    // 0xC0
    ("RET NZ", 5, 11), ("POP BC", 10, 0), ("JP NZ,nn", 10, 10), ("JP nn", 10, 0),
    ("CALL NZ,nn", 10, 17), ("PUSH BC", 11, 0), ("ADD A,n", 7, 0), ("RST 0", 11, 0),
    ("RET Z", 5, 11), ("RET", 10, 0), ("JP Z,nn", 10, 10), ("", 0, 0),
    ("CALL Z,nn", 10, 17), ("CALL nn", 17, 0), ("ADC A,n", 7, 0), ("RST 8", 11, 0),
    // 0xD0
    ("RET NC", 5, 11), ("POP DE", 10, 0), ("JP NC,nn", 10, 10), ("OUT (n),A", 11, 0),
    ("CALL NC,nn", 10, 17), ("PUSH DE", 11, 0), ("SUB n", 7, 0), ("RST 10H", 11, 0),
    ("RET C", 5, 11), ("EXX", 4, 0), ("JP C,nn", 10, 10), ("IN A,(n)", 11, 0),
    ("CALL C,nn", 10, 17), ("", 0, 0), ("SBC A,n", 7, 0), ("RST 18H", 11, 0),
    // 0xE0
    ("RET PO", 5, 11), ("POP HL", 10, 0), ("JP PO,nn", 10, 10), ("EX (SP),HL", 19, 0),
    ("CALL PO,nn", 10, 17), ("PUSH HL", 11, 0), ("AND n", 7, 0), ("RST 20H", 11, 0),
    ("RET PE", 5, 11), ("JP (HL)", 4, 0), ("JP PE,nn", 10, 10), ("EX DE,HL", 4, 0),
    ("CALL PE,nn", 10, 17), ("", 0, 0), ("XOR n", 7, 0), ("RST 28H", 11, 0),
    // 0xF0
    ("RET P", 5, 11), ("POP AF", 10, 0), ("JP P,nn", 10, 10), ("DI", 4, 0),
    ("CALL P,nn", 10, 17), ("PUSH AF", 11, 0), ("OR n", 7, 0), ("RST 30H", 11, 0),
    ("RET M", 5, 11), ("LD SP,HL", 6, 0), ("JP M,nn", 10, 10), ("EI", 4, 0),
    ("CALL M,nn", 10, 17), ("", 0, 0), ("CP n", 7, 0), ("RST 38H", 11, 0),
];

/// The documented ED-prefixed opcodes: opcode, template, T-states (as in [`MAIN`]; the
/// repeating block instructions take 21 T-states per repetition and 16 for the last).
#[rustfmt::skip]
pub const ED: &[(u8, &str, u8, u8)] = &[
    (0x40, "IN B,(C)", 12, 0), (0x41, "OUT (C),B", 12, 0), (0x42, "SBC HL,BC", 15, 0),
    (0x43, "LD (nn),BC", 20, 0), (0x44, "NEG", 8, 0), (0x45, "RETN", 14, 0),
    (0x46, "IM 0", 8, 0), (0x47, "LD I,A", 9, 0),
    (0x48, "IN C,(C)", 12, 0), (0x49, "OUT (C),C", 12, 0), (0x4A, "ADC HL,BC", 15, 0),
    (0x4B, "LD BC,(nn)", 20, 0), (0x4D, "RETI", 14, 0), (0x4F, "LD R,A", 9, 0),
    (0x50, "IN D,(C)", 12, 0), (0x51, "OUT (C),D", 12, 0), (0x52, "SBC HL,DE", 15, 0),
    (0x53, "LD (nn),DE", 20, 0), (0x56, "IM 1", 8, 0), (0x57, "LD A,I", 9, 0),
    (0x58, "IN E,(C)", 12, 0), (0x59, "OUT (C),E", 12, 0), (0x5A, "ADC HL,DE", 15, 0),
    (0x5B, "LD DE,(nn)", 20, 0), (0x5E, "IM 2", 8, 0), (0x5F, "LD A,R", 9, 0),
    (0x60, "IN H,(C)", 12, 0), (0x61, "OUT (C),H", 12, 0), (0x62, "SBC HL,HL", 15, 0),
    (0x67, "RRD", 18, 0),
    (0x68, "IN L,(C)", 12, 0), (0x69, "OUT (C),L", 12, 0), (0x6A, "ADC HL,HL", 15, 0),
    (0x6F, "RLD", 18, 0),
    (0x72, "SBC HL,SP", 15, 0), (0x73, "LD (nn),SP", 20, 0),
    (0x78, "IN A,(C)", 12, 0), (0x79, "OUT (C),A", 12, 0), (0x7A, "ADC HL,SP", 15, 0),
    (0x7B, "LD SP,(nn)", 20, 0),
    (0xA0, "LDI", 16, 0), (0xA1, "CPI", 16, 0), (0xA2, "INI", 16, 0), (0xA3, "OUTI", 16, 0),
    (0xA8, "LDD", 16, 0), (0xA9, "CPD", 16, 0), (0xAA, "IND", 16, 0), (0xAB, "OUTD", 16, 0),
    (0xB0, "LDIR", 16, 21), (0xB1, "CPIR", 16, 21), (0xB2, "INIR", 16, 21),
    (0xB3, "OTIR", 16, 21),
    (0xB8, "LDDR", 16, 21), (0xB9, "CPDR", 16, 21), (0xBA, "INDR", 16, 21),
    (0xBB, "OTDR", 16, 21),
    // ED 63 and ED 6B, undocumented twins of LD (nn),HL and LD HL,(nn), are not listed.
];

/// The opcodes a DD (IX) or FD (IY) prefix applies to, with the T-states of the indexed
/// instruction. The text is [`MAIN`]'s with `HL` as the index register and `(HL)` as
/// `(IX+d)` (`d`: a signed displacement byte after the opcode).
#[rustfmt::skip]
pub const INDEXED: [(u8, u8); 39] = [
    (0x09, 15), (0x19, 15), (0x29, 15), (0x39, 15),   // ADD IX,rr
    (0x21, 14), (0x22, 20), (0x2A, 20),               // LD IX,nn  LD (nn),IX  LD IX,(nn)
    (0x23, 10), (0x2B, 10),                           // INC IX  DEC IX
    (0x34, 23), (0x35, 23), (0x36, 19),               // INC/DEC (IX+d)  LD (IX+d),n
    (0x46, 19), (0x4E, 19), (0x56, 19), (0x5E, 19), (0x66, 19), (0x6E, 19), (0x7E, 19),
    (0x70, 19), (0x71, 19), (0x72, 19), (0x73, 19), (0x74, 19), (0x75, 19), (0x77, 19),
    (0x86, 19), (0x8E, 19), (0x96, 19), (0x9E, 19), (0xA6, 19), (0xAE, 19), (0xB6, 19),
    (0xBE, 19),                                       // ALU A,(IX+d)
    (0xE1, 14), (0xE3, 23), (0xE5, 15), (0xE9, 8), (0xF9, 10),
];

/// The CB-prefixed rotates and shifts by their 3-bit field (6, SLL, is undocumented).
pub const ROT: [&str; 8] = ["RLC", "RRC", "RL", "RR", "SLA", "SRA", "", "SRL"];
/// The CB page's operands by their 3-bit field.
const CB_OPERANDS: [&str; 8] = ["B", "C", "D", "E", "H", "L", "(HL)", "A"];

const CONDITIONS: [&str; 8] = ["NZ", "Z", "NC", "C", "PO", "PE", "P", "M"];

/// The documented ED-page instruction with this second byte.
fn ed_entry(op: u8) -> Option<(&'static str, u8, u8)> {
    ED.iter().find(|e| e.0 == op).map(|e| (e.1, e.2, e.3))
}

fn indexed_t(op: u8) -> Option<u8> {
    INDEXED.iter().find(|e| e.0 == op).map(|e| e.1)
}

/// Decode the instruction at `addr` of a 64 KiB memory (addresses wrap around).
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

/// Per-address timing facts for the profiler: each address is decoded once, then each
/// execution looks its T-states up from what the instruction did.
///
/// One packed word per address: bits 0-7 the first byte (to notice code that changed),
/// 8-15 the T-states when a condition fails (or the only value), 16-23 when it holds,
/// 24-26 the length, 27-28 how to tell whether the condition held, 31 "decoded".
#[derive(Clone)]
pub struct TimingCache {
    table: Vec<u32>,
}

const DECODED: u32 = 1 << 31;
const KIND_FIXED: u32 = 0;
const KIND_BRANCH: u32 = 1;
const KIND_RETURN: u32 = 2;
const KIND_REPEAT: u32 = 3;

impl Default for TimingCache {
    fn default() -> Self {
        TimingCache::new()
    }
}

impl TimingCache {
    pub fn new() -> Self {
        TimingCache {
            table: vec![0; 0x10000],
        }
    }

    /// The documented T-states of the instruction at `pc`, which has just executed in
    /// `mem`, leaving `pc_after` and `sp_after` (SP before it was `sp_before`).
    #[inline]
    pub fn t_states(
        &mut self,
        mem: &[u8],
        pc: u16,
        pc_after: u16,
        sp_before: u16,
        sp_after: u16,
    ) -> u8 {
        let mut e = self.table[pc as usize];
        if e & DECODED == 0 || e as u8 != mem[pc as usize] {
            e = self.insert(mem, pc);
        }
        let held = match (e >> 27) & 3 {
            KIND_FIXED => return (e >> 8) as u8,
            KIND_BRANCH => pc_after != pc.wrapping_add(((e >> 24) & 7) as u16),
            KIND_RETURN => sp_after != sp_before,
            _ => pc_after == pc,
        };
        if held {
            (e >> 16) as u8
        } else {
            (e >> 8) as u8
        }
    }

    #[cold]
    fn insert(&mut self, mem: &[u8], pc: u16) -> u32 {
        let ins = decode(mem, pc);
        let kind = match ins.flow {
            Flow::CondJump(_) | Flow::CondCall(_) => KIND_BRANCH,
            Flow::CondReturn => KIND_RETURN,
            Flow::Repeat => KIND_REPEAT,
            _ => KIND_FIXED,
        };
        let (t, tt) = match ins.timing {
            Timing::Fixed(t) => (t, t),
            Timing::Cond { not_taken, taken } => (not_taken, taken),
        };
        let e = DECODED
            | (kind << 27)
            | (u32::from(ins.len() as u8 & 7) << 24)
            | (u32::from(tt) << 16)
            | (u32::from(t) << 8)
            | u32::from(mem[pc as usize]);
        self.table[pc as usize] = e;
        e
    }
}

/// The routines of an image and what the listing and the profiler need to know about
/// them, derived from the image and its symbol table alone.
///
/// **Routines.** A routine is FNDMOV (the search's entry point, which the harness calls)
/// or a label that some `CALL nn` or `CALL cc,nn` of the image calls. The calls are found by
/// decoding the whole image from its first byte, starting afresh at every symbol's address
/// (so that a data table cannot push the decoding out of step for long); a call counts
/// only when its target is the address of a symbol, which rules out the rare `CALL` opcode
/// that data bytes happen to form. Every other label (`FM37`, `MP10`, ...) belongs to the
/// routine at or before it.
///
/// **Extents.** A label's code runs from its address through the instruction that leaves
/// for good: a `RET`, `JP` or `JR` beyond which no jump of the code seen so far lands, and
/// never past the next routine. What lies between the end of one routine and the next one
/// (messages, tables, code reached only otherwise) is not a routine's.
#[derive(Clone, Debug)]
pub struct Program {
    /// The 64 KiB memory with the image at its load address.
    pub memory: Vec<u8>,
    /// The image's first address and one past its last.
    pub start: u16,
    pub end: u32,
    /// Symbol names by address (several names may share one).
    pub names: std::collections::BTreeMap<u16, Vec<String>>,
    /// Symbol addresses by (upper-case) name.
    pub symbols: std::collections::BTreeMap<String, u16>,
    /// Routine entry points and names, by address.
    pub routines: std::collections::BTreeMap<u16, String>,
}

/// The name of the routine the harness calls for a search.
pub const SEARCH_ENTRY: &str = "FNDMOV";

impl Program {
    /// Analyse an image: `memory` is the 64 KiB address space, the image occupies
    /// `start..end`, `symbols` is its symbol table.
    pub fn new(
        memory: Vec<u8>,
        start: u16,
        end: u32,
        symbols: &std::collections::BTreeMap<String, u16>,
    ) -> Program {
        let mut names: std::collections::BTreeMap<u16, Vec<String>> = Default::default();
        for (n, &a) in symbols {
            names.entry(a).or_default().push(n.clone());
        }
        for v in names.values_mut() {
            v.sort_by(|a, b| a.len().cmp(&b.len()).then(a.cmp(b)));
        }
        let mut p = Program {
            memory,
            start,
            end,
            names,
            symbols: symbols.clone(),
            routines: Default::default(),
        };
        let in_image = |a: u16| a >= start && u32::from(a) < end;
        let mut routines = std::collections::BTreeMap::new();
        if let Some(&a) = symbols.get(SEARCH_ENTRY) {
            routines.insert(a, SEARCH_ENTRY.to_string());
        }
        for ins in p.sweep_image() {
            if ins.mnemonic != "CALL" {
                continue;
            }
            if let Some(t) = ins.flow.target() {
                if in_image(t) && p.names.contains_key(&t) {
                    routines.entry(t).or_insert_with(|| p.names[&t][0].clone());
                }
            }
        }
        p.routines = routines;
        p
    }

    /// A program for an imported ROM.
    pub fn of_rom(rom: &crate::original::rom::Rom) -> Program {
        let start = rom.meta.load_address;
        Program::new(
            rom.memory(),
            start,
            u32::from(start) + rom.image.len() as u32,
            &rom.symbols,
        )
    }

    /// Decode the whole image, starting afresh at every symbol's address.
    pub fn sweep_image(&self) -> Vec<Instruction> {
        let mut cuts: Vec<u32> = self
            .names
            .keys()
            .map(|&a| u32::from(a))
            .filter(|&a| a > u32::from(self.start) && a < self.end)
            .collect();
        cuts.push(self.end);
        let mut out = Vec::new();
        let mut from = u32::from(self.start);
        for to in cuts {
            out.extend(sweep(&self.memory, from as u16, to));
            from = to;
        }
        out
    }

    /// The routine containing `pc`: the last routine entry at or below it.
    pub fn routine_at(&self, pc: u16) -> Option<(u16, &str)> {
        self.routines
            .range(..=pc)
            .next_back()
            .map(|(&a, n)| (a, n.as_str()))
    }

    /// The first routine entry above `addr`, or the end of the image.
    pub fn next_routine(&self, addr: u16) -> u32 {
        self.routines
            .range(addr.saturating_add(1)..)
            .next()
            .map(|(&a, _)| u32::from(a))
            .filter(|_| addr < u16::MAX)
            .unwrap_or(self.end)
            .min(self.end)
    }

    /// The code starting at `start` (see [`Program`]'s extents).
    pub fn extent(&self, start: u16) -> Vec<Instruction> {
        let limit = self.next_routine(start);
        let mut out = Vec::new();
        let mut pc = u32::from(start);
        let mut reach = pc;
        while pc < limit {
            let ins = decode(&self.memory, pc as u16);
            if pc + u32::from(ins.len()) > limit {
                break;
            }
            if let Flow::Jump(t) | Flow::CondJump(t) = ins.flow {
                let t = u32::from(t);
                if t > pc && t < limit {
                    reach = reach.max(t);
                }
            }
            pc += u32::from(ins.len());
            let ends = ins.flow.ends_block();
            out.push(ins);
            if ends && pc > reach {
                break;
            }
        }
        out
    }

    /// The code of the image as blocks by start address: every routine's extent, and the
    /// extent of every label outside them that code jumps to (repeated until no jump
    /// leads outside the blocks found).
    pub fn code_blocks(&self) -> std::collections::BTreeMap<u16, Vec<Instruction>> {
        let mut blocks: std::collections::BTreeMap<u16, Vec<Instruction>> =
            self.routines.keys().map(|&r| (r, self.extent(r))).collect();
        loop {
            let mut new = Vec::new();
            for b in blocks.values() {
                for ins in b {
                    let Some(t) = ins.flow.target() else { continue };
                    if t >= self.start
                        && u32::from(t) < self.end
                        && !self.names_at(t).is_empty()
                        && block_containing(&blocks, t).is_none()
                    {
                        new.push(t);
                    }
                }
            }
            if new.is_empty() {
                return blocks;
            }
            for t in new {
                let code = self.extent(t);
                blocks.insert(t, code);
            }
        }
    }

    /// The name shown for an address: among the symbols there, a routine's name first,
    /// else the shortest (then alphabetically first) name.
    pub fn name_at(&self, addr: u16) -> Option<&str> {
        if let Some(r) = self.routines.get(&addr) {
            return Some(r);
        }
        self.names.get(&addr).map(|v| v[0].as_str())
    }

    /// Every symbol at an address.
    pub fn names_at(&self, addr: u16) -> &[String] {
        self.names.get(&addr).map(|v| v.as_slice()).unwrap_or(&[])
    }

    /// The address of a symbol, by name (case-insensitive).
    pub fn lookup(&self, name: &str) -> Option<u16> {
        self.symbols.get(&name.to_ascii_uppercase()).copied()
    }

    /// Symbol names close to `name` (for "did you mean"): same prefix or a small edit
    /// distance, routines first.
    pub fn close_names(&self, name: &str) -> Vec<String> {
        let want = name.to_ascii_uppercase();
        let mut scored: Vec<(usize, bool, &String)> = self
            .symbols
            .keys()
            .filter_map(|n| {
                let d = edit_distance(&want, n);
                let prefix = n.starts_with(&want) || want.starts_with(n.as_str());
                let close = d <= 2 || (prefix && want.len() >= 2);
                close.then(|| {
                    let routine = self.routines.values().any(|r| r == n);
                    (d, !routine, n)
                })
            })
            .collect();
        scored.sort();
        scored
            .into_iter()
            .take(8)
            .map(|(_, _, n)| n.clone())
            .collect()
    }
}

/// The block of `blocks` whose instructions cover `addr`: its start address.
pub fn block_containing(
    blocks: &std::collections::BTreeMap<u16, Vec<Instruction>>,
    addr: u16,
) -> Option<u16> {
    blocks
        .range(..=addr)
        .rev()
        .find(|(_, b)| {
            b.iter()
                .any(|i| i.addr <= addr && addr < i.addr.wrapping_add(i.len()))
        })
        .map(|(&a, _)| a)
}

/// Levenshtein distance between two short strings.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// How the listing names operands from a [`Program`]'s symbols:
/// * jump and call targets: the label there;
/// * memory operands `(nn)`: the symbol at that address;
/// * 16-bit immediates (`LD HL,nn`): the symbol with that value, for values of 16 and more
///   (smaller ones are counts and piece codes far more often than addresses);
/// * index displacements: the table symbols with that (negative) value, the
///   transcription's way of addressing a table relative to a base register (several names
///   joined by `|` when the image cannot tell them apart); positive displacements stay
///   numbers, since small field offsets and piece codes share their values.
///
/// Where several symbols share an address, a routine's name wins, then the shortest name.
impl Names for Program {
    fn label(&self, addr: u16) -> Option<String> {
        self.name_at(addr).map(str::to_string)
    }
    fn data(&self, addr: u16) -> Option<String> {
        self.name_at(addr).map(str::to_string)
    }
    fn immediate(&self, value: u16) -> Option<String> {
        (value >= 16)
            .then(|| self.name_at(value))
            .flatten()
            .map(str::to_string)
    }
    fn displacement(&self, d: i8) -> Option<String> {
        if d >= 0 {
            return None;
        }
        let v = d as i16 as u16;
        let names = self.names_at(v);
        (!names.is_empty()).then(|| {
            let mut n = names.to_vec();
            n.sort();
            n.join("|")
        })
    }
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
