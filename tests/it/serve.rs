//! `sargon serve`: the explorer's HTTP API, spoken to as the page speaks to it, over a
//! real socket to the real command (started on a free loopback port). Every route, its
//! errors, the limits (body size, node budget, workers in line), cancel, and the Host and
//! Origin checks. The page itself is driven in a browser by tests/it/serve_browser.rs.

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

use sargon_explorer::api::{
    CancelAnswer, CompareAnswer, CompareBody, EnginesAnswer, ErrorAnswer, ListingAnswer,
    MemoryAnswer, ModelsAnswer, Node, PgnAnswer, PgnBody, PositionAnswer, PositionBody,
    ProfileAnswer, PvStepsAnswer, SearchBody, SearchStatus,
};
use serde_json::{json, Value};

use common::serve_api::{search_body, Server};

const ITALIAN: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";

fn analyze_json(fen: &str, depth: &str, engine: &str) -> Value {
    let out = common::sargon(&[
        "analyze", fen, "--depth", depth, "--engine", engine, "--format", "json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_page_and_its_files_are_served() {
    let server = Server::start(&[]);
    for (path, kind, needle) in [
        ("/", "text/html", "Sargon explorer"),
        ("/js/main.js", "text/javascript; charset=utf-8", "import"),
        ("/style.css", "text/css", ".node"),
    ] {
        let (status, body) = server.request("GET", path, None, &[]);
        assert_eq!(status, 200, "{path}");
        assert!(body.contains(needle), "{path}");
        let raw = raw_get(&server, path);
        assert!(
            raw.to_lowercase()
                .contains(&format!("content-type: {kind}")),
            "{path}: {raw:.200}"
        );
    }
    // No route: a JSON error, not a page.
    let (status, v): (u16, ErrorAnswer) = server.get("/api/nothing");
    assert_eq!(status, 404);
    assert!(v.error.contains("no such"));
}

/// The page's script: its ES modules, each served from the binary's fixed table by name
/// with the JavaScript type (a browser refuses a module served as anything else), and no
/// other file reachable through `/js/`.
#[test]
fn the_page_modules_are_served_by_name_and_nothing_else() {
    let server = Server::start(&[]);
    let (_, html) = server.request("GET", "/", None, &[]);
    assert!(
        html.contains(r#"<script type="module" src="/js/main.js"></script>"#),
        "{html}"
    );
    let modules = page_modules();
    assert!(modules.len() > 5, "{modules:?}");
    for (name, text) in &modules {
        let raw = raw_get(&server, &format!("/js/{name}"));
        assert!(raw.starts_with("HTTP/1.1 200 "), "{name}: {raw:.300}");
        assert!(
            raw.to_lowercase()
                .contains("content-type: text/javascript; charset=utf-8"),
            "{name}: {raw:.300}"
        );
        assert!(
            raw.ends_with(text.as_str()),
            "{name} is not served as it is"
        );
    }
    for path in [
        "/js/nope.js",
        "/js/../mod.rs",
        "/js/..%2Fmod.rs",
        "/js/%2E%2E%2Fpage.rs",
        "/js/",
        "/app.js",
    ] {
        let (status, raw) = server.request("GET", path, None, &[]);
        assert_eq!(status, 404, "{path}: {raw:.300}");
        assert!(raw.contains("no such page"), "{path}: {raw:.300}");
    }
}

/// The page's modules, each saying first what it holds, under 800 lines, importing only
/// modules of the page, and none importing itself back through others (an import loop).
#[test]
fn the_page_modules_import_no_loop() {
    let modules = page_modules();
    let names: Vec<&str> = modules.iter().map(|(name, _)| name.as_str()).collect();
    let mut imports = std::collections::BTreeMap::new();
    for (name, text) in &modules {
        assert!(text.starts_with("// "), "{name} does not say what it holds");
        assert!(text.lines().count() < 800, "{name} is over 800 lines");
        let mut used = Vec::new();
        for line in text.lines().filter(|l| l.starts_with("import ")) {
            let target = line
                .rsplit_once(" from \"./")
                .and_then(|(_, rest)| rest.strip_suffix("\";"))
                .unwrap_or_else(|| panic!("{name}: an import not of a page module: {line}"));
            assert!(names.contains(&target), "{name} imports {target}");
            used.push(target.to_string());
        }
        imports.insert(name.clone(), used);
    }
    // Depth first from every module; a module met again on the path is a loop.
    fn walk(
        at: &str,
        path: &mut Vec<String>,
        imports: &std::collections::BTreeMap<String, Vec<String>>,
    ) {
        assert!(
            !path.iter().any(|p| p == at),
            "an import loop: {} -> {at}",
            path.join(" -> ")
        );
        path.push(at.to_string());
        for next in &imports[at] {
            walk(next, path, imports);
        }
        path.pop();
    }
    for name in imports.keys() {
        walk(name, &mut Vec::new(), &imports);
    }
    assert!(imports["main.js"].len() > 5, "main.js sets up the sections");
}

/// The whole response to a GET, its head and body, as the server sent it.
fn raw_get(server: &Server, path: &str) -> String {
    let mut s = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: localhost:{}\r\nConnection: close\r\n\r\n",
        server.port
    )
    .unwrap();
    let mut r = String::new();
    s.read_to_string(&mut r).unwrap();
    r
}

/// The files of crates/sargon-explorer/src/page/js: name and text.
fn page_modules() -> Vec<(String, String)> {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/sargon-explorer/src/page/js");
    let mut modules: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap().to_string();
            (name, std::fs::read_to_string(&path).unwrap())
        })
        .collect();
    modules.sort();
    modules
}

