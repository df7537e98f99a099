//! Web Push, opted into per browser and per kind of notification: `GET /api/push` gives the
//! key browsers subscribe with, the kinds and this account's subscriptions;
//! `POST /api/push/subscriptions` keeps a browser's subscription (its endpoint, keys and the
//! kinds it wants) and `DELETE /api/push/subscriptions?endpoint=…` forgets it.

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use actix_web::web::{self, ServiceConfig};
use serde::Deserialize;
use serde_json::json;
use thiserror::Error;

use crate::domain::{NotificationKind, PlayerId, Timestamp};
use crate::http::error::{ApiError, api_error};
use crate::identity::session::Session;
use crate::push_sender::PushSender;
use crate::storage::{DbError, PushSubscriptionRow, Store};
use crate::web_push::SubscriptionKeys;

pub fn configure(config: &mut ServiceConfig) {
    config
        .route("/api/push", web::get().to(show))
        .route("/api/push/subscriptions", web::post().to(subscribe))
        .route("/api/push/subscriptions", web::delete().to(unsubscribe));
}

/// Errors of the push routes.
#[derive(Debug, Error)]
pub enum PushRouteError {
    #[error("sign in with Google to get notifications pushed")]
    NotSignedIn,
    #[error("the request is not a subscription: {0}")]
    BadRequest(String),
    #[error("a push endpoint is the https address of a public push service")]
    BadEndpoint,
    #[error("a subscription's keys are base64url: p256dh a P-256 point, auth 16 bytes")]
    BadKeys,
    #[error("choose at least one kind of notification")]
    NoKinds,
    #[error("this account has as many browsers subscribed as it may; remove one first")]
    TooMany,
    #[error("this browser is not subscribed")]
    NotFound,
    #[error("the server could not do that; please try again")]
    Unavailable(String),
}

impl From<DbError> for PushRouteError {
    fn from(error: DbError) -> PushRouteError {
        match error {
            DbError::Conflict => PushRouteError::TooMany,
            other => PushRouteError::Unavailable(other.to_string()),
        }
    }
}

impl ApiError for PushRouteError {
    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            PushRouteError::NotSignedIn => (StatusCode::UNAUTHORIZED, "not_signed_in"),
            PushRouteError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            PushRouteError::BadEndpoint => (StatusCode::UNPROCESSABLE_ENTITY, "bad_endpoint"),
            PushRouteError::BadKeys => (StatusCode::UNPROCESSABLE_ENTITY, "bad_keys"),
            PushRouteError::NoKinds => (StatusCode::UNPROCESSABLE_ENTITY, "no_kinds"),
            PushRouteError::TooMany => (StatusCode::CONFLICT, "too_many_subscriptions"),
            PushRouteError::NotFound => (StatusCode::NOT_FOUND, "subscription_not_found"),
            PushRouteError::Unavailable(_) => (StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
        }
    }

    fn detail(&self) -> Option<&str> {
        match self {
            PushRouteError::Unavailable(detail) => Some(detail),
            _ => None,
        }
    }
}

api_error!(PushRouteError);

fn signed_in(session: &Session) -> Result<&PlayerId, PushRouteError> {
    if session.account { Ok(&session.player) } else { Err(PushRouteError::NotSignedIn) }
}

/// `GET /api/push`: the server's public key, every kind that can be pushed, and this
/// account's subscriptions with their kinds.
async fn show(
    session: Session,
    store: web::Data<Store>,
    push: web::Data<PushSender>,
) -> Result<HttpResponse, PushRouteError> {
    let me = signed_in(&session)?;
    let subscriptions: Vec<_> = store
        .push_subscriptions(me)
        .await?
        .into_iter()
        .map(|subscription| json!({ "endpoint": subscription.endpoint, "kinds": subscription.kinds }))
        .collect();
    Ok(HttpResponse::Ok().json(json!({
        "public_key": push.public_key(),
        "kinds": NotificationKind::ALL,
        "subscriptions": subscriptions,
    })))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Keys {
    p256dh: String,
    auth: String,
}

/// A browser's `PushSubscription` as its `toJSON()` gives it, with the kinds it wants.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SubscriptionRequest {
    endpoint: String,
    keys: Keys,
    kinds: Vec<NotificationKind>,
    /// Sent by browsers; not used.
    #[serde(default, rename = "expirationTime")]
    _expiration_time: Option<serde_json::Value>,
}

/// `POST /api/push/subscriptions`: keeps a browser's subscription; `201` when new, `200` when
/// its kinds or keys changed.
async fn subscribe(
    body: web::Bytes,
    session: Session,
    store: web::Data<Store>,
    push: web::Data<PushSender>,
) -> Result<HttpResponse, PushRouteError> {
    let me = signed_in(&session)?;
    let asked: SubscriptionRequest = serde_json::from_slice(&body)
        .map_err(|error| PushRouteError::BadRequest(error.to_string()))?;
    push.check_endpoint(&asked.endpoint).map_err(|_| PushRouteError::BadEndpoint)?;
    SubscriptionKeys::parse(&asked.keys.p256dh, &asked.keys.auth)
        .map_err(|_| PushRouteError::BadKeys)?;
    let mut kinds: Vec<NotificationKind> = Vec::with_capacity(asked.kinds.len());
    for kind in asked.kinds {
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    if kinds.is_empty() {
        return Err(PushRouteError::NoKinds);
    }
    let subscription = PushSubscriptionRow {
        endpoint: asked.endpoint,
        p256dh: asked.keys.p256dh,
        auth: asked.keys.auth,
        kinds,
    };
    let new = store.save_push_subscription(me, &subscription, Timestamp::now()).await?;
    let status = if new { StatusCode::CREATED } else { StatusCode::OK };
    Ok(HttpResponse::build(status)
        .json(json!({ "endpoint": subscription.endpoint, "kinds": subscription.kinds })))
}

#[derive(Debug, Deserialize)]
struct EndpointQuery {
    endpoint: Option<String>,
}

/// `DELETE /api/push/subscriptions?endpoint=…`: forgets this account's subscription there.
async fn unsubscribe(
    query: web::Query<EndpointQuery>,
    session: Session,
    store: web::Data<Store>,
) -> Result<HttpResponse, PushRouteError> {
    let me = signed_in(&session)?;
    let Some(endpoint) = &query.endpoint else {
        return Err(PushRouteError::BadRequest("name the endpoint: ?endpoint=…".into()));
    };
    if !store.remove_push_subscription(me, endpoint).await? {
        return Err(PushRouteError::NotFound);
    }
    Ok(HttpResponse::NoContent().finish())
}
