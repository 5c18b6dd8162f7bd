//! `sargon serve`: a window into Sargon's search, in the browser.
//!
//! One command serves one page and a small JSON API over the library: a search runs once
//! on a worker thread and its whole tree is kept in memory ([`searches`]), and the page
//! asks for nodes one at a time, so a search of a million events opens at once and every
//! click costs a lookup. Everything the page needs is compiled into the binary (the files
//! of `src/serve/page/`): no network, no install, and the page's code is the project's own.
//!
//! The server is meant for one person on their own machine: it binds to the loopback
//! address unless told otherwise, and checks the `Host` and `Origin` of every request, so
//! that a web page elsewhere cannot reach it through the browser (DNS rebinding). Bodies
//! are capped, searches run a few at a time, and trees are kept within a node budget.
//!
//! The HTTP API is described in docs/explorer.md.

use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context as _, Result};
use axum::extract::{FromRequest, Path as UrlPath, Query, Request, State as AxumState};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::{self, Next};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};
use shakmaty::{Chess, Color, Position};

use sargon_core::engine::{Capability, SearchOptions};
use sargon_core::input::echo;
use sargon_core::position;
use sargon_core::trace::Event;
use sargon_original::rom::RomStore;
use sargon_tools::engines::EngineSpec;
use sargon_tools::tree::{pawns, SearchTree, Status};

mod engines;
pub(crate) mod memory;
pub(crate) mod searches;

use engines::Engines;
use sargon_core::position::Book;
use searches::{Finished, Search, SearchRequest, Searches, State};

/// The largest request body: a FEN, or a PGN of 1 MB.
const MAX_BODY: usize = 1 << 20;

/// `sargon serve`.
#[derive(clap::Args, Debug)]
pub(crate) struct ServeArgs {
    /// Port to listen on (0: any free port)
    #[arg(long, default_value_t = 8078, value_parser = crate::cli::numbers::tcp_port, allow_negative_numbers = true)]
    pub port: u16,
    /// Address to listen on; anything but loopback makes the explorer reachable from other
    /// machines (a warning is printed)
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// Open the page in the default browser once the server listens
    #[arg(long)]
    pub open: bool,
    /// ROM to run with the emulator (default: the only one imported, or `sargon`)
    #[arg(long)]
    pub rom: Option<String>,
    #[command(flatten)]
    pub core: crate::cli::CoreArgs,
    /// Searches that run at once (others wait in line)
    #[arg(long, default_value_t = 2, value_parser = crate::cli::numbers::jobs, allow_negative_numbers = true)]
    pub jobs: usize,
    /// Search-tree nodes kept in memory, all searches together (about 400 bytes each); a
    /// search that alone creates more is stopped and the page told how to stream it
    #[arg(long, default_value_t = 1_500_000, value_parser = crate::cli::numbers::keep_nodes, allow_negative_numbers = true)]
    pub keep_nodes: usize,
    /// Another engine to offer in the page's engine choice, besides the port and the
    /// original: `exec:COMMAND` or `uci:COMMAND` (another person's port), given again for
    /// each; a page can choose only these, never name a program itself
    #[arg(long = "engine", value_name = "SPEC", value_parser = crate::cli::parse_engine)]
    pub engines: Vec<EngineSpec>,
}

/// The server's state, shared by every request.
struct App {
    searches: Arc<Searches>,
    /// The engines a page may choose.
    engines: Engines,
    /// `Host` values a request may carry.
    hosts: Vec<String>,
}

/// Run the server until Ctrl-C.
pub(crate) fn run(store: &RomStore, args: ServeArgs) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(serve(store.clone(), args))
}

