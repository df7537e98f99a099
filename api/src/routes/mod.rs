//! HTTP routes, one module per resource. What every request goes through is in
//! [`crate::http`]; the WebSockets are in [`crate::ws`].

mod account;
mod analysis;
mod analysis_board;
pub mod auth;
mod computer;
mod games;
mod health;
mod lobby;
mod metrics;
mod pages;
mod players;
mod puzzles;
pub mod rooms;
pub mod session;
mod stats;

use actix_web::web::ServiceConfig;

/// Registers every route; the pages' catch-all comes last.
pub fn configure(config: &mut ServiceConfig) {
    health::configure(config);
    metrics::configure(config);
    session::configure(config);
    auth::configure(config);
    account::configure(config);
    players::configure(config);
    puzzles::configure(config);
    games::configure(config);
    analysis::configure(config);
    analysis_board::configure(config);
    computer::configure(config);
    rooms::configure(config);
    stats::configure(config);
    lobby::configure(config);
    pages::configure(config);
}
