//! # sargon-explorer
//!
//! `sargon serve`: a window into Sargon's search, in the browser.
//!
//! One server serves one page and a small JSON API over the libraries: a search runs once
//! on a worker thread and its whole tree is kept in memory (the module `searches`), and the page
//! asks for nodes one at a time, so a search of a million events opens at once and every
//! click costs a lookup. Everything the page needs is compiled into the crate (the files
//! of `src/page/`, served by `page.rs`): no network, no install, and the page's code
//! is the project's own.
//!
//! The server is meant for one person on their own machine: it binds to the loopback
//! address unless told otherwise, and checks the `Host` and `Origin` of every request, so
//! that a web page elsewhere cannot reach it through the browser (DNS rebinding). Bodies
//! are capped, searches run a few at a time, and trees are kept within a node budget.
//!
//! The HTTP API is described in docs/explorer.md; its requests and answers are the types
//! of [`api`]. The command (`sargon serve`) parses its arguments into a [`Config`],
//! [`Server::bind`]s, prints the address and [`Server::run`]s until Ctrl-C.

#![warn(unreachable_pub)]

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::State as AxumState;
use axum::middleware::{self};
use axum::routing::{get, post};
use axum::{Json, Router};
use shakmaty::{Chess, Color, Position};

use sargon_core::input::echo;
use sargon_core::position;
use sargon_engines::engines::EngineSpec;
use sargon_original::emu::Core;
use sargon_original::rom::RomStore;

pub mod api;
mod api_step;
#[cfg(test)]
mod api_tests;
mod app;
mod cache;
mod compare;
mod engines;
mod error;
mod guard;
mod jobs;
mod memory;
mod nodes;
mod page;
mod search_routes;
mod searches;
mod step_sessions;
mod stepping;
mod views;

use app::{check_host, ApiError, App, Body};

use engines::Engines;
use sargon_core::position::Book;
use searches::Searches;

/// What the server runs with: `sargon serve`'s arguments, read.
#[derive(Clone, Debug)]
pub struct Config {
    /// The ROM store the original's searches load from.
    pub store: RomStore,
    /// The ROM to run with the emulator (`None`: the only one imported, or `sargon`).
    pub rom: Option<String>,
    /// The Z80 core that runs the original.
    pub core: Core,
    /// Searches that run at once (others wait in line).
    pub workers: usize,
    /// Search-tree nodes kept in memory, all searches together.
    pub keep_nodes: usize,
    /// Engines offered besides the port and the original (`exec:` and `uci:` ones).
    pub engines: Vec<EngineSpec>,
    /// The address to listen on (port 0: any free port).
    pub addr: SocketAddr,
    /// Host names besides the loopback ones that requests may name in `Host` and
    /// `Origin` (`serve --allow-host`), each with the server's port.
    pub allow_hosts: Vec<String>,
}

/// Why the server could not start, or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The runtime could not start.
    #[error("cannot start the server's runtime")]
    Runtime(#[source] std::io::Error),
    /// An engine of `--engine` cannot be offered.
    #[error("{0}")]
    Engine(String),
    /// A name of `--allow-host` is not a host name.
    #[error("`--allow-host {}` is not a host name (a name or an address, without `http://`, a path or a port: the server's port is added)", echo(.0))]
    Host(String),
    /// The address cannot be listened on.
    #[error("{}", listen_message(*.addr, .source))]
    Listen {
        /// The address asked for.
        addr: SocketAddr,
        /// Why not.
        #[source]
        source: std::io::Error,
    },
    /// The listening socket has no address.
    #[error(transparent)]
    Address(std::io::Error),
    /// The server stopped on an error.
    #[error("the server stopped")]
    Stopped(#[source] std::io::Error),
}

/// Why an address cannot be listened on, named by its cause: a port in use is likely
/// another `sargon serve`, an address the machine lacks is a wrong `--bind`.
fn listen_message(addr: SocketAddr, source: &std::io::Error) -> String {
    use std::io::ErrorKind;
    match source.kind() {
        ErrorKind::AddrInUse => format!(
            "cannot listen on {addr}, its port is in use (is another `sargon serve` running? `--port {}` or `--port 0` picks another)",
            addr.port().wrapping_add(1)
        ),
        ErrorKind::AddrNotAvailable => format!(
            "cannot listen on {addr}: this machine has no address {} (`--bind` takes one of its own addresses, or 0.0.0.0 for all of them)",
            addr.ip()
        ),
        ErrorKind::PermissionDenied => format!(
            "cannot listen on {addr}: not allowed (ports below 1024 need privileges; `--port 0` picks a free one)"
        ),
        _ => format!("cannot listen on {addr}"),
    }
}

/// A server listening on its address, ready to [`run`](Server::run).
pub struct Server {
    runtime: tokio::runtime::Runtime,
    listener: tokio::net::TcpListener,
    local: SocketAddr,
    app: Arc<App>,
}

impl Server {
    /// Check the engines to offer and listen on `config.addr`.
    pub fn bind(config: Config) -> Result<Server, ServeError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(ServeError::Runtime)?;
        let searches = Arc::new(Searches::new(
            config.store,
            config.rom,
            config.core,
            config.workers,
            config.keep_nodes,
        ));
        let engines = Engines::new(&searches, config.engines).map_err(ServeError::Engine)?;
        let addr = config.addr;
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind(addr))
            .map_err(|source| ServeError::Listen { addr, source })?;
        let local = listener.local_addr().map_err(ServeError::Address)?;
        let mut hosts = allowed_hosts(local);
        for name in &config.allow_hosts {
            hosts.push(format!("{}:{}", host_name(name)?, local.port()));
        }
        let app = Arc::new(App {
            searches,
            engines,
            hosts,
            cache: cache::Caches::default(),
            steps: step_sessions::Sessions::new(),
        });
        Ok(Server {
            runtime,
            listener,
            local,
            app,
        })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.local
    }

    /// The page's address, as a browser writes it.
    pub fn url(&self) -> String {
        format!("http://{}/", display_host(self.local))
    }

    /// Answer requests until Ctrl-C.
    pub fn run(self) -> Result<(), ServeError> {
        let Server {
            runtime,
            listener,
            app,
            ..
        } = self;
        runtime.block_on(async move {
            tokio::spawn(stepping::close_idle_sessions(app.clone()));
            axum::serve(listener, router(app))
                .with_graceful_shutdown(async {
                    let _ = tokio::signal::ctrl_c().await;
                })
                .await
                .map_err(ServeError::Stopped)
        })
    }
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

