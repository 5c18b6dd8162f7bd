//! Stepping sessions governed by `--jobs` (issue 37, item 6): a session holds one worker
//! while it is open, so with `--jobs 1` a profile asked meanwhile waits in line, and runs
//! once the session is closed by its page or closes itself when idle; a session waiting
//! for a worker has its place in line. Needs an imported ROM; skipped (with a clear line)
//! where there is none.

use std::time::{Duration, Instant};

use crate::common;
use crate::common::serve_api::Server;

use sargon_explorer::api::{
    EnginesAnswer, ErrorAnswer, JobStatus, ProfileAnswer, SearchBody, StepClosed, StepOpenBody,
    StepState,
};

const ITALIAN: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";
const OPEN_GAME: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";

/// A `--jobs 1` server whose sessions close after `idle` seconds unused, or `None` (after
/// the skip line) where it has no ROM.
fn server(test: &str, idle: &str) -> Option<Server> {
    let server = Server::start_with_env(&["--jobs", "1"], &[("SARGON_STEP_IDLE_SECONDS", idle)]);
    let (_, engines): (u16, EnginesAnswer) = server.get("/api/engines");
    if !engines.emulator.available {
        common::skip_for_want_of_rom(test, "the server has no ROM");
        return None;
    }
    common::ran_with_rom(test);
    Some(server)
}

/// The original's search of `fen` to depth 2, finished: its number.
fn searched(server: &Server, fen: &str) -> u64 {
    let s = server.search(&SearchBody {
        fen: fen.to_string(),
        engine: "emulator".to_string(),
        depth: 2,
        book: false,
        page: None,
    });
    assert_eq!(server.wait(s.id).state, "done");
    s.id
}

fn open(server: &Server, search: u64, page: &str, job: &str) -> (u16, serde_json::Value) {
    server.post(
        "/api/step",
        &StepOpenBody {
            search,
            page: Some(page.to_string()),
            job: Some(job.to_string()),
            ..Default::default()
        },
    )
}

/// The job `job`'s status, once the server knows it.
fn job(server: &Server, job: &str) -> JobStatus {
    let started = Instant::now();
    loop {
        let (status, v): (u16, serde_json::Value) = server.get(&format!("/api/jobs/{job}"));
        if status == 200 {
            return serde_json::from_value(v).unwrap();
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no job {job}: {v}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `job` is still waiting, first in line, for `seconds`.
fn keeps_waiting(server: &Server, name: &str, seconds: f64) {
    let started = Instant::now();
    while started.elapsed().as_secs_f64() < seconds {
        let st = job(server, name);
        assert_eq!(
            (st.state.as_str(), st.place),
            ("waiting", Some(1)),
            "{st:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_stepping_session_holds_a_worker_until_it_is_closed() {
    let test = "a_stepping_session_holds_a_worker_until_it_is_closed";
    let Some(server) = server(test, "300") else {
        return;
    };
    let search = searched(&server, ITALIAN);
    let (status, v) = open(&server, search, "page-a", "step-a");
    assert_eq!(status, 200, "{v}");
    let session: StepState = serde_json::from_value(v).unwrap();
    assert_eq!((session.workers, session.idle_seconds), (1, 300));
    let (_, engines): (u16, EnginesAnswer) = server.get("/api/engines");
    assert_eq!(
        engines.running, 1,
        "the session holds the only worker: {engines:?}"
    );
    std::thread::scope(|scope| {
        // A profile waits behind the session, and a second page's session too.
        let profile = scope.spawn(|| {
            server.get::<ProfileAnswer>(&format!("/api/search/{search}/profile?job=profile"))
        });
        keeps_waiting(&server, "profile", 1.5);
        let second = scope.spawn(|| open(&server, search, "page-b", "step-b"));
        let st = job(&server, "step-b");
        assert_eq!(
            (st.state.as_str(), st.place),
            ("waiting", Some(2)),
            "{st:?}"
        );
        // The first page closes its session: the profile runs, then the second session.
        let (status, closed): (u16, StepClosed) =
            server.post(&format!("/api/step/{}/close", session.id), &());
        assert_eq!((status, closed.closed), (200, true));
        let (status, p) = profile.join().unwrap();
        assert_eq!(status, 200, "{p:?}");
        assert!(!p.cached);
        let (status, v) = second.join().unwrap();
        assert_eq!(status, 200, "{v}");
    });
}

#[test]
fn an_idle_stepping_session_gives_its_worker_back() {
    let test = "an_idle_stepping_session_gives_its_worker_back";
    let Some(server) = server(test, "3") else {
        return;
    };
    let search = searched(&server, OPEN_GAME);
    let (status, v) = open(&server, search, "page-a", "step-a");
    assert_eq!(status, 200, "{v}");
    let session: StepState = serde_json::from_value(v).unwrap();
    let opened = Instant::now();
    std::thread::scope(|scope| {
        let profile = scope.spawn(|| {
            let (status, p) =
                server.get::<ProfileAnswer>(&format!("/api/search/{search}/profile?job=idle"));
            (status, p, opened.elapsed())
        });
        keeps_waiting(&server, "idle", 1.5);
        let (status, p, after) = profile.join().unwrap();
        assert_eq!(status, 200, "{p:?}");
        // Not before the session had stood unused for its idle time.
        assert!(after >= Duration::from_secs(3), "{after:?}");
    });
    let (status, e): (u16, ErrorAnswer) = server.get(&format!("/api/step/{}", session.id));
    assert_eq!(status, 404, "{e:?}");
    assert!(e.error.contains("after 3 s unused"), "{e:?}");
}
