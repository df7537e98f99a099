//! Reports and blocks, the signed-in player's side of trust and safety:
//! `POST /api/reports` reports a player (by public name, or by seat in a game),
//! `GET /api/reports/mine` lists what the player reported and where each stands;
//! `GET /api/blocks`, `POST /api/blocks` and `DELETE /api/blocks/{name}` list, add and lift
//! blocks; `GET /api/account/notices` says what moderators did that concerns the account.

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use actix_web::web::{self, ServiceConfig};
use serde::Deserialize;
use serde_json::{Value, json};
use thiserror::Error;

use crate::accounts::PublicName;
use crate::domain::{GameId, PlayerId, ReportReason, ReportStatus, Timestamp};
use crate::http::error::{ApiError, api_error};
use crate::identity::session::Session;
use crate::storage::{DbError, NewReport, ReportError, ReportRow, Store};

/// The longest a report's details may be, in characters.
pub const MAX_DETAILS: usize = 500;

pub fn configure(config: &mut ServiceConfig) {
    config
        .route("/api/reports", web::post().to(report))
        .route("/api/reports/mine", web::get().to(my_reports))
        .route("/api/blocks", web::get().to(blocks))
        .route("/api/blocks", web::post().to(block))
        .route("/api/blocks/{name}", web::delete().to(unblock))
        .route("/api/account/notices", web::get().to(notices));
}

/// Errors of the report and block routes.
#[derive(Debug, Error)]
pub enum ReportRouteError {
    #[error("sign in with Google first")]
    NotSignedIn,
    #[error("name a player: a public name, or a game and a colour")]
    NoTarget,
    #[error("reason must be engine, name, rating or other")]
    BadReason,
    #[error("details have at most {MAX_DETAILS} characters")]
    TooLong,
    #[error("say what happened in the details")]
    DetailsRequired,
    #[error("you cannot report or block yourself")]
    Yourself,
    #[error("there is no player there")]
    NotFound,
    #[error("{0}")]
    Refused(ReportError),
    #[error("you have blocked as many players as you can; lift a block first")]
    TooManyBlocks,
    #[error("the server could not do that; please try again")]
    Unavailable(String),
}

impl From<DbError> for ReportRouteError {
    fn from(error: DbError) -> ReportRouteError {
        match error {
            DbError::NotFound => ReportRouteError::NotFound,
            other => ReportRouteError::Unavailable(other.to_string()),
        }
    }
}

impl ApiError for ReportRouteError {
    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            ReportRouteError::NotSignedIn => (StatusCode::UNAUTHORIZED, "not_signed_in"),
            ReportRouteError::NoTarget
            | ReportRouteError::BadReason
            | ReportRouteError::TooLong
            | ReportRouteError::DetailsRequired => (StatusCode::BAD_REQUEST, "bad_request"),
            ReportRouteError::Yourself => (StatusCode::BAD_REQUEST, "yourself"),
            ReportRouteError::NotFound => (StatusCode::NOT_FOUND, "not_found"),
            ReportRouteError::Refused(ReportError::AlreadyOpen) => {
                (StatusCode::CONFLICT, "already_reported")
            }
            ReportRouteError::Refused(ReportError::TooMany) => {
                (StatusCode::TOO_MANY_REQUESTS, "too_many_reports")
            }
            ReportRouteError::TooManyBlocks => (StatusCode::CONFLICT, "too_many_blocks"),
            ReportRouteError::Refused(ReportError::Db(_)) | ReportRouteError::Unavailable(_) => {
                (StatusCode::SERVICE_UNAVAILABLE, "unavailable")
            }
        }
    }

    fn detail(&self) -> Option<&str> {
        match self {
            ReportRouteError::Unavailable(detail) => Some(detail),
            _ => None,
        }
    }
}

api_error!(ReportRouteError);

impl From<ReportError> for ReportRouteError {
    fn from(error: ReportError) -> ReportRouteError {
        match error {
            ReportError::Db(error) => error.into(),
            refused => ReportRouteError::Refused(refused),
        }
    }
}

/// Whom a report or block is about: an account by its public name, or whoever sat on
/// `color` in `game` (a guest too).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Target {
    name: Option<String>,
    game: Option<String>,
    color: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReportBody {
    name: Option<String>,
    game: Option<String>,
    color: Option<String>,
    reason: String,
    #[serde(default)]
    details: String,
}

/// The player a target names, their shown name and the game it came from.
async fn resolve(
    store: &Store,
    target: &Target,
) -> Result<(PlayerId, String, Option<GameId>), ReportRouteError> {
    match (&target.name, &target.game, &target.color) {
        (Some(name), None, None) => {
            let name = PublicName::parse(name).map_err(|_| ReportRouteError::NotFound)?;
            let account = store.account_by_name(&name).await?;
            let shown = account.name.unwrap_or_else(|| name.to_string());
            Ok((account.player_id, shown, None))
        }
        (None, Some(game), Some(color)) => {
            let game_id: GameId = game.parse().map_err(|_| ReportRouteError::NotFound)?;
            let row = store.game(&game_id).await?;
            let seat = match color.as_str() {
                "black" => row.black,
                "white" => row.white,
                _ => return Err(ReportRouteError::NoTarget),
            };
            // The computer's seat has nobody to report.
            let player = seat.id.ok_or(ReportRouteError::NotFound)?;
            Ok((player, seat.name, Some(game_id)))
        }
        _ => Err(ReportRouteError::NoTarget),
    }
}

