//! The moderator's desk, `/api/mod/…`: the report queue, a player's file, sanctions and
//! lifting them, dismissing reports, and the log. Every request checks the role afresh, so a
//! moderator whose role is taken away loses the desk at once.

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use actix_web::web::{self, ServiceConfig};
use serde::Deserialize;
use serde_json::{Value, json};
use thiserror::Error;

use crate::domain::{
    NotificationKind, PlayerId, ReportStatus, SanctionId, SanctionKind, Timestamp,
};
use crate::http::error::{ApiError, api_error};
use crate::identity::revocations::Revocations;
use crate::identity::session::Session;
use crate::notifier::Notifier;
use crate::service::fair_play;
use crate::storage::{DbError, ReportRow, SanctionError, SanctionRow, Store};

/// The longest reason a moderator may give, in characters.
pub const MAX_REASON: usize = 500;
/// How far back a player's file counts endings and pairs.
const CONDUCT_PERIOD_MS: i64 = fair_play::PAIR_PERIOD_MS;
/// Log entries per page.
const LOG_PAGE: u32 = 100;

pub fn configure(config: &mut ServiceConfig) {
    config
        .route("/api/mod/me", web::get().to(me))
        .route("/api/mod/queue", web::get().to(queue))
        .route("/api/mod/players/{id}", web::get().to(player_file))
        .route("/api/mod/sanctions", web::post().to(sanction))
        .route("/api/mod/sanctions/{id}/lift", web::post().to(lift))
        .route("/api/mod/reports/dismiss", web::post().to(dismiss))
        .route("/api/mod/log", web::get().to(log));
}

/// Errors of the moderator's routes.
#[derive(Debug, Error)]
pub enum ModerationError {
    #[error("sign in with Google first")]
    NotSignedIn,
    #[error("only moderators may do that")]
    NotModerator,
    #[error("there is no such player or sanction")]
    NotFound,
    #[error("kind must be engine, name or closed")]
    BadKind,
    #[error("give a reason of 1 to {MAX_REASON} characters")]
    BadReason,
    #[error("a moderator cannot sanction their own account")]
    Yourself,
    #[error("{0}")]
    Refused(String),
    #[error("before must be a time in milliseconds")]
    BadBefore,
    #[error("the server could not do that; please try again")]
    Unavailable(String),
}

impl From<DbError> for ModerationError {
    fn from(error: DbError) -> ModerationError {
        match error {
            DbError::NotFound => ModerationError::NotFound,
            other => ModerationError::Unavailable(other.to_string()),
        }
    }
}

impl From<SanctionError> for ModerationError {
    fn from(error: SanctionError) -> ModerationError {
        match error {
            SanctionError::Db(error) => error.into(),
            refused => ModerationError::Refused(refused.to_string()),
        }
    }
}

impl ApiError for ModerationError {
    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            ModerationError::NotSignedIn => (StatusCode::UNAUTHORIZED, "not_signed_in"),
            ModerationError::NotModerator => (StatusCode::FORBIDDEN, "not_moderator"),
            ModerationError::NotFound => (StatusCode::NOT_FOUND, "not_found"),
            ModerationError::BadKind | ModerationError::BadReason | ModerationError::BadBefore => {
                (StatusCode::BAD_REQUEST, "bad_request")
            }
            ModerationError::Yourself => (StatusCode::BAD_REQUEST, "yourself"),
            ModerationError::Refused(_) => (StatusCode::CONFLICT, "conflict"),
            ModerationError::Unavailable(_) => (StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
        }
    }

    fn detail(&self) -> Option<&str> {
        match self {
            ModerationError::Unavailable(detail) => Some(detail),
            _ => None,
        }
    }
}

api_error!(ModerationError);

/// The signed-in moderator, checked against the database on every request.
async fn moderator(session: Option<Session>, store: &Store) -> Result<PlayerId, ModerationError> {
    let session = session.filter(|session| session.account).ok_or(ModerationError::NotSignedIn)?;
    if store.is_moderator(&session.player).await? {
        Ok(session.player)
    } else {
        Err(ModerationError::NotModerator)
    }
}

fn reason(text: &str) -> Result<String, ModerationError> {
    let text = text.trim();
    if text.is_empty() || text.chars().count() > MAX_REASON {
        return Err(ModerationError::BadReason);
    }
    Ok(text.to_owned())
}

/// Whether the signed-in account moderates, `{"moderator": true}` or `false`: the client
/// shows the desk's link.
async fn me(
    session: Option<Session>,
    store: web::Data<Store>,
) -> Result<HttpResponse, ModerationError> {
    let session = session.filter(|session| session.account).ok_or(ModerationError::NotSignedIn)?;
    let moderator = store.is_moderator(&session.player).await?;
    Ok(HttpResponse::Ok().json(json!({ "moderator": moderator })))
}

