//! The Z80's opcode tables: every documented instruction's assembler template and
//! T-states, written from the opcode and timing tables of Zilog's *Z80 CPU User Manual*
//! (see [`super`] for how the decoder reads them).

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
pub(super) const CB_OPERANDS: [&str; 8] = ["B", "C", "D", "E", "H", "L", "(HL)", "A"];

pub(super) const CONDITIONS: [&str; 8] = ["NZ", "Z", "NC", "C", "PO", "PE", "P", "M"];
