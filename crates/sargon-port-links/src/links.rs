//! What the port's comments say about the original ([`PortLinks`]), and what they cover of the image.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use sargon_original::program::Program;

/// How a label is cited (see the module documentation).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Form {
    /// `// LABEL` or `// LABEL: ...` on the line that implements it.
    Comment,
    /// The doc comment of the function or enum variant that implements it begins with it.
    Doc,
}

/// A label the port says it implements, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Citation {
    /// The label as cited (the first of a range).
    pub label: String,
    /// For a range `FROM..THROUGH`, the last label: the citation covers every label of
    /// the image from `label` through this one.
    pub through: Option<String>,
    /// The source file, from the workspace root (`crates/sargon-port/src/faithful/search.rs`).
    pub file: String,
    /// The line of the comment (1-based).
    pub line: usize,
    /// The function around the comment (`Machine::fndmov`), or the item a doc comment
    /// documents (`Machine::path`, `Fm::Fm35`).
    pub item: String,
    /// How the label is cited.
    pub form: Form,
}

impl Citation {
    /// The label (group) as written: `PT5` or `PT5..PT25`.
    pub fn written(&self) -> String {
        match &self.through {
            Some(t) => format!("{}..{t}", self.label),
            None => self.label.clone(),
        }
    }

    /// `src/port/search.rs:123 Machine::fndmov`.
    pub fn place(&self) -> String {
        format!("{}:{} {}", self.file, self.line, self.item)
    }
}

/// A name of the original the port's doc comments use, or that it cites: it must be a
/// symbol of the image.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct NameUse {
    /// The name.
    pub name: String,
    /// The file that uses it.
    pub file: String,
    /// The line (from 1).
    pub line: usize,
}

/// Everything the port's comments say about the original.
#[derive(Clone, Debug, Default)]
pub struct PortLinks {
    /// The labels the port implements, in file and line order.
    pub citations: Vec<Citation>,
    /// The upper-case names of its doc comments (citations not included).
    pub mentions: Vec<NameUse>,
    /// The names of the port's own `const` and `static` items.
    pub constants: BTreeSet<String>,
}

impl PortLinks {
    /// The names the port cites or mentions that are not symbols of the image (`symbols`:
    /// by upper-case name) nor constants of the port, in file and line order.
    pub fn unknown(&self, symbols: &BTreeMap<String, u16>) -> Vec<NameUse> {
        let cited = self.citations.iter().flat_map(|c| {
            std::iter::once(&c.label)
                .chain(&c.through)
                .map(move |name| NameUse {
                    name: name.clone(),
                    file: c.file.clone(),
                    line: c.line,
                })
        });
        let all: BTreeSet<NameUse> = cited
            .chain(self.mentions.iter().cloned())
            .filter(|u| !symbols.contains_key(&u.name) && !self.constants.contains(&u.name))
            .collect();
        let mut out: Vec<NameUse> = all.into_iter().collect();
        out.sort_by(|a, b| (&a.file, a.line, &a.name).cmp(&(&b.file, b.line, &b.name)));
        out
    }

    /// Where the port implements each symbol of `program`, by symbol name: ranges are
    /// spread over every symbol of the image from their first label through their last.
    /// A name the image lacks stays under its own name.
    pub fn sites(&self, program: &Program) -> BTreeMap<String, Vec<&Citation>> {
        let mut sites: BTreeMap<String, Vec<&Citation>> = BTreeMap::new();
        for c in &self.citations {
            let range = c
                .through
                .as_ref()
                .and_then(|t| Some((program.lookup(&c.label)?, program.lookup(t)?)));
            match range {
                Some((from, through)) if from <= through => {
                    for names in program.names.range(from..=through).map(|(_, n)| n) {
                        for n in names {
                            sites.entry(n.clone()).or_default().push(c);
                        }
                    }
                }
                _ => {
                    for name in std::iter::once(&c.label).chain(&c.through) {
                        sites.entry(name.clone()).or_default().push(c);
                    }
                }
            }
        }
        sites
    }

