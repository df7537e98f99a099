//! Sign-in for tests: the local OpenID provider (`tests/oidc/provider.mjs`, a real
//! `oidc-provider` over real HTTP), started once per test process, and a driver that walks a
//! browser's redirects from the server to the provider and back.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, OnceLock};

use outflank_api::configuration::{OidcSettings, Secret};
use reqwest::Url;
use reqwest::header::{LOCATION, SET_COOKIE};
use serde::Deserialize;

use crate::helpers::{TestApp, User};
use crate::storage_support::{Service, available};

/// The provider's JSON line.
#[derive(Clone, Debug, Deserialize)]
pub struct LocalProvider {
    pub issuer: String,
    pub client_id: String,
    pub client_secret: String,
}

impl LocalProvider {
    /// The server's settings for signing in here.
    pub fn settings(&self) -> OidcSettings {
        OidcSettings {
            issuer: self.issuer.clone(),
            client_id: self.client_id.clone(),
            client_secret: Secret::new(self.client_secret.clone()),
        }
    }
}

/// The running provider; it exits when this process does (its stdin closes).
static PROVIDER: OnceLock<(LocalProvider, Mutex<Child>)> = OnceLock::new();

/// Where the provider lives: `tests/oidc`.
fn provider_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/oidc")
}

/// Starts the local provider the first time it is asked for; `None` when the test is skipped
/// because the provider is not installed (`tests/oidc/start.sh` installs it; see
/// `storage_support::unavailable`).
pub fn local_provider() -> Option<LocalProvider> {
    let installed = provider_dir().join("node_modules/oidc-provider").exists();
    available(Service::OpenIdProvider, installed.then_some(()))?;
    Some(PROVIDER.get_or_init(start).0.clone())
}

fn start() -> (LocalProvider, Mutex<Child>) {
    let dir = provider_dir();
    let mut child = Command::new("node")
        .arg("provider.mjs")
        .current_dir(&dir)
        .env("OIDC_PORT", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("node starts the local OpenID provider");
    let stdout = child.stdout.take().unwrap();
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).expect("the provider's ready line");
    let provider = serde_json::from_str(&line)
        .unwrap_or_else(|error| panic!("the provider's ready line {line:?}: {error}"));
    (provider, Mutex::new(child))
}

/// A browser for sign-in: keeps cookies, follows no redirects by itself.
pub fn signing_browser() -> reqwest::Client {
    reqwest::Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// The `Location` of a redirect, resolved against the request's URL.
pub fn location(response: &reqwest::Response) -> String {
    assert!(
        response.status().is_redirection(),
        "expected a redirect from {}, got {}",
        response.url(),
        response.status()
    );
    let target = response.headers()[LOCATION].to_str().unwrap();
    response.url().join(target).unwrap().to_string()
}

/// Leaves `app` for the provider (returning to `return_to` afterwards) and signs in there as
/// `subject`; returns the callback URL the provider sends the browser back to, not yet opened.
pub async fn provider_round_trip(
    app: &TestApp,
    browser: &reqwest::Client,
    subject: &str,
    return_to: &str,
) -> String {
    let start =
        Url::parse_with_params(&format!("{}/auth/google", app.url), [("return_to", return_to)])
            .unwrap();
    let response = browser.get(start).send().await.unwrap();
    let mut next = Url::parse(&location(&response)).unwrap();
    next.query_pairs_mut().append_pair("login_hint", subject);
    let callback = format!("{}/auth/google/callback", app.url);
    for _ in 0..10 {
        let response = browser.get(next.clone()).send().await.unwrap();
        let target = location(&response);
        if target.starts_with(&callback) {
            return target;
        }
        next = Url::parse(&target).unwrap();
    }
    panic!("the provider never sent the browser back");
}

/// What coming back to the server gave: where it sent the browser, and the session cookie it
/// set (if any), as a `name=value` pair.
#[derive(Debug)]
pub struct Landing {
    pub location: String,
    pub session: Option<String>,
}

/// Opens `callback_url` (back from the provider) in `browser`.
pub async fn land(browser: &reqwest::Client, callback_url: &str) -> Landing {
    let response = browser.get(callback_url).send().await.unwrap();
    let session = response
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .find(|value| {
            value.starts_with("outflank_session=") && !value.starts_with("outflank_session=;")
        })
        .map(|value| value.split(';').next().unwrap().to_owned());
    let location = response.headers()[LOCATION].to_str().unwrap().to_owned();
    Landing { location, session }
}

/// Signs in as `subject` through the provider and returns the signed-in person and where the
/// server sent them.
pub async fn sign_in(app: &TestApp, subject: &str) -> (User, String) {
    let browser = signing_browser();
    let callback = provider_round_trip(app, &browser, subject, "/").await;
    let landing = land(&browser, &callback).await;
    let cookie = landing.session.expect("signing in sets the session cookie");
    (app.user_with_cookie(cookie), landing.location)
}

/// Signs in as `subject` and chooses the public name `name`.
pub async fn named_account(app: &TestApp, subject: &str, name: &str) -> User {
    let (mut user, _) = sign_in(app, subject).await;
    let response = user.post("/api/account/name", &serde_json::json!({ "name": name })).await;
    assert_eq!(response.status(), 200, "{:?}", response.text().await);
    user.take_cookie(&response);
    user
}
