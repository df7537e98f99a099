//! The computer's levels: what "play the computer" offers, and the level suggested to this
//! player.

use actix_web::web::{self, ServiceConfig};
use actix_web::{HttpResponse, Responder};
use outflank_engine::ai::Level;
use serde_json::json;

use crate::accounts::rating::shown;
use crate::identity::session::Session;
use crate::live::{Player, Pool};
use crate::service::GUEST_RATING;
use crate::storage::Store;

pub fn configure(config: &mut ServiceConfig) {
    config.route("/api/computer/levels", web::get().to(levels));
}

/// `GET /api/computer/levels`: every level weakest first, with its measured Elo and the name
/// the board shows, and `suggested`: the level rated nearest `rating`, the player's own
/// (`own_rating` true) for an account, otherwise the guests' starting rating.
async fn levels(session: Option<Session>, store: web::Data<Store>) -> impl Responder {
    let own = match session {
        Some(session) if session.account => store
            .standing_in(&session.player, Pool::DEFAULT)
            .await
            .ok()
            .and_then(|standing| i32::try_from(shown(standing.rating)).ok()),
        _ => None,
    };
    let rating = own.unwrap_or(GUEST_RATING);
    let levels: Vec<_> = Level::ALL
        .into_iter()
        .map(|level| {
            json!({
                "level": level.number(),
                "elo": level.elo(),
                "name": Player::Computer(level).display_name(),
            })
        })
        .collect();
    HttpResponse::Ok().json(json!({
        "levels": levels,
        "rating": rating,
        "own_rating": own.is_some(),
        "suggested": Level::for_rating(rating).number(),
    }))
}