    /// Which routines and code labels of `program` the port cites.
    pub fn coverage(&self, program: &Program) -> Coverage {
        let sites = self.sites(program);
        let mut by_routine: BTreeMap<u16, RoutineCoverage> = program
            .routines
            .iter()
            .map(|(&addr, name)| {
                let implemented_by = sites
                    .get(name)
                    .map(|v| v.iter().map(|c| (*c).clone()).collect())
                    .unwrap_or_default();
                let rc = RoutineCoverage {
                    routine: name.clone(),
                    addr,
                    labels: Vec::new(),
                    implemented_by,
                };
                (addr, rc)
            })
            .collect();
        let mut seen = BTreeSet::new();
        for block in program.code_blocks().values() {
            for ins in block {
                if !seen.insert(ins.addr) {
                    continue;
                }
                let Some((r, _)) = program.routine_at(ins.addr) else {
                    continue;
                };
                let rc = by_routine.get_mut(&r).expect("a routine of the program");
                for name in program.names_at(ins.addr) {
                    rc.labels.push((name.clone(), sites.contains_key(name)));
                }
            }
        }
        let mut routines: Vec<RoutineCoverage> = by_routine.into_values().collect();
        for rc in &mut routines {
            // The routine's own name first, then its labels by address (as found).
            rc.labels.sort_by_key(|(n, _)| *n != rc.routine);
        }
        Coverage {
            routines,
            unknown: self.unknown(&program.symbols),
        }
    }
}

/// What [`PortLinks::coverage`] finds for one routine of the image.
#[derive(Clone, Debug)]
pub struct RoutineCoverage {
    /// The routine's name.
    pub routine: String,
    /// Its entry address.
    pub addr: u16,
    /// The symbols at instructions of the routine's code (its name included), and whether
    /// the port cites each.
    pub labels: Vec<(String, bool)>,
    /// The citations of the routine's own name.
    pub implemented_by: Vec<Citation>,
}

impl RoutineCoverage {
    /// How many of the routine's labels the port cites.
    pub fn cited(&self) -> usize {
        self.labels.iter().filter(|(_, c)| *c).count()
    }
}

/// Which routines and code labels of an image the port cites.
#[derive(Clone, Debug)]
pub struct Coverage {
    /// In address order.
    pub routines: Vec<RoutineCoverage>,
    /// Names the port cites or mentions that the image lacks.
    pub unknown: Vec<NameUse>,
}

impl Coverage {
    /// The report `sargon listing --port` prints.
    pub fn report(&self) -> String {
        let mut out = String::new();
        let routines_cited = self
            .routines
            .iter()
            .filter(|r| !r.implemented_by.is_empty())
            .count();
        let labels: usize = self.routines.iter().map(|r| r.labels.len()).sum();
        let cited: usize = self.routines.iter().map(RoutineCoverage::cited).sum();
        let _ = writeln!(
            out,
            "; the port's links to the image's code (docs/port.md, \"Links to the original\"):"
        );
        let _ = writeln!(
            out,
            "; {routines_cited} of {} routines and {cited} of {labels} code labels cited by the port",
            self.routines.len()
        );
        for r in &self.routines {
            let _ = write!(
                out,
                "\n{:<8} {:#06x}  {:>3}/{:<3} labels",
                r.routine,
                r.addr,
                r.cited(),
                r.labels.len()
            );
            if r.implemented_by.is_empty() {
                out.push_str("  (routine not cited)");
            }
            out.push('\n');
            for c in &r.implemented_by {
                let _ = writeln!(out, "  ported by {}", c.place());
            }
            let missing: Vec<&str> = r
                .labels
                .iter()
                .filter(|(_, c)| !c)
                .map(|(n, _)| n.as_str())
                .collect();
            if !missing.is_empty() && missing.len() < r.labels.len() {
                let _ = writeln!(out, "  not cited: {}", missing.join(", "));
            }
        }
        if self.unknown.is_empty() {
            let _ = writeln!(
                out,
                "\n; every name the port cites is a symbol of the image"
            );
        } else {
            let _ = writeln!(out, "\n; cited by the port but not symbols of the image:");
            for u in &self.unknown {
                let _ = writeln!(out, ";   {} at {}:{}", u.name, u.file, u.line);
            }
        }
        out
    }
}
