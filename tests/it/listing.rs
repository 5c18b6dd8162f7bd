//! The Z80 decoder (`sargon_original::z80`), Sargon's program map
//! (`sargon_original::program`) and `sargon listing`.
//!
//! The disassembler is tested on the project's own Z80 programs: every instruction of
//! `z80/asm-selftest.asm` must disassemble to text that the project's assembler turns back
//! into the same bytes, and the T-states of a table of instructions, written by hand from
//! Zilog's Z80 CPU User Manual, must match. `iz80` cross-checks instruction lengths and the
//! timings it models correctly. The listing of the imported ROM is checked for structure
//! only (labels, hook markers, symbolic operands, the port's sites beside the labels): nothing
//! of Sargon is stored here.

use crate::common;

use std::path::Path;

use iz80::{Cpu, Machine, PlainMachine, Reg8};
use sargon_original::asm;
use sargon_original::program::{self, Program};
use sargon_original::z80::{self, Flow, Timing};

fn selftest() -> (String, asm::Assembly) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("z80/asm-selftest.asm");
    let source = std::fs::read_to_string(&path).expect("z80/asm-selftest.asm");
    let a = asm::assemble(&source).expect("the self-test assembles");
    (source, a)
}

/// Directives and the self-test's macros: lines that are not one or more instructions.
fn is_data_line(line: &str) -> bool {
    let mut words = line.split_whitespace();
    let mut first = words.next().unwrap_or("").to_ascii_uppercase();
    // A label in column 1 (with or without colon) comes first.
    if !line.starts_with(char::is_whitespace) {
        first = words.next().unwrap_or("").to_ascii_uppercase();
    }
    matches!(
        first.as_str(),
        "DB" | "DEFB" | "DEFM" | "DW" | "DEFW" | "DS" | "DEFS"
    )
}

/// Every instruction of the self-test, with the source line it comes from.
fn selftest_instructions() -> Vec<(String, z80::Instruction)> {
    let (source, a) = selftest();
    let lines: Vec<&str> = source.lines().collect();
    let mut out = Vec::new();
    for (line, addr, bytes) in &a.lines {
        let text = lines[line - 1];
        if is_data_line(text) {
            continue;
        }
        // A macro call's line holds several instructions.
        let end = u32::from(*addr) + bytes.len() as u32;
        let ins = z80::sweep(&a.memory, *addr, end);
        let covered: usize = ins.iter().map(|i| i.bytes.len()).sum();
        assert_eq!(covered, bytes.len(), "line {line} `{}`", text.trim());
        for i in ins {
            out.push((text.trim().to_string(), i));
        }
    }
    out
}

#[test]
fn selftest_round_trips_through_the_assembler() {
    let all = selftest_instructions();
    assert!(all.len() > 270, "only {} instructions", all.len());
    for (src, ins) in &all {
        assert!(!ins.is_data(), "`{src}` decoded as data: {}", ins.text());
        let text = ins.text();
        let program = format!(
            "        ORG     {}\n        {text}\n",
            z80::hex_number(ins.addr.into(), 4)
        );
        let back = asm::assemble(&program).unwrap_or_else(|e| {
            panic!("`{src}` disassembled as `{text}`, which does not assemble: {e}")
        });
        let at = ins.addr as usize;
        assert_eq!(
            &back.memory[at..at + ins.bytes.len()],
            ins.bytes.as_slice(),
            "`{src}` -> `{text}` reassembles to other bytes"
        );
    }
    eprintln!("{} self-test instructions round-trip", all.len());
}

