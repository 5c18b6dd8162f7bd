//! The other views' work as jobs: a profile, a memory snapshot and a comparison each run
//! a search again, seconds of CPU, so they wait in the `--jobs` line with the searches
//! ([`Searches::queue_task`]), stop when their page leaves, and their answers are kept
//! (cache.rs) so that asking again costs nothing.
//!
//! A page names its request with `?job=TOKEN` (a comparison: `"job"` in its body) to ask
//! where it is (`GET /api/jobs/{token}`: its place in line, or how long it has run and
//! its progress) and to cancel it (`POST /api/jobs/{token}/cancel`, also sent when the
//! page is left). A request whose connection closes is stopped too: its [`Task`] is
//! dropped with it. Their answers are kept in the caches of cache.rs.
//!
//! [`Searches::queue_task`]: super::searches::Searches::queue_task
//! [`Task`]: super::searches::Task

use std::sync::atomic::Ordering;
use std::sync::Arc;

use axum::extract::{Path as UrlPath, State as AxumState};
use axum::Json;

use sargon_core::input::echo;

use super::api::JobStatus;
use super::app::{ApiError, App};

/// The longest job name a page may give.
const MAX_TOKEN: usize = 64;

/// A page's name for its job, if it gave one that reads: letters, digits, `-` and `_`.
pub(crate) fn token(job: Option<String>) -> Result<Option<String>, ApiError> {
    match job {
        None => Ok(None),
        Some(t)
            if !t.is_empty()
                && t.len() <= MAX_TOKEN
                && t.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') =>
        {
            Ok(Some(t))
        }
        Some(t) => Err(ApiError::bad(format!(
            "job `{}` is not a job name (up to {MAX_TOKEN} letters, digits, `-` and `_`)",
            echo(&t)
        ))),
    }
}

/// The refusal of a job stopped before it answered.
pub(crate) fn cancelled(what: &str) -> ApiError {
    ApiError::conflict(format!("{what} was cancelled"))
}

/// `GET /api/jobs/{token}`: where a page's job is: its place in line while it waits,
/// how long it has run and its progress once it runs.
pub(crate) async fn status_route(
    AxumState(app): AxumState<Arc<App>>,
    UrlPath(token): UrlPath<String>,
) -> Result<Json<JobStatus>, ApiError> {
    let Some((info, place)) = app.searches.task(&token) else {
        return Err(ApiError::not_found(format!(
            "no job `{}` waits or runs (it is over, or was never asked)",
            echo(&token)
        )));
    };
    let running = info.running_for();
    Ok(Json(JobStatus {
        elapsed_ms: running.map(|d| d.as_millis() as u64),
        place: if running.is_some() { None } else { place },
        progress: info.progress.load(Ordering::Relaxed),
        state: if running.is_some() {
            "running"
        } else {
            "waiting"
        }
        .to_string(),
    }))
}

/// `POST /api/jobs/{token}/cancel`: stop a page's job (its request then answers that it
/// was cancelled). Cancelling a job that is over is no error.
pub(crate) async fn cancel_route(
    AxumState(app): AxumState<Arc<App>>,
    UrlPath(token): UrlPath<String>,
) -> Json<JobStatus> {
    if let Some((info, _)) = app.searches.task(&token) {
        info.stop.store(true, Ordering::Relaxed);
    }
    Json(JobStatus {
        elapsed_ms: None,
        place: None,
        progress: 0,
        state: "cancelled".to_string(),
    })
}
