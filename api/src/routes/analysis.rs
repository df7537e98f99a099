//! A finished game's analysis by the engine: `GET` reads where it stands (and, once done,
//! every ply), `POST` asks for it.

use actix_web::http::StatusCode;
use actix_web::web::{self, ServiceConfig};
use actix_web::{HttpRequest, HttpResponse};
use outflank_engine::analysis::{BLUNDER, INACCURACY, MISTAKE};
use outflank_engine::{Board, Color};
use serde_json::{Value, json};
use thiserror::Error;

use crate::domain::{GameId, GameStatus};
use crate::http::client_address::client_key;
use crate::http::error::{ApiError, api_error};
use crate::identity::session::Session;
use crate::json::board_text;
use crate::service::{Analyses, AnalysisError, AnalysisResult, AnalysisSettings, ENGINE};
use crate::storage::{AnalysisRequester, AnalysisRow, AnalysisStatus, DbError, GameRecord, Store};

pub fn configure(config: &mut ServiceConfig) {
    config
        .route("/api/games/{id}/analysis", web::get().to(show))
        .route("/api/games/{id}/analysis", web::post().to(request));
}

/// Errors of the analysis routes.
#[derive(Debug, Error)]
pub enum AnalysisRouteError {
    #[error("there is no such game")]
    NotFound,
    #[error("the game is still being played; it can be analysed once it is over")]
    GameLive,
    #[error(
        "you have {} analyses waiting already; ask again when one is done",
        crate::service::PER_PLAYER
    )]
    TooMany,
    #[error(
        "{} analyses asked for from your address are waiting already; ask again when one is done",
        crate::service::PER_ADDRESS
    )]
    TooManyFromAddress,
    #[error("the analysis queue is full; please try again in a few minutes")]
    QueueFull,
    #[error("the analysis cannot be read or stored now; please try again")]
    Unavailable(String),
}

impl From<DbError> for AnalysisRouteError {
    fn from(error: DbError) -> AnalysisRouteError {
        match error {
            DbError::NotFound => AnalysisRouteError::NotFound,
            other => AnalysisRouteError::Unavailable(other.to_string()),
        }
    }
}

impl From<AnalysisError> for AnalysisRouteError {
    fn from(error: AnalysisError) -> AnalysisRouteError {
        match error {
            AnalysisError::NotFound => AnalysisRouteError::NotFound,
            AnalysisError::GameLive => AnalysisRouteError::GameLive,
            AnalysisError::TooMany => AnalysisRouteError::TooMany,
            AnalysisError::TooManyFromAddress => AnalysisRouteError::TooManyFromAddress,
            AnalysisError::QueueFull => AnalysisRouteError::QueueFull,
            AnalysisError::Storage(error) => AnalysisRouteError::Unavailable(error.to_string()),
        }
    }
}

impl ApiError for AnalysisRouteError {
    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            AnalysisRouteError::NotFound => (StatusCode::NOT_FOUND, "game_not_found"),
            AnalysisRouteError::GameLive => (StatusCode::CONFLICT, "game_live"),
            AnalysisRouteError::TooMany => (StatusCode::TOO_MANY_REQUESTS, "too_many_analyses"),
            AnalysisRouteError::TooManyFromAddress => {
                (StatusCode::TOO_MANY_REQUESTS, "too_many_analyses_from_address")
            }
            AnalysisRouteError::QueueFull => {
                (StatusCode::SERVICE_UNAVAILABLE, "analysis_queue_full")
            }
            AnalysisRouteError::Unavailable(_) => (StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
        }
    }

    fn detail(&self) -> Option<&str> {
        match self {
            AnalysisRouteError::Unavailable(detail) => Some(detail),
            _ => None,
        }
    }
}

api_error!(AnalysisRouteError);

fn parse_id(text: &str) -> Result<GameId, AnalysisRouteError> {
    text.parse().map_err(|_| AnalysisRouteError::NotFound)
}

/// The game, if it is over: the analysis of a live game is refused.
async fn finished_game(store: &Store, id: &GameId) -> Result<GameRecord, AnalysisRouteError> {
    let record = store.load_game(id).await?;
    if record.game.status == GameStatus::Live {
        return Err(AnalysisRouteError::GameLive);
    }
    Ok(record)
}

