//! Encodings checked against the opcodes of the Zilog Z80 manual, written out by hand.

use super::*;

/// Assemble one instruction at address 0 and return its bytes.
fn enc(instr: &str) -> Vec<u8> {
    let a = assemble(&format!("        {instr}\n")).unwrap_or_else(|e| panic!("{instr}: {e}"));
    a.lines.into_iter().flat_map(|l| l.2).collect()
}

fn check(cases: &[(&str, &[u8])]) {
    for (instr, expected) in cases {
        assert_eq!(enc(instr), expected.to_vec(), "{instr}");
    }
}

fn err(source: &str) -> AsmError {
    match assemble(source) {
        Ok(_) => panic!("{source:?} assembled"),
        Err(e) => e,
    }
}

#[test]
fn eight_bit_loads() {
    check(&[
        ("LD A,B", &[0x78]),
        ("ld b,a", &[0x47]),
        ("LD C,L", &[0x4D]),
        ("LD H,(HL)", &[0x66]),
        ("LD (HL),E", &[0x73]),
        ("LD D,5", &[0x16, 0x05]),
        ("LD A,-1", &[0x3E, 0xFF]),
        ("LD (HL),0FFH", &[0x36, 0xFF]),
        ("LD (HL),-3", &[0x36, 0xFD]),
        ("LD A,(IX+5)", &[0xDD, 0x7E, 0x05]),
        ("LD E,(IY-2)", &[0xFD, 0x5E, 0xFE]),
        ("LD (IX+10),B", &[0xDD, 0x70, 0x0A]),
        ("LD (IY+0),A", &[0xFD, 0x77, 0x00]),
        ("LD (IX),L", &[0xDD, 0x75, 0x00]),
        ("LD (IX+31),1", &[0xDD, 0x36, 0x1F, 0x01]),
        ("LD (IY-128),127", &[0xFD, 0x36, 0x80, 0x7F]),
        ("LD A,(BC)", &[0x0A]),
        ("LD A,(DE)", &[0x1A]),
        ("LD A,(1234H)", &[0x3A, 0x34, 0x12]),
        ("LD (BC),A", &[0x02]),
        ("LD (DE),A", &[0x12]),
        ("LD (1234H),A", &[0x32, 0x34, 0x12]),
        ("LD A,I", &[0xED, 0x57]),
        ("LD A,R", &[0xED, 0x5F]),
        ("LD I,A", &[0xED, 0x47]),
        ("LD R,A", &[0xED, 0x4F]),
        ("LD A,'['", &[0x3E, 0x5B]),
        ("LD A,(2+3)*2", &[0x3E, 0x0A]),
    ]);
}

#[test]
fn sixteen_bit_loads() {
    check(&[
        ("LD BC,1234H", &[0x01, 0x34, 0x12]),
        ("LD DE,-1", &[0x11, 0xFF, 0xFF]),
        ("LD HL,0", &[0x21, 0x00, 0x00]),
        ("LD SP,0FFFEH", &[0x31, 0xFE, 0xFF]),
        ("LD IX,1234H", &[0xDD, 0x21, 0x34, 0x12]),
        ("LD IY,1234H", &[0xFD, 0x21, 0x34, 0x12]),
        ("LD HL,(1234H)", &[0x2A, 0x34, 0x12]),
        ("LD BC,(1234H)", &[0xED, 0x4B, 0x34, 0x12]),
        ("LD DE,(1234H)", &[0xED, 0x5B, 0x34, 0x12]),
        ("LD SP,(1234H)", &[0xED, 0x7B, 0x34, 0x12]),
        ("LD IX,(1234H)", &[0xDD, 0x2A, 0x34, 0x12]),
        ("LD IY,(1234H)", &[0xFD, 0x2A, 0x34, 0x12]),
        ("LD (1234H),HL", &[0x22, 0x34, 0x12]),
        ("LD (1234H),BC", &[0xED, 0x43, 0x34, 0x12]),
        ("LD (1234H),DE", &[0xED, 0x53, 0x34, 0x12]),
        ("LD (1234H),SP", &[0xED, 0x73, 0x34, 0x12]),
        ("LD (1234H),IX", &[0xDD, 0x22, 0x34, 0x12]),
        ("LD (1234H),IY", &[0xFD, 0x22, 0x34, 0x12]),
        ("LD SP,HL", &[0xF9]),
        ("LD SP,IX", &[0xDD, 0xF9]),
        ("LD SP,IY", &[0xFD, 0xF9]),
        ("PUSH BC", &[0xC5]),
        ("PUSH DE", &[0xD5]),
        ("PUSH HL", &[0xE5]),
        ("PUSH AF", &[0xF5]),
        ("PUSH IX", &[0xDD, 0xE5]),
        ("PUSH IY", &[0xFD, 0xE5]),
        ("POP BC", &[0xC1]),
        ("POP DE", &[0xD1]),
        ("POP HL", &[0xE1]),
        ("POP AF", &[0xF1]),
        ("POP IX", &[0xDD, 0xE1]),
        ("POP IY", &[0xFD, 0xE1]),
    ]);
}

#[test]
fn exchanges_and_blocks() {
    check(&[
        ("EX DE,HL", &[0xEB]),
        ("EX AF,AF'", &[0x08]),
        ("ex af,af'", &[0x08]),
        ("EXX", &[0xD9]),
        ("EX (SP),HL", &[0xE3]),
        ("EX (SP),IX", &[0xDD, 0xE3]),
        ("EX (SP),IY", &[0xFD, 0xE3]),
        ("LDI", &[0xED, 0xA0]),
        ("LDIR", &[0xED, 0xB0]),
        ("LDD", &[0xED, 0xA8]),
        ("LDDR", &[0xED, 0xB8]),
        ("CPI", &[0xED, 0xA1]),
        ("CPIR", &[0xED, 0xB1]),
        ("CPD", &[0xED, 0xA9]),
        ("CPDR", &[0xED, 0xB9]),
    ]);
}

