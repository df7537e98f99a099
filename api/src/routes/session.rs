//! Guest sessions: `POST /api/session {nickname}`, `GET /api/me`, `DELETE /api/session`.

use actix_web::http::StatusCode;
use actix_web::web::{self, ServiceConfig};
use actix_web::{HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::accounts::rating::{is_provisional, shown};
use crate::domain::{Nickname, NicknameError, PlayerId, Timestamp};
use crate::http::error::{ApiError, api_error};
use crate::http::session::current_session;
use crate::identity::revocations::Revocations;
use crate::identity::session::{Session, SessionKeys};
use crate::storage::{DbError, Store};

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

/// What `GET /api/me` and `POST /api/session` answer.
#[derive(Debug, Serialize)]
struct Me<'a> {
    id: &'a str,
    nickname: &'a str,
    /// The account, when signed in.
    account: Option<Account>,
}

/// The signed-in player's account as `GET /api/me` shows it.
#[derive(Debug, Serialize)]
struct Account {
    /// `None` until a public name is chosen.
    name: Option<String>,
    rating: i64,
    provisional: bool,
    rated_games: u32,
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
    let me = Me { id: session.player.as_str(), nickname: session.nickname.as_str(), account: None };
    Ok(HttpResponse::Ok().cookie(keys.cookie(&session, now)).json(me))
}

/// Who the session is; for a signed-in player, their account as stored now (a deleted
/// account shows as none).
async fn me(session: Session, store: web::Data<Store>) -> Result<HttpResponse, SessionRouteError> {
    let account = if session.account {
        match store.account(&session.player).await {
            Ok(account) => Some(Account {
                name: account.name,
                rating: shown(account.rating),
                provisional: is_provisional(account.rated_games),
                rated_games: account.rated_games,
            }),
            Err(DbError::NotFound) => None,
            Err(error) => return Err(SessionRouteError::Unavailable(error.to_string())),
        }
    } else {
        None
    };
    Ok(HttpResponse::Ok().json(Me {
        id: session.player.as_str(),
        nickname: session.nickname.as_str(),
        account,
    }))
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
