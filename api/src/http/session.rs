//! The session of a request, read from its signed cookie: a handler argument of type
//! [`Session`] requires one (`401` otherwise), and [`current_session`] reads it where it is
//! optional.

use std::future::{Ready, ready};

use actix_web::http::StatusCode;
use actix_web::http::header::COOKIE;
use actix_web::{FromRequest, HttpRequest, web};
use thiserror::Error;

use crate::domain::Timestamp;
use crate::http::error::{ApiError, api_error};
use crate::identity::revocations::Revocations;
use crate::identity::session::{COOKIE_NAME, Session, SessionError, SessionKeys};

/// Why a request has no session.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SessionRejection {
    #[error("you are not signed in: choose a nickname first")]
    NoSession,
    #[error("your session has expired: choose a nickname again")]
    Expired,
    #[error("you were signed out: sign in or choose a nickname again")]
    Revoked,
}

impl ApiError for SessionRejection {
    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            SessionRejection::NoSession => (StatusCode::UNAUTHORIZED, "no_session"),
            SessionRejection::Expired => (StatusCode::UNAUTHORIZED, "session_expired"),
            SessionRejection::Revoked => (StatusCode::UNAUTHORIZED, "session_revoked"),
        }
    }
}

api_error!(SessionRejection);

/// The session of `request`'s cookie, verified at `now`: signed by this site, not expired, and
/// not ended since it was issued.
///
/// # Errors
/// [`SessionRejection`] when the request carries no valid session.
pub fn current_session(request: &HttpRequest, now: Timestamp) -> Result<Session, SessionRejection> {
    current_session_issued(request, now).map(|(session, _)| session)
}

/// Like [`current_session`], also returning when the session was issued: what a
/// [`SessionWatch`](crate::identity::revocations::SessionWatch) on it needs.
///
/// # Errors
/// [`SessionRejection`] when the request carries no valid session.
pub fn current_session_issued(
    request: &HttpRequest,
    now: Timestamp,
) -> Result<(Session, Timestamp), SessionRejection> {
    let keys = request.app_data::<web::Data<SessionKeys>>().ok_or(SessionRejection::NoSession)?;
    let cookie = request.cookie(COOKIE_NAME).ok_or(SessionRejection::NoSession)?;
    let (session, issued) =
        keys.verify_issued(cookie.value(), now).map_err(|error| match error {
            SessionError::Expired => SessionRejection::Expired,
            SessionError::Invalid => SessionRejection::NoSession,
        })?;
    let revocations = request.app_data::<web::Data<Revocations>>();
    if revocations.is_some_and(|revocations| revocations.is_revoked(&session.player, issued)) {
        return Err(SessionRejection::Revoked);
    }
    Ok((session, issued))
}

/// The longest `Cookie` header read for a session: ours is a few hundred bytes, and a browser
/// keeps at most about 4 KiB per cookie. A longer header is no session, and is not parsed at all
/// (parsing a made-up 120-KiB cookie on every request would be the cheapest way to load the
/// server).
pub const MAX_COOKIE_HEADER_BYTES: usize = 8 * 1024;

/// The session token `request`'s cookie carries, if its `Cookie` header is of a sensible size.
pub fn session_token(request: &HttpRequest) -> Option<String> {
    let size: usize = request.headers().get_all(COOKIE).map(|value| value.len()).sum();
    if size > MAX_COOKIE_HEADER_BYTES {
        return None;
    }
    request.cookie(COOKIE_NAME).map(|cookie| cookie.value().to_owned())
}

/// A handler argument of type `Session` requires a valid session (`401` otherwise).
impl FromRequest for Session {
    type Error = SessionRejection;
    type Future = Ready<Result<Session, SessionRejection>>;

    fn from_request(request: &HttpRequest, _payload: &mut actix_web::dev::Payload) -> Self::Future {
        ready(current_session(request, Timestamp::now()))
    }
}
