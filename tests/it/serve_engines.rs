//! `sargon serve --engine SPEC`: other people's ports in the explorer. Our own port stands
//! in for them, behind `exec:` (`sargon trace`, a trace only) and `uci:` (`sargon uci`,
//! answers only): the `exec:` port is offered, its search opens as the port's own tree
//! node for node; what either lacks is refused with the capability's sentence; and a page
//! can never name a program the server was not started with.

use crate::common;

use std::time::Duration;

use sargon_core::input::echo;
use serde_json::{json, Value};

use common::serve_api::{our_port_exec, Server};

const ITALIAN: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";

/// Our own port as a `uci:` program.
fn our_port_uci() -> String {
    format!("uci:{} uci", env!("CARGO_BIN_EXE_sargon"))
}

/// `text` as a URL query value.
fn query(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A finished search of `body`.
fn search(server: &Server, body: Value) -> Value {
    let (status, v) = server.post("/api/search", body);
    assert_eq!(status, 200, "{v}");
    let done = server.wait(v["id"].as_u64().unwrap());
    assert_eq!(done["state"], "done", "{done}");
    done
}

/// Every node of a search, in order of its ids, as `/api/search/{id}/node/{n}` gives it.
fn all_nodes(server: &Server, id: u64) -> Vec<String> {
    let mut nodes = Vec::new();
    loop {
        let (status, body) = server.request(
            "GET",
            &format!("/api/search/{id}/node/{}", nodes.len()),
            None,
            &[],
        );
        if status == 404 {
            return nodes;
        }
        assert_eq!(status, 200, "{body}");
        nodes.push(body);
    }
}

#[test]
fn an_exec_port_is_offered_and_its_search_opens_as_the_ports_tree() {
    let exec = our_port_exec();
    let uci = our_port_uci();
    let server = Server::start(&["--engine", &exec, "--engine", &uci]);
    let (status, engines) = server.get("/api/engines");
    assert_eq!(status, 200, "{engines}");
    let list = engines["engines"].as_array().unwrap();
    let names: Vec<&str> = list.iter().map(|e| e["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["port", "emulator", exec.as_str(), uci.as_str()]);
    let caps = |i: usize| &list[i]["capabilities"];
    assert_eq!(
        caps(0),
        &json!({"trace": true, "hooks": true, "state": true, "z80": false})
    );
    assert_eq!(
        caps(2),
        &json!({"trace": true, "hooks": false, "state": false, "z80": false})
    );
    assert_eq!(
        caps(3),
        &json!({"trace": false, "hooks": false, "state": false, "z80": false})
    );
    assert_eq!(list[2]["available"], true);
    assert_eq!(list[2]["searches"], true);
    assert_eq!(list[2]["max_depth"], list[0]["max_depth"]);
    assert_eq!(list[3]["searches"], false);
    assert_eq!(
        list[3]["search_refused"],
        format!("a search in the explorer needs a trace of its search, which the engine `{uci}` does not have")
    );
    // The port and the emulator are still given under their names.
    assert_eq!(engines["port"], list[0]);
    assert_eq!(engines["emulator"], list[1]);

    // The same search on the port and behind exec: the same tree, node for node.
    let port = search(
        &server,
        json!({"fen": ITALIAN, "engine": "port", "depth": 3}),
    );
    let other = search(&server, json!({"fen": ITALIAN, "engine": exec, "depth": 3}));
    assert_eq!(other["request"]["engine"], exec.as_str());
    assert_eq!(other["result"]["engine"], exec.as_str());
    assert_eq!(other["root"], port["root"]);
    assert_eq!(other["pv_nodes"], port["pv_nodes"]);
    assert_eq!(other["events"], port["events"]);
    for field in ["best_uci", "pv_uci", "score_pawns", "sargon_score"] {
        assert_eq!(other["result"][field], port["result"][field], "{field}");
    }
    let (port_id, other_id) = (port["id"].as_u64().unwrap(), other["id"].as_u64().unwrap());
    let (port_nodes, other_nodes) = (all_nodes(&server, port_id), all_nodes(&server, other_id));
    assert!(port_nodes.len() > 500, "{}", port_nodes.len());
    assert!(port_nodes == other_nodes, "the trees differ");
    let steps = |id| server.get(&format!("/api/search/{id}/pv-steps")).1;
    assert_eq!(steps(other_id), steps(port_id));
}

#[test]
fn a_page_can_name_only_the_engines_the_server_offers() {
    let dir = tempfile::tempdir().unwrap();
    let mark = dir.path().join("ran");
    let program = format!("exec:touch '{}'", mark.display());
    let server = Server::start(&[]);
    for name in [program.as_str(), "uci:sh", "stockfish"] {
        let (status, v) = server.post(
            "/api/search",
            json!({"fen": ITALIAN, "engine": name, "depth": 1}),
        );
        assert_eq!(status, 400, "{v}");
        let error = v["error"].as_str().unwrap();
        assert!(
            error.ends_with("is not offered by this server (it offers `port`, `emulator`)"),
            "{error}"
        );
        let (status, v) = server.get(&format!("/api/models?engine={}", query(name)));
        assert_eq!(status, 400, "{v}");
        assert!(v["error"].as_str().unwrap().contains("not offered"), "{v}");
    }
    // The built-in two by their aliases, compared as recorded names.
    let done = search(
        &server,
        json!({"fen": ITALIAN, "engine": "native", "depth": 1}),
    );
    assert_eq!(done["request"]["engine"], "port");
    drop(server);
    // Offered one program, the server runs that one only: not another, nor a variant.
    let exec = our_port_exec();
    let server = Server::start(&["--engine", &exec]);
    for name in [
        program.clone(),
        format!("{exec} "),
        format!("{exec}; touch x"),
    ] {
        let (status, v) = server.post(
            "/api/search",
            json!({"fen": ITALIAN, "engine": name, "depth": 1}),
        );
        assert_eq!(status, 400, "{v}");
        assert!(v["error"].as_str().unwrap().contains("not offered"), "{v}");
    }
    std::thread::sleep(Duration::from_millis(200));
    assert!(!mark.exists(), "a page ran a program of its own");
}

#[test]
fn what_another_port_lacks_is_refused_naming_the_capability() {
    let exec = our_port_exec();
    let uci = our_port_uci();
    let server = Server::start(&["--engine", &exec, "--engine", &uci]);
    // The models need hooks; neither port has them.
    for name in [&exec, &uci] {
        let (status, v) = server.get(&format!("/api/models?engine={}", query(name)));
        assert_eq!(status, 400, "{v}");
        assert_eq!(
            v["error"],
            format!("running the models needs hooks, which the engine `{name}` does not have")
        );
    }
    // A search opens as a tree: a UCI port, with answers only, is refused.
    let (status, v) = server.post(
        "/api/search",
        json!({"fen": ITALIAN, "engine": uci, "depth": 2}),
    );
    assert_eq!(status, 400, "{v}");
    assert_eq!(
        v["error"],
        format!("a search in the explorer needs a trace of its search, which the engine `{uci}` does not have")
    );

    // The memory at a node of the exec: port's search is the port's (and the original's)
    // at that node, said so.
    let port = search(
        &server,
        json!({"fen": ITALIAN, "engine": "port", "depth": 2}),
    );
    let other = search(&server, json!({"fen": ITALIAN, "engine": exec, "depth": 2}));
    let node = other["pv_nodes"][1].as_u64().unwrap();
    let memory = |s: &Value| {
        let (status, m) = server.get(&format!("/api/search/{}/node/{node}/memory", s["id"]));
        assert_eq!(status, 200, "{m}");
        m
    };
    let (theirs, ours) = (memory(&other), memory(&port));
    assert_eq!(theirs["port"], ours["port"]);
    assert_eq!(theirs["port"]["evaluated"], true);
    assert_eq!(theirs["emulator"], ours["emulator"]);
    assert_eq!(ours["note"], Value::Null);
    let note = theirs["note"].as_str().unwrap();
    assert!(
        note.starts_with(&format!("this search was made by `{}`, which is not read here: these are the port's and the original's memories", echo(&exec))),
        "{note}"
    );

    // The profile is the original's, of the same search, said so (or refused without a ROM).
    let (status, p) = server.get(&format!("/api/search/{}/profile", other["id"]));
    if sargon_original::rom::RomStore::open(None)
        .load(None)
        .is_ok()
    {
        assert_eq!(status, 200, "{p}");
        assert!(
            p["note"].as_str().unwrap().ends_with("this is the original's profile of the same position, depth and book, run on the emulator"),
            "{p}"
        );
        assert!(p["totals"]["t_states"].as_u64().unwrap() > 0, "{p}");
        common::ran_with_rom("what_another_port_lacks_is_refused_naming_the_capability");
    } else {
        assert_eq!(status, 409, "{p}");
        common::skip_for_want_of_rom(
            "what_another_port_lacks_is_refused_naming_the_capability",
            "the profile of the exec: port's search was refused for want of a ROM, not run",
        );
    }
}

#[test]
fn a_ports_search_too_big_to_keep_names_the_command_quoted() {
    let exec = our_port_exec();
    let server = Server::start(&["--keep-nodes", "300", "--engine", &exec]);
    let (_, v) = server.post(
        "/api/search",
        json!({"fen": ITALIAN, "engine": exec, "depth": 3}),
    );
    let done = server.wait(v["id"].as_u64().unwrap());
    assert_eq!(done["state"], "failed", "{done}");
    let error = done["error"].as_str().unwrap();
    // The program's command line, with its quotes and `$`, as one word for the shell.
    let quoted = format!("'{}'", exec.replace('\'', r"'\''"));
    assert!(
        error.contains(&format!("--depth 3 --engine {quoted}`")),
        "{error}"
    );
}

#[test]
fn a_uci_port_that_does_not_start_stops_the_server_with_one_line() {
    let out = common::sargon(&["serve", "--port", "0", "--engine", "uci:exit 3"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr
            .starts_with("error: cannot offer the engine `uci:exit 3`: cannot start the UCI port"),
        "{stderr}"
    );
}
