//! `sargon serve` governing its work and its answers (issue 36, part 3): the security
//! headers on every kind of answer, `--allow-host`, refusals always in JSON, gzip, the
//! bind error that names its cause, profiles and memory through the `--jobs` queue with
//! their cache, a profile stopped when its client leaves, and a partial tree when a
//! search passes the node budget.

use crate::common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use sargon_explorer::api::{
    CompareAnswer, CompareBody, EnginesAnswer, ErrorAnswer, JobStatus, MemoryAnswer, ProfileAnswer,
};

use common::serve_api::{search_body, Server};

/// An answer as it came: status, headers (names lower-cased) and body bytes.
struct Raw {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Raw {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).to_string()
    }
}

/// One request, with the headers given (a `Host` of the server's unless one is given).
fn raw(server: &Server, method: &str, path: &str, headers: &[(&str, &str)]) -> Raw {
    raw_at(server.port, method, path, headers)
}

/// [`raw`], to the server on `port` (from another thread).
fn raw_at(port: u16, method: &str, path: &str, headers: &[(&str, &str)]) -> Raw {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        head += &format!("Host: 127.0.0.1:{port}\r\n");
    }
    for (k, v) in headers {
        head += &format!("{k}: {v}\r\n");
    }
    head += "Content-Length: 0\r\n\r\n";
    stream.write_all(head.as_bytes()).unwrap();
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    let split = response
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no head in {:?}", String::from_utf8_lossy(&response)));
    let head = String::from_utf8_lossy(&response[..split]).to_string();
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head:?}"));
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let mut body = response[split + 4..].to_vec();
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        body = unchunk(&body);
    }
    Raw {
        status,
        headers,
        body,
    }
}

/// A GET to the server on `port`, its answer read as a `T`.
fn read_at<T: serde::de::DeserializeOwned>(port: u16, path: &str) -> (u16, T) {
    let answer = raw_at(port, "GET", path, &[]);
    let v = serde_json::from_slice(&answer.body)
        .unwrap_or_else(|e| panic!("{path}: {e}: {:.300}", answer.text()));
    (answer.status, v)
}

/// A chunked body's bytes.
fn unchunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(end) = data.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size =
            usize::from_str_radix(String::from_utf8_lossy(&data[..end]).trim(), 16).unwrap_or(0);
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&data[end + 2..end + 2 + size]);
        data = &data[end + 2 + size + 2..];
    }
}

fn assert_guarded(answer: &Raw, what: &str) {
    let csp = answer
        .header("content-security-policy")
        .unwrap_or_else(|| panic!("{what}: no Content-Security-Policy in {:?}", answer.headers));
    assert!(csp.contains("frame-ancestors 'none'"), "{what}: {csp}");
    assert!(csp.contains("default-src 'self'"), "{what}: {csp}");
    assert_eq!(answer.header("x-frame-options"), Some("DENY"), "{what}");
    assert_eq!(
        answer.header("x-content-type-options"),
        Some("nosniff"),
        "{what}"
    );
    assert_eq!(
        answer.header("referrer-policy"),
        Some("no-referrer"),
        "{what}"
    );
}

/// The answer is the API's JSON refusal, with the status given; its sentence.
fn assert_json_refusal(answer: &Raw, status: u16, what: &str) -> String {
    assert_eq!(answer.status, status, "{what}: {:.300}", answer.text());
    assert!(
        answer
            .header("content-type")
            .is_some_and(|t| t.starts_with("application/json")),
        "{what}: {:?}",
        answer.headers
    );
    let v: ErrorAnswer = serde_json::from_slice(&answer.body)
        .unwrap_or_else(|e| panic!("{what}: not the JSON error ({e}): {}", answer.text()));
    assert!(!v.error.is_empty(), "{what}");
    v.error
}

/// What is asked, of which path, with which headers, and the status expected.
type Case<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)], u16);

