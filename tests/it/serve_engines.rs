//! `sargon serve --engine SPEC`: other people's ports in the explorer. Our own port stands
//! in for them, behind `exec:` (`sargon trace`, a trace only) and `uci:` (`sargon uci`,
//! answers only): the `exec:` port is offered, its search opens as the port's own tree
//! node for node; what either lacks is refused with the capability's sentence; and a page
//! can never name a program the server was not started with.

use crate::common;

use std::time::Duration;

use sargon_core::input::echo;
use sargon_explorer::api::{
    CapabilitiesInfo, EnginesAnswer, ErrorAnswer, MemoryAnswer, ProfileAnswer, PvStepsAnswer,
    SearchBody, SearchStatus,
};

use common::serve_api::{our_port_exec, search_body, Server};

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

/// A finished search of `fen` to `depth` with `engine`.
fn search(server: &Server, fen: &str, depth: u8, engine: &str) -> SearchStatus {
    let done = server.wait(server.search(&with_engine(fen, depth, engine)).id);
    assert_eq!(done.state, "done", "{done:?}");
    done
}

/// A search with `engine`.
fn with_engine(fen: &str, depth: u8, engine: &str) -> SearchBody {
    SearchBody {
        engine: engine.to_string(),
        ..search_body(fen, depth)
    }
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
    let (status, engines): (u16, EnginesAnswer) = server.get("/api/engines");
    assert_eq!(status, 200, "{engines:?}");
    let list = &engines.engines;
    let names: Vec<&str> = list.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["port", "emulator", exec.as_str(), uci.as_str()]);
    let caps = |i: usize| list[i].capabilities;
    let can = |trace, hooks, state, z80| {
        Some(CapabilitiesInfo {
            trace,
            hooks,
            state,
            z80,
        })
    };
    assert_eq!(caps(0), can(true, true, true, false));
    assert_eq!(caps(2), can(true, false, false, false));
    assert_eq!(caps(3), can(false, false, false, false));
    assert!(list[2].available);
    assert!(list[2].searches);
    assert_eq!(list[2].max_depth, list[0].max_depth);
    assert!(!list[3].searches);
    assert_eq!(
        list[3].search_refused,
        Some(format!("a search in the explorer needs a trace of its search, which the engine `{uci}` does not have"))
    );
    // The port and the emulator are still given under their names.
    assert_eq!(engines.port, list[0]);
    assert_eq!(engines.emulator, list[1]);

    // The same search on the port and behind exec: the same tree, node for node.
    let port = search(&server, ITALIAN, 3, "port");
    let other = search(&server, ITALIAN, 3, &exec);
    let (port_result, other_result) = (port.result.unwrap(), other.result.unwrap());
    assert_eq!(other.request.engine, exec.as_str());
    assert_eq!(other_result["engine"], exec.as_str());
    assert_eq!(other.root, port.root);
    assert_eq!(other.pv_nodes, port.pv_nodes);
    assert_eq!(other.events, port.events);
    for field in ["best_uci", "pv_uci", "score_pawns", "sargon_score"] {
        assert_eq!(other_result[field], port_result[field], "{field}");
    }
    let (port_nodes, other_nodes) = (all_nodes(&server, port.id), all_nodes(&server, other.id));
    assert!(port_nodes.len() > 500, "{}", port_nodes.len());
    assert!(port_nodes == other_nodes, "the trees differ");
    let steps = |id| -> PvStepsAnswer { server.get(&format!("/api/search/{id}/pv-steps")).1 };
    assert_eq!(steps(other.id), steps(port.id));
}

