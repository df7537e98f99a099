//! Signed sessions: who a browser is, kept in an `HttpOnly` cookie holding an HS256 JWT.
//!
//! A session carries a player id, the name the player goes by, and whether the player signed in
//! with an account (a guest chose a nickname only). Nothing is stored on the server: the
//! signature is the proof, and the expiry bounds how long a stolen cookie works. Whether an
//! account still exists is checked against the store where it matters.

use actix_web::cookie::{Cookie, SameSite, time};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::domain::{Nickname, PlayerId, Timestamp};

/// Name of the session cookie.
pub const COOKIE_NAME: &str = "outflank_session";
/// How long a session lasts after it was last issued: 30 days.
pub const LIFETIME_SECONDS: i64 = 30 * 24 * 3600;

/// The longest session token read: the claims of [`SessionKeys::issue`] take a few hundred.
const MAX_TOKEN_BYTES: usize = 2048;

/// The signed claims.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Claims {
    /// The player id.
    sub: String,
    /// The nickname.
    name: String,
    /// Signed in with an account.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    acct: bool,
    /// Issued at, seconds since the epoch.
    iat: i64,
    /// Issued at, milliseconds since the epoch: a session issued just after its player's
    /// sessions were revoked must count, in the same second too. Absent from older tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    iat_ms: Option<i64>,
    /// Expires at, seconds since the epoch.
    exp: i64,
}

/// A verified session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    pub player: PlayerId,
    pub nickname: Nickname,
    /// Whether the player signed in with an account.
    pub account: bool,
}

/// Why a session token was not accepted.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SessionError {
    #[error("the session has expired")]
    Expired,
    #[error("the session is not valid")]
    Invalid,
}

/// A session secret that cannot be used as a signing key.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("the session secret cannot be used as a signing key")]
pub struct BadSecret;

/// Signs and verifies session tokens with one secret.
#[derive(Clone)]
pub struct SessionKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    secure_cookie: bool,
}

impl std::fmt::Debug for SessionKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionKeys")
            .field("secure_cookie", &self.secure_cookie)
            .finish_non_exhaustive()
    }
}

impl SessionKeys {
    /// Keys from `secret`; `secure_cookie` marks cookies `Secure` (the site is served over https).
    ///
    /// # Errors
    /// [`BadSecret`] if the secret cannot serve as an HMAC key (it is empty).
    pub fn new(secret: &[u8], secure_cookie: bool) -> Result<SessionKeys, BadSecret> {
        Ok(SessionKeys {
            encoding: EncodingKey::from_secret(secret).map_err(|_| BadSecret)?,
            decoding: DecodingKey::from_secret(secret).map_err(|_| BadSecret)?,
            secure_cookie,
        })
    }

    /// A signed token for `session`, valid for [`LIFETIME_SECONDS`] from `now`.
    pub fn issue(&self, session: &Session, now: Timestamp) -> String {
        let iat = now.0 / 1000;
        let claims = Claims {
            sub: session.player.to_string(),
            name: session.nickname.to_string(),
            acct: session.account,
            iat,
            iat_ms: Some(now.0),
            exp: iat + LIFETIME_SECONDS,
        };
        self.sign(&claims)
    }

