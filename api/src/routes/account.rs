//! The signed-in player's account: `POST /api/account/name` chooses the public name (once),
//! `DELETE /api/account` deletes the account (its games stay, showing a deleted player).

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use actix_web::web::{self, ServiceConfig};
use serde::Deserialize;
use serde_json::json;
use thiserror::Error;

use crate::accounts::{PublicName, PublicNameError};
use crate::domain::{Nickname, Timestamp};
use crate::http::error::{ApiError, api_error};
use crate::identity::revocations::Revocations;
use crate::identity::session::{Session, SessionKeys};
use crate::storage::{DbError, NameError, Store};

pub fn configure(config: &mut ServiceConfig) {
    config
        .route("/api/account/name", web::post().to(choose_name))
        .route("/api/account", web::delete().to(delete));
}

/// Errors of the account routes.
#[derive(Debug, Error)]
pub enum AccountError {
    #[error("sign in with Google first")]
    NotSignedIn,
    #[error(transparent)]
    BadName(#[from] PublicNameError),
    #[error("that name is taken: choose another")]
    Taken,
    #[error("your account already has a public name")]
    AlreadyNamed,
    #[error("the server could not save that; please try again")]
    Unavailable(String),
}

impl From<DbError> for AccountError {
    fn from(error: DbError) -> AccountError {
        match error {
            DbError::NotFound => AccountError::NotSignedIn,
            other => AccountError::Unavailable(other.to_string()),
        }
    }
}

impl ApiError for AccountError {
    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            AccountError::NotSignedIn => (StatusCode::UNAUTHORIZED, "not_signed_in"),
            AccountError::BadName(_) => (StatusCode::UNPROCESSABLE_ENTITY, "bad_name"),
            AccountError::Taken => (StatusCode::CONFLICT, "name_taken"),
            AccountError::AlreadyNamed => (StatusCode::CONFLICT, "already_named"),
            AccountError::Unavailable(_) => (StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
        }
    }

    fn detail(&self) -> Option<&str> {
        match self {
            AccountError::Unavailable(detail) => Some(detail),
            _ => None,
        }
    }
}

api_error!(AccountError);

#[derive(Debug, Deserialize)]
struct ChooseName {
    name: String,
}

/// Gives the signed-in account its public name; the session now carries it.
async fn choose_name(
    session: Option<Session>,
    body: web::Json<ChooseName>,
    store: web::Data<Store>,
    keys: web::Data<SessionKeys>,
    revocations: web::Data<Revocations>,
) -> Result<HttpResponse, AccountError> {
    let session = session.filter(|session| session.account).ok_or(AccountError::NotSignedIn)?;
    let name = PublicName::choose(&body.name)?;
    store.set_account_name(&session.player, &name).await.map_err(|error| match error {
        NameError::Taken => AccountError::Taken,
        NameError::AlreadyNamed => AccountError::AlreadyNamed,
        NameError::Db(error) => error.into(),
    })?;
    let nickname = Nickname::parse(name.as_str())
        .map_err(|_| AccountError::BadName(PublicNameError::BadCharacter))?;
    let session = Session { nickname, ..session };
    // Sessions saved under the name before end; the cookie issued now carries the new one.
    let now = Timestamp::now();
    revocations.revoke(&store, &session.player, now).await?;
    Ok(HttpResponse::Ok().cookie(keys.cookie(&session, now)).json(json!({ "name": name.as_str() })))
}

/// Deletes the signed-in account and ends every session of it, in this browser and any other.
async fn delete(
    session: Option<Session>,
    store: web::Data<Store>,
    keys: web::Data<SessionKeys>,
    revocations: web::Data<Revocations>,
) -> Result<HttpResponse, AccountError> {
    let session = session.filter(|session| session.account).ok_or(AccountError::NotSignedIn)?;
    let now = Timestamp::now();
    // Deleting and ending the sessions run to their end together, even if the client leaves
    // meanwhile; an account deleted already (by a request that was cut short) has its
    // sessions ended all the same.
    let player = session.player;
    let ended = actix_web::rt::spawn(async move {
        let deleted = store.delete_account(&player, now).await;
        if matches!(deleted, Ok(()) | Err(DbError::NotFound)) {
            revocations.revoke(&store, &player, now).await?;
        }
        deleted.map_err(AccountError::from)
    });
    ended.await.map_err(|error| AccountError::Unavailable(error.to_string()))??;
    Ok(HttpResponse::NoContent().cookie(keys.removal_cookie()).finish())
}
