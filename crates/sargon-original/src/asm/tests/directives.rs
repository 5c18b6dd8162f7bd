//! Directives and layout (`ORG`, `DS`, `DB`/`DW`), macros, and the forms of names and numbers.

use super::*;

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