/// T-states from the Z80 CPU User Manual's instruction descriptions, written by hand:
/// (bytes, T-states; "a/b" for conditional instructions: condition false / true, or for
/// the block repeats: last iteration / repeating).
const MANUAL_TIMINGS: &[(&[u8], &str)] = &[
    (&[0x00], "4"),                    // NOP
    (&[0x41], "4"),                    // LD B,C
    (&[0x7E], "7"),                    // LD A,(HL)
    (&[0x70], "7"),                    // LD (HL),B
    (&[0x3E, 0x01], "7"),              // LD A,n
    (&[0x36, 0x01], "10"),             // LD (HL),n
    (&[0x0A], "7"),                    // LD A,(BC)
    (&[0x3A, 0x00, 0x10], "13"),       // LD A,(nn)
    (&[0x32, 0x00, 0x10], "13"),       // LD (nn),A
    (&[0xED, 0x57], "9"),              // LD A,I
    (&[0xED, 0x5F], "9"),              // LD A,R
    (&[0x01, 0x00, 0x10], "10"),       // LD BC,nn
    (&[0x2A, 0x00, 0x10], "16"),       // LD HL,(nn)
    (&[0x22, 0x00, 0x10], "16"),       // LD (nn),HL
    (&[0xED, 0x4B, 0x00, 0x10], "20"), // LD BC,(nn)
    (&[0xED, 0x73, 0x00, 0x10], "20"), // LD (nn),SP
    (&[0xF9], "6"),                    // LD SP,HL
    (&[0xC5], "11"),                   // PUSH BC
    (&[0xF1], "10"),                   // POP AF
    (&[0xDD, 0x7E, 0x05], "19"),       // LD A,(IX+d)
    (&[0xFD, 0x77, 0xFB], "19"),       // LD (IY+d),A
    (&[0xDD, 0x36, 0x01, 0x02], "19"), // LD (IX+d),n
    (&[0xDD, 0x21, 0x00, 0x10], "14"), // LD IX,nn
    (&[0xFD, 0x2A, 0x00, 0x10], "20"), // LD IY,(nn)
    (&[0xDD, 0x22, 0x00, 0x10], "20"), // LD (nn),IX
    (&[0xDD, 0xF9], "10"),             // LD SP,IX
    (&[0xDD, 0xE5], "15"),             // PUSH IX
    (&[0xFD, 0xE1], "14"),             // POP IY
    (&[0xEB], "4"),                    // EX DE,HL
    (&[0x08], "4"),                    // EX AF,AF'
    (&[0xD9], "4"),                    // EXX
    (&[0xE3], "19"),                   // EX (SP),HL
    (&[0xDD, 0xE3], "23"),             // EX (SP),IX
    (&[0xED, 0xA0], "16"),             // LDI
    (&[0xED, 0xB0], "16/21"),          // LDIR
    (&[0xED, 0xB1], "16/21"),          // CPIR
    (&[0xED, 0xB8], "16/21"),          // LDDR
    (&[0x80], "4"),                    // ADD A,B
    (&[0x86], "7"),                    // ADD A,(HL)
    (&[0xC6, 0x01], "7"),              // ADD A,n
    (&[0xDD, 0x86, 0x01], "19"),       // ADD A,(IX+d)
    (&[0xFD, 0xBE, 0x01], "19"),       // CP (IY+d)
    (&[0x3C], "4"),                    // INC A
    (&[0x34], "11"),                   // INC (HL)
    (&[0xDD, 0x34, 0x01], "23"),       // INC (IX+d)
    (&[0xFD, 0x35, 0x01], "23"),       // DEC (IY+d)
    (&[0x27], "4"),                    // DAA
    (&[0xED, 0x44], "8"),              // NEG
    (&[0x09], "11"),                   // ADD HL,BC
    (&[0xED, 0x4A], "15"),             // ADC HL,BC
    (&[0xED, 0x52], "15"),             // SBC HL,DE
    (&[0xDD, 0x09], "15"),             // ADD IX,BC
    (&[0x03], "6"),                    // INC BC
    (&[0xDD, 0x23], "10"),             // INC IX
    (&[0xFD, 0x2B], "10"),             // DEC IY
    (&[0x07], "4"),                    // RLCA
    (&[0xCB, 0x00], "8"),              // RLC B
    (&[0xCB, 0x06], "15"),             // RLC (HL)
    (&[0xDD, 0xCB, 0x01, 0x06], "23"), // RLC (IX+d)
    (&[0xED, 0x6F], "18"),             // RLD
    (&[0xCB, 0x47], "8"),              // BIT 0,A
    (&[0xCB, 0x46], "12"),             // BIT 0,(HL)
    (&[0xFD, 0xCB, 0x02, 0x46], "20"), // BIT 0,(IY+d)
    (&[0xCB, 0xC7], "8"),              // SET 0,A
    (&[0xCB, 0xC6], "15"),             // SET 0,(HL)
    (&[0xDD, 0xCB, 0x01, 0x86], "23"), // RES 0,(IX+d)
    (&[0xC3, 0x00, 0x10], "10"),       // JP nn
    (&[0xC2, 0x00, 0x10], "10/10"),    // JP NZ,nn
    (&[0x18, 0x00], "12"),             // JR e
    (&[0x38, 0x00], "7/12"),           // JR C,e
    (&[0xE9], "4"),                    // JP (HL)
    (&[0xDD, 0xE9], "8"),              // JP (IX)
    (&[0x10, 0x00], "8/13"),           // DJNZ e
    (&[0xCD, 0x00, 0x10], "17"),       // CALL nn
    (&[0xC4, 0x00, 0x10], "10/17"),    // CALL NZ,nn
    (&[0xC9], "10"),                   // RET
    (&[0xC8], "5/11"),                 // RET Z
    (&[0xED, 0x4D], "14"),             // RETI
    (&[0xED, 0x45], "14"),             // RETN
    (&[0xFF], "11"),                   // RST 38H
    (&[0xDB, 0x01], "11"),             // IN A,(n)
    (&[0xED, 0x40], "12"),             // IN B,(C)
    (&[0xD3, 0x01], "11"),             // OUT (n),A
    (&[0xED, 0xA3], "16"),             // OUTI
    (&[0xED, 0xB3], "16/21"),          // OTIR
    (&[0xF3], "4"),                    // DI
    (&[0xED, 0x46], "8"),              // IM 0
    (&[0x76], "4"),                    // HALT
];

