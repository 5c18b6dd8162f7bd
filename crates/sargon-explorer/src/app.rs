//! What every route shares: the server's state ([`App`]), the
//! capped JSON body, the host check, and finding a search by its number.

use std::sync::Arc;

use axum::extract::{FromRequest, Request, State as AxumState};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use sargon_core::input::echo;

use super::engines::Engines;
pub(crate) use super::error::ApiError;
use super::searches::{Finished, Search, Searches, State};

/// The largest request body: a FEN, or a PGN of 1 MB.
pub(crate) const MAX_BODY: usize = 1 << 20;

/// The server's state, shared by every request.
pub(crate) struct App {
    pub(crate) searches: Arc<Searches>,
    /// The engines a page may choose.
    pub(crate) engines: Engines,
    /// `Host` values a request may carry.
    pub(crate) hosts: Vec<String>,
    /// The kept answers of the views that search again (profile, memory, compare).
    pub(crate) cache: super::cache::Caches,
    /// The open stepping sessions (`stepping.rs`).
    pub(crate) steps: super::step_sessions::Sessions,
}

// ---------------------------------------------------------------------------------------
// Bodies, the host check

/// A JSON request body, at most [`MAX_BODY`] bytes, refused with a JSON error otherwise.
pub(crate) struct Body<T>(pub(crate) T);

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
pub(crate) async fn check_host(
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
                "Host `{}` is not this server's (it answers to {}; `sargon serve --allow-host NAME` adds a name)",
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

pub(crate) fn get_search(app: &App, id: u64) -> Result<Arc<Search>, ApiError> {
    app.searches.get(id).ok_or_else(|| {
        ApiError::not_found(format!(
            "no search {id}: it was never started, or was dropped to keep memory within --keep-nodes (search again)"
        ))
    })
}

pub(crate) fn finished(search: &Search) -> Result<Arc<Finished>, ApiError> {
    match search.state() {
        State::Done(f) => Ok(f),
        state => Err(ApiError::conflict(format!(
            "search {} is {}, not done",
            search.id,
            state.name()
        ))),
    }
}
