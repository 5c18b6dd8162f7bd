//! The explorer's stepping routes (`/api/step`): the original's search opened at its start,
//! at a node or at an event, stepped forward and back by instruction, over a CALL, out of
//! a routine, to the next event; sessions bounded in number and closed when idle or when
//! their page leaves. Needs an imported ROM; skipped (with a clear line) where there is
//! none.

use std::time::Duration;

use crate::common;
use crate::common::serve_api::Server;

use sargon_explorer::api::{
    EnginesAnswer, ErrorAnswer, SearchBody, StepClosed, StepMoveBody, StepOpenBody, StepState,
};

const ITALIAN: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";

/// A server whose stepping sessions close after `idle` seconds unused, or `None` (after the
/// skip line) where it has no ROM.
fn server(test: &str, idle: Option<u64>) -> Option<Server> {
    let idle = idle.map(|s| s.to_string());
    let env: Vec<(&str, &str)> = idle
        .iter()
        .map(|s| ("SARGON_STEP_IDLE_SECONDS", s.as_str()))
        .collect();
    let server = Server::start_with_env(&[], &env);
    let (_, engines): (u16, EnginesAnswer) = server.get("/api/engines");
    if !engines.emulator.available {
        common::skip_for_want_of_rom(test, "the server has no ROM");
        return None;
    }
    common::ran_with_rom(test);
    Some(server)
}

/// The original's search of ITALIAN to depth 2, finished: its number.
fn italian(server: &Server) -> u64 {
    let s = server.search(&SearchBody {
        fen: ITALIAN.to_string(),
        engine: "emulator".to_string(),
        depth: 2,
        book: false,
        page: None,
    });
    let done = server.wait(s.id);
    assert_eq!(done.state, "done", "{done:?}");
    s.id
}

fn open(server: &Server, body: &StepOpenBody) -> StepState {
    let (status, v): (u16, serde_json::Value) = server.post("/api/step", body);
    assert_eq!(status, 200, "{v}");
    serde_json::from_value(v).unwrap()
}

fn step(server: &Server, id: u64, by: &str, back: bool) -> StepState {
    let body = StepMoveBody {
        by: Some(by.to_string()),
        back,
        ..Default::default()
    };
    let (status, v): (u16, serde_json::Value) = server.post(&format!("/api/step/{id}/move"), &body);
    assert_eq!(status, 200, "{v}");
    serde_json::from_value(v).unwrap()
}

fn to_position(server: &Server, id: u64, position: u64) -> StepState {
    let body = StepMoveBody {
        position: Some(position),
        ..Default::default()
    };
    let (status, v): (u16, StepState) = server.post(&format!("/api/step/{id}/move"), &body);
    assert_eq!(status, 200);
    v
}

/// What must come back exactly after N forward and N back.
fn machine(s: &StepState) -> impl PartialEq + std::fmt::Debug + use<> {
    (
        s.position,
        s.registers.clone(),
        s.board.clone(),
        s.variables
            .iter()
            .map(|v| (v.name.clone(), v.value))
            .collect::<Vec<_>>(),
        s.call_stack.clone(),
        s.events_before,
    )
}

