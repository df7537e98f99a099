//! The server's WebSockets: a live game's (`game`), the matchmaking queue's (`queue`), the
//! lobby's (`lobby`) and a signed-in player's own (`player`: challenges and notifications), all
//! run by one loop (`socket`: caps, limits, heartbeats); games and the queue speak the messages
//! of `protocol`.

pub mod caps;
mod fragments;
pub mod game;
pub mod lobby;
pub mod player;
pub mod protocol;
pub mod queue;
pub mod socket;

/// Registers every socket's route.
pub fn configure(config: &mut actix_web::web::ServiceConfig) {
    game::configure(config);
    queue::configure(config);
    lobby::configure(config);
    player::configure(config);
}