fn decode_at(bytes: &[u8], at: u16) -> z80::Instruction {
    let mut mem = vec![0u8; 0x10000];
    mem[at as usize..at as usize + bytes.len()].copy_from_slice(bytes);
    z80::decode(&mem, at)
}

#[test]
fn t_states_match_the_z80_manual() {
    for (bytes, want) in MANUAL_TIMINGS {
        let ins = decode_at(bytes, 0x4000);
        assert_eq!(ins.bytes.as_slice(), *bytes, "length of {}", ins.text());
        assert_eq!(ins.timing.to_string(), *want, "T-states of {}", ins.text());
    }
}

/// iz80 agrees on the length of every instruction that does not jump, and on the T-states
/// of the instructions it times as the manual does: all but JP cc (which it counts 7 when
/// not taken and 12 when taken, the manual 10 either way), JR cc not taken (8, the manual
/// 7) and the DD/FD-prefixed ones (for which it leaves out the prefix's cost, so it never
/// counts more than the manual).
#[test]
fn iz80_cross_checks_lengths_and_timings() {
    let mut timed = 0;
    for (src, ins) in selftest_instructions() {
        let prefixed = matches!(ins.bytes[0], 0xDD | 0xFD);
        let jp_cc = matches!(ins.flow, Flow::CondJump(_)) && ins.mnemonic == "JP";
        let jr_cc = matches!(ins.flow, Flow::CondJump(_)) && ins.mnemonic == "JR";
        if jp_cc
            || matches!(
                ins.mnemonic,
                "HALT" | "IN" | "INI" | "IND" | "INIR" | "INDR" | "OUTI" | "OUTD" | "OTIR" | "OTDR"
            )
        {
            continue;
        }
        // Run it with every flag clear and with every flag set: a conditional instruction
        // then both fails and holds its condition (or, for the block repeats, stops / goes on
        // with BC = 1 / 2).
        let mut seen = Vec::new();
        for (flags, bc) in [(0x00u8, 1u16), (0xFF, 2)] {
            let mut m2 = PlainMachine::new();
            for (k, b) in ins.bytes.iter().enumerate() {
                m2.poke(ins.addr.wrapping_add(k as u16), *b);
            }
            let mut cpu = Cpu::new_z80();
            let r = cpu.registers();
            r.set_pc(ins.addr);
            r.set8(Reg8::F, flags);
            r.set16(iz80::Reg16::BC, bc);
            r.set16(iz80::Reg16::SP, 0x8000);
            r.set8(Reg8::B, bc as u8);
            cpu.execute_instruction(&mut m2);
            if ins.flow == Flow::Next {
                assert_eq!(
                    cpu.registers().pc(),
                    ins.next(),
                    "iz80 and we disagree on the length of `{src}`"
                );
            }
            seen.push(cpu.cycle_count() as u8);
        }
        if jr_cc {
            // iz80 counts a JR cc not taken as 8 (DJNZ's figure), the manual 7.
            assert!(seen.iter().all(|&s| s == 8 || s == 12), "`{src}`: {seen:?}");
            continue;
        }
        if prefixed {
            // iz80 leaves the prefix's cost out: never more than the manual.
            assert!(
                seen.iter().all(|&s| s <= ins.timing.t_states(true)),
                "`{src}`"
            );
            continue;
        }
        match ins.timing {
            Timing::Fixed(t) => assert!(
                seen.iter().all(|&s| s == t),
                "`{src}` ({}): iz80 {seen:?}, manual {t}",
                ins.text()
            ),
            Timing::Cond { not_taken, taken } => {
                for s in &seen {
                    assert!(
                        *s == not_taken || *s == taken,
                        "`{src}` ({}): iz80 {seen:?}, manual {not_taken}/{taken}",
                        ins.text()
                    );
                }
            }
        }
        timed += 1;
    }
    assert!(timed > 150, "only {timed} instructions timed");
}

