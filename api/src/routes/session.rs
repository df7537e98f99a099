//! Guest sessions: `POST /api/session {nickname}`, `GET /api/me`, `DELETE /api/session`.
//!
//! `GET /api/me` answers 200 whether or not there is a session: every page asks who the visitor
//! is, and a visitor without a session is an ordinary answer, not an error (browsers log every
//! 4xx in the console).

use std::collections::BTreeMap;

use actix_web::http::StatusCode;
use actix_web::web::{self, ServiceConfig};
use actix_web::{HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::accounts::rating::{is_provisional, shown};
use crate::domain::{Nickname, NicknameError, PlayerId, Timestamp};
use crate::http::error::{ApiError, api_error};
use crate::http::session::{SessionRejection, current_session};
use crate::identity::revocations::Revocations;
use crate::identity::session::{Session, SessionKeys};
use crate::live::Pool;
use crate::storage::{DbError, PoolStanding, Store};

pub fn configure(config: &mut ServiceConfig) {
    config
        .route("/api/session", web::post().to(create))
        .route("/api/session", web::delete().to(remove))
        .route("/api/me", web::get().to(me));
}

/// Errors of the session routes.
#[derive(Debug, Error)]
pub enum SessionRouteError {
    #[error(transparent)]
    Nickname(#[from] NicknameError),
    #[error("you are signed in: you play under your account's public name")]
    SignedIn,
    #[error("that is a player's account name: choose another nickname")]
    AccountName,
    #[error("the server could not save your session; please try again")]
    Unavailable(String),
}

impl ApiError for SessionRouteError {
    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            SessionRouteError::Nickname(_) => (StatusCode::UNPROCESSABLE_ENTITY, "bad_nickname"),
            SessionRouteError::SignedIn => (StatusCode::CONFLICT, "signed_in"),
            SessionRouteError::AccountName => (StatusCode::CONFLICT, "name_taken"),
            SessionRouteError::Unavailable(_) => (StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
        }
    }

    fn detail(&self) -> Option<&str> {
        match self {
            SessionRouteError::Unavailable(detail) => Some(detail),
            _ => None,
        }
    }
}

api_error!(SessionRouteError);

/// The body of `POST /api/session`.
#[derive(Debug, Deserialize)]
struct NewSession {
    nickname: String,
}

/// Whether the request has a session and, when it has none, why not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
enum SessionState {
    /// A valid session: `id` and `nickname` are set.
    Active,
    /// No session cookie, or one this site did not sign.
    #[serde(rename = "none")]
    Missing,
    /// The session's lifetime is over: choose a nickname (or sign in) again.
    Expired,
    /// The player signed out, renamed themselves or deleted their account since it was issued.
    Revoked,
}

impl From<&SessionRejection> for SessionState {
    fn from(rejection: &SessionRejection) -> SessionState {
        match rejection {
            SessionRejection::NoSession => SessionState::Missing,
            SessionRejection::Expired => SessionState::Expired,
            SessionRejection::Revoked => SessionState::Revoked,
        }
    }
}

/// What `GET /api/me` and `POST /api/session` answer: always the same four fields, with
/// `id`, `nickname` and `account` null unless `session` is `active`.
#[derive(Debug, Serialize)]
struct Me<'a> {
    session: SessionState,
    id: Option<&'a str>,
    nickname: Option<&'a str>,
    /// The account, when signed in.
    account: Option<Account>,
}

impl<'a> Me<'a> {
    /// The answer for a valid session.
    fn active(session: &'a Session, account: Option<Account>) -> Me<'a> {
        Me {
            session: SessionState::Active,
            id: Some(session.player.as_str()),
            nickname: Some(session.nickname.as_str()),
            account,
        }
    }

    /// The answer without a valid session.
    fn without(state: SessionState) -> Me<'static> {
        Me { session: state, id: None, nickname: None, account: None }
    }
}

/// The signed-in player's account as `GET /api/me` shows it: its standing in the default pool,
/// and in every pool by key.
#[derive(Debug, Serialize)]
struct Account {
    /// `None` until a public name is chosen.
    name: Option<String>,
    #[serde(flatten)]
    standing: PoolRating,
    ratings: BTreeMap<&'static str, PoolRating>,
}

