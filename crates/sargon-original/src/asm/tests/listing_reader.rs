//! Reading an assembler's listing: records, symbols, and what a damaged listing gets.

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
