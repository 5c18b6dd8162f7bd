//! The API's JSON as the page reads it: field names, order, `null` against absent. These
//! texts are what the server answered before its answers were typed (json! values, keys
//! sorted); a field renamed, reordered or skipped differently fails here before it breaks
//! the page.

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::api::*;

/// `value` as JSON is `text`, and `text` reads back as `value`.
fn wire<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(value: &T, text: &str) {
    assert_eq!(serde_json::to_string(value).unwrap(), text);
    assert_eq!(&serde_json::from_str::<T>(text).unwrap(), value);
}

fn engine(name: &str) -> EngineInfo {
    EngineInfo {
        available: true,
        capabilities: Some(CapabilitiesInfo {
            hooks: true,
            state: true,
            trace: true,
            z80: false,
        }),
        core: None,
        max_depth: 20,
        name: name.to_string(),
        practical_depth: 5,
        reason: None,
        rom: None,
        search_refused: None,
        searches: true,
        verified: None,
        warning: None,
    }
}

#[test]
fn an_engine_says_only_what_applies_to_it() {
    wire(
        &engine("port"),
        r#"{"available":true,"capabilities":{"hooks":true,"state":true,"trace":true,"z80":false},"max_depth":20,"name":"port","practical_depth":5,"searches":true}"#,
    );
    // The original with a verified ROM: its warning is there, and null.
    let emulator = EngineInfo {
        core: Some("iz80".into()),
        rom: Some("sargon".into()),
        verified: Some(true),
        warning: Some(None),
        max_depth: 6,
        ..engine("emulator")
    };
    wire(
        &emulator,
        r#"{"available":true,"capabilities":{"hooks":true,"state":true,"trace":true,"z80":false},"core":"iz80","max_depth":6,"name":"emulator","practical_depth":5,"rom":"sargon","searches":true,"verified":true,"warning":null}"#,
    );
    // An engine that cannot be opened: no capabilities, and why.
    let missing = EngineInfo {
        available: false,
        capabilities: None,
        reason: Some("no ROM".into()),
        searches: false,
        ..engine("emulator")
    };
    wire(
        &missing,
        r#"{"available":false,"capabilities":null,"max_depth":20,"name":"emulator","practical_depth":5,"reason":"no ROM","searches":false}"#,
    );
}

#[test]
fn a_search_waiting_gives_its_place_and_a_refusal_its_error() {
    let request = SearchRequestInfo {
        book: true,
        depth: 2,
        engine: "port".into(),
        fen: "8/8/8/8/8/8/8/K6k w - - 0 1".into(),
    };
    let waiting = SearchStatus {
        elapsed_ms: 0,
        error: None,
        events: 0,
        id: 2,
        nodes: 0,
        partial: None,
        place: Some(Some(1)),
        pv_nodes: None,
        request,
        result: None,
        root: None,
        state: "waiting".into(),
    };
    wire(
        &waiting,
        r#"{"elapsed_ms":0,"events":0,"id":2,"nodes":0,"place":1,"request":{"book":true,"depth":2,"engine":"port","fen":"8/8/8/8/8/8/8/K6k w - - 0 1"},"state":"waiting"}"#,
    );
    let failed = SearchStatus {
        error: Some("too big".into()),
        place: None,
        state: "failed".into(),
        ..waiting
    };
    wire(
        &failed,
        r#"{"elapsed_ms":0,"error":"too big","events":0,"id":2,"nodes":0,"request":{"book":true,"depth":2,"engine":"port","fen":"8/8/8/8/8/8/8/K6k w - - 0 1"},"state":"failed"}"#,
    );
    wire(
        &ErrorAnswer {
            error: "no search 9".into(),
        },
        r#"{"error":"no search 9"}"#,
    );
}

#[test]
fn a_node_with_its_children_and_a_child_without() {
    let child = Node {
        best_so_far: false,
        children: None,
        children_count: 0,
        eval: Some(NodeEval {
            alpha_beta: "-0.125".into(),
            alpha_beta_byte: "81".into(),
            byte: "7e".into(),
            decision: "best".into(),
            minimax: None,
            order: 3,
            pawns: "+0.25".into(),
        }),
        fen: None,
        id: 1,
        in_pv: true,
        label: "1. e4".into(),
        legal_path: None,
        parent: Some(0),
        path: None,
        path_labels: None,
        ply: 1,
        status: NodeStatus {
            by_evaluation: Some(None),
            kind: "cut_off".into(),
        },
        subtree: 1,
        uci: Some("e2e4".into()),
    };
    wire(
        &child,
        r#"{"best_so_far":false,"children_count":0,"eval":{"alpha_beta":"-0.125","alpha_beta_byte":"81","byte":"7e","decision":"best","minimax":null,"order":3,"pawns":"+0.25"},"id":1,"in_pv":true,"label":"1. e4","parent":0,"ply":1,"status":{"by_evaluation":null,"kind":"cut_off"},"subtree":1,"uci":"e2e4"}"#,
    );
    let root = Node {
        best_so_far: false,
        children: Some(vec![]),
        children_count: 0,
        eval: None,
        fen: Some("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
        id: 0,
        in_pv: false,
        label: "root".into(),
        legal_path: Some(true),
        parent: None,
        path: Some(vec![]),
        path_labels: Some(vec![]),
        ply: 0,
        status: NodeStatus {
            by_evaluation: None,
            kind: "root".into(),
        },
        subtree: 2,
        uci: None,
    };
    wire(
        &root,
        r#"{"best_so_far":false,"children":[],"children_count":0,"fen":"8/8/8/8/8/8/8/K6k w - - 0 1","id":0,"in_pv":false,"label":"root","legal_path":true,"parent":null,"path":[],"path_labels":[],"ply":0,"status":{"kind":"root"},"subtree":2,"uci":null}"#,
    );
}

#[test]
fn bodies_take_the_pages_defaults() {
    let body: SearchBody = serde_json::from_str(r#"{"fen":"startpos","depth":3}"#).unwrap();
    assert_eq!(
        body,
        SearchBody {
            fen: "startpos".into(),
            engine: "port".into(),
            depth: 3,
            book: true,
            page: None,
        }
    );
    let body: CompareBody = serde_json::from_str(r#"{"fen":"startpos","depth":2}"#).unwrap();
    assert!(body.book);
    assert_eq!(body.engine, "port");
    let query: ModelsQuery = serde_json::from_str("{}").unwrap();
    assert_eq!(query.engine, "port");
}