async fn serve(store: RomStore, args: ServeArgs) -> Result<()> {
    // The page can always choose the emulator, so `--core` is never refused here.
    let core = args.core.core.unwrap_or_default();
    let searches = Arc::new(Searches::new(
        store,
        args.rom,
        core,
        // Searches wait in line for a worker: more workers than cores would only share them.
        crate::cli::numbers::workers(Some(args.jobs), usize::MAX),
        args.keep_nodes,
    ));
    let engines = Engines::new(&searches, args.engines).map_err(anyhow::Error::msg)?;
    let addr = SocketAddr::new(args.bind, args.port);
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| match args.port {
            0 => format!("cannot listen on {}", args.bind),
            port => format!(
                "cannot listen on {addr} (is another `sargon serve` running? `--port {}` or `--port 0` picks another)",
                port.wrapping_add(1)
            ),
        })?;
    let local = listener.local_addr()?;
    if !args.bind.is_loopback() {
        eprintln!(
            "warning: listening on {}: anyone who can reach this machine can run searches on it",
            local
        );
    }
    let app = Arc::new(App {
        searches,
        engines,
        hosts: allowed_hosts(local),
    });
    let url = format!("http://{}/", display_host(local));
    println!("sargon serve: {url}  (Ctrl-C stops it)");
    if args.open {
        open_browser(&url);
    }
    axum::serve(listener, router(app))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .context("the server stopped")?;
    Ok(())
}

/// The address as a browser writes it.
fn display_host(addr: SocketAddr) -> String {
    match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => format!("127.0.0.1:{}", addr.port()),
        IpAddr::V6(ip) if ip.is_unspecified() => format!("[::1]:{}", addr.port()),
        _ => addr.to_string(),
    }
}

/// The `Host` values of requests meant for this server: its loopback names, and its own
/// address when bound elsewhere. Anything else is a page of another site that reached
/// the loopback port through a name it controls.
fn allowed_hosts(local: SocketAddr) -> Vec<String> {
    let port = local.port();
    let mut hosts = vec![
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
    ];
    if !local.ip().is_loopback() && !local.ip().is_unspecified() {
        hosts.push(local.to_string());
    }
    hosts
}

fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        eprintln!("note: could not open a browser ({opener}: {e}); open {url} yourself");
    }
}

fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(page_html))
        .route("/app.js", get(page_js))
        .route("/style.css", get(page_css))
        .route("/favicon.ico", get(favicon))
        .route("/api/engines", get(engines))
        .route("/api/position", post(position_route))
        .route("/api/pgn", post(pgn_route))
        .route("/api/search", post(search_start))
        .route("/api/search/{id}", get(search_status))
        .route("/api/search/{id}/progress", get(search_progress))
        .route("/api/search/{id}/cancel", post(search_cancel))
        .route("/api/search/{id}/node/{node}", get(node_route))
        .route("/api/search/{id}/node/{node}/memory", get(memory::route))
        .route("/api/search/{id}/find", get(find_route))
        .route("/api/search/{id}/pv-steps", get(pv_steps))
        .route("/api/compare", post(compare_route))
        .route("/api/models", get(models_route))
        .route("/api/search/{id}/profile", get(profile_route))
        .route("/api/listing/{routine}", get(listing_route))
        .fallback(|| async { ApiError::not_found("no such page or API route") })
        .layer(middleware::from_fn_with_state(app.clone(), check_host))
        .with_state(app)
}

// ---------------------------------------------------------------------------------------
// Errors, bodies, the host check

/// A refused request: a status and one line, sent as `{"error": "..."}`.
#[derive(Debug)]
struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }
    fn not_found(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: message.into(),
        }
    }
    fn conflict(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::CONFLICT,
            message: message.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

/// A JSON request body, at most [`MAX_BODY`] bytes, refused with a JSON error otherwise.
struct Body<T>(T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, _: &S) -> Result<Self, ApiError> {
        let bytes = axum::body::to_bytes(req.into_body(), MAX_BODY)
            .await
            .map_err(|_| ApiError {
                status: StatusCode::PAYLOAD_TOO_LARGE,
                message: format!("the request body is larger than {MAX_BODY} bytes"),
            })?;
        serde_json::from_slice(&bytes).map(Body).map_err(|e| {
            ApiError::bad(format!(
                "the request body is not the JSON this route takes: {e}"
            ))
        })
    }
}

