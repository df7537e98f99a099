//! A sign-in in progress: the `state`, `nonce` and PKCE verifier of one attempt, kept in a
//! short-lived signed cookie between leaving for the provider and coming back.

use actix_web::cookie::{Cookie, SameSite, time};
use serde::{Deserialize, Serialize};

use crate::domain::Timestamp;
use crate::identity::session::SessionKeys;

/// Name of the cookie.
pub const COOKIE_NAME: &str = "outflank_login";
/// The path the cookie is sent to: the sign-in routes only.
pub const COOKIE_PATH: &str = "/auth/";
/// How long a sign-in may take: 10 minutes.
pub const LIFETIME_SECONDS: i64 = 600;

/// One sign-in attempt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Login {
    pub state: String,
    pub nonce: String,
    pub verifier: String,
    pub redirect_uri: String,
    /// The local path to go back to afterwards.
    pub return_to: String,
}

#[derive(Serialize, Deserialize)]
struct Claims {
    #[serde(flatten)]
    login: Login,
    exp: i64,
}

impl Login {
    /// The cookie that keeps this attempt, signed with the session keys.
    pub fn cookie(&self, keys: &SessionKeys, now: Timestamp) -> Cookie<'static> {
        let claims = Claims { login: self.clone(), exp: now.0 / 1000 + LIFETIME_SECONDS };
        base_cookie(keys, keys.sign(&claims))
            .max_age(time::Duration::seconds(LIFETIME_SECONDS))
            .finish()
    }

    /// The attempt in `token`, if the signature holds and it has not expired.
    pub fn verify(keys: &SessionKeys, token: &str, now: Timestamp) -> Option<Login> {
        let claims: Claims = keys.verify_claims(token)?;
        (claims.exp > now.0 / 1000).then_some(claims.login)
    }

    /// A cookie that makes the browser forget the attempt.
    pub fn removal_cookie(keys: &SessionKeys) -> Cookie<'static> {
        let mut cookie = base_cookie(keys, String::new()).finish();
        cookie.make_removal();
        cookie
    }
}

fn base_cookie(keys: &SessionKeys, value: String) -> actix_web::cookie::CookieBuilder<'static> {
    Cookie::build(COOKIE_NAME, value)
        .path(COOKIE_PATH)
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(keys.secure_cookie())
}
