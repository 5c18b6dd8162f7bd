//! The page's files, compiled into the crate: `index.html`, `style.css` and the script's
//! ES modules (`src/page/js/`), which the browser loads as they are, without a
//! bundler. A module is served by its name from a fixed table, never by a path from the
//! request: nothing but these files can be read through `/js/`.

use axum::extract::Path;
use axum::http::header;
use axum::response::{IntoResponse, Response};

use super::app::ApiError;

/// The page's script, one ES module a file: name, text. main.js is the one index.html
/// loads; it imports the others.
const MODULES: &[(&str, &str)] = &[
    ("api.js", include_str!("page/js/api.js")),
    ("board.js", include_str!("page/js/board.js")),
    ("compare.js", include_str!("page/js/compare.js")),
    ("engines.js", include_str!("page/js/engines.js")),
    ("evalbar.js", include_str!("page/js/evalbar.js")),
    ("game.js", include_str!("page/js/game.js")),
    ("gameview.js", include_str!("page/js/gameview.js")),
    ("icicle.js", include_str!("page/js/icicle.js")),
    ("jobs.js", include_str!("page/js/jobs.js")),
    ("main.js", include_str!("page/js/main.js")),
    ("marks.js", include_str!("page/js/marks.js")),
    ("memory.js", include_str!("page/js/memory.js")),
    ("miniboard.js", include_str!("page/js/miniboard.js")),
    ("models.js", include_str!("page/js/models.js")),
    ("original.js", include_str!("page/js/original.js")),
    ("position.js", include_str!("page/js/position.js")),
    ("pv.js", include_str!("page/js/pv.js")),
    ("score.js", include_str!("page/js/score.js")),
    ("search.js", include_str!("page/js/search.js")),
    ("state.js", include_str!("page/js/state.js")),
    ("step.js", include_str!("page/js/step.js")),
    ("tooltip.js", include_str!("page/js/tooltip.js")),
    ("tree.js", include_str!("page/js/tree.js")),
    ("url.js", include_str!("page/js/url.js")),
    ("util.js", include_str!("page/js/util.js")),
];

pub(super) async fn html() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        include_str!("page/index.html"),
    )
}

pub(super) async fn css() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        include_str!("page/style.css"),
    )
}

/// `GET /js/{file}`: one of the page's modules, or 404.
pub(super) async fn module(Path(file): Path<String>) -> Response {
    match MODULES.iter().find(|(name, _)| *name == file) {
        Some((_, text)) => (
            [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
            *text,
        )
            .into_response(),
        None => ApiError::not_found("no such page or API route").into_response(),
    }
}

/// A black knight on a green square, for the browser's tab.
pub(super) async fn favicon() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "image/svg+xml")],
        "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'><rect width='16' height='16' rx='2' fill='#769656'/><text x='8' y='13.5' font-size='14' text-anchor='middle'>\u{265E}</text></svg>",
    )
}