#[test]
fn arithmetic_and_logic() {
    check(&[
        ("ADD A,B", &[0x80]),
        ("ADD A,(HL)", &[0x86]),
        ("ADD A,(IX+3)", &[0xDD, 0x86, 0x03]),
        ("ADD A,30H", &[0xC6, 0x30]),
        ("ADC A,E", &[0x8B]),
        ("ADC A,1", &[0xCE, 0x01]),
        ("SUB B", &[0x90]),
        ("SUB A", &[0x97]),
        ("SUB (HL)", &[0x96]),
        ("SUB 5", &[0xD6, 0x05]),
        ("SBC A,C", &[0x99]),
        ("SBC A,(IY+1)", &[0xFD, 0x9E, 0x01]),
        ("SBC A,2", &[0xDE, 0x02]),
        ("AND A", &[0xA7]),
        ("AND 0FH", &[0xE6, 0x0F]),
        ("XOR A", &[0xAF]),
        ("XOR 80H", &[0xEE, 0x80]),
        ("XOR (HL)", &[0xAE]),
        ("OR C", &[0xB1]),
        ("OR 1", &[0xF6, 0x01]),
        ("CP (HL)", &[0xBE]),
        ("CP (IX-1)", &[0xDD, 0xBE, 0xFF]),
        ("CP 59H", &[0xFE, 0x59]),
        ("CP -1", &[0xFE, 0xFF]),
        ("CP L", &[0xBD]),
        ("INC A", &[0x3C]),
        ("INC B", &[0x04]),
        ("INC L", &[0x2C]),
        ("INC (HL)", &[0x34]),
        ("INC (IX+2)", &[0xDD, 0x34, 0x02]),
        ("DEC D", &[0x15]),
        ("DEC (HL)", &[0x35]),
        ("DEC (IY+0)", &[0xFD, 0x35, 0x00]),
        ("DAA", &[0x27]),
        ("CPL", &[0x2F]),
        ("NEG", &[0xED, 0x44]),
        ("CCF", &[0x3F]),
        ("SCF", &[0x37]),
        ("NOP", &[0x00]),
        ("HALT", &[0x76]),
        ("DI", &[0xF3]),
        ("EI", &[0xFB]),
        ("IM 0", &[0xED, 0x46]),
        ("IM 1", &[0xED, 0x56]),
        ("IM 2", &[0xED, 0x5E]),
        ("ADD HL,BC", &[0x09]),
        ("ADD HL,DE", &[0x19]),
        ("ADD HL,HL", &[0x29]),
        ("ADD HL,SP", &[0x39]),
        ("ADC HL,BC", &[0xED, 0x4A]),
        ("ADC HL,SP", &[0xED, 0x7A]),
        ("SBC HL,DE", &[0xED, 0x52]),
        ("SBC HL,HL", &[0xED, 0x62]),
        ("ADD IX,BC", &[0xDD, 0x09]),
        ("ADD IX,DE", &[0xDD, 0x19]),
        ("ADD IX,IX", &[0xDD, 0x29]),
        ("ADD IX,SP", &[0xDD, 0x39]),
        ("ADD IY,IY", &[0xFD, 0x29]),
        ("INC BC", &[0x03]),
        ("INC HL", &[0x23]),
        ("INC SP", &[0x33]),
        ("INC IX", &[0xDD, 0x23]),
        ("INC IY", &[0xFD, 0x23]),
        ("DEC DE", &[0x1B]),
        ("DEC HL", &[0x2B]),
        ("DEC IX", &[0xDD, 0x2B]),
    ]);
}

#[test]
fn rotates_shifts_bits() {
    check(&[
        ("RLCA", &[0x07]),
        ("RLA", &[0x17]),
        ("RRCA", &[0x0F]),
        ("RRA", &[0x1F]),
        ("RLC B", &[0xCB, 0x00]),
        ("RLC (HL)", &[0xCB, 0x06]),
        ("RLC (IX+1)", &[0xDD, 0xCB, 0x01, 0x06]),
        ("RRC A", &[0xCB, 0x0F]),
        ("RL C", &[0xCB, 0x11]),
        ("RR D", &[0xCB, 0x1A]),
        ("RR (IY+2)", &[0xFD, 0xCB, 0x02, 0x1E]),
        ("SLA D", &[0xCB, 0x22]),
        ("SRA A", &[0xCB, 0x2F]),
        ("SRL A", &[0xCB, 0x3F]),
        ("SRL (HL)", &[0xCB, 0x3E]),
        ("RLD", &[0xED, 0x6F]),
        ("RRD", &[0xED, 0x67]),
        ("BIT 0,C", &[0xCB, 0x41]),
        ("BIT 7,A", &[0xCB, 0x7F]),
        ("BIT 3,(HL)", &[0xCB, 0x5E]),
        ("BIT 4,(IX+5)", &[0xDD, 0xCB, 0x05, 0x66]),
        ("SET 3,(HL)", &[0xCB, 0xDE]),
        ("SET 0,B", &[0xCB, 0xC0]),
        ("SET 7,(IY-1)", &[0xFD, 0xCB, 0xFF, 0xFE]),
        ("RES 6,E", &[0xCB, 0xB3]),
        ("RES 0,(HL)", &[0xCB, 0x86]),
        ("RES 1,(IX+0)", &[0xDD, 0xCB, 0x00, 0x8E]),
    ]);
}

