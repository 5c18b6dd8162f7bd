//! The heat of the listing (`/api/search/{id}/profile`'s `executions`): how often each
//! instruction of the original ran in a profiled search. Needs an imported ROM; skipped
//! (with a clear line) where there is none.

use crate::common;
use crate::common::serve_api::Server;

use sargon_explorer::api::{EnginesAnswer, ProfileAnswer, SearchBody};

const ITALIAN: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";

#[test]
fn the_profile_counts_every_instruction_by_address() {
    let test = "the_profile_counts_every_instruction_by_address";
    let server = Server::start(&[]);
    let (_, engines): (u16, EnginesAnswer) = server.get("/api/engines");
    if !engines.emulator.available {
        common::skip_for_want_of_rom(test, "the server has no ROM");
        return;
    }
    common::ran_with_rom(test);
    let s = server.search(&SearchBody {
        fen: ITALIAN.to_string(),
        engine: "emulator".to_string(),
        depth: 2,
        book: false,
        page: None,
    });
    assert_eq!(server.wait(s.id).state, "done");
    let (status, p): (u16, ProfileAnswer) = server.get(&format!("/api/search/{}/profile", s.id));
    assert_eq!(status, 200, "{p:?}");
    // Every instruction executed is counted once, at its address.
    let sum: u64 = p.executions.iter().map(|e| u64::from(e.count)).sum();
    assert_eq!(
        Some(sum),
        p.totals["instructions"].as_u64(),
        "{:?}",
        p.totals
    );
    assert!(p.executions.windows(2).all(|w| w[0].address < w[1].address));
    assert!(p.executions.iter().all(|e| e.count > 0));
    // A routine entered only by its calls: its first instruction ran once a call.
    let count_at = |address: u64| {
        p.executions
            .iter()
            .find(|e| u64::from(e.address) == address)
            .map_or(0, |e| e.count)
    };
    let rows = p.rows.as_array().unwrap();
    let calls = |name: &str| {
        let row = rows.iter().find(|r| r["routine"] == name).unwrap();
        (
            row["address"].as_u64().unwrap(),
            row["calls"].as_u64().unwrap(),
        )
    };
    let mut checked = 0;
    for row in rows {
        let name = row["routine"].as_str().unwrap();
        let (address, n) = calls(name);
        let ran = u64::from(count_at(address));
        if name == "INCHK1" {
            // INCHK ends by running on into INCHK1: its calls start there too.
            assert_eq!(ran, n + calls("INCHK").1, "{row}");
        } else {
            assert_eq!(ran, n, "{row}");
        }
        checked += 1;
    }
    assert!(checked > 10 && calls("POINTS").1 > 0, "{rows:?}");
}
