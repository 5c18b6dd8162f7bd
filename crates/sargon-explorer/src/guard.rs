//! What every answer of the server carries, whatever route made it: the security headers
//! that keep other sites' pages from framing or sniffing the explorer, and refusals in
//! the API's one JSON shape (`{"error": ...}`), even those axum makes itself (a node
//! number that is not a number, a wrong method, a query that does not read).

use axum::body::Body as AxumBody;
use axum::extract::Request;
use axum::http::header::{self, HeaderValue};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use sargon_core::input::echo;

use super::error::ApiError;

/// The page's policy: its own modules, styles and API only, nothing from elsewhere, and
/// no page of any site may frame it (a framed explorer could be made to run searches on
/// the user's machine). Inline `style` attributes are allowed: the page draws bars and
/// indents with them; inline scripts are not (the page has none).
pub(crate) const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
     object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The headers of every answer: the content security policy, no framing (also for
/// browsers that do not read `frame-ancestors`), no guessing of content types, and no
/// `Referer` (a page's address holds the position studied).
pub(crate) async fn security_headers(req: Request, next: Next) -> Response {
    let mut response = next.run(req).await;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

/// The longest text of a refusal axum makes itself that is passed on.
const MAX_REJECTION: usize = 2000;

/// Refusals in the API's JSON shape: a refusal that is not JSON (axum's own, in plain
/// text, or an empty `405`) is answered again as `{"error": ...}` with the same status,
/// saying what was wrong.
pub(crate) async fn json_errors(req: Request, next: Next) -> Response {
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let response = next.run(req).await;
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) || is_json(&response) {
        return response;
    }
    let text = match axum::body::to_bytes(response.into_body(), MAX_REJECTION).await {
        Ok(bytes) => String::from_utf8_lossy(&bytes).trim().to_string(),
        Err(_) => String::new(),
    };
    let message = match status {
        // axum adds the `Allow` header outside the layers: the sentence points to it.
        StatusCode::METHOD_NOT_ALLOWED => format!(
            "`{}` does not take {} (the answer's `Allow` header says what it takes)",
            echo(&path),
            echo(method.as_str())
        ),
        _ if text.is_empty() => format!(
            "`{}`: {}",
            echo(&path),
            status.canonical_reason().unwrap_or("refused")
        ),
        _ => format!("`{}`: {}", echo(&path), echo(&text)),
    };
    ApiError { status, message }.into_response()
}

fn is_json(response: &Response<AxumBody>) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"))
}
