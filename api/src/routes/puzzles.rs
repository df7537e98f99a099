//! Puzzles from a player's own games: `GET /api/puzzles` (the session's player's), `GET
//! /api/puzzles/{id}` (one, to solve), `POST /api/puzzles/{id}/attempt` (an answer, judged by
//! the engine's stored values) and `GET /api/puzzles/{id}/solution`.

use actix_web::http::StatusCode;
use actix_web::web::{self, ServiceConfig};
use actix_web::{HttpRequest, HttpResponse};
use outflank_engine::Square;
use serde::Deserialize;
use serde_json::{Value, json};
use thiserror::Error;

use crate::domain::{PlayerId, PuzzleId, Timestamp};
use crate::http::error::{ApiError, api_error};
use crate::http::session::current_session;
use crate::identity::session::Session;
use crate::json::{LegalMsg, board_text};
use crate::service::puzzles::{self, AnswerError, ValuedMove};
use crate::storage::{DbError, PuzzleRow, Store};

/// Puzzles listed at most.
pub const LISTED: u32 = 100;

pub fn configure(config: &mut ServiceConfig) {
    config
        .route("/api/puzzles", web::get().to(list))
        .route("/api/puzzles/{id}", web::get().to(show))
        .route("/api/puzzles/{id}/attempt", web::post().to(attempt))
        .route("/api/puzzles/{id}/solution", web::get().to(solution));
}

/// Errors of the puzzle routes.
#[derive(Debug, Error)]
pub enum PuzzleRouteError {
    #[error("there is no such puzzle")]
    NotFound,
    #[error("{0}")]
    BadRequest(String),
    #[error(transparent)]
    Illegal(AnswerError),
    #[error("the puzzles cannot be read or stored now; please try again")]
    Unavailable(String),
}

impl From<DbError> for PuzzleRouteError {
    fn from(error: DbError) -> PuzzleRouteError {
        match error {
            DbError::NotFound => PuzzleRouteError::NotFound,
            other => PuzzleRouteError::Unavailable(other.to_string()),
        }
    }
}

impl From<AnswerError> for PuzzleRouteError {
    fn from(error: AnswerError) -> PuzzleRouteError {
        match error {
            AnswerError::Illegal(_) => PuzzleRouteError::Illegal(error),
            AnswerError::Corrupt => PuzzleRouteError::Unavailable(error.to_string()),
        }
    }
}

impl ApiError for PuzzleRouteError {
    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            PuzzleRouteError::NotFound => (StatusCode::NOT_FOUND, "puzzle_not_found"),
            PuzzleRouteError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            PuzzleRouteError::Illegal(_) => (StatusCode::UNPROCESSABLE_ENTITY, "illegal_move"),
            PuzzleRouteError::Unavailable(_) => (StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
        }
    }

    fn detail(&self) -> Option<&str> {
        match self {
            PuzzleRouteError::Unavailable(detail) => Some(detail),
            _ => None,
        }
    }
}

api_error!(PuzzleRouteError);

/// The stored puzzle `text` names.
async fn find(store: &Store, text: &str) -> Result<PuzzleRow, PuzzleRouteError> {
    let id: PuzzleId = text.parse().map_err(|_| PuzzleRouteError::NotFound)?;
    store.puzzle(&id).await?.ok_or(PuzzleRouteError::NotFound)
}

/// The player of the request's session, if it has one.
fn viewer(request: &HttpRequest) -> Option<PlayerId> {
    current_session(request, Timestamp::now()).ok().map(|session| session.player)
}

/// `GET /api/puzzles`: the session's player's puzzles, unsolved first, and their counts.
async fn list(session: Session, store: web::Data<Store>) -> Result<HttpResponse, PuzzleRouteError> {
    let rows = store.player_puzzles(&session.player, LISTED).await?;
    let counts = store.puzzle_counts(&session.player).await?;
    let puzzles: Vec<Value> =
        rows.iter().map(|row| puzzle_json(row, Some(&session.player))).collect();
    Ok(HttpResponse::Ok().json(json!({
        "puzzles": puzzles,
        "counts": { "total": counts.total, "solved": counts.solved },
    })))
}

/// `GET /api/puzzles/{id}`: one puzzle, to be solved (without its solution).
async fn show(
    request: HttpRequest,
    path: web::Path<String>,
    store: web::Data<Store>,
) -> Result<HttpResponse, PuzzleRouteError> {
    let row = find(&store, &path).await?;
    Ok(HttpResponse::Ok().json(puzzle_json(&row, viewer(&request).as_ref())))
}

/// The body of an answer.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Answer {
    /// A square, e.g. `d3`.
    #[serde(rename = "move")]
    mv: String,
}

/// `POST /api/puzzles/{id}/attempt`: judges an answer; the puzzle's own player's answers are
/// counted, and their first right one solves it.
async fn attempt(
    path: web::Path<String>,
    session: Session,
    body: web::Json<Answer>,
    store: web::Data<Store>,
) -> Result<HttpResponse, PuzzleRouteError> {
    let mut row = find(&store, &path).await?;
    let answer: Square = body.mv.trim().to_ascii_lowercase().parse().map_err(|_| {
        let shown: String = body.mv.chars().take(12).collect();
        PuzzleRouteError::BadRequest(format!("{shown:?} is not a square like d3"))
    })?;
    let verdict = puzzles::judge(&row, answer)?;
    if row.player_id == session.player {
        row = store
            .record_attempt(&row.id, &session.player, verdict.correct, Timestamp::now())
            .await?;
    }
    let mut body = serde_json::to_value(&verdict).unwrap_or(Value::Null);
    body["move"] = json!(answer.to_string());
    body["puzzle"] = puzzle_json(&row, Some(&session.player));
    if verdict.correct {
        body["solution"] = json!(row.solution.to_string());
    }
    Ok(HttpResponse::Ok().json(body))
}

/// `GET /api/puzzles/{id}/solution`: the best move and every legal move's value. The game's
/// review shows them too, so they are no secret; the page asks only when the player gives up.
async fn solution(
    path: web::Path<String>,
    store: web::Data<Store>,
) -> Result<HttpResponse, PuzzleRouteError> {
    let row = find(&store, &path).await?;
    let values: Vec<ValuedMove> = serde_json::from_str(&row.move_values)
        .map_err(|_| PuzzleRouteError::from(AnswerError::Corrupt))?;
    Ok(HttpResponse::Ok().json(json!({
        "id": row.id.to_string(),
        "solution": row.solution.to_string(),
        "values": values,
    })))
}

/// The wire form of a puzzle (see `docs/protocol.md`); `viewer` is who asks.
fn puzzle_json(row: &PuzzleRow, viewer: Option<&PlayerId>) -> Value {
    let position = row.position;
    json!({
        "id": row.id.to_string(),
        "game_id": row.id.game_id.to_string(),
        "ply": row.id.ply,
        "board": board_text(&position),
        "side_to_move": position.side_to_move().name().to_lowercase(),
        "legal_moves": LegalMsg::all(&position),
        "played": row.played.to_string(),
        "loss": row.loss,
        "mine": viewer == Some(&row.player_id),
        "attempts": row.attempts,
        "solved": row.solved_at.is_some(),
        "created_at": row.created_at.0,
    })
}
