//! The exact texts of the errors, the assembler's and the listing reader's: the CLI shows
//! these texts, so the typed errors keep them.

use super::*;

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