/// Refuse requests whose `Host` is not this server's, or that come from another site's
/// page (`Origin`).
async fn check_host(
    AxumState(app): AxumState<Arc<App>>,
    headers: HeaderMap,
    req: Request,
    next: Next,
) -> Response {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !app.hosts.iter().any(|h| h == host) {
        return ApiError {
            status: StatusCode::FORBIDDEN,
            message: format!(
                "Host `{}` is not this server's (it answers to {})",
                echo(host),
                app.hosts.join(", ")
            ),
        }
        .into_response();
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let ours = app.hosts.iter().any(|h| origin == format!("http://{h}"));
        if !ours {
            return ApiError {
                status: StatusCode::FORBIDDEN,
                message: format!("requests from the page of `{}` are refused", echo(origin)),
            }
            .into_response();
        }
    }
    next.run(req).await
}

// ---------------------------------------------------------------------------------------
// The page

async fn page_html() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        include_str!("page/index.html"),
    )
}

async fn page_js() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        include_str!("page/app.js"),
    )
}

async fn page_css() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        include_str!("page/style.css"),
    )
}

/// A black knight on a green square, for the browser's tab.
async fn favicon() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "image/svg+xml")],
        "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'><rect width='16' height='16' rx='2' fill='#769656'/><text x='8' y='13.5' font-size='14' text-anchor='middle'>\u{265E}</text></svg>",
    )
}

// ---------------------------------------------------------------------------------------
// Engines and positions

/// Every engine a page may choose (`Engines::list`), the port and the emulator also
/// under their names as before, and the workers' load.
async fn engines(AxumState(app): AxumState<Arc<App>>) -> Json<Value> {
    let list = app.engines.list(&app.searches);
    let (running, waiting) = app.searches.load();
    Json(json!({
        "port": list[0],
        "emulator": list[1],
        "engines": list,
        "jobs": app.searches.workers,
        "running": running,
        "waiting": waiting,
    }))
}

#[derive(serde::Deserialize)]
struct PositionBody {
    text: String,
}

/// A position and its legal moves, for the board.
fn position_json(pos: &Chess, notices: &[String]) -> Value {
    let legal: Vec<Value> = pos
        .legal_moves()
        .iter()
        .map(|m| {
            let uci = m.to_uci(shakmaty::CastlingMode::Standard).to_string();
            let san = shakmaty::san::SanPlus::from_move(pos.clone(), *m).to_string();
            json!({"uci": uci, "san": san})
        })
        .collect();
    json!({
        "fen": position::fen_of(pos),
        "turn": if pos.turn() == Color::White { "white" } else { "black" },
        "fullmove": pos.fullmoves().get(),
        "legal": legal,
        "book_position": position::setup(pos, Book::Allowed).map(|s| s.plays_from_book()).unwrap_or(false),
        "representable": position::setup(pos, Book::Off).err().map(|e| e.to_string()),
        "game_end": sargon_tools::analysis::GameEnd::of(pos),
        "notices": notices,
    })
}

/// `POST /api/position {"text": ...}`: a FEN, an EPD line, `startpos`, each maybe followed
/// by `moves ...`, read as the command line reads it.
async fn position_route(Body(body): Body<PositionBody>) -> Result<Json<Value>, ApiError> {
    let read = position::read_position(&body.text).map_err(|e| ApiError::bad(e.to_string()))?;
    Ok(Json(position_json(&read.position, &read.notices)))
}

#[derive(serde::Deserialize)]
struct PgnBody {
    pgn: String,
}

