//! The signed-in account's notifications: `GET /api/notifications` (the latest, with how many
//! are unread) and `POST /api/notifications/read` (some, or all, marked read). Kept 30 days.

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use actix_web::web::{self, ServiceConfig};
use serde::Deserialize;
use serde_json::json;
use thiserror::Error;

use crate::domain::{NotificationId, Timestamp};
use crate::http::error::{ApiError, api_error};
use crate::identity::session::Session;
use crate::json::social::NotificationList;
use crate::storage::{DbError, NOTIFICATIONS_LISTED, Store};

pub fn configure(config: &mut ServiceConfig) {
    config
        .route("/api/notifications", web::get().to(list))
        .route("/api/notifications/read", web::post().to(mark_read));
}

/// Errors of the notification routes.
#[derive(Debug, Error)]
pub enum NotificationRouteError {
    #[error("sign in with Google to see your notifications")]
    NotSignedIn,
    #[error("the request body must be {{\"ids\": [...]}} or {{\"all\": true}}: {0}")]
    BadRequest(String),
    #[error("the server could not do that; please try again")]
    Unavailable(String),
}

impl From<DbError> for NotificationRouteError {
    fn from(error: DbError) -> NotificationRouteError {
        NotificationRouteError::Unavailable(error.to_string())
    }
}

impl ApiError for NotificationRouteError {
    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            NotificationRouteError::NotSignedIn => (StatusCode::UNAUTHORIZED, "not_signed_in"),
            NotificationRouteError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            NotificationRouteError::Unavailable(_) => {
                (StatusCode::SERVICE_UNAVAILABLE, "unavailable")
            }
        }
    }

    fn detail(&self) -> Option<&str> {
        match self {
            NotificationRouteError::Unavailable(detail) => Some(detail),
            _ => None,
        }
    }
}

api_error!(NotificationRouteError);

fn signed_in(session: &Session) -> Result<(), NotificationRouteError> {
    if session.account { Ok(()) } else { Err(NotificationRouteError::NotSignedIn) }
}

/// `GET /api/notifications`: the latest notifications, newest first, and the unread count.
async fn list(
    session: Session,
    store: web::Data<Store>,
) -> Result<HttpResponse, NotificationRouteError> {
    signed_in(&session)?;
    let now = Timestamp::now();
    let notifications = store.notifications(&session.player, now).await?;
    let unread = store.unread_notifications(&session.player, now).await?;
    Ok(HttpResponse::Ok().json(NotificationList { unread, notifications }))
}

/// What `POST /api/notifications/read` takes: the ids to mark, or all.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReadRequest {
    ids: Option<Vec<NotificationId>>,
    #[serde(default)]
    all: bool,
}

/// `POST /api/notifications/read`: marks notifications read; answers the unread count left.
async fn mark_read(
    body: web::Bytes,
    session: Session,
    store: web::Data<Store>,
) -> Result<HttpResponse, NotificationRouteError> {
    signed_in(&session)?;
    let asked: ReadRequest = serde_json::from_slice(&body)
        .map_err(|error| NotificationRouteError::BadRequest(error.to_string()))?;
    let ids = match (asked.ids, asked.all) {
        (Some(ids), false) if ids.len() <= NOTIFICATIONS_LISTED as usize => Some(ids),
        (Some(_), false) => {
            let many = format!("at most {NOTIFICATIONS_LISTED} ids at once");
            return Err(NotificationRouteError::BadRequest(many));
        }
        (None, true) => None,
        _ => return Err(NotificationRouteError::BadRequest("name ids or all, not both".into())),
    };
    let now = Timestamp::now();
    store.mark_notifications_read(&session.player, ids.as_deref(), now).await?;
    let unread = store.unread_notifications(&session.player, now).await?;
    Ok(HttpResponse::Ok().json(json!({ "unread": unread })))
}
