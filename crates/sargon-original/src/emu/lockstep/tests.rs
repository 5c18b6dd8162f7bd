//! Tests of the lock-step check on a small hand-written program, faults injected.

use iz80::{Cpu, Reg16};

use super::stepper::final_writes;
use super::*;
use crate::emu::emulator::SENTINEL;
use crate::z80::TimingCache;

/// A small hand-written program (not Sargon's): loads, 8-bit arithmetic that sets
/// every documented flag one way or the other, a store, a push and a pop, EXX, a loop with DJNZ,
/// an indexed store and a block copy; it ends at the sentinel.
const PROGRAM: &[u8] = &[
    0x21, 0x00, 0x80, // LD HL,8000h
    0x3e, 0x7f, //       LD A,7Fh
    0xc6, 0x01, //       ADD A,1     (overflow, half carry, sign)
    0x77, //             LD (HL),A
    0xe5, //             PUSH HL
    0xd1, //             POP DE
    0xd9, //             EXX
    0x06, 0x03, //       LD B,3
    0x3d, //             DEC A       (loop)
    0x10, 0xfd, //       DJNZ loop
    0xdd, 0x21, 0x10, 0x80, // LD IX,8010h
    0xdd, 0x77, 0x02, // LD (IX+2),A
    0x21, 0x00, 0x80, // LD HL,8000h
    0x11, 0x20, 0x80, // LD DE,8020h
    0x01, 0x04, 0x00, // LD BC,4
    0xed, 0xb0, //       LDIR
    0xc9, //             RET (to the sentinel)
];

/// Run PROGRAM on both cores; the check's instruction count, disagreement and number
/// of T-state mismatches.
fn run(fault: Option<(u64, Fault)>) -> (u64, Option<Box<Disagreement>>, usize) {
    let options = Options {
        fault,
        ..Options::default()
    };
    run_with(Lockstep::new(options, None))
}

#[test]
fn both_cores_agree_on_a_small_program() {
    let (n, d, cycles) = run(None);
    assert!(d.is_none(), "unexpected disagreement: {}", d.unwrap());
    // 14 instructions outside the loop, 3 DECs and 3 DJNZs, 4 LDIR steps.
    assert_eq!(n, 14 + 6 + 4);
    assert_eq!(cycles, 0, "the documented table and z80emu agree here");
}

#[test]
fn a_wrong_register_is_named() {
    // Instruction 0 is LD HL,8000h.
    let (n, d, _) = run(Some((
        0,
        Fault::Register {
            name: "HL",
            xor: 0x0100,
        },
    )));
    let d = d.expect("caught");
    assert_eq!(n, 1);
    assert_eq!(d.index, 0);
    assert_eq!(d.items, vec![Item::Register("HL")]);
    assert_eq!(d.iz80.hl ^ d.second.hl, 0x0100);
    assert!(d.to_string().contains("differs: HL"), "{d}");
}

#[test]
fn a_wrong_flag_is_named() {
    // Instruction 2 is ADD A,1: flip Z on the second core.
    let (_, d, _) = run(Some((2, Fault::Flags(0x40))));
    let d = d.expect("caught");
    assert_eq!(d.index, 2);
    assert_eq!(d.pc, 5);
    assert_eq!(d.items, vec![Item::Flags { differing: 0x40 }]);
    assert!(d.to_string().contains("differs: flags Z"), "{d}");
}

#[test]
fn an_undocumented_flag_counts_only_when_asked() {
    // Bits 5 and 3 flipped, masked by default: no disagreement (the next instruction
    // that sets the flags, DEC A in the loop, brings the cores together again).
    let (_, d, _) = run(Some((2, Fault::Flags(0x28))));
    assert!(d.is_none());
    let mut ls = Lockstep::new(
        Options {
            undocumented_flags: true,
            ..Options::default()
        },
        None,
    );
    assert_eq!(ls.flag_mask, 0xff);
    ls.options.fault = Some((2, Fault::Flags(0x28)));
    let (_, d, _) = run_with(ls);
    assert_eq!(
        d.expect("caught").items,
        vec![Item::Flags { differing: 0x28 }]
    );
}

fn run_with(mut ls: Lockstep) -> (u64, Option<Box<Disagreement>>, usize) {
    let mut mem = vec![0u8; 0x10000];
    mem[..PROGRAM.len()].copy_from_slice(PROGRAM);
    mem[0x9000] = (SENTINEL & 0xff) as u8;
    mem[0x9001] = (SENTINEL >> 8) as u8;
    let mut cpu = Cpu::new_z80();
    cpu.registers().set16(Reg16::SP, 0x9000);
    ls.load(&cpu, &mem);
    let mut timing = TimingCache::new();
    while cpu.immutable_registers().pc() != SENTINEL {
        if ls.step("TEST", &mut cpu, &mut mem, &mut timing).is_err() {
            break;
        }
        assert!(ls.index < 100, "the test program runs away");
    }
    let c = ls.take_check();
    (c.instructions, c.disagreement, c.cycle_mismatches.len())
}

#[test]
fn a_wrong_memory_write_is_named() {
    // Instruction 3 is LD (HL),A, which writes 80h to 8000h.
    let (_, d, _) = run(Some((3, Fault::Write { xor: 0x01 })));
    let d = d.expect("caught");
    assert_eq!(d.items, vec![Item::Write { address: 0x8000 }]);
    assert_eq!(d.iz80_writes, vec![(0x8000, 0x80)]);
    assert_eq!(d.second_writes, vec![(0x8000, 0x81)]);
    assert!(d.to_string().contains("write to 8000"), "{d}");
}

#[test]
fn writes_compare_by_address_not_order() {
    assert_eq!(
        final_writes(&[(0x10, 1), (0x0f, 2), (0x10, 3)]),
        vec![(0x0f, 2), (0x10, 3)]
    );
}
