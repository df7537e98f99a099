//! Sign-in with the identity provider, end to end over real HTTP: the whole flow against the
//! local OpenID provider, and every kind of bad answer refused without creating an account or
//! a session.

use serde_json::{Value, json};

use crate::helpers::{TestApp, spawn_app, spawn_app_with};
use crate::hostile_provider::{Flaw, HostileProvider};
use crate::oidc_support::{
    land, local_provider, named_account, provider_round_trip, sign_in, signing_browser,
};

/// A server signing in at the local provider; `None` when the test is skipped without it.
async fn app_with_local_provider() -> Option<TestApp> {
    let provider = local_provider()?;
    Some(spawn_app_with(|settings| settings.oidc = Some(provider.settings())).await)
}

#[actix_web::test]
async fn without_credentials_sign_in_is_unavailable() {
    let app = spawn_app().await;
    let body: Value = app.get("/api/auth").await.json().await.unwrap();
    assert_eq!(body, json!({ "google": false }));
    let response = signing_browser().get(format!("{}/auth/google", app.url)).send().await.unwrap();
    assert_eq!(response.headers()["location"], "/?sign_in_error=unavailable");
}

#[actix_web::test]
async fn a_first_sign_in_creates_an_account_and_asks_for_a_public_name() {
    let Some(app) = app_with_local_provider().await else { return };
    assert_eq!(app.get("/api/auth").await.json::<Value>().await.unwrap()["google"], true);
    let (user, location) = sign_in(&app, "alice-sub").await;
    assert_eq!(location, "/welcome?return_to=/");
    let me: Value = user.get("/api/me").await.json().await.unwrap();
    assert_eq!(
        me["account"],
        json!({
            "name": null, "rating": 1200, "provisional": true, "rated_games": 0,
            "ratings": {
                "30s": { "rating": 1200, "provisional": true, "rated_games": 0 },
                "blitz": { "rating": 1200, "provisional": true, "rated_games": 0 },
                "rapid": { "rating": 1200, "provisional": true, "rated_games": 0 },
                "daily": { "rating": 1200, "provisional": true, "rated_games": 0 },
                "xot": { "rating": 1200, "provisional": true, "rated_games": 0 },
            },
        })
    );
    assert_eq!(app.count_accounts().await, 1);
}

#[actix_web::test]
async fn signing_in_again_returns_to_the_page_as_the_same_account() {
    let Some(app) = app_with_local_provider().await else { return };
    let alice = named_account(&app, "alice-sub", "Alice").await;
    let first: Value = alice.get("/api/me").await.json().await.unwrap();

    let browser = signing_browser();
    let callback = provider_round_trip(&app, &browser, "alice-sub", "/leaderboard?page=2").await;
    let landing = land(&browser, &callback).await;

    assert_eq!(landing.location, "/leaderboard?page=2");
    let again = app.user_with_cookie(landing.session.unwrap());
    let me: Value = again.get("/api/me").await.json().await.unwrap();
    assert_eq!(me["id"], first["id"]);
    assert_eq!(me["nickname"], "Alice");
    assert_eq!(me["account"]["name"], "Alice");
    assert_eq!(app.count_accounts().await, 1);
}