#[test]
fn every_answer_carries_the_security_headers() {
    let server = Server::start(&[]);
    let other_host = [("Host", "evil.example:80")];
    let cases: [Case; 7] = [
        ("page", "/", &[], 200),
        ("module", "/js/main.js", &[], 200),
        ("style", "/style.css", &[], 200),
        ("API", "/api/engines", &[], 200),
        ("404", "/nothing/here", &[], 404),
        ("API error", "/api/search/99", &[], 404),
        ("refused host", "/", &other_host, 403),
    ];
    for (what, path, headers, status) in cases {
        let answer = raw(&server, "GET", path, headers);
        assert_eq!(answer.status, status, "{what}: {}", answer.text());
        assert_guarded(&answer, what);
    }
    let wrong_method = raw(&server, "DELETE", "/api/engines", &[]);
    assert_guarded(&wrong_method, "405");
}

#[test]
fn refusals_are_json_whatever_refused() {
    let server = Server::start(&[]);
    // Before: axum's plain-text rejection.
    let error = assert_json_refusal(
        &raw(&server, "GET", "/api/search/abc/node/1", &[]),
        400,
        "a search number that is not a number",
    );
    assert!(error.contains("abc"), "{error}");
    let error = assert_json_refusal(
        &raw(&server, "GET", "/api/search/1/node/x", &[]),
        400,
        "a node number that is not a number",
    );
    assert!(error.contains('x'), "{error}");
    // Before: an empty 405.
    let answer = raw(&server, "DELETE", "/api/engines", &[]);
    let error = assert_json_refusal(&answer, 405, "a wrong method");
    assert!(error.contains("DELETE"), "{error}");
    assert!(answer.header("allow").is_some_and(|a| a.contains("GET")));
    let answer = raw(&server, "GET", "/api/search", &[]);
    let error = assert_json_refusal(&answer, 405, "GET of a POST route");
    assert!(error.contains("GET"), "{error}");
    assert_eq!(answer.header("allow"), Some("POST"));
    assert_json_refusal(
        &raw(&server, "GET", "/api/search/1/find", &[]),
        400,
        "a query without its field",
    );
}

#[test]
fn answers_are_gzipped_when_the_client_accepts_it() {
    let server = Server::start(&[]);
    for path in ["/js/main.js", "/", "/api/engines"] {
        let plain = raw(&server, "GET", path, &[]);
        assert_eq!(plain.status, 200);
        assert_eq!(plain.header("content-encoding"), None, "{path}");
        let zipped = raw(&server, "GET", path, &[("Accept-Encoding", "gzip")]);
        assert_eq!(zipped.status, 200, "{path}");
        assert_eq!(zipped.header("content-encoding"), Some("gzip"), "{path}");
        assert_eq!(&zipped.body[..2], &[0x1f, 0x8b], "{path}: gzip's magic");
        assert!(
            zipped.body.len() < plain.body.len(),
            "{path}: {} bytes gzipped, {} plain",
            zipped.body.len(),
            plain.body.len()
        );
        assert_guarded(&zipped, path);
    }
}