fn signed_in(session: Option<Session>) -> Result<Session, ReportRouteError> {
    session.filter(|session| session.account).ok_or(ReportRouteError::NotSignedIn)
}

/// Files a report from the signed-in account.
async fn report(
    session: Option<Session>,
    body: web::Json<ReportBody>,
    store: web::Data<Store>,
) -> Result<HttpResponse, ReportRouteError> {
    let session = signed_in(session)?;
    let body = body.into_inner();
    let reason: ReportReason = body.reason.parse().map_err(|_| ReportRouteError::BadReason)?;
    if reason == ReportReason::Signal {
        return Err(ReportRouteError::BadReason);
    }
    let details = body.details.trim().to_owned();
    if details.chars().count() > MAX_DETAILS {
        return Err(ReportRouteError::TooLong);
    }
    if reason == ReportReason::Other && details.is_empty() {
        return Err(ReportRouteError::DetailsRequired);
    }
    let target = Target { name: body.name, game: body.game, color: body.color };
    let (player, target_name, game_id) = resolve(&store, &target).await?;
    if player == session.player {
        return Err(ReportRouteError::Yourself);
    }
    let report = NewReport {
        reporter: session.player,
        target: player,
        target_name,
        game_id,
        reason,
        details,
    };
    let filed = store.file_report(&report, Timestamp::now()).await?;
    Ok(HttpResponse::Created().json(report_json(&filed)))
}

fn report_json(row: &ReportRow) -> Value {
    json!({
        "id": row.id,
        "name": row.target_name,
        "game": row.game_id,
        "reason": row.reason.as_str(),
        "status": reporter_status(row.status),
        "created_at": row.created_at.0,
    })
}

/// What a reporter sees of a report: received, then acted on or closed, never more.
fn reporter_status(status: ReportStatus) -> &'static str {
    match status {
        ReportStatus::Open => "received",
        ReportStatus::ActedOn => "acted_on",
        ReportStatus::Dismissed => "closed",
    }
}

/// The signed-in account's reports, newest first.
async fn my_reports(
    session: Option<Session>,
    store: web::Data<Store>,
) -> Result<HttpResponse, ReportRouteError> {
    let session = signed_in(session)?;
    let reports = store.reports_by(&session.player).await?;
    let list: Vec<Value> = reports.iter().map(report_json).collect();
    Ok(HttpResponse::Ok().json(json!({ "reports": list })))
}

/// The signed-in account's blocks, newest first.
async fn blocks(
    session: Option<Session>,
    store: web::Data<Store>,
) -> Result<HttpResponse, ReportRouteError> {
    let session = signed_in(session)?;
    let list: Vec<Value> = store
        .blocks_by(&session.player)
        .await?
        .iter()
        .map(|row| json!({ "id": row.blocked, "name": row.name, "since": row.since.0 }))
        .collect();
    Ok(HttpResponse::Ok().json(json!({ "blocks": list })))
}

/// Blocks a player for the signed-in account.
async fn block(
    session: Option<Session>,
    body: web::Json<Target>,
    store: web::Data<Store>,
) -> Result<HttpResponse, ReportRouteError> {
    let session = signed_in(session)?;
    let (player, name, _) = resolve(&store, &body).await?;
    if player == session.player {
        return Err(ReportRouteError::Yourself);
    }
    let added =
        store.block(&session.player, &player, &name, Timestamp::now()).await.map_err(|error| {
            match error {
                DbError::Conflict => ReportRouteError::TooManyBlocks,
                other => other.into(),
            }
        })?;
    let status = if added { StatusCode::CREATED } else { StatusCode::OK };
    Ok(HttpResponse::build(status).json(json!({ "id": player, "name": name })))
}

/// Lifts a block; `{name}` is the public name or, for a guest, the player id in the list.
async fn unblock(
    session: Option<Session>,
    path: web::Path<String>,
    store: web::Data<Store>,
) -> Result<HttpResponse, ReportRouteError> {
    let session = signed_in(session)?;
    let key = path.into_inner();
    let blocked = store
        .blocks_by(&session.player)
        .await?
        .into_iter()
        .find(|row| row.blocked.as_str() == key || row.name.eq_ignore_ascii_case(&key))
        .ok_or(ReportRouteError::NotFound)?;
    store.unblock(&session.player, &blocked.blocked).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// What moderators did that concerns the signed-in account: its own sanctions (what and
/// when) and the rating points given back to it.
async fn notices(
    session: Option<Session>,
    store: web::Data<Store>,
) -> Result<HttpResponse, ReportRouteError> {
    let session = signed_in(session)?;
    let sanctions: Vec<Value> = store
        .sanctions_of(&session.player)
        .await?
        .iter()
        .map(|row| {
            json!({
                "kind": row.kind.as_str(),
                "at": row.created_at.0,
                "lifted_at": row.lifted_at.map(|at| at.0),
            })
        })
        .collect();
    let refunds: Vec<Value> = store
        .refunds_to(&session.player)
        .await?
        .iter()
        .filter(|row| row.withdrawn_at.is_none())
        .map(|row| {
            json!({
                "game": row.game_id,
                "pool": row.pool.key(),
                "points": (row.points * 10.0).round() / 10.0,
                "at": row.at.0,
            })
        })
        .collect();
    Ok(HttpResponse::Ok().json(json!({ "sanctions": sanctions, "refunds": refunds })))
}
