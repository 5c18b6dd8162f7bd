//! Coverage of the search code by the import's check (issue 21 item 2): the verification
//! set runs the search code, and every flipped branch and changed comparison is refused.

use crate::common;

use common::source_edit::{instruction_tokens, line_of_label};

use std::path::Path;

use sargon_engines::engines::OpenError;
use sargon_original::emu::Emulator;
use sargon_original::rom::{fingerprint, RomStore};
use sargon_referee::behaviour;

use super::copies::{stored_source, with_line_changed, workspace};
use super::tables::known_rom;

/// Thresholds the import's verification set must reach over the routines a search can
/// run: `sargon rom coverage --corpus verify`.
const MIN_INSTRUCTIONS_PERCENT: f64 = 99.0;
const MIN_DIRECTIONS_PERCENT: f64 = 95.0;

#[test]
fn the_verification_set_runs_the_search_code() {
    let test = "the_verification_set_runs_the_search_code";
    let Some(rom) = known_rom(test) else {
        return;
    };
    let cases = sargon_referee::verify::Scope::Quick.cases();
    let report = sargon_referee::verify::coverage(&rom, &cases, 2, &|_| {}).unwrap();
    let (instructions, directions) = (report.instructions(), report.directions());
    let pct = sargon_original::coverage::percent;
    eprintln!(
        "verification set: {} of {} instructions ({:.1}%), {} of {} branch directions ({:.1}%)",
        instructions.1,
        instructions.0,
        pct(instructions),
        directions.1,
        directions.0,
        pct(directions)
    );
    // Every routine the harness calls, and the ones the search is made of, are counted.
    let names: Vec<&str> = report.routines.iter().map(|r| r.name.as_str()).collect();
    for routine in [
        "FNDMOV", "ROYALT", "VALMOV", "CASTLE", "ENPSNT", "MPIECE", "POINTS",
    ] {
        assert!(names.contains(&routine), "{routine} missing from {names:?}");
    }
    assert!(instructions.0 > 1000, "{instructions:?}");
    assert!(
        pct(instructions) >= MIN_INSTRUCTIONS_PERCENT,
        "{instructions:?}"
    );
    assert!(pct(directions) >= MIN_DIRECTIONS_PERCENT, "{directions:?}");
    // The tables the search depends on are read in full.
    for table in ["DPOINT", "DCOUNT", "PVALUE"] {
        let t = report.tables.iter().find(|t| t.name == table).unwrap();
        assert_eq!(t.read, t.bytes, "{table}: {t:?}");
    }
}

/// Conditions and their opposites, as the transcription writes them.
const OPPOSITE_CONDITIONS: [(&str, &str); 8] = [
    ("Z", "NZ"),
    ("NZ", "Z"),
    ("C", "NC"),
    ("NC", "C"),
    ("PE", "PO"),
    ("PO", "PE"),
    ("P", "M"),
    ("M", "P"),
];

/// One-line mutants of `routine` (up to the next routine's header): each conditional jump,
/// call or return with its condition reversed, and each `CP n` with `n` made `n + 1`.
/// Returns (line index, what changed, the changed source).
fn mutants_of(source: &str, routine: &str) -> Vec<(usize, String, String)> {
    let lines: Vec<String> = source.lines().map(str::to_string).collect();
    let start = line_of_label(&lines, routine);
    let mut out = Vec::new();
    for i in
        (start..lines.len()).take_while(|&i| i == start || !lines[i].trim_start().starts_with(";*"))
    {
        let t = instruction_tokens(&lines[i]);
        let Some(op) = t.first().map(|o| o.to_ascii_uppercase()) else {
            continue;
        };
        let operand = t.get(1).copied().unwrap_or("");
        let cond = operand.split(',').next().unwrap_or("").to_ascii_uppercase();
        let conditional = matches!(op.as_str(), "JR" | "JP" | "CALL" | "RET")
            && OPPOSITE_CONDITIONS.iter().any(|(c, _)| *c == cond)
            && (op == "RET" || operand.contains(','));
        if conditional {
            let (_, opposite) = OPPOSITE_CONDITIONS
                .iter()
                .find(|(c, _)| *c == cond)
                .unwrap();
            let changed = with_line_changed(source, i, |l| {
                let at = l.find(operand).unwrap();
                format!(
                    "{}{}{}",
                    &l[..at],
                    operand.replacen(&operand[..cond.len()], opposite, 1),
                    &l[at + operand.len()..]
                )
            });
            out.push((i, format!("{op} {cond} -> {opposite}"), changed));
        } else if op == "CP" {
            let value = if let Some(hex) = operand.strip_suffix(['H', 'h']) {
                u8::from_str_radix(hex, 16).ok()
            } else {
                operand.parse::<u8>().ok()
            };
            let Some(value) = value else { continue };
            let changed = with_line_changed(source, i, |l| {
                let at = l.find(operand).unwrap();
                format!(
                    "{}{}{}",
                    &l[..at],
                    value.wrapping_add(1),
                    &l[at + operand.len()..]
                )
            });
            out.push((
                i,
                format!("CP {value} -> {}", value.wrapping_add(1)),
                changed,
            ));
        }
    }
    out
}