#[test]
fn jumps_calls_io() {
    check(&[
        ("JP 1234H", &[0xC3, 0x34, 0x12]),
        ("JP NZ,1234H", &[0xC2, 0x34, 0x12]),
        ("JP Z,1234H", &[0xCA, 0x34, 0x12]),
        ("JP NC,1234H", &[0xD2, 0x34, 0x12]),
        ("JP C,1234H", &[0xDA, 0x34, 0x12]),
        ("JP PO,1234H", &[0xE2, 0x34, 0x12]),
        ("JP PE,1234H", &[0xEA, 0x34, 0x12]),
        ("JP P,1234H", &[0xF2, 0x34, 0x12]),
        ("JP M,1234H", &[0xFA, 0x34, 0x12]),
        ("JP (HL)", &[0xE9]),
        ("JP (IX)", &[0xDD, 0xE9]),
        ("JP (IY)", &[0xFD, 0xE9]),
        ("JR $", &[0x18, 0xFE]),
        ("JR $+2", &[0x18, 0x00]),
        ("JR NZ,$+10", &[0x20, 0x08]),
        ("JR Z,$", &[0x28, 0xFE]),
        ("JR NC,$+129", &[0x30, 0x7F]),
        ("JR C,$-126", &[0x38, 0x80]),
        ("DJNZ $", &[0x10, 0xFE]),
        ("CALL 1234H", &[0xCD, 0x34, 0x12]),
        ("CALL NZ,1234H", &[0xC4, 0x34, 0x12]),
        ("CALL Z,1234H", &[0xCC, 0x34, 0x12]),
        ("CALL C,1234H", &[0xDC, 0x34, 0x12]),
        ("CALL M,1234H", &[0xFC, 0x34, 0x12]),
        ("RET", &[0xC9]),
        ("RET NZ", &[0xC0]),
        ("RET Z", &[0xC8]),
        ("RET NC", &[0xD0]),
        ("RET C", &[0xD8]),
        ("RET PO", &[0xE0]),
        ("RET PE", &[0xE8]),
        ("RET P", &[0xF0]),
        ("RET M", &[0xF8]),
        ("RETI", &[0xED, 0x4D]),
        ("RETN", &[0xED, 0x45]),
        ("RST 0", &[0xC7]),
        ("RST 8", &[0xCF]),
        ("RST 38h", &[0xFF]),
        ("IN A,(0FEH)", &[0xDB, 0xFE]),
        ("IN B,(C)", &[0xED, 0x40]),
        ("IN A,(C)", &[0xED, 0x78]),
        ("INI", &[0xED, 0xA2]),
        ("INIR", &[0xED, 0xB2]),
        ("IND", &[0xED, 0xAA]),
        ("INDR", &[0xED, 0xBA]),
        ("OUT (10H),A", &[0xD3, 0x10]),
        ("OUT (C),E", &[0xED, 0x59]),
        ("OUTI", &[0xED, 0xA3]),
        ("OTIR", &[0xED, 0xB3]),
        ("OUTD", &[0xED, 0xAB]),
        ("OTDR", &[0xED, 0xBB]),
    ]);
}

#[test]
fn directives_and_layout() {
    let src = "\
; a comment line
BASE    EQU     100H
        ORG     BASE
ENTRY:  LD      HL,TABLE        ; forward reference
        JR      NEXT
TABLE   DB      1,-1,+09,'A',\"hi\",$80
WORDS:  DW      TABLE,-2,$
GAP     DS      3
NEXT    NOP
OFFS    EQU     TABLE-BASE-10H
        LD      A,(IX+OFFS)
        LD      A,(IX+NEG)
NEG     EQU     $-ENTRY-40H
";
    let a = assemble(src).unwrap();
    assert_eq!(a.symbols["BASE"], 0x100);
    assert_eq!(a.symbols["ENTRY"], 0x100);
    assert_eq!(a.symbols["TABLE"], 0x105);
    assert_eq!(a.symbols["WORDS"], 0x10C);
    assert_eq!(a.symbols["GAP"], 0x112);
    assert_eq!(a.symbols["NEXT"], 0x115);
    assert_eq!(a.symbols["OFFS"], 0xFFF5);
    assert_eq!(a.symbols["NEG"], 0xFFDC);
    let expected: Vec<(usize, u16, Vec<u8>)> = vec![
        (4, 0x100, vec![0x21, 0x05, 0x01]),
        (5, 0x103, vec![0x18, 0x10]),
        (6, 0x105, vec![0x01, 0xFF, 0x09, 0x41, 0x68, 0x69, 0x80]),
        (7, 0x10C, vec![0x05, 0x01, 0xFE, 0xFF, 0x0C, 0x01]),
        (9, 0x115, vec![0x00]),
        (11, 0x116, vec![0xDD, 0x7E, 0xF5]),
        (12, 0x119, vec![0xDD, 0x7E, 0xDC]),
    ];
    assert_eq!(a.lines, expected);
    assert_eq!(a.extent, Some((0x100, 0x11B)));
    assert_eq!(&a.memory[0x112..0x115], &[0, 0, 0]);
}

#[test]
fn later_org_overwrites() {
    let a = assemble(" ORG 10H\n DB 1,2,3,4\n ORG 12H\n DB 9\n").unwrap();
    assert_eq!(&a.memory[0x10..0x14], &[1, 2, 9, 4]);
    assert_eq!(
        a.lines,
        vec![(2, 0x10, vec![1, 2, 3, 4]), (4, 0x12, vec![9])]
    );
    assert_eq!(a.extent, Some((0x10, 0x13)));
}

