//! `GET /api/me/games`: the session player's live games against people or the computer, those
//! waiting for their move first (a daily game's by its deadline, soonest first), so that the
//! home page can list the games to go back to.

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use actix_web::web::{self, ServiceConfig};
use outflank_engine::Color;
use serde::Serialize;
use thiserror::Error;

use crate::domain::Timestamp;
use crate::http::error::{ApiError, api_error};
use crate::identity::session::Session;
use crate::live::TimeControl;
use crate::storage::{DbError, GameRow, Store};

/// At most this many games are listed.
const LISTED: u32 = 20;

pub fn configure(config: &mut ServiceConfig) {
    config.route("/api/me/games", web::get().to(my_games));
}

/// One of the player's live games.
#[derive(Debug, Serialize)]
struct MyGame {
    id: String,
    /// The game's page.
    url: String,
    mode: &'static str,
    /// How the game is timed (`30s`, `3+2`, `2d`).
    control: Option<String>,
    /// Whether it started from an XOT opening.
    xot: bool,
    /// The player's colour.
    you: &'static str,
    opponent: String,
    /// Whether it is the player's move.
    your_turn: bool,
    /// Under a daily control, when the side to move must have moved (epoch milliseconds).
    deadline: Option<i64>,
}

#[derive(Debug, Serialize)]
struct MyGames {
    games: Vec<MyGame>,
}

fn my_game(session: &Session, game: GameRow, plies: u32) -> Option<MyGame> {
    let me = Some(&session.player);
    let color = if game.black.id.as_ref() == me {
        Color::Black
    } else if game.white.id.as_ref() == me {
        Color::White
    } else {
        return None;
    };
    // Passes are stored as plies, so the count's parity says whose turn it is.
    let to_move = if plies.is_multiple_of(2) { Color::Black } else { Color::White };
    let opponent = if color == Color::Black { &game.white.name } else { &game.black.name };
    let deadline = match (game.control(), game.turn_started_at) {
        (Some(control @ TimeControl::Daily { .. }), Some(Timestamp(started))) => {
            Some(started.saturating_add(control.initial_ms()))
        }
        _ => None,
    };
    Some(MyGame {
        id: game.id.to_string(),
        url: format!("/game/{}", game.id),
        mode: game.mode.as_str(),
        control: game.control().map(|control| control.to_string()),
        xot: game.opening.is_some(),
        you: if color == Color::Black { "black" } else { "white" },
        opponent: opponent.clone(),
        your_turn: to_move == color,
        deadline,
    })
}

/// `GET /api/me/games`.
async fn my_games(session: Session, store: web::Data<Store>) -> Result<HttpResponse, MyGamesError> {
    let rows = store.live_games_of(&session.player, LISTED).await?;
    let mut games: Vec<MyGame> =
        rows.into_iter().filter_map(|(game, plies)| my_game(&session, game, plies)).collect();
    // Stable: among equals, the most recently changed first, as stored.
    games.sort_by_key(|game| (!game.your_turn, game.deadline.unwrap_or(i64::MAX)));
    Ok(HttpResponse::Ok().json(MyGames { games }))
}

/// Why the games cannot be listed.
#[derive(Debug, Error)]
pub enum MyGamesError {
    #[error("your games cannot be listed right now; try again in a moment")]
    Unavailable(String),
}

impl From<DbError> for MyGamesError {
    fn from(error: DbError) -> MyGamesError {
        MyGamesError::Unavailable(error.to_string())
    }
}

impl ApiError for MyGamesError {
    fn status_and_code(&self) -> (StatusCode, &'static str) {
        (StatusCode::SERVICE_UNAVAILABLE, "unavailable")
    }

    fn detail(&self) -> Option<&str> {
        let MyGamesError::Unavailable(detail) = self;
        Some(detail)
    }
}

api_error!(MyGamesError);
