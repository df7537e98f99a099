//! HTTP routes, one module per resource.

mod health;
mod pages;

use actix_web::web::ServiceConfig;

/// Registers every route.
pub fn configure(config: &mut ServiceConfig) {
    health::configure(config);
    pages::configure(config);
}