/// `GET /api/games/{id}/analysis`: where the analysis stands; every ply once done.
async fn show(
    path: web::Path<String>,
    store: web::Data<Store>,
    analyses: web::Data<Analyses>,
) -> Result<HttpResponse, AnalysisRouteError> {
    let id = parse_id(&path)?;
    let record = finished_game(&store, &id).await?;
    let row = store.analysis(&id).await?;
    Ok(HttpResponse::Ok().json(body(&record, row.as_ref(), analyses.settings())?))
}

/// `POST /api/games/{id}/analysis`: queues the analysis (again, if the stored one was made by
/// another engine or failed), counted against the player and their address; `202` with the
/// same body as `GET`.
async fn request(
    http: HttpRequest,
    path: web::Path<String>,
    session: Session,
    store: web::Data<Store>,
    analyses: web::Data<Analyses>,
) -> Result<HttpResponse, AnalysisRouteError> {
    let id = parse_id(&path)?;
    let record = finished_game(&store, &id).await?;
    let by = AnalysisRequester { player: session.player.clone(), client: client_key(&http) };
    let row = analyses.request(&id, Some(&by)).await?;
    Ok(HttpResponse::Accepted().json(body(&record, Some(&row), analyses.settings())?))
}

/// The wire form of an analysis (see `docs/protocol.md`).
fn body(
    record: &GameRecord,
    row: Option<&AnalysisRow>,
    settings: AnalysisSettings,
) -> Result<Value, AnalysisRouteError> {
    let plies = record.moves.len();
    let status = row.map_or("none", |row| row.status.as_str());
    let result: Option<AnalysisResult> = match row {
        Some(AnalysisRow { status: AnalysisStatus::Done, result: Some(text), .. }) => {
            Some(serde_json::from_str(text).map_err(|error| {
                AnalysisRouteError::Unavailable(format!("stored analysis unreadable: {error}"))
            })?)
        }
        _ => None,
    };
    // Progress in plies: the engine's steps (positions, then plies) scaled to the game.
    let done = match row {
        Some(row) if row.status == AnalysisStatus::Done => plies,
        Some(row) if row.progress_total > 0 => {
            let steps = u64::from(row.progress_done.min(row.progress_total));
            usize::try_from(steps * plies as u64 / u64::from(row.progress_total)).unwrap_or(0)
        }
        _ => 0,
    };
    let (exact_from, search) = match &result {
        Some(result) => (result.exact_from_empties, result.search.clone()),
        None => (settings.review.exact_empties, settings.review.search_label()),
    };
    let mut body = json!({
        "game_id": record.game.id.to_string(),
        "status": status,
        "engine": row.map_or(ENGINE, |row| row.engine.as_str()),
        "exact_from_empties": exact_from,
        "search": search,
        "progress": { "done": done, "total": plies },
        "thresholds": { "inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER },
    });
    if let Some(result) = &result {
        body["plies"] = plies_json(record.game.start_position, record, result);
        body["summary"] = json!({
            "black": result.summary(Color::Black),
            "white": result.summary(Color::White),
        });
    }
    Ok(body)
}

/// Every analysed ply, each best line with the board after each of its moves.
fn plies_json(start: Board, record: &GameRecord, result: &AnalysisResult) -> Value {
    let mut boards = vec![start];
    for row in &record.moves {
        let last = boards.last().copied().unwrap_or(start);
        boards.push(last.play(row.mv).unwrap_or(last));
    }
    let plies: Vec<Value> = result
        .plies
        .iter()
        .map(|ply| {
            let mut board = ply.ply.checked_sub(1).and_then(|i| boards.get(i)).copied();
            let line: Vec<Value> = ply
                .best_line
                .iter()
                .map_while(|&mv| {
                    let next = board?.play(mv).ok()?;
                    board = Some(next);
                    Some(json!({ "move": mv, "board": board_text(&next) }))
                })
                .collect();
            let mut value = serde_json::to_value(ply).unwrap_or(Value::Null);
            value["best_line"] = Value::Array(line);
            value
        })
        .collect();
    Value::Array(plies)
}
