//! The listing of a routine with, at each label, where the port implements it.

use sargon_core::hooks::HookPoint;
use sargon_original::listing;
use sargon_original::program::Program;

use super::links::PortLinks;

/// The listing of one routine or label with, under each label, the port's functions and
/// source lines that implement it (`; -> port FILE:LINE ITEM`), or `; -> port: not cited`.
pub fn port_listing_of(
    program: &Program,
    hooks: &[(u16, HookPoint)],
    links: &PortLinks,
    name: &str,
) -> Result<String, listing::ListingError> {
    let sites = links.sites(program);
    let notes = |label: &str| -> Vec<String> {
        match sites.get(label) {
            Some(sites) => sites
                .iter()
                .map(|c| {
                    let range = if c.through.is_some() {
                        format!(" ({})", c.written())
                    } else {
                        String::new()
                    };
                    format!("-> port {}{range}", c.place())
                })
                .collect(),
            None => vec!["-> port: not cited".to_string()],
        }
    };
    listing::listing_with_notes(program, hooks, &notes, name)
}
