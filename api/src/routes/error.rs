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
