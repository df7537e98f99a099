//! Sign-in with Google (or the configured OpenID provider):
//! `GET /api/auth` says whether it is available, `GET /auth/google?return_to=/path` leaves for
//! the provider, and `GET /auth/google/callback` comes back, checks everything, and signs the
//! browser in. Failures change nothing and send the browser home with `?sign_in_error=<code>`.

use actix_web::http::header::LOCATION;
use actix_web::web::{self, ServiceConfig};
use actix_web::{HttpRequest, HttpResponse};
use serde::Deserialize;
use serde_json::json;

use crate::domain::{Nickname, NotificationKind, PlayerId, SanctionKind, Timestamp};
use crate::http::origin::AllowedOrigins;
use crate::http::session::current_session;
use crate::identity::oidc::{Login, Oidc, login};
use crate::identity::session::{Session, SessionKeys};
use crate::notifier::Notifier;
use crate::storage::Store;

/// Where the provider sends the browser back to.
pub const CALLBACK_PATH: &str = "/auth/google/callback";

/// Sign-in, when it is configured.
#[derive(Clone, Debug)]
pub struct SignIn(pub Option<Oidc>);

pub fn configure(config: &mut ServiceConfig) {
    config
        .route("/api/auth", web::get().to(availability))
        .route("/auth/google", web::get().to(begin))
        .route(CALLBACK_PATH, web::get().to(callback));
}

async fn availability(sign_in: web::Data<SignIn>) -> HttpResponse {
    HttpResponse::Ok().json(json!({ "google": sign_in.0.is_some() }))
}

#[derive(Debug, Deserialize)]
struct Begin {
    return_to: Option<String>,
}

/// Leaves for the provider, keeping this attempt's secrets in a signed cookie.
async fn begin(
    request: HttpRequest,
    query: web::Query<Begin>,
    sign_in: web::Data<SignIn>,
    keys: web::Data<SessionKeys>,
    origins: web::Data<AllowedOrigins>,
    public_url: web::Data<Option<crate::http::PublicUrl>>,
) -> HttpResponse {
    let Some(oidc) = &sign_in.0 else { return failed("unavailable") };
    let Some(redirect_uri) = redirect_uri(&request, public_url.as_ref().as_ref(), &origins) else {
        tracing::warn!("sign-in needs OUTFLANK_PUBLIC_URL when not served on loopback");
        return failed("unavailable");
    };
    let return_to = query.return_to.as_deref().and_then(local_path).unwrap_or("/");
    match oidc.begin(&redirect_uri, return_to).await {
        Ok((url, login)) => HttpResponse::SeeOther()
            .insert_header((LOCATION, url))
            .cookie(login.cookie(&keys, Timestamp::now()))
            .finish(),
        Err(error) => {
            tracing::warn!(%error, "sign-in could not start");
            failed("unavailable")
        }
    }
}

#[derive(Debug, Deserialize)]
struct Callback {
    code: Option<String>,
    state: Option<String>,
    error: Option<String>,
}

/// Back from the provider: checks `state`, exchanges the code, verifies the ID token, then
/// signs the browser in to the account of that identity (created on first sign-in).
async fn callback(
    request: HttpRequest,
    query: web::Query<Callback>,
    sign_in: web::Data<SignIn>,
    keys: web::Data<SessionKeys>,
    store: web::Data<Store>,
    notifier: web::Data<Notifier>,
) -> HttpResponse {
    let Some(oidc) = &sign_in.0 else { return failed("unavailable") };
    let now = Timestamp::now();
    let login = request
        .cookie(login::COOKIE_NAME)
        .and_then(|cookie| Login::verify(&keys, cookie.value(), now));
    let Some(login) = login else {
        tracing::warn!("sign-in callback without a valid sign-in cookie");
        return failed_clearing("failed", &keys);
    };
    if query.error.is_some() {
        return failed_clearing("cancelled", &keys);
    }
    let (Some(code), Some(state)) = (&query.code, &query.state) else {
        return failed_clearing("failed", &keys);
    };
    if !same(state, &login.state) {
        tracing::warn!("sign-in callback with a state that does not match");
        return failed_clearing("failed", &keys);
    }
    let identity = match oidc.finish(&login, code).await {
        Ok(identity) => identity,
        Err(error) => {
            tracing::warn!(%error, "sign-in refused");
            return failed_clearing("failed", &keys);
        }
    };
    let guest = current_session(&request, now).ok().filter(|session| !session.account);
    let guest_id = guest.as_ref().map(|guest| guest.player.clone());
    let nickname = guest.map_or_else(|| "Player".to_owned(), |guest| guest.nickname.to_string());
    let account = match store.sign_in(&identity.issuer, &identity.subject, &nickname, now).await {
        Ok(account) => account,
        Err(error) => {
            tracing::error!(%error, "storing a sign-in failed");
            return failed_clearing("unavailable", &keys);
        }
    };
    // A closed account signs in no more; the closing already ended its sessions.
    match store.active_sanctions(&account.player_id).await {
        Ok(kinds) if kinds.contains(&SanctionKind::Closed) => {
            return failed_clearing("closed", &keys);
        }
        Ok(_) => {}
        Err(error) => {
            tracing::error!(%error, "reading an account's sanctions failed");
            return failed_clearing("unavailable", &keys);
        }
    }
    if let Some(guest) = guest_id {
        keep_guest_history(&store, &notifier, &guest, &account.player_id, now).await;
    }
    let name = account.name.clone().unwrap_or(nickname);
    let Ok(nickname) = Nickname::parse(&name) else {
        return failed_clearing("failed", &keys);
    };
    let session = Session { player: account.player_id, nickname, account: true };
    let next = if account.name.is_some() {
        login.return_to.clone()
    } else {
        format!("/welcome?return_to={}", encode_component(&login.return_to))
    };
    HttpResponse::SeeOther()
        .insert_header((LOCATION, next))
        .cookie(keys.cookie(&session, now))
        .cookie(Login::removal_cookie(&keys))
        .finish()
}

