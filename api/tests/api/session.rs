use serde_json::{Value, json};

use crate::helpers::{browser, spawn_app};

/// `GET /api/me`'s `session` field, after checking that the answer is a 200 (never an error:
/// browsers log those on every page) with no player in it unless the session is active.
pub async fn session_state(response: reqwest::Response) -> String {
    assert_eq!(response.status(), 200);
    let me: Value = response.json().await.unwrap();
    let state = me["session"].as_str().expect("a session state").to_owned();
    if state != "active" {
        assert_eq!(me, json!({ "session": state, "id": null, "nickname": null, "account": null }));
    }
    state
}

#[actix_web::test]
async fn choosing_a_nickname_starts_a_session_remembered_by_cookie() {
    let app = spawn_app().await;
    let created = app.sign_in_as("Ann").await;
    assert_eq!(created["nickname"], "Ann");
    let me: Value = app.get("/api/me").await.json().await.unwrap();
    assert_eq!(me, created);
}

#[actix_web::test]
async fn the_session_cookie_is_http_only_and_same_site_lax() {
    let app = spawn_app().await;
    let response = app.post_json("/api/session", &json!({ "nickname": "Ann" })).await;
    let cookie = response.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(cookie.starts_with("outflank_session="), "{cookie}");
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    assert!(cookie.contains("SameSite=Lax"), "{cookie}");
    assert!(!cookie.contains("Secure"), "{cookie}");
}

#[actix_web::test]
async fn renaming_keeps_the_player_id() {
    let app = spawn_app().await;
    let first = app.sign_in_as("Ann").await;
    let second = app.sign_in_as("Annie").await;
    assert_eq!(second["id"], first["id"]);
    assert_eq!(second["nickname"], "Annie");
}

#[actix_web::test]
async fn an_invalid_nickname_is_refused_with_the_rule_it_breaks() {
    let app = spawn_app().await;
    let response = app.post_json("/api/session", &json!({ "nickname": "<b>" })).await;
    assert_eq!(response.status(), 422);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "bad_nickname");
    assert_eq!(
        body["error"]["message"],
        "a nickname may only use letters, digits, spaces, '_', '-' and '.'"
    );
    assert_eq!(session_state(app.get("/api/me").await).await, "none");
}

#[actix_web::test]
async fn malformed_json_gets_a_clear_error() {
    let app = spawn_app().await;
    let response = app
        .client
        .post(format!("{}/api/session", app.url))
        .header("content-type", "application/json")
        .body("{nickname:")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "bad_request");
}

#[actix_web::test]
async fn without_a_session_me_answers_200_saying_there_is_none() {
    let app = spawn_app().await;
    let me: Value = app.get("/api/me").await.json().await.unwrap();
    assert_eq!(me, json!({ "session": "none", "id": null, "nickname": null, "account": null }));
}

#[actix_web::test]
async fn with_a_session_me_says_it_is_active() {
    let app = spawn_app().await;
    let created = app.sign_in_as("Ann").await;
    assert_eq!(created["session"], "active");
    assert_eq!(created["account"], Value::Null);
    assert_eq!(session_state(app.get("/api/me").await).await, "active");
}

#[actix_web::test]
async fn signing_out_forgets_the_session() {
    let app = spawn_app().await;
    app.sign_in_as("Ann").await;
    let response = app.client.delete(format!("{}/api/session", app.url)).send().await.unwrap();
    assert_eq!(response.status(), 204);
    assert_eq!(session_state(app.get("/api/me").await).await, "none");
}

#[actix_web::test]
async fn a_forged_cookie_is_not_a_session() {
    let app = spawn_app().await;
    let response = browser()
        .get(format!("{}/api/me", app.url))
        .header("cookie", "outflank_session=eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.")
        .send()
        .await
        .unwrap();
    assert_eq!(session_state(response).await, "none");
}

#[actix_web::test]
async fn state_changes_from_another_site_are_refused() {
    let app = spawn_app().await;
    let response = app
        .client
        .post(format!("{}/api/session", app.url))
        .header("origin", "https://evil.example")
        .json(&json!({ "nickname": "Mallory" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 403);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "bad_origin");
    assert_eq!(session_state(app.get("/api/me").await).await, "none");
}

#[actix_web::test]
async fn state_changes_from_our_own_pages_are_allowed() {
    let app = spawn_app().await;
    let response = app
        .client
        .post(format!("{}/api/session", app.url))
        .header("origin", app.url.clone())
        .json(&json!({ "nickname": "Ann" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
}

#[actix_web::test]
async fn after_signing_out_a_saved_cookie_no_longer_works() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let saved = app.user_with_cookie(ann.cookie().to_owned());
    assert_eq!(ann.delete("/api/session").await.status(), 204);
    assert_eq!(session_state(saved.get("/api/me").await).await, "revoked");
}

#[actix_web::test]
async fn a_new_nickname_ends_the_sessions_under_the_old_one() {
    let app = spawn_app().await;
    let mut ann = app.user("Ann").await;
    let saved = app.user_with_cookie(ann.cookie().to_owned());
    let response = ann.post("/api/session", &json!({ "nickname": "Annie" })).await;
    assert_eq!(response.status(), 200);
    ann.take_cookie(&response);
    assert_eq!(session_state(saved.get("/api/me").await).await, "revoked");
    let me: Value = ann.get("/api/me").await.json().await.unwrap();
    assert_eq!(me["nickname"], "Annie");
}

#[actix_web::test]
async fn a_nickname_that_passes_for_someone_else_is_refused() {
    let app = spawn_app().await;
    let cases = [
        ("\u{410}nn", "a nickname cannot mix alphabets (such as Latin and Cyrillic letters)"),
        ("Computer", "that name is kept for the site: choose another"),
        ("deleted player", "that name is kept for the site: choose another"),
    ];
    for (nickname, message) in cases {
        let response = app.post_json("/api/session", &json!({ "nickname": nickname })).await;
        assert_eq!(response.status(), 422, "{nickname}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["error"]["code"], "bad_nickname");
        assert_eq!(body["error"]["message"], message);
    }
    assert_eq!(session_state(app.get("/api/me").await).await, "none");
}