#[test]
fn a_page_can_name_only_the_engines_the_server_offers() {
    let dir = tempfile::tempdir().unwrap();
    let mark = dir.path().join("ran");
    let program = format!("exec:touch '{}'", mark.display());
    let server = Server::start(&[]);
    for name in [program.as_str(), "uci:sh", "stockfish"] {
        let (status, v): (u16, ErrorAnswer) =
            server.post("/api/search", &with_engine(ITALIAN, 1, name));
        assert_eq!(status, 400, "{v:?}");
        assert!(
            v.error
                .ends_with("is not offered by this server (it offers `port`, `emulator`)"),
            "{v:?}"
        );
        let (status, v): (u16, ErrorAnswer) =
            server.get(&format!("/api/models?engine={}", query(name)));
        assert_eq!(status, 400, "{v:?}");
        assert!(v.error.contains("not offered"), "{v:?}");
    }
    // The built-in two by their aliases, compared as recorded names.
    let done = search(&server, ITALIAN, 1, "native");
    assert_eq!(done.request.engine, "port");
    drop(server);
    // Offered one program, the server runs that one only: not another, nor a variant.
    let exec = our_port_exec();
    let server = Server::start(&["--engine", &exec]);
    for name in [
        program.clone(),
        format!("{exec} "),
        format!("{exec}; touch x"),
    ] {
        let (status, v): (u16, ErrorAnswer) =
            server.post("/api/search", &with_engine(ITALIAN, 1, &name));
        assert_eq!(status, 400, "{v:?}");
        assert!(v.error.contains("not offered"), "{v:?}");
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
        let (status, v): (u16, ErrorAnswer) =
            server.get(&format!("/api/models?engine={}", query(name)));
        assert_eq!(status, 400, "{v:?}");
        assert_eq!(
            v.error,
            format!("running the models needs hooks, which the engine `{name}` does not have")
        );
    }
    // A search opens as a tree: a UCI port, with answers only, is refused.
    let (status, v): (u16, ErrorAnswer) =
        server.post("/api/search", &with_engine(ITALIAN, 2, &uci));
    assert_eq!(status, 400, "{v:?}");
    assert_eq!(
        v.error,
        format!("a search in the explorer needs a trace of its search, which the engine `{uci}` does not have")
    );

    // The memory at a node of the exec: port's search is the port's (and the original's)
    // at that node, said so.
    let port = search(&server, ITALIAN, 2, "port");
    let other = search(&server, ITALIAN, 2, &exec);
    let node = other.pv_nodes.as_ref().expect("a finished search's PV")[1];
    let memory = |s: &SearchStatus| {
        let (status, m): (u16, MemoryAnswer) =
            server.get(&format!("/api/search/{}/node/{node}/memory", s.id));
        assert_eq!(status, 200, "{m:?}");
        m
    };
    let (theirs, ours) = (memory(&other), memory(&port));
    assert_eq!(theirs.port, ours.port);
    assert!(theirs.port.as_ref().expect("the port's memory").evaluated);
    assert_eq!(theirs.emulator, ours.emulator);
    assert_eq!(ours.note, None);
    let note = theirs.note.expect("a note");
    assert!(
        note.starts_with(&format!("this search was made by `{}`, which is not read here: these are the port's and the original's memories", echo(&exec))),
        "{note}"
    );

    // The profile is the original's, of the same search, said so (or refused without a ROM).
    let path = format!("/api/search/{}/profile", other.id);
    if sargon_original::rom::RomStore::open(None)
        .load(None)
        .is_ok()
    {
        let (status, p): (u16, ProfileAnswer) = server.get(&path);
        assert_eq!(status, 200, "{p:?}");
        assert!(
            p.note.as_deref().unwrap_or("").ends_with("this is the original's profile of the same position, depth and book, run on the emulator"),
            "{p:?}"
        );
        assert!(p.totals["t_states"].as_u64().unwrap() > 0, "{p:?}");
        common::ran_with_rom("what_another_port_lacks_is_refused_naming_the_capability");
    } else {
        let (status, p): (u16, ErrorAnswer) = server.get(&path);
        assert_eq!(status, 409, "{p:?}");
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
    let done = server.wait(server.search(&with_engine(ITALIAN, 3, &exec)).id);
    // Stopped at the budget with its partial tree, which says the command.
    assert_eq!(done.state, "done", "{done:?}");
    let error = done.partial.expect("a partial tree's note");
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