#[test]
fn every_flipped_branch_and_changed_comparison_is_refused() {
    let test = "every_flipped_branch_and_changed_comparison_is_refused";
    let Some(source) = stored_source(test) else {
        return;
    };
    let ws = workspace();
    let cases = sargon_referee::verify::Scope::Quick.cases();
    let mut mutants = Vec::new();
    for routine in ["CASTLE", "ENPSNT", "MPIECE"] {
        let of_routine = mutants_of(&source, routine);
        assert!(
            of_routine.len() >= 5,
            "{routine}: {} mutants",
            of_routine.len()
        );
        mutants.extend(of_routine.into_iter().map(|m| (routine, m)));
    }
    let total = mutants.len();
    // Two workers, each with its own store, take the mutants in turn.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let verdicts: std::sync::Mutex<Vec<(usize, Option<String>)>> = Default::default();
    std::thread::scope(|scope| {
        for worker in 0..2 {
            let (ws, cases, mutants, next, verdicts) = (&ws, &cases, &mutants, &next, &verdicts);
            scope.spawn(move || {
                let store = RomStore::new(ws.store.join(format!("worker-{worker}")));
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((routine, (line, what, changed))) = mutants.get(i) else {
                        break;
                    };
                    let file = ws.write(&format!("mutant-{i}.asm"), changed);
                    let rom = store
                        .prepare(Path::new(&file), "mutant", true)
                        .unwrap_or_else(|e| panic!("{routine} line {line} ({what}) assembles: {e}"))
                        .rom;
                    // A change at a hook point is refused by the harness before anything runs.
                    if let Err(e) = Emulator::new(rom.clone()) {
                        eprintln!("{routine} line {line} ({what}): refused by the harness: {e}");
                        verdicts.lock().unwrap().push((i, None));
                        continue;
                    }
                    // Refused: the routine's code is not the known code where the search runs.
                    let differences = fingerprint::differences(&rom, None);
                    assert_eq!(
                        differences.search_code,
                        vec![routine.to_string()],
                        "{routine} line {line} ({what})"
                    );
                    // And the replay alone: the first known search that comes out different.
                    let make = || -> Result<Box<dyn sargon_core::engine::Engine + Send>, OpenError> {
                        Ok(Box::new(Emulator::new(rom.clone())?))
                    };
                    let caught = cases.iter().position(|case| {
                        !behaviour::check(std::slice::from_ref(case), &make, 1, &|_| {})
                            .unwrap()
                            .alike()
                    });
                    match caught {
                        Some(c) => eprintln!(
                            "{routine} line {line} ({what}): refused; search {} of the check differs ({})",
                            c + 1,
                            cases[c].label
                        ),
                        None => eprintln!(
                            "{routine} line {line} ({what}): refused by its code only; every search of the check agrees"
                        ),
                    }
                    let unseen = caught.is_none().then(|| format!("{routine} ({what})"));
                    verdicts.lock().unwrap().push((i, unseen));
                }
            });
        }
    });
    let mut verdicts = verdicts.into_inner().unwrap();
    verdicts.sort();
    assert_eq!(verdicts.len(), total, "every mutant judged");
    let unseen: Vec<String> = verdicts.into_iter().filter_map(|(_, u)| u).collect();
    let by_behaviour = total - unseen.len();
    eprintln!("{total} mutants, all refused; {by_behaviour} also by behaviour");
    // The only mutants no search can tell apart: bounds moved onto the board's border,
    // where no pawn can stand (square 69 is right of h5, square 29 right of h1), so no
    // position behaves differently; their code fingerprint refuses them.
    let equivalent = [
        "ENPSNT (CP 69 -> 70)",
        "MPIECE (CP 29 -> 30)",
        "MPIECE (CP 29 -> 30)",
    ];
    assert_eq!(
        unseen, equivalent,
        "mutants every search of the check agrees with, besides the equivalent ones"
    );
}
