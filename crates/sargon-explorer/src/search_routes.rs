//! The routes of a search: start it, follow its state and progress, cancel it.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path as UrlPath, State as AxumState};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::IntoResponse;
use axum::Json;

use sargon_core::engine::Capability;
use sargon_core::position;

use super::api::{CancelAnswer, SearchBody, SearchRequestInfo, SearchStatus};
use super::app::{get_search, ApiError, App, Body};
use super::engines::{self};
use super::nodes::node_json;
use super::searches::{Search, SearchRequest, State};
use sargon_core::position::Book;

// ---------------------------------------------------------------------------------------
// Searches

/// Read a search request: the position as the command line reads it, the engine by name
/// (one the server offers, with a trace to draw the tree from).
pub(crate) fn search_request(app: &App, body: &SearchBody) -> Result<SearchRequest, ApiError> {
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
pub(crate) async fn search_start(
    AxumState(app): AxumState<Arc<App>>,
    Body(body): Body<SearchBody>,
) -> Result<Json<SearchStatus>, ApiError> {
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

/// A search's state, progress and, once done, its result.
pub(crate) fn status_json(app: &App, search: &Search) -> SearchStatus {
    let state = search.state();
    let request = &search.request;
    let mut v = SearchStatus {
        elapsed_ms: search.elapsed().as_millis() as u64,
        error: None,
        events: search.events.load(Ordering::Relaxed),
        id: search.id,
        nodes: search.nodes.load(Ordering::Relaxed),
        partial: None,
        place: None,
        pv_nodes: None,
        request: SearchRequestInfo {
            book: request.book,
            depth: request.depth,
            engine: request.engine.to_string(),
            fen: request.fen.clone(),
        },
        result: None,
        root: None,
        state: state.name().to_string(),
    };
    match &state {
        State::Waiting => v.place = Some(app.searches.place(search.id)),
        State::Failed(why) => v.error = Some(why.clone()),
        State::Done(f) => {
            v.result = Some(match &f.analysis {
                Some(analysis) => serde_json::to_value(analysis).unwrap_or_default(),
                // A partial tree has no result: what there is of one, so that a page
                // reading `result` finds no move rather than failing.
                None => serde_json::json!({
                    "engine": request.engine.to_string(),
                    "partial": true,
                    "nodes_created": f.tree.nodes.len() - 1,
                }),
            });
            v.partial = f.partial.clone();
            v.events = f.events;
            v.root = Some(node_json(f, 0, true));
            v.pv_nodes = Some(f.tree.pv());
        }
        _ => {}
    }
    v
}

pub(crate) async fn search_status(
    AxumState(app): AxumState<Arc<App>>,
    UrlPath(id): UrlPath<u64>,
) -> Result<Json<SearchStatus>, ApiError> {
    let search = get_search(&app, id)?;
    Ok(Json(status_json(&app, &search)))
}

pub(crate) async fn search_cancel(
    AxumState(app): AxumState<Arc<App>>,
    UrlPath(id): UrlPath<u64>,
) -> Result<Json<CancelAnswer>, ApiError> {
    let search = get_search(&app, id)?;
    search.cancel();
    Ok(Json(CancelAnswer {
        id,
        state: search.state().name().to_string(),
    }))
}

/// Cancels a search when the page watching it goes away (its progress stream is dropped
/// before the search is over).
pub(crate) struct CancelOnDrop(Arc<Search>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if !self.0.state().is_over() {
            self.0.cancel();
        }
    }
}

/// `GET /api/search/{id}/progress`: server-sent events, one status every 200 ms until the
/// search is over (the last one carries the result). Closing the stream cancels the search.
pub(crate) async fn search_progress(
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
            // Plain data: it always serialises.
            let event =
                SseEvent::default().data(serde_json::to_string(&status).unwrap_or_default());
            Some((
                Ok::<_, std::convert::Infallible>(event),
                (app, guard, over, false),
            ))
        },
    );
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}
