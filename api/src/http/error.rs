//! The JSON shape of every API error: `{"error": {"code": "...", "message": "..."}}`.
//!
//! `code` is stable and meant for programs; `message` is a sentence meant for people.

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use serde_json::json;

/// An error response with a machine-readable code and a human-readable message.
pub fn error_response(
    status: StatusCode,
    code: &str,
    message: impl std::fmt::Display,
) -> HttpResponse {
    HttpResponse::build(status)
        .json(json!({ "error": { "code": code, "message": message.to_string() } }))
}

/// The JSON error handler for malformed request bodies.
pub fn json_config() -> actix_web::web::JsonConfig {
    actix_web::web::JsonConfig::default().limit(64 * 1024).error_handler(|error, _request| {
        let response = error_response(StatusCode::BAD_REQUEST, "bad_request", &error);
        actix_web::error::InternalError::from_response(error, response).into()
    })
}

/// An error a route answers with: its HTTP status and stable code (its `Display` is the
/// message). Every route's error enum implements it, and `api_error!` turns it into actix's
/// `ResponseError`, so the JSON shape and the logging of server failures live here alone.
pub trait ApiError: std::error::Error {
    /// The status and the stable code of this error.
    fn status_and_code(&self) -> (StatusCode, &'static str);

    /// What went wrong inside, for the log of a server failure (not shown to the client).
    fn detail(&self) -> Option<&str> {
        None
    }
}

/// The response for `error`; a server-side failure (5xx) is logged with its cause.
pub fn respond(error: &impl ApiError) -> HttpResponse {
    let (status, code) = error.status_and_code();
    if status.is_server_error() {
        tracing::error!(%error, code, detail = error.detail(), "request failed");
    }
    error_response(status, code, error)
}

/// Implements actix's `ResponseError` for a type through its [`ApiError`].
macro_rules! api_error {
    ($name:ty) => {
        impl actix_web::ResponseError for $name {
            fn status_code(&self) -> actix_web::http::StatusCode {
                $crate::http::error::ApiError::status_and_code(self).0
            }

            fn error_response(&self) -> actix_web::HttpResponse {
                $crate::http::error::respond(self)
            }
        }
    };
}
pub(crate) use api_error;
