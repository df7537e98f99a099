//! What every HTTP request goes through, whatever its resource: the client's address behind
//! proxies, rate limits, the origin check, security headers, a tracing span, the session
//! cookie read into a [`Session`](crate::identity::session::Session), and the one shape of
//! every API error.

pub mod admission;
pub mod client_address;
pub mod error;
pub mod origin;
mod public_url;
pub mod rate_limit;
pub mod security_headers;
pub mod session;
pub mod tracing_span;

pub use public_url::PublicUrl;