    /// `claims` signed with HS256 under the session secret.
    pub fn sign<T: Serialize>(&self, claims: &T) -> String {
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), claims, &self.encoding)
            .unwrap_or_default()
    }

    /// The claims of a token signed by [`SessionKeys::sign`], if the signature holds. Expiry is
    /// the caller's to check.
    pub fn verify_claims<T: DeserializeOwned>(&self, token: &str) -> Option<T> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.validate_exp = false;
        validation.required_spec_claims = ["exp"].into_iter().map(String::from).collect();
        jsonwebtoken::decode::<T>(token, &self.decoding, &validation).ok().map(|data| data.claims)
    }

    /// Whether cookies are marked `Secure`.
    pub fn secure_cookie(&self) -> bool {
        self.secure_cookie
    }

    /// Checks the signature (HS256 only), the expiry against `now`, and the claims' contents.
    ///
    /// # Errors
    /// [`SessionError::Expired`] or [`SessionError::Invalid`].
    pub fn verify(&self, token: &str, now: Timestamp) -> Result<Session, SessionError> {
        self.verify_issued(token, now).map(|(session, _)| session)
    }

    /// Like [`SessionKeys::verify`], also returning when the session was issued.
    ///
    /// # Errors
    /// [`SessionError::Expired`] or [`SessionError::Invalid`].
    pub fn verify_issued(
        &self,
        token: &str,
        now: Timestamp,
    ) -> Result<(Session, Timestamp), SessionError> {
        // Ours are a few hundred bytes: a longer one is refused before any decoding.
        if token.len() > MAX_TOKEN_BYTES {
            return Err(SessionError::Invalid);
        }
        let mut validation = Validation::new(Algorithm::HS256);
        // Expiry is checked below against `now`, so tests can move the clock.
        validation.validate_exp = false;
        validation.required_spec_claims = ["exp", "sub"].into_iter().map(String::from).collect();
        let data = jsonwebtoken::decode::<Claims>(token, &self.decoding, &validation)
            .map_err(|_| SessionError::Invalid)?;
        if data.claims.exp <= now.0 / 1000 {
            return Err(SessionError::Expired);
        }
        let player = data.claims.sub.parse().map_err(|_| SessionError::Invalid)?;
        let nickname = Nickname::parse(&data.claims.name).map_err(|_| SessionError::Invalid)?;
        let issued = Timestamp(data.claims.iat_ms.unwrap_or(data.claims.iat * 1000));
        Ok((Session { player, nickname, account: data.claims.acct }, issued))
    }

    /// The cookie that carries `session`.
    pub fn cookie(&self, session: &Session, now: Timestamp) -> Cookie<'static> {
        self.base_cookie(self.issue(session, now))
            .max_age(time::Duration::seconds(LIFETIME_SECONDS))
            .finish()
    }

    /// A cookie that makes the browser forget the session.
    pub fn removal_cookie(&self) -> Cookie<'static> {
        let mut cookie = self.base_cookie(String::new()).finish();
        cookie.make_removal();
        cookie
    }

    fn base_cookie(&self, value: String) -> actix_web::cookie::CookieBuilder<'static> {
        Cookie::build(COOKIE_NAME, value)
            .path("/")
            .http_only(true)
            .same_site(SameSite::Lax)
            .secure(self.secure_cookie)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys() -> SessionKeys {
        SessionKeys::new(b"0123456789abcdef0123456789abcdef", false).unwrap()
    }

    fn session() -> Session {
        Session {
            player: PlayerId::generate(),
            nickname: Nickname::parse("Ann").unwrap(),
            account: false,
        }
    }

    const NOW: Timestamp = Timestamp(1_800_000_000_000);

    #[test]
    fn an_issued_token_verifies_to_the_same_session() {
        let session = session();
        let token = keys().issue(&session, NOW);
        assert_eq!(keys().verify(&token, NOW), Ok(session));
    }

    #[test]
    fn an_account_session_verifies_as_an_account() {
        let session = Session { account: true, ..session() };
        let token = keys().issue(&session, NOW);
        assert_eq!(keys().verify(&token, NOW), Ok(session));
    }

    #[test]
    fn a_token_expires_after_its_lifetime() {
        let token = keys().issue(&session(), NOW);
        assert_eq!(
            keys().verify(&token, NOW.plus(LIFETIME_SECONDS * 1000)),
            Err(SessionError::Expired)
        );
    }

    #[test]
    fn a_token_signed_with_another_secret_is_invalid() {
        let other = SessionKeys::new(b"another secret of thirty-two bytes!", false).unwrap();
        let token = other.issue(&session(), NOW);
        assert_eq!(keys().verify(&token, NOW), Err(SessionError::Invalid));
    }

    #[test]
    fn a_tampered_token_is_invalid() {
        let token = keys().issue(&session(), NOW);
        let mut parts: Vec<&str> = token.split('.').collect();
        let forged = r#"{"sub":"aaaaaaaaaaaaaaaa","name":"Admin","iat":0,"exp":9999999999}"#;
        let forged = base64_url(forged.as_bytes());
        parts[1] = &forged;
        assert_eq!(keys().verify(&parts.join("."), NOW), Err(SessionError::Invalid));
    }

    #[test]
    fn an_unsigned_token_is_invalid() {
        let header = base64_url(br#"{"alg":"none","typ":"JWT"}"#);
        let body =
            base64_url(br#"{"sub":"aaaaaaaaaaaaaaaa","name":"Ann","iat":0,"exp":9999999999}"#);
        assert_eq!(keys().verify(&format!("{header}.{body}."), NOW), Err(SessionError::Invalid));
    }

    #[test]
    fn the_cookie_is_http_only_and_same_site_lax() {
        let cookie = keys().cookie(&session(), NOW);
        assert_eq!(cookie.http_only(), Some(true));
        assert_eq!(cookie.same_site(), Some(SameSite::Lax));
        assert_eq!(cookie.secure(), Some(false));
        assert_eq!(cookie.path(), Some("/"));
        let secure = SessionKeys::new(b"0123456789abcdef0123456789abcdef", true).unwrap();
        assert_eq!(secure.cookie(&session(), NOW).secure(), Some(true));
    }

    /// Unpadded base64url, enough to forge tokens in tests.
    fn base64_url(bytes: &[u8]) -> String {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        let mut out = String::new();
        for chunk in bytes.chunks(3) {
            let n =
                chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
            for i in 0..=chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            }
        }
        out
    }
}
