//! One `tracing` span per HTTP request, so everything logged while serving it carries the
//! method, path and a request id; the span ends with the status and duration.

use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use tracing::Instrument;

/// Middleware wrapping each request in a `request` span.
pub async fn request_span(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let id: u32 = rand::random();
    let span = tracing::info_span!(
        "request",
        id = format_args!("{id:08x}"),
        method = %request.method(),
        path = %request.path(),
    );
    let started = Instant::now();
    async move {
        let response = next.call(request).await;
        let millis = started.elapsed().as_secs_f64() * 1000.0;
        match &response {
            Ok(response) => tracing::info!(status = response.status().as_u16(), millis, "served"),
            Err(error) => tracing::warn!(%error, millis, "failed"),
        }
        response
    }
    .instrument(span)
    .await
}