/// `POST /api/pgn {"pgn": ...}`: the first game's positions, one per move, to pick from.
async fn pgn_route(Body(body): Body<PgnBody>) -> Result<Json<Value>, ApiError> {
    let games =
        sargon_tools::pgn::read_games(&body.pgn).map_err(|e| ApiError::bad(e.to_string()))?;
    let Some(game) = games.first() else {
        return Err(ApiError::bad("the PGN holds no game"));
    };
    let mut pos = game.start.clone();
    let mut plies = vec![json!({"san": null, "fen": position::fen_of(&pos)})];
    for m in &game.moves {
        let san = shakmaty::san::SanPlus::from_move(pos.clone(), *m).to_string();
        let number = pos.fullmoves().get();
        let label = match pos.turn() {
            Color::White => format!("{number}.{san}"),
            Color::Black => format!("{number}...{san}"),
        };
        pos.play_unchecked(*m);
        plies.push(json!({"san": label, "fen": position::fen_of(&pos)}));
    }
    Ok(Json(json!({
        "players": game.players(),
        "games": games.len(),
        "positions": plies,
    })))
}

// ---------------------------------------------------------------------------------------
// Searches

#[derive(serde::Deserialize)]
struct SearchBody {
    fen: String,
    #[serde(default = "default_engine")]
    engine: String,
    depth: u8,
    #[serde(default = "yes")]
    book: bool,
    /// The page asking (its earlier search is cancelled).
    page: Option<String>,
}

fn default_engine() -> String {
    "port".into()
}

fn yes() -> bool {
    true
}

/// Read a search request: the position as the command line reads it, the engine by name
/// (one the server offers, with a trace to draw the tree from).
fn search_request(app: &App, body: &SearchBody) -> Result<SearchRequest, ApiError> {
    let read = position::read_position(&body.fen).map_err(|e| ApiError::bad(e.to_string()))?;
    position::setup(&read.position, Book::from(body.book))
        .map_err(|e| ApiError::bad(e.to_string()))?;
    let engine = app.engines.offered(&body.engine)?;
    app.engines
        .require(&app.searches, &engine, Capability::Trace, engines::A_SEARCH)?;
    Ok(SearchRequest {
        fen: position::fen_of(&read.position),
        engine,
        depth: body.depth,
        book: body.book,
    })
}

/// `POST /api/search`: start a search (or find it finished) and say its number.
async fn search_start(
    AxumState(app): AxumState<Arc<App>>,
    Body(body): Body<SearchBody>,
) -> Result<Json<Value>, ApiError> {
    let request = search_request(&app, &body)?;
    if request.engine.is_emulator() {
        app.searches
            .store
            .load(app.searches.rom.as_deref())
            .map_err(|e| ApiError::conflict(e.to_string()))?;
    }
    let search = app
        .searches
        .ask(request, body.page.clone())
        .map_err(|e| ApiError::bad(e.to_string()))?;
    Ok(Json(status_json(&app, &search)))
}

fn get_search(app: &App, id: u64) -> Result<Arc<Search>, ApiError> {
    app.searches.get(id).ok_or_else(|| {
        ApiError::not_found(format!(
            "no search {id}: it was never started, or was dropped to keep memory within --keep-nodes (search again)"
        ))
    })
}

fn finished(search: &Search) -> Result<Arc<Finished>, ApiError> {
    match search.state() {
        State::Done(f) => Ok(f),
        state => Err(ApiError::conflict(format!(
            "search {} is {}, not done",
            search.id,
            state.name()
        ))),
    }
}

/// A search's state, progress and, once done, its result.
fn status_json(app: &App, search: &Search) -> Value {
    let state = search.state();
    let mut v = json!({
        "id": search.id,
        "request": search.request,
        "state": state.name(),
        "nodes": search.nodes.load(Ordering::Relaxed),
        "events": search.events.load(Ordering::Relaxed),
        "elapsed_ms": search.elapsed().as_millis() as u64,
    });
    match &state {
        State::Waiting => v["place"] = json!(app.searches.place(search.id)),
        State::Failed(why) => v["error"] = json!(why),
        State::Done(f) => {
            v["result"] = serde_json::to_value(&f.analysis).unwrap_or(Value::Null);
            v["events"] = json!(f.events);
            v["root"] = node_json(f, 0, true);
            v["pv_nodes"] = json!(f.tree.pv());
        }
        _ => {}
    }
    v
}