/// Moves the history of the guest who signed in to their account, once, and says so in a
/// notification. Signing in goes on if it fails: the guest's games stay the guest's.
async fn keep_guest_history(
    store: &Store,
    notifier: &Notifier,
    guest: &PlayerId,
    account: &PlayerId,
    now: Timestamp,
) {
    match store.adopt_guest(guest, account).await {
        Ok(Some(kept)) if kept.games + kept.puzzles > 0 => {
            let data = json!({ "games": kept.games, "puzzles": kept.puzzles });
            notifier.notify(account, NotificationKind::GuestHistoryKept, data, now).await;
        }
        Ok(_) => {}
        Err(error) => tracing::error!(%error, "a guest's history could not move to the account"),
    }
}

/// The callback address: under the public URL, or, without one, the loopback address the
/// browser used (a provider only accepts addresses registered with it).
fn redirect_uri(
    request: &HttpRequest,
    public_url: Option<&crate::http::PublicUrl>,
    origins: &AllowedOrigins,
) -> Option<String> {
    if let Some(public) = public_url {
        return Some(format!("{}{CALLBACK_PATH}", public.origin()));
    }
    let origin = format!("http://{}", request.connection_info().host());
    origins.allows(&origin).then(|| format!("{origin}{CALLBACK_PATH}"))
}

/// `path` when it is a path on this site: one leading `/`, no scheme or host, no backslash or
/// control characters. Anything else could send the browser elsewhere.
pub fn local_path(path: &str) -> Option<&str> {
    let local = path.starts_with('/')
        && !path.starts_with("//")
        && !path.contains('\\')
        && !path.chars().any(char::is_control)
        && path.len() <= 512;
    local.then_some(path)
}

/// Compares two secrets without stopping at the first difference.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Percent-encodes `text` for a query value.
fn encode_component(text: &str) -> String {
    text.bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                char::from(byte).to_string()
            }
            _ => format!("%{byte:02X}"),
        })
        .collect()
}

/// Home, with the reason sign-in failed.
fn failed(code: &str) -> HttpResponse {
    HttpResponse::SeeOther().insert_header((LOCATION, format!("/?sign_in_error={code}"))).finish()
}

fn failed_clearing(code: &str, keys: &SessionKeys) -> HttpResponse {
    let mut response = failed(code);
    let _ = response.add_cookie(&Login::removal_cookie(keys));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_local_paths_are_returned_to() {
        assert_eq!(local_path("/game/abc?x=1"), Some("/game/abc?x=1"));
        assert_eq!(local_path("//evil.example/"), None);
        assert_eq!(local_path("https://evil.example/"), None);
        assert_eq!(local_path("/\\evil.example"), None);
        assert_eq!(local_path("/\tx"), None);
        assert_eq!(local_path("evil"), None);
    }

    #[test]
    fn secrets_compare_exactly() {
        assert!(same("abc", "abc"));
        assert!(!same("abc", "abd"));
        assert!(!same("abc", "abcd"));
    }

    #[test]
    fn return_paths_are_encoded_for_the_welcome_page() {
        assert_eq!(encode_component("/game/x?a=1&b"), "/game/x%3Fa%3D1%26b");
    }
}