#[test]
fn ds_with_fill_emits() {
    let a = assemble(" DS 2\n DS 3,0E5H\n").unwrap();
    assert_eq!(a.lines, vec![(2, 2, vec![0xE5; 3])]);
    assert_eq!(a.extent, Some((2, 4)));
}

#[test]
fn macros() {
    let src = "\
PRINT   MACRO   ADDR,LEN
        LD      HL,ADDR
        LD      B,LEN
        CALL    5
        ENDM
BYE     MACRO
        RST     0
        ENDM
        ORG     200H
HERE:   PRINT   MSG,3   ; a call
        BYE
MSG     DB      'abc'
";
    let a = assemble(src).unwrap();
    assert_eq!(
        a.lines,
        vec![
            (
                10,
                0x200,
                vec![0x21, 0x09, 0x02, 0x06, 0x03, 0xCD, 0x05, 0x00]
            ),
            (11, 0x208, vec![0xC7]),
            (12, 0x209, vec![0x61, 0x62, 0x63]),
        ]
    );
    assert_eq!(a.symbols.get("HERE"), Some(&0x200));
    assert!(!a.symbols.contains_key("PRINT"));
    assert!(!a.symbols.contains_key("ADDR"));
}

#[test]
fn nested_macros() {
    let src =
        "INNER MACRO X\n DB X\n ENDM\nOUTER MACRO Y\n INNER Y+1\n INNER Y+2\n ENDM\n OUTER 10\n";
    let a = assemble(src).unwrap();
    assert_eq!(a.lines, vec![(8, 0, vec![11, 12])]);
}

#[test]
fn case_and_number_forms() {
    let a = assemble("lab: ld a,0ffh\n Ld B,$1F\n LD c,lab\n").unwrap();
    assert_eq!(
        a.lines.iter().flat_map(|l| l.2.clone()).collect::<Vec<_>>(),
        vec![0x3E, 0xFF, 0x06, 0x1F, 0x0E, 0]
    );
    assert!(a.symbols.contains_key("LAB"));
}

/// The cause of the error `source` gives.
fn kind(source: &str) -> AsmErrorKind {
    err(source).kind
}

/// Operand texts as the typed errors hold them.
fn texts(ops: &[&str]) -> Vec<String> {
    ops.iter().map(|o| o.to_string()).collect()
}

#[test]
fn errors_are_typed() {
    use AsmErrorKind as K;
    let e = err("  NOP\n  FROB A\n");
    assert_eq!(e.line, 2);
    assert_eq!(
        e.kind,
        K::UnknownMnemonic {
            mnemonic: "FROB".into()
        }
    );

    for (source, mnemonic, operands) in [
        ("  LD A,HL\n", "LD", &["A", "HL"][..]),
        ("  ld (hl), (hl)\n", "LD", &["(hl)", "(hl)"]),
        ("  JR PO,0\n", "JR", &["PO", "0"]),
        ("  ADD IX,HL\n", "ADD", &["IX", "HL"]),
        ("  PUSH SP\n", "PUSH", &["SP"]),
    ] {
        assert_eq!(
            kind(source),
            K::BadOperands {
                mnemonic: mnemonic.into(),
                operands: texts(operands)
            },
            "{source:?}"
        );
    }
    assert_eq!(
        kind("  EXX A\n"),
        K::TakesNoOperands {
            mnemonic: "EXX".into(),
            operands: texts(&["A"])
        }
    );
    assert_eq!(kind("  RST 9\n"), K::BadRstTarget { value: 9 });
    assert_eq!(kind("  IM 3\n"), K::BadInterruptMode { value: 3 });
    assert_eq!(kind("  BIT 8,A\n"), K::BadBitNumber { value: 8 });
    assert_eq!(kind("  LD A,\n"), K::MissingOperand);
    assert_eq!(
        kind("  LD A,(IY*2)\n"),
        K::BadIndexOperand {
            operand: "(IY*2)".into()
        }
    );
    // For `(IX+d)` the operand named is the displacement, sign included.
    assert_eq!(
        kind("  LD A,(IX+)\n"),
        K::BadOperandExpression {
            operand: "+".into(),
            error: ExprError::MissingOperand {
                expression: "+".into()
            }
        }
    );

    let e = err("  NOP\n  JP NOWHERE\n");
    assert_eq!(e.line, 2);
    assert_eq!(
        e.kind,
        K::UndefinedSymbol {
            name: "NOWHERE".into()
        }
    );
    assert_eq!(
        kind("  ld a,nowhere+1\n"),
        K::UndefinedSymbol {
            name: "NOWHERE".into()
        }
    );
    assert!(matches!(
        kind("X EQU Y\nY EQU X\n"),
        K::UndefinedSymbol { .. }
    ));
    assert_eq!(kind("  DB 1%0\n"), K::DivisionByZero);

    assert_eq!(
        kind("  LD A,(IX+128)\n"),
        K::DisplacementOutOfRange { value: 128 }
    );
    assert_eq!(
        kind("  LD A,(IX-129)\n"),
        K::DisplacementOutOfRange { value: -129 }
    );
    assert_eq!(
        kind("DD1 EQU 0FF7FH\n  LD A,(IX+DD1)\n"),
        K::DisplacementOutOfRange { value: 0xFF7F }
    );

    assert_eq!(
        kind("  JR $+130\n"),
        K::JumpOutOfRange {
            target: 130,
            offset: 128
        }
    );
    assert_eq!(
        kind("  ORG 100H\n  DJNZ $-127\n"),
        K::JumpOutOfRange {
            target: 0x100 - 127,
            offset: -129
        }
    );

    let e = err("A1: NOP\nA1: NOP\n");
    assert_eq!(e.line, 2);
    assert_eq!(e.kind, K::DuplicateLabel { name: "A1".into() });
    let e = err("x equ 1\nX: NOP\n");
    assert_eq!(e.line, 2);
    assert_eq!(e.kind, K::DuplicateLabel { name: "X".into() });

    assert_eq!(
        kind("  DS 10-X\nX: NOP\n"),
        K::SymbolDoesNotSettle { name: "X".into() }
    );

    assert_eq!(kind("  LD A,256\n"), K::ByteOutOfRange { value: 256 });
    assert_eq!(
        kind("  DW -10000H\n"),
        K::WordOutOfRange { value: -0x10000 }
    );
    assert_eq!(kind("  ORG 10000H\n"), K::OrgOutOfRange { value: 0x10000 });
    assert_eq!(
        kind("  DS 10001H\n"),
        K::DsSizeOutOfRange { value: 0x10001 }
    );
    let e = err("  ORG 0FFFEH\n  NOP\n  LD BC,0\n");
    assert_eq!(e.line, 3);
    assert_eq!(e.kind, K::BeyondAddressSpace { address: 0xFFFF });
}

