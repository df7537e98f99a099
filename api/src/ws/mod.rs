//! The server's WebSockets: a live game's (`game`) and the matchmaking queue's (`queue`), both
//! run by one loop (`socket`: caps, limits, heartbeats) and speaking the messages of
//! `protocol`.

pub mod caps;
mod fragments;
pub mod game;
pub mod lobby;
pub mod protocol;
pub mod queue;
pub mod socket;

/// Registers both sockets' routes.
pub fn configure(config: &mut actix_web::web::ServiceConfig) {
    game::configure(config);
    queue::configure(config);
    lobby::configure(config);
}