fn report_json(row: &ReportRow) -> Value {
    json!({
        "id": row.id,
        "reporter": row.reporter,
        "reporter_name": row.reporter_name,
        "name": row.target_name,
        "game": row.game_id,
        "reason": row.reason.as_str(),
        "details": row.details,
        "evidence": row.evidence.as_deref().and_then(|text| serde_json::from_str::<Value>(text).ok()),
        "status": row.status.as_str(),
        "created_at": row.created_at.0,
        "closed_at": row.closed_at.map(|at| at.0),
    })
}

/// The open reports grouped by player, the player reported longest ago first.
async fn queue(
    session: Option<Session>,
    store: web::Data<Store>,
) -> Result<HttpResponse, ModerationError> {
    moderator(session, &store).await?;
    let mut players: Vec<(PlayerId, Vec<&ReportRow>)> = Vec::new();
    let reports = store.open_reports().await?;
    for report in &reports {
        match players.iter_mut().find(|(id, _)| id == &report.target) {
            Some((_, list)) => list.push(report),
            None => players.push((report.target.clone(), vec![report])),
        }
    }
    let list: Vec<Value> = players
        .iter()
        .map(|(id, reports)| {
            json!({
                "id": id,
                "name": reports[0].target_name,
                "oldest_at": reports[0].created_at.0,
                "reports": reports.iter().map(|row| report_json(row)).collect::<Vec<_>>(),
            })
        })
        .collect();
    Ok(HttpResponse::Ok().json(json!({ "players": list })))
}

fn sanction_json(row: &SanctionRow) -> Value {
    json!({
        "id": row.id,
        "player": row.player,
        "kind": row.kind.as_str(),
        "reason": row.reason,
        "previous_name": row.previous_name,
        "created_at": row.created_at.0,
        "created_by": row.created_by,
        "lifted_at": row.lifted_at.map(|at| at.0),
        "lifted_by": row.lifted_by,
    })
}