#[test]
fn macro_errors_are_typed() {
    use AsmErrorKind as K;
    let e = err("  NOP\nm macro\n  NOP\n");
    assert_eq!(e.line, 2, "the line of the MACRO");
    assert_eq!(e.kind, K::MacroWithoutEndm { name: "M".into() });
    assert_eq!(kind("  ENDM\n"), K::EndmWithoutMacro);
    assert_eq!(kind("  MACRO X\n ENDM\n"), K::MacroWithoutName);
    assert_eq!(
        kind("M MACRO\n ENDM\nm MACRO\n ENDM\n"),
        K::MacroAlreadyDefined { name: "M".into() }
    );
    assert_eq!(
        kind("Ld MACRO\n ENDM\n"),
        K::MacroAlreadyDefined { name: "LD".into() }
    );
    assert_eq!(
        kind("M MACRO A,2+B\n ENDM\n"),
        K::BadMacroParameter {
            parameter: "2+B".into()
        }
    );
    let e = err("M MACRO X\n DB X\n ENDM\n  NOP\n  M 1,2\n");
    assert_eq!(e.line, 5, "the line of the call");
    assert_eq!(
        e.kind,
        K::TooManyMacroArguments {
            name: "M".into(),
            parameters: 1,
            arguments: 2
        }
    );
    assert_eq!(
        kind("Inner MACRO\n Outer\n ENDM\nOuter MACRO\n Inner\n ENDM\n Outer\n"),
        K::MacroTooDeep {
            name: "INNER".into()
        }
    );
    assert_eq!(
        kind("M MACRO\n end\n ENDM\n M\n"),
        K::DirectiveInMacro {
            directive: "END".into(),
            name: "M".into()
        }
    );
    // An error inside an expansion is reported on the calling line, typed as usual.
    let e = err("M MACRO V\n LD A,V\n ENDM\n\n M 300\n");
    assert_eq!(e.line, 5);
    assert_eq!(e.kind, K::ByteOutOfRange { value: 300 });
}

#[test]
fn directive_and_line_errors_are_typed() {
    use AsmErrorKind as K;
    assert_eq!(kind("  DB\n"), K::DbWithoutValues);
    assert_eq!(kind("  DEFM\n"), K::DbWithoutValues);
    assert_eq!(kind("  DEFW\n"), K::DwWithoutValues);
    assert_eq!(kind("  DS\n"), K::BadDsOperands);
    assert_eq!(kind("  DB 1,,2\n"), K::MissingExpression);
    assert_eq!(
        kind("  .org 1,2\n"),
        K::NotOneOperand {
            directive: "ORG".into()
        }
    );
    assert_eq!(
        kind("  equ 5\n"),
        K::EquWithoutName {
            directive: "equ".into()
        }
    );
    assert_eq!(kind("= 5\n"), K::EqualsWithoutName { rest: "5".into() });
    assert_eq!(kind("  ,A\n"), K::Unexpected { text: ",A".into() });
    assert_eq!(
        kind("  LD, A\n"),
        K::UnexpectedAfterOperation {
            text: ", A".into(),
            operation: "LD".into()
        }
    );

    let expr_error = |source: &str| match kind(source) {
        K::BadExpression(e) => e,
        k => panic!("{source:?} gave {k:?}"),
    };
    assert_eq!(
        expr_error("  DB 1 2\n"),
        ExprError::Unexpected {
            text: "2".into(),
            expression: "1 2".into()
        }
    );
    assert_eq!(
        expr_error("  DB 1+\n"),
        ExprError::MissingOperand {
            expression: "1+".into()
        }
    );
    assert_eq!(
        expr_error("  DB [1\n"),
        ExprError::MissingBracket {
            bracket: ']',
            expression: "[1".into()
        }
    );
    assert_eq!(
        expr_error("  DB $1G\n"),
        ExprError::BadHexNumber {
            digits: "1G".into()
        }
    );
    assert_eq!(
        expr_error("  DB 'a\n"),
        ExprError::UnterminatedCharacter {
            expression: "'a".into()
        }
    );
    assert_eq!(
        expr_error("  DW 'abc'\n"),
        ExprError::NotACharacterConstant {
            text: "'abc'".into()
        }
    );
    assert_eq!(
        expr_error("  DB 12G\n"),
        ExprError::BadNumber { text: "12G".into() }
    );
    assert!(matches!(
        expr_error(&format!("  DB {}\n", "-".repeat(2000))),
        ExprError::TooComplex { .. }
    ));
    // An instruction's operand names the operand as well.
    assert_eq!(
        kind("  LD A,12G\n"),
        K::BadOperandExpression {
            operand: "12G".into(),
            error: ExprError::BadNumber { text: "12G".into() }
        }
    );
}

