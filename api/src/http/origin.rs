//! Cross-site request protection: requests that change state must come from our own pages.
//!
//! Browsers send `Origin` with every cross-origin request and every `POST`/`PUT`/`PATCH`/`DELETE`
//! and WebSocket upgrade, so a mismatching `Origin` is refused. A request without `Origin` comes
//! from a program rather than a page (a bot, `curl`) and cannot carry a victim's cookies
//! unknowingly, so it is allowed.

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{Method, StatusCode, header};
use actix_web::middleware::Next;
use actix_web::web;

use crate::http::PublicUrl;
use crate::http::error::error_response;

/// The origins allowed to change state.
#[derive(Clone, Debug)]
pub struct AllowedOrigins {
    public: Option<PublicUrl>,
    port: u16,
}

impl AllowedOrigins {
    /// With a public URL, only its origin; without one, any loopback origin on `port`.
    pub fn new(public: Option<PublicUrl>, port: u16) -> AllowedOrigins {
        AllowedOrigins { public, port }
    }

    /// Whether `origin` (as sent by a browser) may change state.
    pub fn allows(&self, origin: &str) -> bool {
        let origin = origin.trim_end_matches('/').to_ascii_lowercase();
        match &self.public {
            Some(public) => origin == public.origin(),
            None => ["localhost", "127.0.0.1", "[::1]"]
                .iter()
                .any(|host| origin == format!("http://{host}:{}", self.port)),
        }
    }
}

/// Whether a request changes state: an unsafe method, or any protocol upgrade. Every
/// `Upgrade` header counts, whatever it lists (`websocket, h2c` is still a WebSocket
/// handshake to the server below).
fn changes_state(request: &ServiceRequest) -> bool {
    let method = request.method();
    let unsafe_method = ![Method::GET, Method::HEAD, Method::OPTIONS].contains(method);
    unsafe_method || request.headers().contains_key(header::UPGRADE)
}

/// Middleware refusing state-changing requests from other sites with 403.
pub async fn check_origin(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    if changes_state(&request) {
        let origin = request.headers().get(header::ORIGIN).map(|v| v.to_str().unwrap_or(""));
        let allowed = request.app_data::<web::Data<AllowedOrigins>>();
        if let (Some(origin), Some(allowed)) = (origin, allowed)
            && !allowed.allows(origin)
        {
            let response = error_response(
                StatusCode::FORBIDDEN,
                "bad_origin",
                format!("requests from {origin:?} may not change anything here"),
            );
            return Ok(request.into_response(response));
        }
    }
    Ok(next.call(request).await?.map_into_boxed_body())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_public_url_loopback_origins_on_the_port_are_allowed() {
        let allowed = AllowedOrigins::new(None, 8080);
        assert!(allowed.allows("http://localhost:8080"));
        assert!(allowed.allows("http://127.0.0.1:8080"));
        assert!(!allowed.allows("http://localhost:9090"));
        assert!(!allowed.allows("https://evil.example"));
        assert!(!allowed.allows("null"));
    }

    #[test]
    fn with_a_public_url_only_its_origin_is_allowed() {
        let allowed = AllowedOrigins::new(PublicUrl::parse("https://outflank.example"), 8080);
        assert!(allowed.allows("https://outflank.example"));
        assert!(!allowed.allows("http://outflank.example"));
        assert!(!allowed.allows("http://localhost:8080"));
    }
}