#[test]
fn allow_host_lets_a_named_host_in_and_keeps_others_out() {
    let server = Server::start(&["--allow-host", "sargon.lan", "--allow-host", "10.1.2.3"]);
    let port = server.port;
    let ok = |host: &str, origin: Option<&str>| {
        let mut headers = vec![("Host", host.to_string())];
        if let Some(o) = origin {
            headers.push(("Origin", o.to_string()));
        }
        let headers: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
        raw(&server, "GET", "/api/engines", &headers)
    };
    let named = format!("sargon.lan:{port}");
    assert_eq!(ok(&named, None).status, 200);
    assert_eq!(
        ok(&named, Some(&format!("http://sargon.lan:{port}"))).status,
        200
    );
    assert_eq!(ok(&format!("10.1.2.3:{port}"), None).status, 200);
    assert_eq!(ok(&format!("127.0.0.1:{port}"), None).status, 200);
    // Another name, the named one on another port, another site's page: refused, in JSON.
    for (host, origin) in [
        (format!("other.lan:{port}"), None),
        (format!("sargon.lan:{}", port.wrapping_add(1)), None),
        ("sargon.lan".to_string(), None),
        (named.clone(), Some("http://evil.example".to_string())),
        (
            named.clone(),
            Some(format!("http://sargon.lan:{}", port.wrapping_add(1))),
        ),
    ] {
        let answer = ok(&host, origin.as_deref());
        let error = assert_json_refusal(&answer, 403, &format!("{host} {origin:?}"));
        assert!(
            error.contains("--allow-host") || error.contains("refused"),
            "{error}"
        );
    }
    // A name that is no host name is refused before the server listens.
    let out = common::sargon(&["serve", "--port", "0", "--allow-host", "http://x/"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--allow-host http://x/"), "{err}");
    assert!(err.contains("is not a host name"), "{err}");
}

#[test]
fn bound_to_every_address_the_named_host_is_served() {
    // Before --allow-host, a request from another machine (naming this one by its
    // address) was refused whatever was done.
    let server = Server::start(&["--bind", "0.0.0.0", "--allow-host", "10.9.8.7"]);
    let named = format!("10.9.8.7:{}", server.port);
    assert_eq!(raw(&server, "GET", "/", &[("Host", &named)]).status, 200);
    let other = format!("10.9.8.6:{}", server.port);
    let answer = raw(&server, "GET", "/", &[("Host", &other)]);
    let error = assert_json_refusal(&answer, 403, "another address");
    assert!(error.contains("--allow-host"), "{error}");
    // Without it, the warning says how.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sargon"))
        .args(["serve", "--port", "0", "--bind", "0.0.0.0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stderr.take().unwrap()),
        &mut err,
    )
    .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(err.contains("until `--allow-host NAME`"), "{err}");
}

#[test]
fn a_bind_error_names_its_cause() {
    // An address this machine lacks (TEST-NET-1, reserved for documentation).
    let out = common::sargon(&["serve", "--port", "0", "--bind", "192.0.2.1"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("this machine has no address 192.0.2.1"),
        "{err}"
    );
    assert!(!err.contains("another `sargon serve`"), "{err}");
    // A port in use: maybe another sargon serve.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = common::sargon(&["serve", "--port", &port]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("its port is in use"), "{err}");
    assert!(err.contains("another `sargon serve`"), "{err}");
}

/// Wait until nothing runs or waits (`/api/engines`), at most `limit`; how long it took.
fn wait_idle(server: &Server, limit: Duration) -> Option<Duration> {
    let started = Instant::now();
    while started.elapsed() < limit {
        let (_, engines): (u16, EnginesAnswer) = server.get("/api/engines");
        if engines.running == 0 && engines.waiting == 0 {
            return Some(started.elapsed());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    None
}

const ITALIAN: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";

/// The server has the original (a ROM imported), else the skip line is printed.
fn has_rom(server: &Server, test: &str) -> bool {
    let (_, engines): (u16, EnginesAnswer) = server.get("/api/engines");
    if engines.emulator.available {
        common::ran_with_rom(test);
    } else {
        common::skip_for_want_of_rom(test, "the server has no ROM");
    }
    engines.emulator.available
}

/// A finished search of `fen` to `depth` with the port: its number.
fn searched(server: &Server, fen: &str, depth: u8) -> u64 {
    let id = server.search(&search_body(fen, depth)).id;
    assert_eq!(server.wait(id).state, "done");
    id
}

/// Wait until the job `token` runs; its status.
fn wait_running(server: &Server, token: &str) -> JobStatus {
    let started = Instant::now();
    loop {
        let (status, text) = server.request("GET", &format!("/api/jobs/{token}"), None, &[]);
        if status == 200 {
            let job: JobStatus = serde_json::from_str(&text).unwrap();
            if job.state == "running" {
                return job;
            }
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{token} never ran"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_profile_waits_its_turn_and_a_second_request_is_served_from_the_cache() {
    let test = "a_profile_waits_its_turn_and_a_second_request_is_served_from_the_cache";
    let server = Server::start(&["--jobs", "1"]);
    if !has_rom(&server, test) {
        return;
    }
    let id = searched(&server, ITALIAN, 3);
    let port = server.port;
    let first = std::thread::spawn(move || {
        read_at::<ProfileAnswer>(port, &format!("/api/search/{id}/profile?job=first"))
    });
    wait_running(&server, "first");
    // The profile holds the only worker: it counts as running, and a search waits behind it.
    let (_, engines): (u16, EnginesAnswer) = server.get("/api/engines");
    assert_eq!((engines.running, engines.jobs), (1, 1), "{engines:?}");
    let behind = server.search(&search_body(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        2,
    ));
    assert_eq!(behind.state, "waiting", "{behind:?}");
    assert_eq!(behind.place, Some(Some(1)), "{behind:?}");
    let (status, profile) = first.join().unwrap();
    assert_eq!(status, 200, "{profile:?}");
    assert!(!profile.cached);
    assert_eq!(server.wait(behind.id).state, "done");
    // Asked again: the same answer, kept, and nothing runs for it.
    let started = Instant::now();
    let (status, again): (u16, ProfileAnswer) = server.get(&format!("/api/search/{id}/profile"));
    assert_eq!(status, 200, "{again:?}");
    assert!(again.cached, "{again:?}");
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_eq!(
        ProfileAnswer {
            cached: false,
            ..again
        },
        profile
    );
    let (_, engines): (u16, EnginesAnswer) = server.get("/api/engines");
    assert_eq!((engines.running, engines.waiting), (0, 0), "{engines:?}");
}

#[test]
fn a_profile_stops_when_its_client_leaves_or_cancels() {
    let test = "a_profile_stops_when_its_client_leaves_or_cancels";
    let server = Server::start(&["--jobs", "1"]);
    if !has_rom(&server, test) {
        return;
    }
    // Depth 4: many seconds of the original's search, profiled.
    let id = searched(&server, ITALIAN, 4);
    let mut stream = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    write!(
        stream,
        "GET /api/search/{id}/profile?job=leaving HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
        server.port
    )
    .unwrap();
    wait_running(&server, "leaving");
    // The page goes away: its connection closes mid-request.
    drop(stream);
    let idle = wait_idle(&server, Duration::from_secs(5));
    assert!(
        idle.is_some(),
        "the profile still runs after its client left"
    );
    // A page that cancels: its request is answered "cancelled", and nothing runs.
    let port = server.port;
    let asking = std::thread::spawn(move || {
        read_at::<ErrorAnswer>(port, &format!("/api/search/{id}/profile?job=cancelled"))
    });
    wait_running(&server, "cancelled");
    let (status, _) = server.request("POST", "/api/jobs/cancelled/cancel", Some(""), &[]);
    assert_eq!(status, 200);
    let (status, refusal) = asking.join().unwrap();
    assert_eq!(status, 409, "{refusal:?}");
    assert!(refusal.error.contains("cancelled"), "{refusal:?}");
    assert!(wait_idle(&server, Duration::from_secs(5)).is_some());
    // Neither was kept: asked again, it runs.
    let (_, engines): (u16, EnginesAnswer) = server.get("/api/engines");
    assert_eq!(engines.running, 0);
}

#[test]
fn memory_goes_through_the_line_and_is_kept() {
    let server = Server::start(&["--jobs", "1"]);
    let id = searched(&server, ITALIAN, 2);
    let path = format!("/api/search/{id}/node/3/memory");
    let (status, first): (u16, MemoryAnswer) = server.get(&path);
    assert_eq!(status, 200, "{first:?}");
    assert!(!first.cached);
    assert!(first.port.is_some());
    let (status, again): (u16, MemoryAnswer) = server.get(&path);
    assert_eq!(status, 200);
    assert!(again.cached, "{again:?}");
    assert_eq!(
        MemoryAnswer {
            cached: false,
            ..again
        },
        first
    );
    // Another node is another answer.
    let (_, other): (u16, MemoryAnswer) = server.get(&format!("/api/search/{id}/node/4/memory"));
    assert!(!other.cached);
    // A job name that is not one is refused, in JSON.
    let (status, refusal): (u16, ErrorAnswer) = server.get(&format!("{path}?job=a%20b"));
    assert_eq!(status, 400, "{refusal:?}");
    let (status, refusal): (u16, ErrorAnswer) = server.get("/api/jobs/nothing");
    assert_eq!(status, 404, "{refusal:?}");
}

#[test]
fn compare_names_each_engines_move_score_and_time() {
    let test = "compare_names_each_engines_move_score_and_time";
    let server = Server::start(&[]);
    if !has_rom(&server, test) {
        return;
    }
    let body = CompareBody {
        engine: "port".to_string(),
        fen: ITALIAN.to_string(),
        depth: 2,
        book: true,
        job: Some("cmp".to_string()),
    };
    let (status, v): (u16, CompareAnswer) = server.post("/api/compare", &body);
    assert_eq!(status, 200, "{v:?}");
    assert_eq!(v.divergences, 0, "{v:?}");
    assert!(!v.cached);
    let analyze = common::sargon(&["analyze", ITALIAN, "--depth", "2", "--format", "json"]);
    let analyze: serde_json::Value = serde_json::from_slice(&analyze.stdout).unwrap();
    for (name, side) in [("emulator", &v.emulator), ("port", &v.port)] {
        let side = side
            .as_ref()
            .unwrap_or_else(|| panic!("no {name} in {v:?}"));
        assert_eq!(side.engine, name);
        assert!(!side.stopped);
        assert_eq!(
            side.best.as_deref(),
            analyze["best_uci"].as_str(),
            "{side:?}"
        );
        assert!(side.best_san.is_some());
        let score = side.score.as_deref().unwrap();
        assert!(score.starts_with("0x"), "{score}");
        assert!(score.ends_with("pawns for Black)"), "{score}");
        // The byte and pawns the page writes are the same score.
        let (byte, pawns) = (side.score_byte.unwrap(), side.score_pawns.unwrap());
        assert_eq!(format!("0x{byte:02x} ({pawns:+.3} pawns for Black)"), score);
        assert_eq!(analyze["sargon_score"].as_u64(), Some(u64::from(byte)));
        assert_eq!(analyze["score_pawns"].as_f64(), Some(pawns));
        assert!(side.elapsed_ms > 0 || v.elapsed_ms < 5, "{side:?}");
    }
    assert_eq!(
        v.emulator.as_ref().unwrap().score,
        v.port.as_ref().unwrap().score
    );
    let (_, again): (u16, CompareAnswer) = server.post("/api/compare", &body);
    assert!(again.cached);
}

#[test]
fn a_search_stopped_by_the_node_budget_shows_the_tree_it_built() {
    let server = Server::start(&["--keep-nodes", "2000"]);
    let done = server.wait(server.search(&search_body(ITALIAN, 4)).id);
    // Before: "failed", and nothing to look at.
    assert_eq!(done.state, "done", "{done:?}");
    let partial = done.partial.as_deref().expect("marked partial");
    assert!(partial.contains("partial tree"), "{partial}");
    assert!(partial.contains("--keep-nodes"), "{partial}");
    let result = done.result.as_ref().expect("a result, without a move");
    assert_eq!(result["partial"], true, "{result}");
    assert!(result.get("best_uci").is_none(), "{result}");
    // The tree it built, node by node: the root's children, and a node deep in it.
    let root = done.root.as_ref().expect("the root");
    let children = root.children.as_ref().unwrap();
    assert!(!children.is_empty());
    assert!(root.subtree > 1000, "{}", root.subtree);
    assert!(root.subtree <= 2001, "{}", root.subtree);
    let (status, node): (u16, sargon_explorer::api::Node) =
        server.get(&format!("/api/search/{}/node/1999", done.id));
    assert_eq!(status, 200, "{node:?}");
    let (status, _): (u16, ErrorAnswer) = server.get(&format!("/api/search/{}/node/2001", done.id));
    assert_eq!(status, 404);
    // Asked again, the same partial tree (kept), not a new run.
    let again = server.search(&search_body(ITALIAN, 4));
    assert_eq!((again.id, again.state.as_str()), (done.id, "done"));
}

#[test]
fn each_engine_says_its_practical_depth() {
    let exec = common::serve_api::our_port_exec();
    let server = Server::start(&["--engine", &exec]);
    let (_, engines): (u16, EnginesAnswer) = server.get("/api/engines");
    let depth = |name: &str| {
        let e = engines.engines.iter().find(|e| e.name == name).unwrap();
        (e.practical_depth, e.max_depth)
    };
    assert_eq!(depth("port"), (5, 20));
    assert_eq!(depth("emulator").0, 4);
    let (practical, max) = depth(&exec);
    assert_eq!(practical, 4);
    assert!(practical <= max);
}
