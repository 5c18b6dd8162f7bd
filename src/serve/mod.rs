//! `sargon serve`: a window into Sargon's search, in the browser.
//!
//! One command serves one page and a small JSON API over the library: a search runs once
//! on a worker thread and its whole tree is kept in memory ([`searches`]), and the page
//! asks for nodes one at a time, so a search of a million events opens at once and every
//! click costs a lookup. Everything the page needs is compiled into the binary (the files
//! of `src/serve/page/`, served by `page.rs`): no network, no install, and the page's code
//! is the project's own.
//!
//! The server is meant for one person on their own machine: it binds to the loopback
//! address unless told otherwise, and checks the `Host` and `Origin` of every request, so
//! that a web page elsewhere cannot reach it through the browser (DNS rebinding). Bodies
//! are capped, searches run a few at a time, and trees are kept within a node budget.
//!
//! The HTTP API is described in docs/explorer.md.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use anyhow::{Context as _, Result};
use axum::extract::State as AxumState;
use axum::middleware::{self};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};
use shakmaty::{Chess, Color, Position};

use sargon_core::position;
use sargon_engines::engines::EngineSpec;
use sargon_original::rom::RomStore;

mod app;
mod engines;
mod error;
pub(crate) mod memory;
mod nodes;
mod page;
mod search_routes;
pub(crate) mod searches;
mod views;

use app::{check_host, ApiError, App, Body};

use engines::Engines;
use sargon_core::position::Book;
use searches::Searches;

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
        .route("/", get(page::html))
        .route("/js/{file}", get(page::module))
        .route("/style.css", get(page::css))
        .route("/favicon.ico", get(page::favicon))
        .route("/api/engines", get(engines_route))
        .route("/api/position", post(position_route))
        .route("/api/pgn", post(pgn_route))
        .route("/api/search", post(search_routes::search_start))
        .route("/api/search/{id}", get(search_routes::search_status))
        .route(
            "/api/search/{id}/progress",
            get(search_routes::search_progress),
        )
        .route(
            "/api/search/{id}/cancel",
            post(search_routes::search_cancel),
        )
        .route("/api/search/{id}/node/{node}", get(nodes::node_route))
        .route("/api/search/{id}/node/{node}/memory", get(memory::route))
        .route("/api/search/{id}/find", get(nodes::find_route))
        .route("/api/search/{id}/pv-steps", get(nodes::pv_steps))
        .route("/api/compare", post(views::compare_route))
        .route("/api/models", get(views::models_route))
        .route("/api/search/{id}/profile", get(views::profile_route))
        .route("/api/listing/{routine}", get(views::listing_route))
        .fallback(|| async { ApiError::not_found("no such page or API route") })
        .layer(middleware::from_fn_with_state(app.clone(), check_host))
        .with_state(app)
}

// ---------------------------------------------------------------------------------------
// Engines and positions

/// Every engine a page may choose (`Engines::list`), the port and the emulator also
/// under their names as before, and the workers' load.
async fn engines_route(AxumState(app): AxumState<Arc<App>>) -> Json<Value> {
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
        "game_end": sargon_views::analysis::GameEnd::of(pos),
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
        sargon_chess::pgn::read_games(&body.pgn).map_err(|e| ApiError::bad(e.to_string()))?;
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
