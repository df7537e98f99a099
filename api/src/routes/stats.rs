//! `GET /api/stats`: players online, waiting, and games in progress.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use serde_json::json;

use crate::http::error::error_response;
use crate::service::{Matchmaking, Online};
use crate::storage::Store;

pub fn configure(config: &mut web::ServiceConfig) {
    config.route("/api/stats", web::get().to(stats));
}

/// `GET /api/stats`.
async fn stats(
    online: web::Data<Online>,
    matchmaking: web::Data<Matchmaking>,
    store: web::Data<Store>,
) -> HttpResponse {
    let waiting = matchmaking.waiting().await.unwrap_or(0);
    match store.count_live_games().await {
        Ok(games) => HttpResponse::Ok().json(json!({
            "online": online.count(),
            "waiting": waiting,
            "games_in_progress": games,
        })),
        Err(error) => error_response(StatusCode::SERVICE_UNAVAILABLE, "unavailable", error),
    }
}
