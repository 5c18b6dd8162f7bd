//! Assembly errors as types: the cause of each, for instructions, macros, directives and lines.

use super::*;

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
