//! Limits: requests per client, sockets per player.

use serde_json::{Value, json};

use crate::helpers::spawn_app;

#[actix_web::test]
async fn a_flood_of_api_requests_is_refused_with_retry_after() {
    let app = spawn_app().await;
    let mut statuses = Vec::new();
    let mut refused = None;
    for _ in 0..120 {
        let response = app.get("/api/stats").await;
        statuses.push(response.status().as_u16());
        if response.status() == 429 && refused.is_none() {
            let retry = response.headers()["retry-after"].to_str().unwrap().to_owned();
            let body: Value = response.json().await.unwrap();
            refused = Some((retry, body));
        }
    }
    assert!(statuses.iter().take(60).all(|status| *status == 200), "{statuses:?}");
    let (retry, body) = refused.expect("some requests are refused");
    assert!(retry.parse::<u64>().unwrap() >= 1);
    assert_eq!(body["error"]["code"], "rate_limited");
}

#[actix_web::test]
async fn pages_are_not_rate_limited() {
    let app = spawn_app().await;
    for _ in 0..120 {
        assert_eq!(app.get("/rules").await.status(), 200);
    }
}

#[actix_web::test]
async fn a_player_cannot_open_more_than_eight_sockets() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    let mut sockets = Vec::new();
    for _ in 0..8 {
        sockets.push(ann.connect(&id).await);
    }
    let refused = ann.get(&format!("/api/games/{id}/ws")).await;
    assert_eq!(refused.status(), 429);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"]["code"], "too_many_sockets");
}
