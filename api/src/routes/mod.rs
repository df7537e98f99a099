//! HTTP routes, one module per resource. What every request goes through is in
//! [`crate::http`]; the WebSockets are in [`crate::ws`].

mod account;
mod analysis;
mod analysis_board;
pub mod auth;
mod challenges;
mod computer;
mod follows;
mod game_files;
mod games;
mod health;
pub mod lobby;
mod metrics;
mod moderation;
mod my_games;
mod notifications;
mod pages;
pub(crate) mod players;
mod push;
mod puzzles;
mod reports;
pub mod rooms;
pub mod session;
mod stats;

use actix_web::web::ServiceConfig;

/// Where a node serves `/metrics` and `/readyz` (`OUTFLANK_METRICS_ADDR`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probes {
    /// With the site, limited per client address like the API.
    Public,
    /// On an internal listener of their own ([`configure_probes`]); the site answers `404`.
    Internal,
}

/// Registers every route; the pages' catch-all comes last. `/metrics` and `/readyz` are among
/// them when `probes` is [`Probes::Public`].
pub fn configure(config: &mut ServiceConfig, probes: Probes) {
    health::configure(config);
    if probes == Probes::Public {
        configure_probes(config);
    }
    session::configure(config);
    my_games::configure(config);
    auth::configure(config);
    account::configure(config);
    reports::configure(config);
    challenges::configure(config);
    follows::configure(config);
    notifications::configure(config);
    push::configure(config);
    moderation::configure(config);
    players::configure(config);
    puzzles::configure(config);
    games::configure(config);
    game_files::configure(config);
    analysis::configure(config);
    analysis_board::configure(config);
    computer::configure(config);
    rooms::configure(config);
    stats::configure(config);
    lobby::configure(config);
    pages::configure(config);
}

/// `/metrics` and `/readyz`: what monitoring reads, and the site's visitors need not.
pub fn configure_probes(config: &mut ServiceConfig) {
    health::configure_readiness(config);
    metrics::configure(config);
}