#[test]
fn displacements_as_sixteen_bit_differences() {
    let src =
        "BASE EQU 300H\n ORG 290H\nTOFF EQU $-BASE\n DB 0\n LD A,(IX+TOFF)\n LD (IY+TOFF+1),A\n";
    let a = assemble(src).unwrap();
    assert_eq!(a.symbols["TOFF"], 0xFF90);
    assert_eq!(a.lines[1].2, vec![0xDD, 0x7E, 0x90]);
    assert_eq!(a.lines[2].2, vec![0xFD, 0x77, 0x91]);
    assert_eq!(enc("LD A,(IX+0FFC2H)"), vec![0xDD, 0x7E, 0xC2]);
}

#[test]
fn garbage_never_panics() {
    let inputs = [
        "",
        "\n\n",
        ":",
        " LD",
        " LD A",
        " LD ,",
        " LD (,)",
        " LD A,(",
        " LD A,)",
        " DB '",
        " DB \"abc",
        " DB",
        " DW",
        " DS",
        " ORG",
        "X EQU",
        " EQU 5",
        " JP (IX+1)",
        " LD A,(IX+)",
        " LD A,(IX*2)",
        " LD A,'ab",
        " ORG -1",
        " ORG 10000H",
        " DS -1",
        " ORG 0FFFFH\n DW 1",
        " DB 1/0",
        " DB 1<<99",
        " LD A,((((",
        " LD A,$$$",
        "\u{e9}t\u{e9} NOP",
        " DB '\u{e9}'",
        "M MACRO A,\n ENDM",
        "M MACRO\n NOP\n ENDM\n M 1,2",
        "M MACRO\n M\n ENDM\n M",
        " IM 3",
        " RST -8",
        "  = 5",
    ];
    for src in inputs {
        let _ = assemble(src);
    }
}

#[test]
fn assembles_fast() {
    let mut src = String::new();
    for i in 0..4000 {
        src.push_str(&format!(
            "L{i}: LD A,(IX+5)\n JR L{i}\n CALL L{}\n",
            (i + 1) % 4000
        ));
    }
    let t = std::time::Instant::now();
    let a = assemble(&src).unwrap();
    assert_eq!(a.lines.len(), 12000);
    assert!(t.elapsed().as_secs_f64() < 1.0, "{:?}", t.elapsed());
}

mod listing_reader {
    use super::super::listing::*;
    use super::super::{AsmError, AsmErrorKind, Unrecoverable};

    const LISTING: &str = "   1:\t\t\t; a test\r\n   2:\t0005          \tFIVE    EQU     5\r\n   3:\t0100          \t        ORG     100H\r\n   4:\t0100  3E05    \tENTRY:  LD      A,FIVE\r\n   5:\t0102  01020304\t        DB      1,2,3,4,5,6\r\n\t      0506\r\n   6:\t0108' CD0500  \t        CALLIT\r\n   7:\t0100  AA      \t        ORG 100H ; pretend\r\n\r\n\r\nStatistics:\r\n\r\n     4\tpasses\r\n\r\nSymbol Table:\r\n\r\nfive           =   5     \r\nentry            100     \r\nneg            =ffffff80 \r\n";

    #[test]
    fn reads_records_and_symbols() {
        assert!(looks_like_listing(LISTING));
        assert!(!looks_like_listing("; source\n LD A,B\n"));
        let a = parse_listing(LISTING).unwrap();
        assert_eq!(
            a.lines,
            vec![
                (4, 0x100, vec![0x3E, 0x05]),
                (5, 0x102, vec![1, 2, 3, 4, 5, 6]),
                (6, 0x108, vec![0xCD, 0x05, 0x00]),
                (7, 0x100, vec![0xAA]),
            ]
        );
        assert_eq!(a.memory[0x100], 0xAA);
        assert_eq!(a.memory[0x101], 0x05);
        assert_eq!(a.extent, Some((0x100, 0x10A)));
        assert_eq!(a.symbols["FIVE"], 5);
        assert_eq!(a.symbols["ENTRY"], 0x100);
        assert_eq!(a.symbols["NEG"], 0xFF80);
    }

    #[test]
    fn recovers_a_damaged_record_from_its_source() {
        let text = "   1:\t0100          \t        ORG     100H\n   2:\t0100  3E05    \t        LD      A,5\n   3:\t01F0\0 12345678\t        LD      HL,0\n\t      9ABC\n\t0001  00000000\n   4:\t0105  C9      \t        RET\n";
        let r = read_listing(text).unwrap();
        assert_eq!(r.recovered, vec![3]);
        assert_eq!(
            r.assembly.lines,
            vec![
                (2, 0x100, vec![0x3E, 5]),
                (3, 0x102, vec![0x21, 0, 0]),
                (4, 0x105, vec![0xC9])
            ]
        );
        // A damaged record whose source does not reproduce the rest is refused.
        let bad = text.replace("C9      ", "C0      ");
        let e = read_listing(&bad).unwrap_err();
        assert_eq!(e.line, 3);
        assert_eq!(
            e.kind,
            AsmErrorKind::DamagedRecord {
                record: 3,
                why: Unrecoverable::NotReproduced { from_line: 4 }
            }
        );
    }