/// A player's file: who they are, their reviewed rated games beside their band, how their
/// rated games ended, lopsided pairs, reports, names and sanctions.
async fn player_file(
    session: Option<Session>,
    path: web::Path<String>,
    store: web::Data<Store>,
) -> Result<HttpResponse, ModerationError> {
    moderator(session, &store).await?;
    let id: PlayerId = path.parse().map_err(|_| ModerationError::NotFound)?;
    let player = store.player(&id).await?;
    let account = match store.account(&id).await {
        Ok(account) => Some(account),
        Err(DbError::NotFound) => None,
        Err(error) => return Err(error.into()),
    };
    let now = Timestamp::now();
    let since = Timestamp(now.0 - CONDUCT_PERIOD_MS);
    let statistics = fair_play::statistics(&store, &id, now).await?;
    let endings = store.endings(&id, since).await?;
    let pairs: Vec<Value> = store
        .pair_records(&id, since, fair_play::PAIR_MIN_GAMES)
        .await?
        .iter()
        .map(|pair| {
            let lopsided = fair_play::lopsided(pair.wins.max(pair.losses), pair.games);
            json!({
                "opponent": pair.opponent,
                "name": pair.opponent_name,
                "games": pair.games,
                "wins": pair.wins,
                "draws": pair.draws,
                "losses": pair.losses,
                "lopsided": lopsided,
            })
        })
        .collect();
    let statistics = statistics.map(|statistics| {
        json!({
            "games": statistics.games.iter().map(|(game, stats)| {
                json!({ "game": game, "stats": stats })
            }).collect::<Vec<_>>(),
            "window": statistics.window,
            "band": statistics.band,
            "assessment": statistics.assessment,
        })
    });
    let names: Vec<Value> = store
        .name_history(&id)
        .await?
        .iter()
        .map(|span| json!({ "name": span.name, "from": span.from.0, "until": span.until.map(|at| at.0) }))
        .collect();
    Ok(HttpResponse::Ok().json(json!({
        "id": id,
        "name": player.nickname,
        "account": account.is_some(),
        "public_name": account.as_ref().and_then(|account| account.name.clone()),
        "created_at": player.created_at.0,
        "statistics": statistics,
        "endings": {
            "period_days": CONDUCT_PERIOD_MS / (24 * 60 * 60 * 1000),
            "rated_games": endings.rated_games,
            "early_resignations": endings.early_resignations,
            "timeouts": endings.timeouts,
            "aborts": endings.aborts,
        },
        "pairs": pairs,
        "reports": store.reports_on(&id).await?.iter().map(report_json).collect::<Vec<_>>(),
        "names": names,
        "sanctions": store.sanctions_of(&id).await?.iter().map(sanction_json).collect::<Vec<_>>(),
    })))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SanctionBody {
    player: String,
    kind: String,
    reason: String,
}

/// Puts a sanction on an account; closing it or resetting its name ends its sessions.
async fn sanction(
    session: Option<Session>,
    body: web::Json<SanctionBody>,
    store: web::Data<Store>,
    revocations: web::Data<Revocations>,
    notifier: web::Data<Notifier>,
) -> Result<HttpResponse, ModerationError> {
    let moderator = moderator(session, &store).await?;
    let kind: SanctionKind = body.kind.parse().map_err(|_| ModerationError::BadKind)?;
    let why = reason(&body.reason)?;
    let player: PlayerId = body.player.parse().map_err(|_| ModerationError::NotFound)?;
    if player == moderator {
        return Err(ModerationError::Yourself);
    }
    let now = Timestamp::now();
    let row = store.sanction(&player, kind, &moderator, &why, now).await?;
    if matches!(kind, SanctionKind::Closed | SanctionKind::Name) {
        revocations.revoke(&store, &player, now).await?;
    }
    tell_reporters(&store, &notifier, &player, now).await;
    Ok(HttpResponse::Created().json(sanction_json(&row)))
}

/// Notifies everyone whose report on `player` the sanction made at `now` acted on. The
/// sanction stands whether or not they can be told.
async fn tell_reporters(store: &Store, notifier: &Notifier, player: &PlayerId, now: Timestamp) {
    let reports = match store.reports_on(player).await {
        Ok(reports) => reports,
        Err(error) => return tracing::warn!(%error, "reporters were not told of a sanction"),
    };
    let acted_on = reports
        .into_iter()
        .filter(|report| report.status == ReportStatus::ActedOn && report.closed_at == Some(now));
    for report in acted_on {
        let Some(reporter) = report.reporter else { continue };
        let data = json!({ "report": report.id, "target": report.target_name });
        notifier.notify(&reporter, NotificationKind::ReportActedOn, data, now).await;
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReasonBody {
    reason: String,
}

/// Lifts a sanction, undoing what it did.
async fn lift(
    session: Option<Session>,
    path: web::Path<String>,
    body: web::Json<ReasonBody>,
    store: web::Data<Store>,
) -> Result<HttpResponse, ModerationError> {
    let moderator = moderator(session, &store).await?;
    let id: SanctionId = path.parse().map_err(|_| ModerationError::NotFound)?;
    let why = reason(&body.reason)?;
    let row = store.lift_sanction(&id, &moderator, &why, Timestamp::now()).await?;
    Ok(HttpResponse::Ok().json(sanction_json(&row)))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DismissBody {
    player: String,
    reason: String,
}

/// Closes the open reports on a player without a sanction.
async fn dismiss(
    session: Option<Session>,
    body: web::Json<DismissBody>,
    store: web::Data<Store>,
) -> Result<HttpResponse, ModerationError> {
    let moderator = moderator(session, &store).await?;
    let why = reason(&body.reason)?;
    let player: PlayerId = body.player.parse().map_err(|_| ModerationError::NotFound)?;
    let closed = store.dismiss_reports(&player, &moderator, &why, Timestamp::now()).await?;
    Ok(HttpResponse::Ok().json(json!({ "dismissed": closed })))
}

#[derive(Debug, Deserialize)]
struct LogQuery {
    before: Option<String>,
}

/// The log, newest first, a page at a time (`?before=` the last entry's time).
async fn log(
    session: Option<Session>,
    query: web::Query<LogQuery>,
    store: web::Data<Store>,
) -> Result<HttpResponse, ModerationError> {
    moderator(session, &store).await?;
    let before = match query.before.as_deref() {
        Some(text) => Some(Timestamp(text.parse().map_err(|_| ModerationError::BadBefore)?)),
        None => None,
    };
    let entries: Vec<Value> = store
        .moderation_log(before, LOG_PAGE)
        .await?
        .iter()
        .map(|row| {
            json!({
                "id": row.id,
                "at": row.at.0,
                "moderator": row.moderator,
                "moderator_name": row.moderator_name,
                "action": row.action,
                "target": row.target,
                "target_name": row.target_name,
                "subject": row.subject,
                "reason": row.reason,
            })
        })
        .collect();
    Ok(HttpResponse::Ok().json(json!({ "entries": entries })))
}
