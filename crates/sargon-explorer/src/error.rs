//! The explorer's one error type: an HTTP status and a message, answered as JSON
//! (`{"error": ...}`).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

use super::api::ErrorAnswer;

/// A refused request: a status and one line, sent as `{"error": "..."}`.
#[derive(Debug)]
pub(crate) struct ApiError {
    pub(crate) status: StatusCode,
    pub(crate) message: String,
}

impl ApiError {
    pub(crate) fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }
    pub(crate) fn not_found(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: message.into(),
        }
    }
    pub(crate) fn conflict(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::CONFLICT,
            message: message.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let answer = ErrorAnswer {
            error: self.message,
        };
        (self.status, Json(answer)).into_response()
    }
}
