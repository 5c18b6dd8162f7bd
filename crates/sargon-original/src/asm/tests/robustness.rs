//! Robustness: garbage never panics, and a large source assembles fast.

use super::*;

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
