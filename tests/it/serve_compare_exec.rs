//! Compare with another person's port (issue 37, item 5): `sargon serve --engine exec:CMD`
//! offers the port behind `exec:` to Compare; our own port there agrees with the original
//! event by event, a wrapper that alters one event of its trace is caught at that event,
//! and a stepping session opened at the divergence's index stands where the original's
//! event arises. Needs an imported ROM (Compare runs the original); skipped (with a clear
//! line) where there is none.

use crate::common;
use crate::common::serve_api::{our_port_exec, Server};

use sargon_explorer::api::{
    CompareAnswer, CompareBody, EnginesAnswer, ErrorAnswer, SearchBody, StepOpenBody, StepState,
};

const ITALIAN: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";

/// The line of our port's trace the wrapper alters (1-based): an `eval` event at ply 1
/// of the Italian to depth 2, its score byte made 0x01.
pub(crate) const ALTERED_LINE: u64 = 42;

/// Our port behind `exec:` with one event of its trace altered by a filter.
pub(crate) fn altered_exec() -> String {
    format!(
        r#"{} | awk 'NR=={ALTERED_LINE} {{ sub(/"score":[0-9]+/, "\"score\":1") }} 1'"#,
        our_port_exec()
    )
}

/// A server offering `engines`, or `None` (after the skip line) where it has no ROM.
fn server(test: &str, engines: &[&str]) -> Option<Server> {
    let args: Vec<&str> = engines.iter().flat_map(|e| ["--engine", e]).collect();
    let server = Server::start(&args);
    let (_, answer): (u16, EnginesAnswer) = server.get("/api/engines");
    if !answer.emulator.available {
        common::skip_for_want_of_rom(test, "Compare runs the original, and the server has no ROM");
        return None;
    }
    common::ran_with_rom(test);
    Some(server)
}

fn compare<T: serde::de::DeserializeOwned>(server: &Server, engine: &str) -> (u16, T) {
    server.post(
        "/api/compare",
        &CompareBody {
            engine: engine.to_string(),
            fen: ITALIAN.to_string(),
            depth: 2,
            book: false,
            job: None,
        },
    )
}

#[test]
fn compare_with_our_port_behind_exec_finds_no_divergence() {
    let test = "compare_with_our_port_behind_exec_finds_no_divergence";
    let exec = our_port_exec();
    let Some(server) = server(test, &[&exec]) else {
        return;
    };
    let (status, v): (u16, serde_json::Value) = compare(&server, &exec);
    assert_eq!(status, 200, "{v}");
    let c: CompareAnswer = serde_json::from_value(v).unwrap();
    assert_eq!((c.divergences, c.divergence.as_ref()), (0, None), "{c:?}");
    assert!(c.events > 1000, "{c:?}");
    let other = c.port.as_ref().unwrap();
    assert_eq!(other.engine, exec);
    assert_eq!(other.best, c.emulator.as_ref().unwrap().best);
    // The original against itself, and an engine the server does not offer: refused.
    let (status, e): (u16, ErrorAnswer) = compare(&server, "emulator");
    assert_eq!(status, 400, "{e:?}");
    assert!(
        e.error
            .starts_with("Compare sets the original against another engine"),
        "{e:?}"
    );
    let (status, e): (u16, ErrorAnswer) = compare(&server, "exec:true");
    assert_eq!(status, 400, "{e:?}");
    assert!(e.error.contains("is not offered by this server"), "{e:?}");
}

#[test]
fn compare_catches_an_altered_event_and_the_step_view_stops_there() {
    let test = "compare_catches_an_altered_event_and_the_step_view_stops_there";
    let exec = altered_exec();
    let Some(server) = server(test, &[&exec]) else {
        return;
    };
    let (status, v): (u16, serde_json::Value) = compare(&server, &exec);
    assert_eq!(status, 200, "{v}");
    let c: CompareAnswer = serde_json::from_value(v).unwrap();
    assert_eq!(c.divergences, 1, "{c:?}");
    let d = c.divergence.as_ref().unwrap();
    assert_eq!(
        (d.index, c.events),
        (ALTERED_LINE - 1, ALTERED_LINE - 1),
        "{d:?}"
    );
    assert!(
        d.port.starts_with("eval 1 ") && d.port.ends_with(" : 01"),
        "{d:?}"
    );
    assert!(
        d.emulator.starts_with("eval 1 ") && !d.emulator.ends_with(" : 01"),
        "{d:?}"
    );
    assert_eq!(d.path.len(), 1, "{d:?}");
    assert_eq!(c.port.as_ref().unwrap().engine, exec);
    // The original's search, stepped to the divergence's event: that event arises there.
    let s = server.search(&SearchBody {
        fen: ITALIAN.to_string(),
        engine: "emulator".to_string(),
        depth: 2,
        book: false,
        page: None,
    });
    assert_eq!(server.wait(s.id).state, "done");
    let (status, v): (u16, serde_json::Value) = server.post(
        "/api/step",
        &StepOpenBody {
            search: s.id,
            event: Some(d.index),
            ..Default::default()
        },
    );
    assert_eq!(status, 200, "{v}");
    let at: StepState = serde_json::from_value(v).unwrap();
    assert!(at.events_before <= d.index, "{}", at.events_before);
    let k = (d.index - at.events_before) as usize;
    assert_eq!(
        at.event_texts.get(k),
        Some(&d.emulator),
        "{:?}",
        at.event_texts
    );
}
