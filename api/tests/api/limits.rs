//! Limits: requests per client, sockets per player.

use serde_json::{Value, json};

use crate::helpers::{TestApp, spawn_app, spawn_app_with};

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
async fn a_flood_of_readiness_and_metrics_requests_is_refused_too() {
    let app = spawn_app().await;
    for path in ["/readyz", "/metrics"] {
        let mut statuses = Vec::new();
        for _ in 0..70 {
            statuses.push(app.get(path).await.status().as_u16());
        }
        assert!(statuses.contains(&429), "{path}: {statuses:?}");
    }
    // /healthz asks nothing of the node and stays open to probes.
    assert_eq!(app.get("/healthz").await.status(), 200);
}

/// The statuses of `n` requests for `/api/stats` that say they were forwarded for `client`.
async fn stats_forwarded_for(
    app: &TestApp,
    n: usize,
    client: impl Fn(usize) -> String,
) -> Vec<u16> {
    let mut statuses = Vec::new();
    for i in 0..n {
        let response = app
            .client
            .get(format!("{}/api/stats", app.url))
            .header("x-forwarded-for", client(i))
            .send()
            .await
            .unwrap();
        statuses.push(response.status().as_u16());
    }
    statuses
}

#[actix_web::test]
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_allowance() {
    let app = spawn_app_with(|settings| {
        settings.trusted_proxies = "127.0.0.1, ::1".parse().unwrap();
        (settings.rate_burst, settings.rate_per_second) = (5, 1);
    })
    .await;
    let first = stats_forwarded_for(&app, 10, |_| "203.0.113.7".into()).await;
    assert_eq!(first[..5], [200; 5]);
    // Whatever a slow machine lets refill meanwhile, the burst is used up.
    assert!(first[5..].contains(&429), "{first:?}");
    let second = stats_forwarded_for(&app, 1, |_| "1.2.3.4, 203.0.113.8".into()).await;
    assert_eq!(second, [200]);
}

#[actix_web::test]
async fn a_forwarded_for_header_from_an_untrusted_peer_is_ignored() {
    let app =
        spawn_app_with(|settings| (settings.rate_burst, settings.rate_per_second) = (5, 1)).await;
    let statuses = stats_forwarded_for(&app, 10, |i| format!("203.0.113.{i}")).await;
    assert_eq!(statuses[..5], [200; 5]);
    assert!(statuses[5..].contains(&429), "{statuses:?}");
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
    assert_eq!(ann.try_connect(&id).await.err(), Some(429));
}

#[actix_web::test]
async fn flooding_the_queue_socket_gets_it_closed() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let mut queue = ann.queue().await;
    for _ in 0..15 {
        queue.send(json!({ "type": "seek", "queue": "quick" })).await;
        queue.send(json!({ "type": "cancel" })).await;
    }
    let mut codes = Vec::new();
    while let Some(msg) = queue.next().await {
        if msg["type"] == "error" {
            codes.push(msg["code"].as_str().unwrap().to_owned());
        }
    }
    assert_eq!(codes.last().map(String::as_str), Some("rate_limited"));
}