#[test]
fn the_original_steps_forward_and_back_over_http() {
    let Some(server) = server("the_original_steps_forward_and_back_over_http", None) else {
        return;
    };
    let search = italian(&server);
    let s = open(
        &server,
        &StepOpenBody {
            search,
            page: Some("p1".into()),
            ..Default::default()
        },
    );
    let id = s.id;
    assert_eq!((s.position, s.routine.as_deref()), (0, Some("FNDMOV")));
    assert!(s.call_stack.is_empty());
    assert!(s.length > 100_000, "{}", s.length);
    assert_eq!(s.events_before, 0);

    // N forward then N back, at several places.
    for place in [0, s.length / 3, s.length - 50] {
        for n in [1, 4, 25] {
            let before = to_position(&server, id, place);
            let mut ahead = before.clone();
            for _ in 0..n {
                ahead = step(&server, id, "instruction", false);
            }
            assert_eq!(ahead.position, place + n);
            let mut back = ahead.clone();
            for _ in 0..n {
                back = step(&server, id, "instruction", true);
            }
            assert_eq!(machine(&back), machine(&before), "{n} at {place}");
        }
    }

    // Over the first unconditional CALL after the middle: after it, the stack as before.
    let mut at = to_position(&server, id, s.length / 2);
    let unconditional_call =
        |s: &StepState| s.instruction.starts_with("CALL ") && !s.instruction.contains(',');
    while !unconditional_call(&at) {
        at = step(&server, id, "instruction", false);
    }
    let over = step(&server, id, "over", false);
    assert_eq!(over.registers.pc, at.registers.pc + 3, "{}", at.instruction);
    assert_eq!(over.registers.sp, at.registers.sp);
    assert_eq!(over.call_stack, at.call_stack);
    assert!(over.position > at.position + 1);
    // Into it, then out: the same place.
    to_position(&server, id, at.position);
    let inside = step(&server, id, "instruction", false);
    assert_eq!(inside.call_stack.len(), at.call_stack.len() + 1);
    assert_eq!(inside.call_stack.last().unwrap().call_at, at.registers.pc);
    let out = step(&server, id, "out", false);
    assert_eq!(machine(&out), machine(&over));

    // Event by event from the start: the trace's events in order, as `sargon trace` prints them.
    let trace = std::process::Command::new(env!("CARGO_BIN_EXE_sargon"))
        .args([
            "trace",
            ITALIAN,
            "--depth",
            "2",
            "--engine",
            "emulator",
            "--no-book",
        ])
        .output()
        .unwrap();
    let lines: Vec<String> = String::from_utf8_lossy(&trace.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    to_position(&server, id, 0);
    let mut seen: Vec<String> = Vec::new();
    let mut groups = Vec::new();
    while seen.len() < 60 {
        let e = step(&server, id, "event", false);
        assert_eq!(e.events_before as usize, seen.len());
        assert!(!e.event_texts.is_empty());
        seen.extend(e.event_texts.clone());
        groups.push(e.event_texts);
    }
    assert_eq!(seen[..], lines[..seen.len()]);
    // Back: the events of the stop before.
    let before = step(&server, id, "event", true);
    assert_eq!(before.event_texts, groups[groups.len() - 2]);

    // At a node: where its `created` event arises.
    let at_node = open(
        &server,
        &StepOpenBody {
            search,
            node: Some(5),
            page: Some("p1".into()),
            ..Default::default()
        },
    );
    assert!(at_node.event_texts.iter().any(|t| t.starts_with("created")));
    // The same page's earlier session is closed.
    let (status, gone): (u16, ErrorAnswer) = server.get(&format!("/api/step/{id}"));
    assert_eq!(status, 404);
    assert!(gone.error.contains("was closed"), "{}", gone.error);
    // At an event.
    let at_event = open(
        &server,
        &StepOpenBody {
            search,
            event: Some(40),
            ..Default::default()
        },
    );
    let from = at_event.events_before as usize;
    assert!(from <= 40 && 40 < from + at_event.event_texts.len());
    assert_eq!(
        at_event.event_texts[..],
        lines[from..from + at_event.event_texts.len()]
    );

    // Refusals, one line each.
    let id = at_event.id;
    let (status, e): (u16, ErrorAnswer) = server.post(
        &format!("/api/step/{id}/move"),
        &StepMoveBody {
            by: Some("sideways".into()),
            ..Default::default()
        },
    );
    assert_eq!(status, 400);
    assert_eq!(
        e.error,
        "no step `sideways`: `by` is instruction, over, out, event or node"
    );
    let (status, e): (u16, ErrorAnswer) = server.post(
        "/api/step",
        &StepOpenBody {
            search,
            node: Some(10_000_000),
            ..Default::default()
        },
    );
    assert_eq!(status, 404, "{e:?}");
    // Closed by its page.
    let (status, c): (u16, StepClosed) =
        server.post(&format!("/api/step/{id}/close"), &serde_json::json!({}));
    assert_eq!((status, c.closed), (200, true));
    let (status, _): (u16, ErrorAnswer) = server.get(&format!("/api/step/{id}"));
    assert_eq!(status, 404);
}

#[test]
fn stepping_sessions_are_bounded_and_idle_ones_close() {
    let Some(server) = server("stepping_sessions_are_bounded_and_idle_ones_close", Some(4)) else {
        return;
    };
    let search = italian(&server);
    let at = |page: &str| StepOpenBody {
        search,
        page: Some(page.into()),
        ..Default::default()
    };
    let first = open(&server, &at("a"));
    // Each session holds one of the server's workers while open: with fewer than three,
    // the later ones wait in line, and count among the sessions while they wait.
    let server = &server;
    std::thread::scope(|scope| {
        let later: Vec<_> = ["b", "c"]
            .map(|page| {
                let body = StepOpenBody {
                    job: Some(format!("step-{page}")),
                    ..at(page)
                };
                let opening = scope.spawn(move || open(server, &body));
                // Open, or in line.
                while !opening.is_finished()
                    && server
                        .get::<serde_json::Value>(&format!("/api/jobs/step-{page}"))
                        .0
                        != 200
                {
                    std::thread::sleep(Duration::from_millis(50));
                }
                opening
            })
            .into();
        // A fourth is refused, saying why.
        let (status, e): (u16, ErrorAnswer) = server.post("/api/step", &at("d"));
        assert_eq!(status, 409);
        assert!(
            e.error.starts_with(
                "3 stepping sessions are open or waiting for a worker, the most this server keeps"
            ),
            "{}",
            e.error
        );
        // The others open in their turn (after the first closes, with one worker).
        for opening in later {
            opening.join().unwrap();
        }
    });
    // Unused, they close and give their places back.
    std::thread::sleep(Duration::from_secs(9));
    let (status, e): (u16, ErrorAnswer) = server.get(&format!("/api/step/{}", first.id));
    assert_eq!(status, 404);
    assert!(e.error.contains("after 4 s unused"), "{}", e.error);
    open(server, &at("d"));
}