#[actix_web::test]
async fn a_guest_nickname_is_kept_until_a_public_name_is_chosen() {
    let Some(app) = app_with_local_provider().await else { return };
    let browser = signing_browser();
    let response = browser
        .post(format!("{}/api/session", app.url))
        .json(&json!({ "nickname": "Ann the guest" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let callback = provider_round_trip(&app, &browser, "ann-sub", "/").await;
    let landing = land(&browser, &callback).await;
    let user = app.user_with_cookie(landing.session.unwrap());
    let me: Value = user.get("/api/me").await.json().await.unwrap();
    assert_eq!(me["nickname"], "Ann the guest");
    assert_eq!(me["account"]["name"], Value::Null);
}

#[actix_web::test]
async fn a_taken_or_invalid_public_name_is_refused_clearly() {
    let Some(app) = app_with_local_provider().await else { return };
    named_account(&app, "alice-sub", "Alice").await;
    let (bob, _) = sign_in(&app, "bob-sub").await;

    let taken = bob.post("/api/account/name", &json!({ "name": "ALICE" })).await;
    assert_eq!(taken.status(), 409);
    assert_eq!(taken.json::<Value>().await.unwrap()["error"]["code"], "name_taken");
    let invalid = bob.post("/api/account/name", &json!({ "name": "Bob Smith" })).await;
    assert_eq!(invalid.status(), 422);
    let body: Value = invalid.json().await.unwrap();
    assert_eq!(body["error"]["code"], "bad_name");
    assert_eq!(
        body["error"]["message"],
        "a public name may only use letters a–z, digits, '_' and '-'"
    );
    let me: Value = bob.get("/api/me").await.json().await.unwrap();
    assert_eq!(me["account"]["name"], Value::Null);
}

#[actix_web::test]
async fn a_public_name_that_looks_like_a_taken_one_is_taken() {
    let Some(app) = app_with_local_provider().await else { return };
    named_account(&app, "anno-sub", "Anno").await;
    let (bob, _) = sign_in(&app, "bob-sub").await;

    let taken = bob.post("/api/account/name", &json!({ "name": "ANN0" })).await;
    assert_eq!(taken.status(), 409);
    let body: Value = taken.json().await.unwrap();
    assert_eq!(body["error"]["code"], "name_taken");
    assert_eq!(body["error"]["message"], "that name is taken: choose another");
    let me: Value = bob.get("/api/me").await.json().await.unwrap();
    assert_eq!(me["account"]["name"], Value::Null);
}

#[actix_web::test]
async fn a_public_name_that_looks_like_a_kept_one_is_refused() {
    let Some(app) = app_with_local_provider().await else { return };
    let (bob, _) = sign_in(&app, "bob-sub").await;
    for name in ["C0MPUTER", "Closed-Account"] {
        let refused = bob.post("/api/account/name", &json!({ "name": name })).await;
        assert_eq!(refused.status(), 422, "{name}");
        let body: Value = refused.json().await.unwrap();
        assert_eq!(body["error"]["code"], "bad_name", "{name}");
        assert_eq!(
            body["error"]["message"], "that name is kept for the site: choose another",
            "{name}"
        );
    }
}

#[actix_web::test]
async fn a_guest_cannot_choose_a_public_name() {
    let Some(app) = app_with_local_provider().await else { return };
    let guest = app.user("Ann").await;
    let response = guest.post("/api/account/name", &json!({ "name": "Ann" })).await;
    assert_eq!(response.status(), 401);
    assert_eq!(response.json::<Value>().await.unwrap()["error"]["code"], "not_signed_in");
}

#[actix_web::test]
async fn a_signed_in_player_cannot_take_a_guest_nickname() {
    let Some(app) = app_with_local_provider().await else { return };
    let alice = named_account(&app, "alice-sub", "Alice").await;
    let response = alice.post("/api/session", &json!({ "nickname": "Mallory" })).await;
    assert_eq!(response.status(), 409);
    let me: Value = alice.get("/api/me").await.json().await.unwrap();
    assert_eq!(me["nickname"], "Alice");
}

#[actix_web::test]
async fn a_wrong_state_is_refused_and_creates_nothing() {
    let Some(app) = app_with_local_provider().await else { return };
    let browser = signing_browser();
    let callback = provider_round_trip(&app, &browser, "alice-sub", "/").await;
    let mut url = reqwest::Url::parse(&callback).unwrap();
    let pairs: Vec<(String, String)> = url
        .query_pairs()
        .map(|(key, value)| {
            let value = if key == "state" { "forged-state".into() } else { value.into_owned() };
            (key.into_owned(), value)
        })
        .collect();
    url.query_pairs_mut().clear().extend_pairs(pairs);

    let landing = land(&browser, url.as_str()).await;

    assert_eq!(landing.location, "/?sign_in_error=failed");
    assert_eq!(landing.session, None);
    assert_eq!(app.count_accounts().await, 0);
}

#[actix_web::test]
async fn a_callback_opened_in_another_browser_is_refused() {
    let Some(app) = app_with_local_provider().await else { return };
    let callback = provider_round_trip(&app, &signing_browser(), "alice-sub", "/").await;
    let landing = land(&signing_browser(), &callback).await;
    assert_eq!(landing.location, "/?sign_in_error=failed");
    assert_eq!(landing.session, None);
    assert_eq!(app.count_accounts().await, 0);
}

#[actix_web::test]
async fn a_refusal_at_the_provider_is_a_cancelled_sign_in() {
    let Some(app) = app_with_local_provider().await else { return };
    let browser = signing_browser();
    let start = browser.get(format!("{}/auth/google", app.url)).send().await.unwrap();
    let provider_url = reqwest::Url::parse(&crate::oidc_support::location(&start)).unwrap();
    let state = provider_url.query_pairs().find(|(key, _)| key == "state").unwrap().1;
    let callback = format!("{}/auth/google/callback?error=access_denied&state={state}", app.url);
    let landing = land(&browser, &callback).await;
    assert_eq!(landing.location, "/?sign_in_error=cancelled");
    assert_eq!(landing.session, None);
}

#[actix_web::test]
async fn the_request_to_the_provider_carries_pkce_state_and_nonce() {
    let Some(app) = app_with_local_provider().await else { return };
    let start = signing_browser()
        .get(format!("{}/auth/google?return_to=/rules", app.url))
        .send()
        .await
        .unwrap();
    let url = reqwest::Url::parse(&crate::oidc_support::location(&start)).unwrap();
    let query: std::collections::HashMap<_, _> = url.query_pairs().into_owned().collect();
    assert!(url.as_str().starts_with(&local_provider().unwrap().issuer));
    assert_eq!(query["response_type"], "code");
    assert_eq!(query["scope"], "openid");
    assert_eq!(query["code_challenge_method"], "S256");
    assert_eq!(query["redirect_uri"], format!("{}/auth/google/callback", app.url));
    for key in ["state", "nonce", "code_challenge"] {
        assert!(query[key].len() >= 22, "{key} is too short to be unguessable");
    }
}

#[actix_web::test]
async fn an_open_redirect_in_return_to_goes_home_instead() {
    let Some(app) = app_with_local_provider().await else { return };
    named_account(&app, "alice-sub", "Alice").await;
    for target in ["//evil.example/", "https://evil.example/", "/\\evil.example"] {
        let browser = signing_browser();
        let callback = provider_round_trip(&app, &browser, "alice-sub", target).await;
        let landing = land(&browser, &callback).await;
        assert_eq!(landing.location, "/", "return_to={target}");
    }
}

#[actix_web::test]
async fn a_tampered_account_cookie_is_not_a_session() {
    let Some(app) = app_with_local_provider().await else { return };
    let alice = named_account(&app, "alice-sub", "Alice").await;
    let cookie = alice.cookie().to_owned();
    let (name, token) = cookie.split_once('=').unwrap();
    let mut parts: Vec<String> = token.split('.').map(str::to_owned).collect();
    // Flip one character of the signature.
    let last = parts[2].pop().unwrap();
    parts[2].push(if last == 'A' { 'B' } else { 'A' });
    let forged = app.user_with_cookie(format!("{name}={}", parts.join(".")));
    assert_eq!(crate::session::session_state(forged.get("/api/me").await).await, "none");
}

/// Signs in at a hostile provider whose ID token has `flaw`; returns where the browser landed.
async fn sign_in_with_flaw(flaw: Flaw) -> (TestApp, crate::oidc_support::Landing) {
    let provider = HostileProvider::start(flaw).await;
    let app = spawn_app_with(|settings| settings.oidc = Some(provider.settings())).await;
    let browser = signing_browser();
    let start = browser.get(format!("{}/auth/google", app.url)).send().await.unwrap();
    let authorize = crate::oidc_support::location(&start);
    let back = browser.get(authorize).send().await.unwrap();
    let callback = crate::oidc_support::location(&back);
    let landing = land(&browser, &callback).await;
    (app, landing)
}

#[actix_web::test]
async fn the_hostile_provider_signs_in_when_nothing_is_wrong() {
    let (app, landing) = sign_in_with_flaw(Flaw::None).await;
    assert!(landing.session.is_some());
    assert_eq!(app.count_accounts().await, 1);
}

async fn assert_refused(flaw: Flaw) {
    let (app, landing) = sign_in_with_flaw(flaw).await;
    assert_eq!(landing.location, "/?sign_in_error=failed", "{flaw:?}");
    assert_eq!(landing.session, None, "{flaw:?}");
    assert_eq!(app.count_accounts().await, 0, "{flaw:?}");
}

#[actix_web::test]
async fn an_id_token_with_another_nonce_is_refused() {
    assert_refused(Flaw::WrongNonce).await;
}

#[actix_web::test]
async fn an_id_token_for_another_audience_is_refused() {
    assert_refused(Flaw::WrongAudience).await;
}

#[actix_web::test]
async fn an_id_token_from_another_issuer_is_refused() {
    assert_refused(Flaw::WrongIssuer).await;
}

#[actix_web::test]
async fn an_expired_id_token_is_refused() {
    assert_refused(Flaw::Expired).await;
}

#[actix_web::test]
async fn a_badly_signed_id_token_is_refused() {
    assert_refused(Flaw::BadSignature).await;
}

#[actix_web::test]
async fn an_id_token_signed_with_an_unknown_key_is_refused() {
    assert_refused(Flaw::UnknownKey).await;
}

#[actix_web::test]
async fn an_unsigned_id_token_is_refused() {
    assert_refused(Flaw::Unsigned).await;
}

#[actix_web::test]
async fn a_guest_cannot_go_by_an_accounts_public_name() {
    let Some(app) = app_with_local_provider().await else { return };
    named_account(&app, "coco-sub", "Coco").await;
    named_account(&app, "anno-sub", "Anno").await;
    // The third is written in Cyrillic letters alone.
    for nickname in
        ["Coco", "COCO", "\u{441}\u{43e}\u{441}\u{43e}", "C0C0", "Cócó", "Ann0", "ANN0", "Ånno"]
    {
        let response = app.post_json("/api/session", &json!({ "nickname": nickname })).await;
        assert_eq!(response.status(), 409, "{nickname}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["error"]["code"], "name_taken");
        assert_eq!(
            body["error"]["message"],
            "that is a player's account name: choose another nickname"
        );
    }
}

#[actix_web::test]
async fn the_providers_discovery_document_is_read_again_once_it_is_old() {
    let provider = HostileProvider::start(Flaw::None).await;
    let ttl = std::time::Duration::from_millis(300);
    let oidc = outflank_api::identity::oidc::Oidc::with_metadata_ttl(provider.settings(), ttl);
    let oidc = oidc.unwrap();
    let callback = "http://127.0.0.1:9/auth/google/callback";
    oidc.begin(callback, "/").await.unwrap();
    oidc.begin(callback, "/").await.unwrap();
    assert_eq!(provider.discovery_reads(), 1);
    tokio::time::sleep(ttl * 2).await;
    oidc.begin(callback, "/").await.unwrap();
    assert_eq!(provider.discovery_reads(), 2);
}