    #[test]
    fn a_damaged_listing_numbering_a_line_beyond_its_length_is_refused_at_once() {
        // Found by fuzzing: the source text was rebuilt up to the highest line number,
        // here about 4 * 10^14 lines (an allocation of petabytes).
        let text = "   1:\t0100  3E05    \tENTRY:  LD      A,5\n   388888888888888:\t01\x01\x00  \t        RET\n";
        let e = read_listing(text).unwrap_err();
        assert!(
            matches!(
                e.kind,
                AsmErrorKind::DamagedRecord {
                    why: Unrecoverable::LineBeyondListing {
                        listing_lines: 2,
                        ..
                    },
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn listing_errors_are_typed() {
        let kind = |text: &str| read_listing(text).map(|_| ()).unwrap_err().kind;
        let record = "   1:\t0100  3E05    \t LD A,5\n";
        assert_eq!(
            kind(&format!("{record}Symbol Table:\nfoo 10 bar\n")),
            AsmErrorKind::SymbolWithoutValue { name: "bar".into() }
        );
        assert_eq!(
            kind(&format!("{record}Symbol Table:\nfoo = 1x'\n")),
            AsmErrorKind::BadSymbolValue {
                name: "foo".into(),
                value: "1x".into()
            }
        );
        let e = read_listing("   1:\t\t\t NOP\n garbage \n").unwrap_err();
        assert_eq!(e.line, 2);
        assert_eq!(
            e.kind,
            AsmErrorKind::NotAListingLine {
                text: " garbage".into()
            }
        );
        assert_eq!(kind("\n\n"), AsmErrorKind::NotAListing);
        assert_eq!(
            kind("   7:\tFFFE  3E05C9  \t LD A,5\n"),
            AsmErrorKind::RecordBeyondAddressSpace { record: 7 }
        );
        let e = read_listing("   1:\t01F0\0 12345678\t        FROB\n").unwrap_err();
        let AsmErrorKind::DamagedRecord {
            record: 1,
            why: Unrecoverable::SourceDoesNotAssemble(inner),
        } = e.kind
        else {
            panic!("{e}")
        };
        assert_eq!(
            *inner,
            AsmError {
                line: 1,
                kind: AsmErrorKind::UnknownMnemonic {
                    mnemonic: "FROB".into()
                }
            }
        );
        let several = "   1:\t\t\tM MACRO\n   2:\t\t\t NOP\n   3:\t\t\t ORG 10H\n   4:\t\t\t NOP\n   5:\t\t\t ENDM\n   6:\t01F0\0 12345678\t M\n";
        assert_eq!(
            kind(several),
            AsmErrorKind::DamagedRecord {
                record: 6,
                why: Unrecoverable::EmitsInSeveralPlaces { line: 6 }
            }
        );
    }

    #[test]
    fn rejects_garbage() {
        assert!(parse_listing("hello\nworld\n").is_err());
        let _ = parse_listing("   1:\t0100  3E\n");
        let _ = parse_listing("   1:\tZZZZ  3E05\tX\n");
        let _ = parse_listing("Symbol Table:\nfoo\n");
        let _ = parse_listing("   1:\tFFFF  3E05    \t LD A,5\n");
    }
}

/// Every cause of an assembly error with the exact text it prints: the CLI shows these
/// texts, so the typed errors keep them.
#[test]
fn error_messages_are_stable() {
    let open = "(".repeat(1001);
    let deep = format!("  DB {open}1\n");
    let too_complex = format!("line 1: bad operand: expression too complex: `{open}1`");
    let cases: &[(&str, &str)] = &[
        ("  JP NOWHERE\n", "line 1: undefined symbol NOWHERE"),
        ("  DB 1/0\n", "line 1: bad operand: division by zero"),
        ("X EQU 1/0\n", "line 1: bad operand: division by zero"),
        ("A1: NOP\nA1: NOP\n", "line 2: duplicate label A1"),
        ("  ORG 10000H\n", "line 1: value out of range: ORG 0x10000"),
        (
            "  ORG -1\n",
            "line 1: value out of range: ORG 0xFFFFFFFFFFFFFFFF",
        ),
        ("  DS -1\n", "line 1: value out of range: DS -1"),
        (
            "  ORG 0FFFFH\n  LD A,1\n",
            "line 2: code beyond address 0FFFFh (at 0xFFFF)",
        ),
        ("  RST 9\n", "line 1: bad operand: RST 0x9 (0, 8h, …, 38h)"),
        ("  IM 3\n", "line 1: bad operand: IM 3 (0, 1 or 2)"),
        ("  BIT 8,A\n", "line 1: bad operand: bit number 8 (0 to 7)"),
        (
            "  DS 10-X\nX: NOP\n",
            "line 2: the value of X does not settle (it depends on itself)",
        ),
        (
            "  LD A,256\n",
            "line 1: value out of range: 0x100 does not fit in a byte",
        ),
        (
            "  LD A,-257\n",
            "line 1: value out of range: 0xFFFFFFFFFFFFFEFF does not fit in a byte",
        ),
        (
            "  DW 10000H\n",
            "line 1: value out of range: 0x10000 does not fit in a word",
        ),
        (
            "  LD A,(IX+128)\n",
            "line 1: displacement out of range: 128 (must be -128 to 127)",
        ),
        (
            "  LD A,(IX-129)\n",
            "line 1: displacement out of range: -129 (must be -128 to 127)",
        ),
        (
            "  JR $+130\n",
            "line 1: relative jump out of range: target 0x0082 is 128 bytes away",
        ),
        (
            "  DJNZ $-127\n",
            "line 1: relative jump out of range: target 0xFFFFFFFFFFFFFF81 is -129 bytes away",
        ),
        ("= 5\n", "line 1: `=` without a name: `=5`"),
        ("  ,A\n", "line 1: unexpected `,A`"),
        ("LOOP: ,A\n", "line 1: unexpected `,A`"),
        ("  LD, A\n", "line 1: unexpected `, A` after `LD`"),
        (
            "M MACRO\n M\n ENDM\n M\n",
            "line 4: macro M nested too deeply",
        ),
        (
            "M MACRO X\n NOP\n ENDM\n M 1,2\n",
            "line 4: macro M takes 1 arguments, 2 given",
        ),
        (
            "M MACRO\n END\n ENDM\n M\n",
            "line 4: END inside macro M is not supported",
        ),
        ("  MACRO\n", "line 1: MACRO without a name"),
        (
            "M MACRO\n ENDM\nM MACRO\n ENDM\n",
            "line 3: macro M already defined",
        ),
        ("LD MACRO\n ENDM\n", "line 1: macro LD already defined"),
        ("M MACRO 1\n ENDM\n", "line 1: bad macro parameter `1`"),
        ("M MACRO\n NOP\n", "line 1: macro M has no ENDM"),
        ("  ENDM\n", "line 1: ENDM without MACRO"),
        ("  DB\n", "line 1: bad operand: DB needs values"),
        ("  DB 1,\n", "line 1: bad operand: missing expression"),
        (
            "  DB 1+\n",
            "line 1: bad operand: missing operand in expression `1+`",
        ),
        ("  ORG 1,2\n", "line 1: bad operand: ORG takes one operand"),
        ("  EQU 5\n", "line 1: EQU without a name"),
        ("X = \n", "line 1: bad operand: = takes one operand"),
        ("  DW\n", "line 1: bad operand: DW needs values"),
        (
            "  DS 1,2,3\n",
            "line 1: bad operand: DS takes a size and an optional fill value",
        ),
        ("  FROB A\n", "line 1: unknown mnemonic FROB"),
        ("  LD A,\n", "line 1: missing operand"),
        (
            "  LD A,(IX*2)\n",
            "line 1: bad operand `(IX*2)`: expected (IX+d)",
        ),
        (
            "  LD A,1+\n",
            "line 1: bad operand `1+`: missing operand in expression `1+`",
        ),
        ("  LD A,HL\n", "line 1: bad operand for LD: `A,HL`"),
        (
            "  NOP A\n",
            "line 1: bad operand: NOP takes no operands (`A`)",
        ),
        (
            "  DB 1 2\n",
            "line 1: bad operand: unexpected `2` in expression `1 2`",
        ),
        (&deep, &too_complex),
        (
            "  DB (1\n",
            "line 1: bad operand: missing `)` in expression `(1`",
        ),
        (
            "  DB [1\n",
            "line 1: bad operand: missing `]` in expression `[1`",
        ),
        (
            "  DB $1G\n",
            "line 1: bad operand: bad hexadecimal number `$1G`",
        ),
        (
            "  DB 'a\n",
            "line 1: bad operand: unterminated character constant in `'a`",
        ),
        (
            "  DW 'abc'\n",
            "line 1: bad operand: `'abc'` is not a character constant",
        ),
        ("  DB 12G\n", "line 1: bad operand: bad number `12G`"),
        (
            "  DB #\n",
            "line 1: bad operand: unexpected `#` in expression `#`",
        ),
    ];
    for (source, expected) in cases {
        assert_eq!(err(source).to_string(), *expected, "{source:?}");
    }
}

/// The listing reader's errors with the exact text they print.
#[test]
fn listing_error_messages_are_stable() {
    use super::listing::read_listing;
    let damaged = "   1:\t0100          \t        ORG     100H\n   2:\t0100  3E05    \t        LD      A,5\n   3:\t01F0\0 12345678\t        LD      HL,0\n\t      9ABC\n   4:\t0105  C9      \t        RET\n";
    let not_reproduced = damaged.replace("C9      ", "C0      ");
    let cases: &[(&str, &str)] = &[
        ("   1:\t0100  3E05    \t LD A,5\nSymbol Table:\nfoo\n", "line 3: symbol foo without a value"),
        ("   1:\t0100  3E05    \t LD A,5\nSymbol Table:\nfoo =\n", "line 3: symbol foo without a value"),
        ("   1:\t0100  3E05    \t LD A,5\nSymbol Table:\nfoo zz\n", "line 3: bad value `zz` of symbol foo"),
        ("   1:\t\t\t NOP\ngarbage\n", "line 2: not a zmac listing line: `garbage`"),
        ("hello\nworld\n", "line 1: not a zmac listing line: `hello`"),
        ("", "line 0: not a zmac listing: no numbered lines"),
        ("   1:\tFFFF  3E05    \t LD A,5\n", "line 1: listing line 1 emits beyond address 0FFFFh"),
        (
            "   1:\t0100  3E05    \tENTRY:  LD      A,5\n   388888888888888:\t01\x01\x00  \t        RET\n",
            "line 388888888888888: the listing's record of line 388888888888888 is damaged, and its source text cannot be rebuilt: it numbers a line 388888888888888, beyond the listing's 2 lines",
        ),
        (
            "   1:\t01F0\0 12345678\t        FROB\n",
            "line 1: the listing's record of line 1 is damaged, and its source text does not assemble (line 1: unknown mnemonic FROB)",
        ),
        (
            &not_reproduced,
            "line 3: the listing's record of line 3 is damaged, and assembling its source text does not reproduce the listing (from line 4)",
        ),
        (
            "   1:\t\t\tM MACRO\n   2:\t\t\t NOP\n   3:\t\t\t ORG 10H\n   4:\t\t\t NOP\n   5:\t\t\t ENDM\n   6:\t01F0\0 12345678\t M\n",
            "line 6: the listing's record of line 6 is damaged, and line 6 emits in several places",
        ),
    ];
    for (text, expected) in cases {
        let e = read_listing(text).map(|_| ()).unwrap_err();
        assert_eq!(e.to_string(), *expected, "{text:?}");
    }
}