#[test]
fn listing_of_fndmov_marks_hooks_and_names_operands() {
    let Some(rom) = common::rom("listing_of_fndmov_marks_hooks_and_names_operands") else {
        return;
    };
    let hooks = sargon_original::listing::hook_addresses(&rom);
    assert_eq!(hooks.len(), 8, "the harness resolves every hook point");
    let program = Program::of_rom(&rom);
    let text = sargon_original::listing::listing_of(&program, &hooks, "fndmov").expect("FNDMOV");
    let fndmov = rom.symbol("FNDMOV").unwrap();
    assert!(text.lines().any(|l| l == "FNDMOV:"), "label line");
    // The instruction line at each hook address inside FNDMOV carries its marker.
    let code = program.extent(fndmov);
    let mut marked = 0;
    for (addr, point) in &hooks {
        let inside = code.iter().any(|i| i.addr == *addr);
        let prefix = format!("  {addr:04X}  ");
        let line = text.lines().find(|l| l.starts_with(&prefix));
        if inside {
            let line = line.unwrap_or_else(|| panic!("no line at {addr:04X}"));
            assert!(
                line.ends_with(&format!("<- hook {}", point.name())),
                "{} not marked: {line}",
                point.name()
            );
            marked += 1;
        } else {
            assert!(line.is_none());
        }
    }
    assert!(
        marked >= 4,
        "FNDMOV holds the movegen.done and search.* points"
    );
    // Symbolic operands: calls by name, memory operands by name, T-states on each line.
    for call in ["GENMOV", "POINTS", "Z,BOOK"].map(|r| format!("CALL {r}")) {
        assert!(
            text.lines().any(|l| l.contains(&call)),
            "`{call}` does not appear"
        );
    }
    assert!(text.contains("(NPLY)"), "a memory operand by name");
    assert!(
        text.lines()
            .any(|l| l.trim_end().ends_with("7/12") || l.contains(" 7/12 ")),
        "conditional timings shown as not-taken/taken"
    );
    // Index displacements against the table symbols, somewhere in the program.
    let all = sargon_original::listing::full_listing(&program, &hooks);
    assert!(all.contains("(IX+BOARD)"), "(IX+BOARD) in the full listing");
    // An unknown name is refused with close names.
    let err = sargon_original::listing::listing_of(&program, &hooks, "FNDMOVE").unwrap_err();
    assert!(err.to_string().contains("FNDMOV"), "{err}");
    // A data symbol is not code.
    assert!(sargon_original::listing::listing_of(&program, &hooks, "BOARDA").is_err());
}

#[test]
fn routines_are_the_call_targets_and_cover_the_search() {
    let Some(rom) = common::rom("routines_are_the_call_targets_and_cover_the_search") else {
        return;
    };
    let program = Program::of_rom(&rom);
    for r in [
        "FNDMOV", "GENMOV", "POINTS", "PATH", "ATTACK", "XCHNG", "PNCK", "BOOK",
    ] {
        let a = rom.symbol(r).unwrap();
        assert_eq!(program.routines.get(&a).map(String::as_str), Some(r));
    }
    // Local labels belong to their routine.
    let fm37 = rom.symbol("FM37").unwrap();
    assert_eq!(program.routine_at(fm37).map(|r| r.1), Some("FNDMOV"));
    assert!(!program.routines.contains_key(&fm37));
    // Every hook point lies in some routine's extent.
    let blocks = program.code_blocks();
    for (addr, p) in sargon_original::listing::hook_addresses(&rom) {
        assert!(
            program::block_containing(&blocks, addr).is_some(),
            "{} outside the code",
            p.name()
        );
    }
}

fn sargon(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sargon"))
        .args(args)
        .output()
        .expect("sargon runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "sargon {args:?}: {stderr}");
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// `sargon listing --port`, run as a command: under the labels of a routine, the port's
/// sites; without a routine, which routines and labels the port cites: what the library
/// `sargon_port_links` makes. (That the sites point at the port's lines is checked by its
/// unit test `listing_with_the_port_shows_where_each_label_is_ported`.)
#[test]
fn listing_with_the_port_prints_sites_and_coverage() {
    let Some(rom) = common::rom("listing_with_the_port_prints_sites_and_coverage") else {
        return;
    };
    let out = sargon(&["listing", "fndmov", "--port"]);
    assert!(
        out.contains("FNDMOV:\n  ; -> port crates/sargon-port/src/"),
        "{out}"
    );
    let coverage = sargon(&["listing", "--port"]);
    assert!(coverage.contains("routines and"), "{coverage}");
    let fndmov = coverage
        .split("\n\n")
        .find(|b| b.starts_with("FNDMOV "))
        .expect("a FNDMOV entry");
    assert!(
        fndmov.contains("ported by crates/sargon-port/src/"),
        "{fndmov}"
    );
    assert!(
        coverage.contains("(routine not cited)"),
        "the port leaves the I/O out"
    );
    // The command prints the library's text (the imported ROM is the verified one).
    let hooks = sargon_original::listing::hook_addresses(&rom);
    let program = Program::of_rom(&rom);
    let links = sargon_port_links::PortLinks::of_port();
    let listing = sargon_port_links::port_listing_of(&program, &hooks, &links, "fndmov");
    assert_eq!(out, listing.expect("FNDMOV"));
    assert_eq!(coverage, links.coverage(&program).report());
}
