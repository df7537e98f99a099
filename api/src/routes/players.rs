//! Ratings in public: `GET /api/leaderboard?page=N` (the top 100, 25 a page) and
//! `GET /api/players/{name}` (a profile: rating, rank, results, rating history, recent games,
//! puzzles from their games).

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use actix_web::web::{self, ServiceConfig};
use outflank_engine::Color;
use serde::Deserialize;
use serde_json::{Value, json};
use thiserror::Error;

use crate::accounts::PublicName;
use crate::accounts::rating::{RatedGame, RatingChange};
use crate::accounts::rating::{is_provisional, shown};
use crate::domain::{GameStatus, Winner};
use crate::http::error::{ApiError, api_error};
use crate::json::RatingSide;
use crate::live::winner_of;
use crate::storage::{AccountRow, DbError, Store};

/// Players on one leaderboard page.
pub const PER_PAGE: u32 = 25;
/// How far down the leaderboard goes.
pub const TOP: u32 = 100;
/// Games listed on a profile.
const RECENT_GAMES: u32 = 20;

pub fn configure(config: &mut ServiceConfig) {
    config
        .route("/api/leaderboard", web::get().to(leaderboard))
        .route("/api/players/{name}", web::get().to(profile));
}

/// Errors of the player routes.
#[derive(Debug, Error)]
pub enum PlayerRouteError {
    #[error("there is no player called that")]
    NotFound,
    #[error("page must be a number from 1")]
    BadPage,
    #[error("the server could not read that; please try again")]
    Unavailable(String),
}

impl From<DbError> for PlayerRouteError {
    fn from(error: DbError) -> PlayerRouteError {
        match error {
            DbError::NotFound => PlayerRouteError::NotFound,
            other => PlayerRouteError::Unavailable(other.to_string()),
        }
    }
}

impl ApiError for PlayerRouteError {
    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            PlayerRouteError::NotFound => (StatusCode::NOT_FOUND, "not_found"),
            PlayerRouteError::BadPage => (StatusCode::BAD_REQUEST, "bad_request"),
            PlayerRouteError::Unavailable(_) => (StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
        }
    }

    fn detail(&self) -> Option<&str> {
        match self {
            PlayerRouteError::Unavailable(detail) => Some(detail),
            _ => None,
        }
    }
}

api_error!(PlayerRouteError);

#[derive(Debug, Deserialize)]
struct PageQuery {
    page: Option<String>,
}

async fn leaderboard(
    query: web::Query<PageQuery>,
    store: web::Data<Store>,
) -> Result<HttpResponse, PlayerRouteError> {
    let page: u32 = match &query.page {
        None => 1,
        Some(text) => {
            text.parse().ok().filter(|page| *page >= 1).ok_or(PlayerRouteError::BadPage)?
        }
    };
    let total = store.ranked_accounts().await?.min(TOP);
    let pages = total.div_ceil(PER_PAGE).max(1);
    let offset = (page - 1).saturating_mul(PER_PAGE);
    let rows = if offset < total {
        store.leaderboard(offset, PER_PAGE.min(total - offset)).await?
    } else {
        Vec::new()
    };
    let players: Vec<Value> = rows
        .iter()
        .zip(offset + 1..)
        .map(|(account, rank)| {
            let mut entry = standing_json(account);
            entry["rank"] = json!(rank);
            entry
        })
        .collect();
    Ok(HttpResponse::Ok().json(json!({
        "page": page,
        "pages": pages,
        "per_page": PER_PAGE,
        "total": total,
        "players": players,
    })))
}

async fn profile(
    path: web::Path<String>,
    store: web::Data<Store>,
) -> Result<HttpResponse, PlayerRouteError> {
    let name = PublicName::parse(&path).map_err(|_| PlayerRouteError::NotFound)?;
    let account = store.account_by_name(&name).await?;
    let rank = store.rank(&account).await?.filter(|rank| *rank <= TOP);
    let history = store.rating_history(&account.player_id).await?;
    let games = store.recent_games(&account.player_id, RECENT_GAMES).await?;
    let puzzles = store.puzzle_counts(&account.player_id).await?;
    let recent: Vec<Value> = games
        .iter()
        .map(|game| {
            let color = if game.black.id.as_ref() == Some(&account.player_id) {
                Color::Black
            } else {
                Color::White
            };
            let opponent = if color == Color::Black { &game.white } else { &game.black };
            let mine = winner_of(color);
            let result = match (game.status, game.winner) {
                (GameStatus::Finished, Some(Winner::Draw)) => "draw",
                (GameStatus::Finished, Some(winner)) if winner == mine => "win",
                (GameStatus::Finished, Some(_)) => "loss",
                _ => "aborted",
            };
            let change = history.iter().find(|change| change.game_id == game.id);
            json!({
                "id": game.id.to_string(),
                "mode": game.mode.as_str(),
                "rated": game.rated,
                "color": mine.as_str(),
                "opponent": opponent.name,
                "opponent_computer": opponent.id.is_none(),
                "result": result,
                "rating_change": change.map(|change| shown(change.after) - shown(change.before)),
                "finished_at": game.finished_at.map(|at| at.0),
            })
        })
        .collect();
    let mut body = standing_json(&account);
    body["rank"] = json!(rank);
    body["joined_at"] = json!(account.created_at.0);
    body["history"] = history
        .iter()
        .map(|change| {
            json!({ "game_id": change.game_id.to_string(), "at": change.at.0, "rating": shown(change.after) })
        })
        .collect();
    body["recent_games"] = Value::Array(recent);
    body["puzzles"] = json!({ "total": puzzles.total, "solved": puzzles.solved });
    Ok(HttpResponse::Ok().json(body))
}

/// An account's name, rating and record.
fn standing_json(account: &AccountRow) -> Value {
    json!({
        "name": account.name,
        "rating": shown(account.rating),
        "provisional": is_provisional(account.rated_games),
        "rated_games": account.rated_games,
        "wins": account.wins,
        "draws": account.draws,
        "losses": account.losses,
    })
}

/// One side's change in a rated game, as the API and the game socket send it.
pub fn change_json(change: &RatingChange) -> Value {
    json!(RatingSide::from(change))
}

/// Both sides' changes in a rated game.
pub fn rated_game_json(rated: &RatedGame) -> Value {
    json!({ "black": change_json(&rated.black), "white": change_json(&rated.white) })
}
