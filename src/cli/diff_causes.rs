//! Where to look for a likely cause of divergences (`sargon diff report`, the end of a
//! `sargon diff --keep-going` run): the original's code at the cause's hook point, listed
//! from the user's own imported ROM, and the port's function that implements it, as a
//! reference. Nothing of the original is stored: the lines are made at run time from the
//! import, and without one only the port's side is named.

use sargon_core::hooks::HookPoint;
use sargon_original::listing::{hook_addresses, listing_of};
use sargon_original::program::Program;
use sargon_original::rom::RomStore;
use sargon_port_links::PortLinks;
use sargon_referee::diff_run::report::Cause;

/// Instructions shown on each side of the hook point's.
const AROUND: usize = 3;

/// What the command knows to point at: the imported program, if any, and the port's links.
pub(crate) struct Places {
    program: Option<(Program, Vec<(u16, HookPoint)>)>,
    links: PortLinks,
}

impl Places {
    /// The places of the ROM the store would load by default (none when nothing, or more
    /// than one ROM without a default, is imported), read only when there are `causes` to
    /// place: reading and analysing the image is the slow part of a report.
    pub(crate) fn for_causes(store: &RomStore, causes: &[Cause]) -> Places {
        let program = if causes.is_empty() {
            None
        } else {
            store.load(None).ok().map(|rom| {
                let hooks = hook_addresses(&rom);
                (Program::of_rom(&rom), hooks)
            })
        };
        Places {
            program,
            links: if causes.is_empty() {
                PortLinks::default()
            } else {
                PortLinks::of_port()
            },
        }
    }

    /// The lines "where to look" for `cause`.
    pub(crate) fn lines(&self, cause: &Cause) -> Vec<String> {
        let Some(point) = cause.hook_point.as_deref().and_then(HookPoint::from_name) else {
            return Vec::new();
        };
        let Some((program, hooks)) = &self.program else {
            return self.port_by_routine(cause);
        };
        let Some(&(addr, _)) = hooks.iter().find(|(_, p)| *p == point) else {
            return self.port_by_routine(cause);
        };
        let Some((start, routine)) = program.routine_at(addr) else {
            return Vec::new();
        };
        let mut out = vec![format!(
            "where to look: the original at hook point {} ({addr:#06x} in {routine}), from your \
             imported ROM:",
            point.name()
        )];
        if let Ok(listing) = listing_of(program, hooks, routine) {
            let lines: Vec<&str> = listing.lines().collect();
            let marker = format!("<- hook {}", point.name());
            if let Some(at) = lines.iter().position(|l| l.ends_with(&marker)) {
                let from = at.saturating_sub(AROUND).max(1);
                let to = (at + AROUND + 1).min(lines.len());
                out.extend(lines[from..to].iter().map(|l| format!("  {l}")));
            }
        }
        // The port's function for the nearest label at or before the hook point that the
        // port cites, and for the routine itself.
        let sites = self.links.sites(program);
        let mut cited: Vec<String> = Vec::new();
        let labels = program
            .names
            .range(start..=addr)
            .rev()
            .flat_map(|(_, names)| names.iter());
        if let Some((label, at)) = labels.filter_map(|n| sites.get(n).map(|s| (n, s))).next() {
            cited.extend(at.iter().map(|c| format!("{label}: {}", c.place())));
        }
        if let Some(at) = sites.get(routine) {
            cited.extend(at.iter().map(|c| format!("{routine}: {}", c.place())));
        }
        cited.dedup();
        out.extend(port_lines(cited));
        out
    }

    /// Without an imported program: the port's functions that cite the cause's routine.
    fn port_by_routine(&self, cause: &Cause) -> Vec<String> {
        let routine = cause
            .routine
            .split([' ', '('])
            .next()
            .unwrap_or_default()
            .to_string();
        let cited = self
            .links
            .citations
            .iter()
            .filter(|c| c.label == routine)
            .map(|c| format!("{routine}: {}", c.place()))
            .collect();
        let mut out = vec![
            "where to look: import a ROM with its listing (sargon rom import) to see the \
             original's code at this hook point here"
                .to_string(),
        ];
        out.extend(port_lines(cited));
        out
    }
}

fn port_lines(cited: Vec<String>) -> Vec<String> {
    if cited.is_empty() {
        return Vec::new();
    }
    let mut out = vec!["the port's function, as a reference:".to_string()];
    out.extend(cited.into_iter().take(4).map(|c| format!("  {c}")));
    out
}