async fn search_status(
    AxumState(app): AxumState<Arc<App>>,
    UrlPath(id): UrlPath<u64>,
) -> Result<Json<Value>, ApiError> {
    let search = get_search(&app, id)?;
    Ok(Json(status_json(&app, &search)))
}

async fn search_cancel(
    AxumState(app): AxumState<Arc<App>>,
    UrlPath(id): UrlPath<u64>,
) -> Result<Json<Value>, ApiError> {
    let search = get_search(&app, id)?;
    search.cancel();
    Ok(Json(json!({"id": id, "state": search.state().name()})))
}

/// Cancels a search when the page watching it goes away (its progress stream is dropped
/// before the search is over).
struct CancelOnDrop(Arc<Search>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if !self.0.state().is_over() {
            self.0.cancel();
        }
    }
}

/// `GET /api/search/{id}/progress`: server-sent events, one status every 200 ms until the
/// search is over (the last one carries the result). Closing the stream cancels the search.
async fn search_progress(
    AxumState(app): AxumState<Arc<App>>,
    UrlPath(id): UrlPath<u64>,
) -> Result<impl IntoResponse, ApiError> {
    let search = get_search(&app, id)?;
    let guard = CancelOnDrop(search);
    let stream = futures_util::stream::unfold(
        (app, guard, false, true),
        |(app, guard, ended, first)| async move {
            if ended {
                return None;
            }
            if !first {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            let status = status_json(&app, &guard.0);
            let over = guard.0.state().is_over();
            let event = SseEvent::default().data(status.to_string());
            Some((
                Ok::<_, std::convert::Infallible>(event),
                (app, guard, over, false),
            ))
        },
    );
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

// ---------------------------------------------------------------------------------------
// Nodes

fn status_name(status: Status) -> Value {
    match status {
        Status::Root => json!({"kind": "root"}),
        Status::Evaluated => json!({"kind": "evaluated"}),
        Status::Refuted { at } => json!({"kind": "refuted", "by_evaluation": at}),
        Status::CutOff { by } => json!({"kind": "cut_off", "by_evaluation": by}),
        Status::Illegal => json!({"kind": "illegal"}),
        Status::NotEvaluated => json!({"kind": "not_evaluated"}),
    }
}

/// Sargon's score byte for a score in pawns (the byte is 0x80 minus eighths of a pawn).
fn score_byte(p: f64) -> String {
    let units = (p * 8.0).round() as i32;
    format!("{:02x}", (0x80 - units).clamp(0, 255))
}

/// A node, with its children's summaries when `children`.
fn node_json(f: &Finished, id: usize, children: bool) -> Value {
    let tree: &SearchTree = &f.tree;
    let node = &tree.nodes[id];
    let path = searches::path_to(tree, id);
    let mut v = json!({
        "id": id,
        "parent": node.parent,
        "ply": node.ply,
        "label": if id == 0 { "root".to_string() } else { node.label.clone() },
        "uci": node.mv.map(|m| m.uci()),
        "status": status_name(node.status),
        "in_pv": node.in_pv,
        "best_so_far": node.best_so_far,
        "subtree": f.subtree[id],
        "children_count": node.children.len(),
    });
    if let Some(e) = &node.eval {
        v["eval"] = json!({
            "order": e.order,
            "pawns": pawns(e.score),
            "byte": score_byte(e.score),
            "decision": e.decision.name(),
            "alpha_beta": pawns(e.alpha_beta),
            "alpha_beta_byte": score_byte(e.alpha_beta),
            "minimax": e.minimax.map(pawns),
        });
    }
    if children {
        let (pos, legal) = searches::play(&f.root, &path);
        v["path"] = json!(path.iter().map(|m| m.uci()).collect::<Vec<_>>());
        v["path_labels"] = json!(path_labels(tree, id));
        v["fen"] = json!(position::fen_of(&pos));
        v["legal_path"] = json!(legal == path.len());
        v["children"] = node
            .children
            .iter()
            .map(|&c| node_json(f, c, false))
            .collect();
    }
    v
}

/// The labels of the nodes from the root's first move down to `id`.
fn path_labels(tree: &SearchTree, mut id: usize) -> Vec<String> {
    let mut labels = Vec::new();
    while let Some(parent) = tree.nodes[id].parent {
        labels.push(tree.nodes[id].label.clone());
        id = parent;
    }
    labels.reverse();
    labels
}

async fn node_route(
    AxumState(app): AxumState<Arc<App>>,
    UrlPath((id, node)): UrlPath<(u64, usize)>,
) -> Result<Json<Value>, ApiError> {
    let f = finished(&*get_search(&app, id)?)?;
    if node >= f.tree.nodes.len() {
        return Err(ApiError::not_found(format!(
            "search {id} has no node {node} (it has {})",
            f.tree.nodes.len()
        )));
    }
    Ok(Json(node_json(&f, node, true)))
}

#[derive(serde::Deserialize)]
struct FindQuery {
    /// Moves in UCI, separated by spaces or commas.
    path: String,
}

/// `GET /api/search/{id}/find?path=e2e4,e7e5`: the node a move path leads to.
async fn find_route(
    AxumState(app): AxumState<Arc<App>>,
    UrlPath(id): UrlPath<u64>,
    Query(q): Query<FindQuery>,
) -> Result<Json<Value>, ApiError> {
    let f = finished(&*get_search(&app, id)?)?;
    let mut at = 0usize;
    for (i, word) in q
        .path
        .split([' ', ','])
        .filter(|w| !w.is_empty())
        .enumerate()
    {
        let next = f.tree.nodes[at]
            .children
            .iter()
            .copied()
            .find(|&c| f.tree.nodes[c].mv.is_some_and(|m| m.uci() == word));
        match next {
            Some(c) => at = c,
            None => {
                return Err(ApiError::not_found(format!(
                    "move {} of the path, `{}`, is not a node of this search{}",
                    i + 1,
                    echo(word),
                    if at == 0 {
                        " at the root".to_string()
                    } else {
                        format!(" below {}", f.tree.nodes[at].label)
                    }
                )))
            }
        }
    }
    Ok(Json(node_json(&f, at, true)))
}

/// `GET /api/search/{id}/pv-steps`: the backward scan of "A Window into Sargon" over the
/// `best` events: from the last event to the first, the first node of ply 1 met, then
/// the first of ply 2 met after it that continues it, and so on. Each step names the
/// event, the node, and how many `best` events were passed over before it.
async fn pv_steps(
    AxumState(app): AxumState<Arc<App>>,
    UrlPath(id): UrlPath<u64>,
) -> Result<Json<Value>, ApiError> {
    let f = finished(&*get_search(&app, id)?)?;
    let mut line: Vec<sargon_core::vocab::SMove> = Vec::new();
    let mut steps = Vec::new();
    let mut passed = 0u64;
    for (index, path) in f.best_events.iter().rev() {
        if path.len() == line.len() + 1 && path.starts_with(&line) {
            line = path.clone();
            let node = find_node(&f.tree, path);
            steps.push(json!({
                "event": index,
                "ply": path.len(),
                "path": path.iter().map(|m| m.uci()).collect::<Vec<_>>(),
                "node": node,
                "label": node.map(|n| f.tree.nodes[n].label.clone()),
                "passed_over": passed,
            }));
            passed = 0;
        } else {
            passed += 1;
        }
    }
    Ok(Json(json!({
        "best_events": f.best_events.len(),
        "events": f.events,
        "steps": steps,
        "pv": line.iter().map(|m| m.uci()).collect::<Vec<_>>(),
    })))
}

fn find_node(tree: &SearchTree, path: &[sargon_core::vocab::SMove]) -> Option<usize> {
    let mut at = 0usize;
    for m in path {
        at = tree.nodes[at]
            .children
            .iter()
            .copied()
            .find(|&c| tree.nodes[c].mv == Some(*m))?;
    }
    Some(at)
}

// ---------------------------------------------------------------------------------------
// Compare

#[derive(serde::Deserialize)]
struct CompareBody {
    fen: String,
    depth: u8,
    #[serde(default = "yes")]
    book: bool,
}

/// Stops a comparison when its request goes away (the page closed or cancelled).
struct StopOnDrop(Arc<std::sync::atomic::AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// `POST /api/compare`: the original and the port on the same search, event by event.
async fn compare_route(
    AxumState(app): AxumState<Arc<App>>,
    Body(body): Body<CompareBody>,
) -> Result<Json<Value>, ApiError> {
    let request = search_request(
        &app,
        &SearchBody {
            fen: body.fen,
            engine: "emulator".into(),
            depth: body.depth,
            book: body.book,
            page: None,
        },
    )?;
    EngineSpec::EMULATOR
        .check_depth(request.depth)
        .map_err(|e| ApiError::bad(e.to_string()))?;
    let left = app
        .searches
        .open(&EngineSpec::EMULATOR)
        .map_err(|e| ApiError::conflict(e.to_string()))?;
    let right = app
        .searches
        .open(&EngineSpec::Port)
        .map_err(|e| ApiError::conflict(e.to_string()))?;
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let _guard = StopOnDrop(stop.clone());
    let started = std::time::Instant::now();
    let work = tokio::task::spawn_blocking(move || {
        let root = position::parse_position(&request.fen).map_err(|e| e.to_string())?;
        let setup = position::setup(&root, Book::from(request.book)).map_err(|e| e.to_string())?;
        let mut left = left.engine;
        let mut right = right.engine;
        let opts = SearchOptions {
            depth: request.depth,
            stop: Some(stop),
            ..SearchOptions::default()
        };
        sargon_tools::diff::compare(left.as_mut(), right.as_mut(), &setup, &opts)
            .map(|c| (c, root))
            .map_err(|e| e.to_string())
    });
    let (comparison, root) = work
        .await
        .map_err(|e| ApiError::bad(format!("the comparison failed: {e}")))?
        .map_err(ApiError::bad)?;
    let divergence = comparison.divergence.as_ref().map(|d| {
        let show = |e: &Option<Event>| match e {
            Some(e) => e.to_string(),
            None => "(its trace had ended)".to_string(),
        };
        let path = d.path().cloned().unwrap_or_default();
        let (pos, _) = searches::play(&root, &path);
        json!({
            "index": d.index,
            "emulator": show(&d.left),
            "port": show(&d.right),
            "path": path.iter().map(|m| m.uci()).collect::<Vec<_>>(),
            "fen": position::fen_of(&pos),
        })
    });
    Ok(Json(json!({
        "events": comparison.events,
        "divergences": usize::from(divergence.is_some()),
        "divergence": divergence,
        "elapsed_ms": started.elapsed().as_millis() as u64,
    })))
}

// ---------------------------------------------------------------------------------------
// The models of "A Window into Sargon"

#[derive(serde::Deserialize)]
struct ModelsQuery {
    #[serde(default = "default_engine")]
    engine: String,
}

/// `GET /api/models?engine=port`: the five examples, each Sargon's real search of the
/// pawn position with POINTS intercepted to return the model's scores, as
/// `sargon models --format json` gives them, with each example's introduction and moral.
async fn models_route(
    AxumState(app): AxumState<Arc<App>>,
    Query(q): Query<ModelsQuery>,
) -> Result<Json<Value>, ApiError> {
    let kind = app.engines.offered(&q.engine)?;
    app.engines
        .require(&app.searches, &kind, Capability::Hooks, engines::THE_MODELS)?;
    let opened = app
        .searches
        .open(&kind)
        .map_err(|e| ApiError::conflict(e.to_string()))?;
    let runs = tokio::task::spawn_blocking(move || {
        let mut engine = opened.engine;
        sargon_tools::models::MODELS
            .iter()
            .map(|m| sargon_tools::models::run_example(engine.as_mut(), m.number))
            .collect::<anyhow::Result<Vec<_>>>()
    })
    .await
    .map_err(|e| ApiError::bad(format!("the models failed: {e}")))?
    .map_err(|e| ApiError::bad(format!("{e:#}")))?;
    let mut all: Value = serde_json::from_str(&sargon_tools::models::to_json(&runs))
        .map_err(|e| ApiError::bad(e.to_string()))?;
    if let Some(list) = all.as_array_mut() {
        for (v, run) in list.iter_mut().zip(&runs) {
            v["intro"] = json!(run.model.intro);
            v["moral"] = json!(run.model.moral);
        }
    }
    Ok(Json(json!({
        "engine": kind,
        "real_fen": sargon_tools::models::REAL_FEN,
        "depth": sargon_tools::models::DEPTH,
        "examples": all,
    })))
}

// ---------------------------------------------------------------------------------------
// Inside the original: the profile of a search, the listing of a routine

/// `GET /api/search/{id}/profile`: where the original spends the search's time, routine
/// by routine (`sargon profile`): the search run again on the emulator with the profiler
/// (for a search made by another engine too: the answer's `note` says so).
async fn profile_route(
    AxumState(app): AxumState<Arc<App>>,
    UrlPath(id): UrlPath<u64>,
) -> Result<Json<Value>, ApiError> {
    let search = get_search(&app, id)?;
    let f = finished(&search)?;
    let request = search.request.clone();
    EngineSpec::EMULATOR
        .check_depth(request.depth)
        .map_err(|e| ApiError::bad(e.to_string()))?;
    let rom = app
        .searches
        .store
        .load(app.searches.rom.as_deref())
        .map_err(|e| ApiError::conflict(e.to_string()))?;
    let root = f.root.clone();
    let note = engines::searched_again_note(
        &request.engine,
        "this is the original's profile of the same position, depth and book, run on the emulator",
    );
    let work = tokio::task::spawn_blocking(move || -> Result<Value, String> {
        let setup = position::setup(&root, Book::from(request.book)).map_err(|e| e.to_string())?;
        let mut emu = sargon_original::emu::Emulator::new(rom).map_err(|e| e.to_string())?;
        let opts = SearchOptions::depth(request.depth);
        let (profile, outcome) = sargon_original::profile::profile_search(&mut emu, &setup, &opts)
            .map_err(|e| e.to_string())?;
        Ok(json!({
            "rows": profile.rows,
            "totals": profile.totals,
            // No legal move: Sargon's BESTM holds the last move it tried, never a choice.
            "best": outcome
                .best
                .filter(|_| sargon_tools::analysis::GameEnd::of(&setup.position).is_none())
                .map(|m| m.uci()),
            "trs80_seconds": sargon_core::clock::trs80_seconds(profile.totals.t_states),
            "note": note,
        }))
    });
    let v = work
        .await
        .map_err(|e| ApiError::bad(format!("the profile failed: {e}")))?
        .map_err(ApiError::bad)?;
    Ok(Json(v))
}

/// `GET /api/listing/{routine}`: the annotated disassembly of one routine of the user's
/// own imported copy (never bundled: read from the ROM store on this machine), with its
/// hook points and, under each label, the port function that implements it.
async fn listing_route(
    AxumState(app): AxumState<Arc<App>>,
    UrlPath(routine): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let rom = app
        .searches
        .store
        .load(app.searches.rom.as_deref())
        .map_err(|e| ApiError::conflict(e.to_string()))?;
    let hooks = sargon_original::listing::hook_addresses(&rom);
    let program = sargon_original::program::Program::of_rom(&rom);
    let links = crate::studies::port_links::PortLinks::of_port();
    let text = crate::studies::port_links::port_listing_of(&program, &hooks, &links, &routine)
        .map_err(|e| ApiError::not_found(e.to_string()))?;
    Ok(Json(json!({
        "routine": routine,
        "rom": rom.meta.name,
        "verified": rom.verified(),
        "text": text,
    })))
}
