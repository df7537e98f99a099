//! HTTP routes, one module per resource.

mod account;
pub mod auth;
pub mod client_address;
pub mod error;
mod games;
mod health;
mod metrics;
pub mod origin;
mod pages;
mod players;
pub mod rate_limit;
pub mod rooms;
pub mod security_headers;
pub mod session;
mod stats;
pub mod tracing_span;

use actix_web::web::ServiceConfig;

/// Registers every route; the pages' catch-all comes last.
pub fn configure(config: &mut ServiceConfig) {
    health::configure(config);
    metrics::configure(config);
    session::configure(config);
    auth::configure(config);
    account::configure(config);
    players::configure(config);
    games::configure(config);
    rooms::configure(config);
    stats::configure(config);
    pages::configure(config);
}