#[test]
fn positions_are_read_as_the_command_line_reads_them() {
    let server = Server::start(&[]);
    let (status, v): (u16, PositionAnswer) =
        server.post("/api/position", &position("startpos moves e2e4"));
    assert_eq!(status, 200, "{v:?}");
    assert_eq!(
        v.fen,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert_eq!(v.turn, "black");
    assert_eq!(v.legal.len(), 20);
    assert!(v.book_position);
    // A bad FEN: the CLI's own words.
    let bad = "rnbqkbnr/ppp w";
    let (status, v): (u16, ErrorAnswer) = server.post("/api/position", &position(bad));
    assert_eq!(status, 400);
    let cli = common::sargon(&["analyze", bad, "--depth", "1"]);
    let cli_error = String::from_utf8_lossy(&cli.stderr);
    let message = &v.error;
    assert!(cli_error.contains(message), "{cli_error:?} vs {message:?}");
    // Not JSON, or not this route's JSON.
    let (status, text) = server.request("POST", "/api/position", Some("{text"), &[]);
    assert_eq!(status, 400);
    assert!(text.contains("not the JSON this route takes"), "{text}");
    // A PGN, position by position.
    let pgn = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 *\n";
    let (status, v): (u16, PgnAnswer) = server.post("/api/pgn", &pgn_body(pgn));
    assert_eq!(status, 200, "{v:?}");
    assert_eq!(v.positions.len(), 4);
    assert_eq!(v.positions[0].san, None);
    assert_eq!(v.positions[3].san.as_deref(), Some("2.Nf3"));
    assert_eq!(v.players, "A - B");
    let (status, v): (u16, ErrorAnswer) = server.post("/api/pgn", &pgn_body("not a game"));
    assert_eq!(status, 400, "{v:?}");
}

/// `/api/pgn` reads a game as every command does: a malformed one is refused with its
/// game and line (it took `1. e4 ((((((` for one move, and a game cut in a variation for
/// its moves before it).
#[test]
fn a_malformed_pgn_is_refused_with_its_game_and_line() {
    let server = Server::start(&[]);
    for (pgn, expected) in [
        (
            "1. e4 ((((((",
            "game 1, line 1: a variation `(` before any move it could stand for",
        ),
        (
            "1. e4 (1. d4 e5 2. Nf3 *",
            "game 1, line 1: the result `*` inside the variation opened at line 1: a `)` is missing",
        ),
        (
            "[White \"A\"]\n\n1. e4 e5\n",
            "game 1, line 3: the game has no result (1-0, 0-1, 1/2-1/2 or *) before the end of the file",
        ),
        (
            "1. e4 *\n\n1. d4 {unclosed\n*\n",
            "game 2, line 3: a comment `{` that is never closed (no `}` to the end of the file)",
        ),
    ] {
        let (status, v): (u16, ErrorAnswer) = server.post("/api/pgn", &pgn_body(pgn));
        assert_eq!(status, 400, "{pgn:?}: {v:?}");
        assert_eq!(v.error, expected, "{pgn:?}");
    }
}

#[test]
fn a_search_opens_node_by_node_and_agrees_with_analyze() {
    let server = Server::start(&[]);
    let id = server.search(&search_body(ITALIAN, 3)).id;
    let done = server.wait(id);
    assert_eq!(done.state, "done", "{done:?}");
    let cli = analyze_json(ITALIAN, "3", "port");
    let result = done.result.as_ref().expect("a finished search's result");
    for field in [
        "best_uci",
        "best_san",
        "score_cp",
        "sargon_score",
        "pv_uci",
        "pv_san",
    ] {
        assert_eq!(result[field], cli[field], "{field}");
    }
    // The root's children: Sargon's order, each with its subtree; they add up.
    let root = done.root.as_ref().expect("a finished search's root");
    let children = root.children.as_ref().expect("the root's children");
    assert!(children.len() > 20);
    assert_eq!(root.children_count, children.len());
    let below: u64 = children.iter().map(|c| u64::from(c.subtree)).sum();
    assert_eq!(below + 1, u64::from(root.subtree));
    assert_eq!(u64::from(root.subtree), done.nodes + 1);
    // Open the PV's first node by its number and by its path.
    let pv: Vec<&str> = result["pv_uci"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let first = children
        .iter()
        .find(|c| c.uci.as_deref() == Some(pv[0]))
        .expect("the PV's first move is a root child");
    assert!(first.in_pv);
    let (status, node): (u16, Node) = server.get(&format!("/api/search/{id}/node/{}", first.id));
    assert_eq!(status, 200);
    assert_eq!(node.path, Some(vec![pv[0].to_string()]));
    assert_eq!(node.ply, 1);
    assert_eq!(node.eval.as_ref().expect("an evaluation").byte.len(), 2);
    let (status, found): (u16, Node) =
        server.get(&format!("/api/search/{id}/find?path={}", pv.join(",")));
    assert_eq!(status, 200, "{found:?}");
    assert_eq!(
        found.path.as_deref(),
        Some(&pv.iter().map(|m| m.to_string()).collect::<Vec<_>>()[..])
    );
    assert!(found.in_pv);
    // The board after the path is the position python-free: play it with the CLI.
    let line = format!("{ITALIAN} moves {}", pv.join(" "));
    let (_, pos): (u16, PositionAnswer) = server.post("/api/position", &position(&line));
    assert_eq!(found.fen, Some(pos.fen));
    // The PV replay ends on the PV.
    let (status, steps): (u16, PvStepsAnswer) = server.get(&format!("/api/search/{id}/pv-steps"));
    assert_eq!(status, 200);
    assert_eq!(json!(steps.pv), result["pv_uci"]);
    assert_eq!(steps.steps.len(), pv.len());
    assert!(steps.steps[0].event < done.events);
    // Asking again is the same search, kept (the book is on unless said otherwise).
    let (_, again): (u16, SearchStatus) = server.post(
        "/api/search",
        &json!({"fen": ITALIAN, "engine": "port", "depth": 3}),
    );
    assert_eq!(again.id, id);
    assert_eq!(again.state, "done");
    // Errors: no such node, path, search; a depth beyond the engine.
    let (status, v): (u16, ErrorAnswer) = server.get(&format!("/api/search/{id}/node/99999999"));
    assert_eq!(status, 404, "{v:?}");
    let (status, v): (u16, ErrorAnswer) =
        server.get(&format!("/api/search/{id}/find?path=a2a4,h7h5,a1a3"));
    assert_eq!(status, 404);
    assert!(
        v.error.contains("`a2a4`") || v.error.contains("move"),
        "{v:?}"
    );
    let (status, _): (u16, ErrorAnswer) = server.get("/api/search/4242");
    assert_eq!(status, 404);
    let (status, v): (u16, ErrorAnswer) = server.post("/api/search", &search_body(ITALIAN, 21));
    assert_eq!(status, 400);
    assert!(v.error.contains("21"), "{v:?}");
    let (status, v): (u16, ErrorAnswer) = server.post(
        "/api/search",
        &SearchBody {
            engine: "stockfish".into(),
            ..search_body(ITALIAN, 2)
        },
    );
    assert_eq!(status, 400, "{v:?}");
}

#[test]
fn progress_streams_until_the_search_is_over() {
    let server = Server::start(&[]);
    let id = server.search(&search_body(ITALIAN, 5)).id;
    let (status, body) = server.request("GET", &format!("/api/search/{id}/progress"), None, &[]);
    assert_eq!(status, 200);
    let states: Vec<SearchStatus> = body
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(|d| serde_json::from_str(d).unwrap_or_else(|e| panic!("{e}: {d}")))
        .collect();
    assert!(states.len() >= 2, "{body:.300}");
    let last = states.last().unwrap();
    assert_eq!(last.state, "done");
    assert!(last.root.is_some() && last.result.is_some(), "{last:?}");
    // Nodes only grow.
    let nodes: Vec<u64> = states.iter().map(|s| s.nodes).collect();
    assert!(nodes.windows(2).all(|w| w[0] <= w[1]), "{nodes:?}");
}

#[test]
fn a_search_is_cancelled_by_its_page_or_when_the_page_goes_away() {
    let server = Server::start(&[]);
    // Cancel.
    let id = server.search(&on_page(ITALIAN, 12, "p1")).id;
    std::thread::sleep(Duration::from_millis(300));
    let (status, cancelled): (u16, CancelAnswer) =
        server.post(&format!("/api/search/{id}/cancel"), &json!({}));
    assert_eq!(status, 200);
    assert_eq!(cancelled.id, id);
    assert_eq!(server.wait(id).state, "cancelled");
    // A page's second search cancels its first.
    let a = server.search(&on_page(ITALIAN, 12, "p2"));
    let b = server.search(&on_page(ITALIAN, 2, "p2"));
    assert_eq!(server.wait(a.id).state, "cancelled");
    assert_eq!(server.wait(b.id).state, "done");
    // The page goes away: its progress stream closes, and the search stops.
    let id = server.search(&search_body(ITALIAN, 12)).id;
    {
        let mut s = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
        write!(
            s,
            "GET /api/search/{id}/progress HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
            server.port
        )
        .unwrap();
        let mut first = [0u8; 64];
        let _ = s.read(&mut first);
    }
    assert_eq!(server.wait(id).state, "cancelled");
}

#[test]
fn searches_wait_in_line_for_a_worker() {
    let server = Server::start(&["--jobs", "1"]);
    let a = server.search(&on_page(ITALIAN, 12, "a"));
    let b = server.search(&on_page(ITALIAN, 2, "b"));
    assert_eq!(b.state, "waiting", "{b:?}");
    assert_eq!(b.place, Some(Some(1)));
    let (_, engines): (u16, EnginesAnswer) = server.get("/api/engines");
    assert_eq!((engines.jobs, engines.running, engines.waiting), (1, 1, 1));
    let (status, _): (u16, CancelAnswer) =
        server.post(&format!("/api/search/{}/cancel", a.id), &json!({}));
    assert_eq!(status, 200);
    assert_eq!(server.wait(b.id).state, "done");
}

#[test]
fn a_search_too_big_to_keep_is_stopped_and_says_how_to_stream_it() {
    let server = Server::start(&["--keep-nodes", "2000"]);
    let done = server.wait(server.search(&search_body(ITALIAN, 4)).id);
    // Its partial tree is kept (tests/it/serve_governed.rs reads it).
    assert_eq!(done.state, "done");
    let partial = done.partial.expect("a partial tree's note");
    assert!(partial.contains("stopped at 2000 nodes"), "{partial}");
    assert!(partial.contains("sargon trace '"), "{partial}");
    // Kept searches stay within the budget: a small one fits, an old one is dropped.
    let small = server.search(&search_body(ITALIAN, 2)).id;
    assert_eq!(server.wait(small).state, "done");
    let other = server
        .search(&SearchBody {
            book: false,
            ..search_body("startpos", 3)
        })
        .id;
    assert_eq!(server.wait(other).state, "done");
    let (status, v): (u16, ErrorAnswer) = server.get(&format!("/api/search/{small}"));
    assert_eq!(
        status, 404,
        "the older search should have been dropped: {v:?}"
    );
    assert!(v.error.contains("--keep-nodes"));
}

#[test]
fn other_sites_and_oversized_bodies_are_refused() {
    let server = Server::start(&[]);
    // DNS rebinding: a name that resolves to 127.0.0.1 but is not ours.
    let (status, body) =
        server.request("GET", "/api/engines", None, &[("Host", "evil.example:80")]);
    assert_eq!(status, 403);
    assert!(body.contains("is not this server"), "{body}");
    // Another site's page, through the browser.
    let (status, body) = server.request(
        "POST",
        "/api/search",
        Some("{}"),
        &[("Origin", "http://evil.example")],
    );
    assert_eq!(status, 403);
    assert!(body.contains("refused"), "{body}");
    // Our own page's origin passes.
    let origin = format!("http://localhost:{}", server.port);
    let (status, _) = server.request("GET", "/api/engines", None, &[("Origin", &origin)]);
    assert_eq!(status, 200);
    // A body over 1 MB.
    let big = format!("{{\"text\": \"{}\"}}", "x".repeat(2 << 20));
    let (status, body) = server.request("POST", "/api/position", Some(&big), &[]);
    assert_eq!(status, 413);
    assert!(body.contains("larger than"), "{body}");
}

#[test]
fn compare_runs_both_engines_event_by_event() {
    let server = Server::start(&[]);
    let (_, engines): (u16, EnginesAnswer) = server.get("/api/engines");
    if !engines.emulator.available {
        let (status, v): (u16, ErrorAnswer) = server.post("/api/compare", &compare(ITALIAN, 2));
        assert_eq!(status, 409, "{v:?}");
        common::skip_for_want_of_rom(
            "compare_runs_both_engines_event_by_event",
            "the server has no ROM",
        );
        return;
    }
    common::ran_with_rom("compare_runs_both_engines_event_by_event");
    let (status, v): (u16, CompareAnswer) = server.post("/api/compare", &compare(ITALIAN, 3));
    assert_eq!(status, 200, "{v:?}");
    assert_eq!(v.divergences, 0, "{v:?}");
    assert_eq!(v.divergence, None, "{v:?}");
    assert!(v.events > 10_000);
    // The original's search, with its TRS-80 time.
    let s = server.search(&with_engine(ITALIAN, 2, "emulator"));
    let done = server.wait(s.id);
    assert_eq!(done.state, "done", "{done:?}");
    let result = done.result.expect("a finished search's result");
    assert!(result["trs80_seconds"].as_f64().unwrap() > 1.0);
    assert_eq!(
        result["best_uci"],
        analyze_json(ITALIAN, "2", "emulator")["best_uci"]
    );
}

#[test]
fn the_models_run_with_their_interceptions() {
    let server = Server::start(&[]);
    let (status, v): (u16, ModelsAnswer) = server.get("/api/models?engine=port");
    assert_eq!(status, 200, "{v:?}");
    assert_eq!(v.engine, "port");
    let examples = v.examples.as_array().unwrap();
    assert_eq!(examples.len(), 5);
    // The same figures as `sargon models --format json`.
    let cli = common::sargon(&["models", "--format", "json"]);
    let cli: Value = serde_json::from_slice(&cli.stdout).unwrap();
    for (page, cli) in examples.iter().zip(cli.as_array().unwrap()) {
        assert_eq!(page["evaluations"], cli["evaluations"]);
        assert_eq!(page["pv_san"], cli["pv_san"]);
        assert!(!page["intro"].as_str().unwrap().is_empty());
    }
    let (status, v): (u16, ErrorAnswer) = server.get("/api/models?engine=nothing");
    assert_eq!(status, 400, "{v:?}");
}

#[test]
fn memory_at_a_node_is_read_on_both_engines() {
    let server = Server::start(&[]);
    let id = server.search(&search_body(ITALIAN, 3)).id;
    let done = server.wait(id);
    let pv_nodes = done.pv_nodes.expect("a finished search's PV");
    // The last PV node: evaluated, at ply 3, with its ply's list and the whole board.
    let (status, m): (u16, MemoryAnswer) =
        server.get(&format!("/api/search/{id}/node/{}/memory", pv_nodes[2]));
    assert_eq!(status, 200, "{m:?}");
    let port = m.port.as_ref().expect("the port's memory");
    assert!(port.evaluated);
    assert_eq!(port.nply, 3);
    assert_eq!(port.plymax, 3);
    assert_eq!(port.board.len(), 240);
    assert!(port.board.starts_with("ffffffffffffffffffff"));
    let (_, node): (u16, Node) = server.get(&format!("/api/search/{id}/node/{}", pv_nodes[2]));
    let eval = node.eval.expect("an evaluation");
    assert_eq!(port.score, eval.byte);
    assert_eq!(port.two_plies_up, eval.alpha_beta_byte);
    let (_, parent): (u16, Node) = server.get(&format!("/api/search/{id}/node/{}", pv_nodes[1]));
    assert_eq!(port.moves.len(), parent.children_count);
    if m.emulator.is_none() {
        common::skip_for_want_of_rom(
            "memory_at_a_node_is_read_on_both_engines",
            m.emulator_reason.as_deref().unwrap_or(""),
        );
        assert_eq!(m.same, None);
        return;
    }
    common::ran_with_rom("memory_at_a_node_is_read_on_both_engines");
    assert_eq!(m.same, Some(true), "{m:?}");
    assert_eq!(m.emulator, m.port);
}

#[test]
fn the_originals_profile_and_listing_come_from_the_users_copy() {
    let server = Server::start(&[]);
    let id = server.search(&search_body(ITALIAN, 2)).id;
    assert_eq!(server.wait(id).state, "done");
    let (_, engines): (u16, EnginesAnswer) = server.get("/api/engines");
    if !engines.emulator.available {
        let (status, v): (u16, ErrorAnswer) = server.get(&format!("/api/search/{id}/profile"));
        assert_eq!(status, 409, "{v:?}");
        let (status, v): (u16, ErrorAnswer) = server.get("/api/listing/FNDMOV");
        assert_eq!(status, 409, "{v:?}");
        common::skip_for_want_of_rom(
            "the_originals_profile_and_listing_come_from_the_users_copy",
            "the server has no ROM",
        );
        return;
    }
    common::ran_with_rom("the_originals_profile_and_listing_come_from_the_users_copy");
    let (status, p): (u16, ProfileAnswer) = server.get(&format!("/api/search/{id}/profile"));
    assert_eq!(status, 200, "{p:?}");
    let rows = p.rows.as_array().unwrap();
    assert!(rows.iter().any(|r| r["routine"] == "POINTS"), "{p:?}");
    let sum: u64 = rows.iter().map(|r| r["t_states"].as_u64().unwrap()).sum();
    assert_eq!(sum, p.totals["t_states"].as_u64().unwrap());
    assert!(p.trs80_seconds > 0.0);
    assert_eq!(
        p.note, None,
        "a search by the port is the original's own position"
    );
    // The same figures as `sargon profile`.
    let cli = common::sargon(&["profile", ITALIAN, "--depth", "2", "--format", "json"]);
    let cli: Value = serde_json::from_slice(&cli.stdout).unwrap();
    assert_eq!(p.totals, cli["totals"]);
    // A routine's listing, with its hook points and the port's links, as `sargon listing
    // --port` prints it.
    let (status, l): (u16, ListingAnswer) = server.get("/api/listing/FNDMOV");
    assert_eq!(status, 200, "{l:?}");
    assert_eq!(l.routine, "FNDMOV");
    let text = l.text.as_str();
    assert!(text.contains("<- hook"), "{text:.300}");
    assert!(text.contains("-> port"), "{text:.300}");
    let cli = common::sargon(&["listing", "FNDMOV", "--port"]);
    assert!(String::from_utf8_lossy(&cli.stdout).contains(text));
    let (status, v): (u16, ErrorAnswer) = server.get("/api/listing/NOSUCHROUTINE");
    assert_eq!(status, 404, "{v:?}");
}

#[test]
fn another_address_is_served_with_a_warning_and_a_taken_port_is_explained() {
    // --bind beyond loopback: a warning on stderr, and the server still answers.
    let mut child = Command::new(env!("CARGO_BIN_EXE_sargon"))
        .args(["serve", "--port", "0", "--bind", "0.0.0.0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut err)
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(err.starts_with("warning: listening on 0.0.0.0:"), "{err}");
    assert!(err.contains("anyone who can reach this machine"), "{err}");
    // A port already taken: the error says so and how to pick another.
    let server = Server::start(&[]);
    let port = server.port.to_string();
    let out = common::sargon(&["serve", "--port", &port]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("cannot listen on 127.0.0.1:{port}")),
        "{err}"
    );
    assert!(err.contains("--port 0"), "{err}");
}

#[test]
fn compare_shows_where_a_changed_image_parts_from_the_port() {
    // The user's transcription with the pawn's value changed, stored with
    // --accept-different in a store of its own: the page must say it is not verified, and
    // Compare must show the first divergence, not "0".
    let test = "compare_shows_where_a_changed_image_parts_from_the_port";
    let Some(rom) = common::rom(test) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let store = common::store_with_changed_pvalue(&rom, dir.path(), "changed");
    let store = store.as_str();
    let server = Server::start(&["--roms", store]);
    let (_, engines): (u16, EnginesAnswer) = server.get("/api/engines");
    assert_eq!(engines.emulator.verified, Some(false), "{engines:?}");
    assert!(
        matches!(engines.emulator.warning, Some(Some(_))),
        "{engines:?}"
    );
    let (status, v): (u16, CompareAnswer) = server.post("/api/compare", &compare(ITALIAN, 2));
    assert_eq!(status, 200, "{v:?}");
    assert_eq!(v.divergences, 1, "{v:?}");
    let d = v.divergence.as_ref().expect("a divergence");
    assert_eq!(
        d.index, v.events,
        "the first divergence follows the equal events: {v:?}"
    );
    assert_ne!(d.emulator, d.port, "{v:?}");
    // Its position is the one after its path.
    let text = if d.path.is_empty() {
        ITALIAN.to_string()
    } else {
        format!("{ITALIAN} moves {}", d.path.join(" "))
    };
    let (_, pos): (u16, PositionAnswer) = server.post("/api/position", &position(&text));
    assert_eq!(d.fen, pos.fen, "{v:?}");
}

#[test]
fn the_explorer_runs_the_original_on_the_core_it_is_given() {
    let server = Server::start(&["--core", "z80emu"]);
    let (_, engines): (u16, EnginesAnswer) = server.get("/api/engines");
    if !engines.emulator.available {
        common::skip_for_want_of_rom(
            "the_explorer_runs_the_original_on_the_core_it_is_given",
            "the server has no ROM",
        );
        return;
    }
    common::ran_with_rom("the_explorer_runs_the_original_on_the_core_it_is_given");
    assert_eq!(
        engines.emulator.core.as_deref(),
        Some("z80emu"),
        "{engines:?}"
    );
    // A search, a comparison and the memory at a node, all on z80emu, as on iz80.
    let id = server.search(&with_engine(ITALIAN, 2, "emulator")).id;
    let done = server.wait(id);
    assert_eq!(done.state, "done", "{done:?}");
    let result = done.result.as_ref().expect("a finished search's result");
    assert_eq!(result["core"], "z80emu", "{done:?}");
    assert_eq!(
        result["best_uci"],
        analyze_json(ITALIAN, "2", "emulator")["best_uci"]
    );
    let (status, v): (u16, CompareAnswer) = server.post("/api/compare", &compare(ITALIAN, 2));
    assert_eq!(status, 200, "{v:?}");
    assert_eq!(v.divergences, 0, "{v:?}");
    let pv_nodes = done.pv_nodes.as_ref().expect("a finished search's PV");
    let (status, m): (u16, MemoryAnswer) =
        server.get(&format!("/api/search/{id}/node/{}/memory", pv_nodes[1]));
    assert_eq!(status, 200, "{m:?}");
    assert_eq!(m.same, Some(true), "{m:?}");
    // The default is iz80, and the server says so.
    let server = Server::start(&[]);
    let (_, engines): (u16, EnginesAnswer) = server.get("/api/engines");
    assert_eq!(
        engines.emulator.core.as_deref(),
        Some("iz80"),
        "{engines:?}"
    );
}

/// `POST /api/position`'s body.
fn position(text: &str) -> PositionBody {
    PositionBody {
        text: text.to_string(),
    }
}

/// `POST /api/pgn`'s body.
fn pgn_body(pgn: &str) -> PgnBody {
    PgnBody {
        pgn: pgn.to_string(),
    }
}

/// `POST /api/compare`'s body, with the book.
fn compare(fen: &str, depth: u8) -> CompareBody {
    CompareBody {
        engine: "port".to_string(),
        fen: fen.to_string(),
        depth,
        book: true,
        job: None,
    }
}

/// A search asked by the page `page`.
fn on_page(fen: &str, depth: u8, page: &str) -> SearchBody {
    SearchBody {
        page: Some(page.to_string()),
        ..search_body(fen, depth)
    }
}

/// A search with `engine`.
fn with_engine(fen: &str, depth: u8, engine: &str) -> SearchBody {
    SearchBody {
        engine: engine.to_string(),
        ..search_body(fen, depth)
    }
}