/// A name of `--allow-host` as `Host` headers write it: a name or an IPv4 address as it
/// is, an IPv6 address in brackets; anything with a scheme, a path, a port or spaces is
/// refused (the server's own port is added to it).
fn host_name(name: &str) -> Result<String, ServeError> {
    let refuse = || ServeError::Host(name.to_string());
    if let Ok(IpAddr::V6(ip)) = name.trim_matches(['[', ']']).parse::<IpAddr>() {
        return Ok(format!("[{ip}]"));
    }
    let fine = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '.' || c == '_';
    if name.is_empty() || !name.chars().all(fine) {
        return Err(refuse());
    }
    Ok(name.to_ascii_lowercase())
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
        .route("/api/compare", post(compare::compare_route))
        .route("/api/jobs/{token}", get(jobs::status_route))
        .route("/api/jobs/{token}/cancel", post(jobs::cancel_route))
        .route("/api/models", get(views::models_route))
        .route("/api/search/{id}/profile", get(views::profile_route))
        .route("/api/listing/{routine}", get(views::listing_route))
        .route("/api/step", post(stepping::open_route))
        .route("/api/step/{id}", get(stepping::state_route))
        .route("/api/step/{id}/move", post(stepping::move_route))
        .route("/api/step/{id}/close", post(stepping::close_route))
        .fallback(|| async { ApiError::not_found("no such page or API route") })
        .layer(middleware::from_fn(guard::json_errors))
        .layer(middleware::from_fn_with_state(app.clone(), check_host))
        .layer(middleware::from_fn(guard::security_headers))
        // Outermost: refusals are compressed too, and the headers above stay.
        .layer(tower_http::compression::CompressionLayer::new())
        .with_state(app)
}

// ---------------------------------------------------------------------------------------
// Engines and positions

/// Every engine a page may choose (`Engines::list`), the port and the emulator also
/// under their names as before, and the workers' load.
async fn engines_route(AxumState(app): AxumState<Arc<App>>) -> Json<api::EnginesAnswer> {
    let list = app.engines.list(&app.searches);
    let (running, waiting) = app.searches.load();
    Json(api::EnginesAnswer {
        port: list[0].clone(),
        emulator: list[1].clone(),
        engines: list,
        jobs: app.searches.workers,
        running,
        waiting,
    })
}

/// A position and its legal moves, for the board.
fn position_answer(pos: &Chess, notices: &[String]) -> api::PositionAnswer {
    let legal = pos
        .legal_moves()
        .iter()
        .map(|m| api::LegalMove {
            uci: m.to_uci(shakmaty::CastlingMode::Standard).to_string(),
            san: shakmaty::san::SanPlus::from_move(pos.clone(), *m).to_string(),
        })
        .collect();
    api::PositionAnswer {
        fen: position::fen_of(pos),
        turn: if pos.turn() == Color::White {
            "white"
        } else {
            "black"
        }
        .to_string(),
        fullmove: pos.fullmoves().get(),
        legal,
        book_position: position::setup(pos, Book::Allowed)
            .map(|s| s.plays_from_book())
            .unwrap_or(false),
        representable: position::setup(pos, Book::Off).err().map(|e| e.to_string()),
        game_end: sargon_views::analysis::GameEnd::of(pos).map(api::GameEnd::from),
        notices: notices.to_vec(),
    }
}

/// `POST /api/position {"text": ...}`: a FEN, an EPD line, `startpos`, each maybe followed
/// by `moves ...`, read as the command line reads it.
async fn position_route(
    Body(body): Body<api::PositionBody>,
) -> Result<Json<api::PositionAnswer>, ApiError> {
    let read = position::read_position(&body.text).map_err(|e| ApiError::bad(e.to_string()))?;
    Ok(Json(position_answer(&read.position, &read.notices)))
}

/// `POST /api/pgn {"pgn": ...}`: the first game's positions, one per move, to pick from.
async fn pgn_route(Body(body): Body<api::PgnBody>) -> Result<Json<api::PgnAnswer>, ApiError> {
    let games =
        sargon_chess::pgn::read_games(&body.pgn).map_err(|e| ApiError::bad(e.to_string()))?;
    let Some(game) = games.first() else {
        return Err(ApiError::bad("the PGN holds no game"));
    };
    let mut pos = game.start.clone();
    let mut plies = vec![api::PgnPosition {
        san: None,
        fen: position::fen_of(&pos),
    }];
    for m in &game.moves {
        let san = shakmaty::san::SanPlus::from_move(pos.clone(), *m).to_string();
        let number = pos.fullmoves().get();
        let label = match pos.turn() {
            Color::White => format!("{number}.{san}"),
            Color::Black => format!("{number}...{san}"),
        };
        pos.play_unchecked(*m);
        plies.push(api::PgnPosition {
            san: Some(label),
            fen: position::fen_of(&pos),
        });
    }
    Ok(Json(api::PgnAnswer {
        players: game.players(),
        games: games.len(),
        positions: plies,
    }))
}
