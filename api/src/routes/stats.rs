//! `GET /api/stats`: players online, waiting, and games in progress (counted as the lobby
//! counts them, so that the numbers agree), and the matchmaking setting the home page shows.

use actix_web::{HttpResponse, web};
use serde::Serialize;

use super::lobby::{Counts, LobbyError};
use crate::domain::Timestamp;
use crate::service::{Matchmaking, Online};
use crate::storage::Store;

pub fn configure(config: &mut web::ServiceConfig) {
    config.route("/api/stats", web::get().to(stats));
}

/// What `GET /api/stats` answers.
#[derive(Debug, Serialize)]
struct Stats {
    #[serde(flatten)]
    counts: Counts,
    /// How long a quick or ranked seeker waits for a person before getting the computer
    /// (`OUTFLANK_COMPUTER_AFTER_MS`).
    computer_after_ms: i64,
}

/// `GET /api/stats`.
async fn stats(
    online: web::Data<Online>,
    matchmaking: web::Data<Matchmaking>,
    store: web::Data<Store>,
) -> Result<HttpResponse, LobbyError> {
    let counts = Counts::now(&online, &matchmaking, &store, Timestamp::now()).await?;
    Ok(HttpResponse::Ok()
        .json(Stats { counts, computer_after_ms: matchmaking.computer_after_ms() }))
}