/// A rating in one pool, as `GET /api/me` shows it.
#[derive(Clone, Copy, Debug, Serialize)]
struct PoolRating {
    rating: i64,
    provisional: bool,
    rated_games: u32,
}

impl From<&PoolStanding> for PoolRating {
    fn from(standing: &PoolStanding) -> PoolRating {
        PoolRating {
            rating: shown(standing.rating),
            provisional: is_provisional(standing.rated_games),
            rated_games: standing.rated_games,
        }
    }
}

/// Account `id` as `GET /api/me` shows it; `None` when it has none (or deleted it).
async fn account_of(store: &Store, id: &PlayerId) -> Result<Option<Account>, DbError> {
    let account = match store.account(id).await {
        Ok(account) => account,
        Err(DbError::NotFound) => return Ok(None),
        Err(error) => return Err(error),
    };
    let standings = store.standings(id).await?;
    let ratings: BTreeMap<_, _> = standings
        .iter()
        .map(|standing| (standing.pool.key(), PoolRating::from(standing)))
        .collect();
    let standing = standings
        .iter()
        .find(|standing| standing.pool == Pool::DEFAULT)
        .map_or(PoolRating::from(&PoolStanding::new(Pool::DEFAULT)), PoolRating::from);
    Ok(Some(Account { name: account.name, standing, ratings }))
}

/// Starts a guest session, or renames the player of the current one (keeping its id, so their
/// games stay theirs).
async fn create(
    request: HttpRequest,
    body: web::Json<NewSession>,
    keys: web::Data<SessionKeys>,
    store: web::Data<Store>,
    revocations: web::Data<Revocations>,
) -> Result<HttpResponse, SessionRouteError> {
    let nickname = Nickname::choose(&body.nickname)?;
    let unavailable = |error: DbError| SessionRouteError::Unavailable(error.to_string());
    // A guest cannot pass for an account: no nickname that looks like an account's name.
    if store.is_account_name(&nickname.skeleton()).await.map_err(unavailable)? {
        return Err(SessionRouteError::AccountName);
    }
    let now = Timestamp::now();
    let player = match current_session(&request, now) {
        Ok(session) if session.account => return Err(SessionRouteError::SignedIn),
        Ok(session) => {
            // A new name ends the sessions under the old one, wherever they were saved; the
            // cookie issued below, at the same moment, counts.
            revocations.revoke(&store, &session.player, now).await.map_err(unavailable)?;
            session.player
        }
        Err(_) => PlayerId::generate(),
    };
    store.upsert_guest(&player, nickname.as_str(), now).await.map_err(unavailable)?;
    let session = Session { player, nickname, account: false };
    Ok(HttpResponse::Ok().cookie(keys.cookie(&session, now)).json(Me::active(&session, None)))
}

/// Who the session is; for a signed-in player, their account as stored now (a deleted
/// account shows as none). Without a valid session: which of the reasons it is, still 200.
async fn me(
    request: HttpRequest,
    store: web::Data<Store>,
) -> Result<HttpResponse, SessionRouteError> {
    let session = match current_session(&request, Timestamp::now()) {
        Ok(session) => session,
        Err(rejection) => {
            return Ok(HttpResponse::Ok().json(Me::without(SessionState::from(&rejection))));
        }
    };
    let account = if session.account {
        account_of(&store, &session.player)
            .await
            .map_err(|error| SessionRouteError::Unavailable(error.to_string()))?
    } else {
        None
    };
    Ok(HttpResponse::Ok().json(Me::active(&session, account)))
}

/// Signs the player out everywhere: every session of theirs, saved in any browser, ends.
async fn remove(
    request: HttpRequest,
    keys: web::Data<SessionKeys>,
    store: web::Data<Store>,
    revocations: web::Data<Revocations>,
) -> Result<HttpResponse, SessionRouteError> {
    if let Ok(session) = current_session(&request, Timestamp::now()) {
        let unavailable = |error: DbError| SessionRouteError::Unavailable(error.to_string());
        revocations.revoke(&store, &session.player, Timestamp::now()).await.map_err(unavailable)?;
    }
    Ok(HttpResponse::NoContent().cookie(keys.removal_cookie()).finish())
}
