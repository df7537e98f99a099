use crate::helpers::{spawn_app, spawn_app_with};

#[actix_web::test]
async fn healthz_answers_ok() {
    let app = spawn_app().await;
    let response = app.get("/healthz").await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.text().await.unwrap(), "ok");
}

#[actix_web::test]
async fn readyz_answers_ready_when_the_database_does() {
    let app = spawn_app().await;
    let response = app.get("/readyz").await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.text().await.unwrap(), "ready");
}

#[actix_web::test]
async fn with_a_metrics_address_metrics_and_readiness_are_served_there_and_not_on_the_site() {
    let app = spawn_app_with(|settings| {
        settings.metrics_address = Some("127.0.0.1:0".parse().unwrap());
    })
    .await;
    let internal = app.metrics_url.clone().expect("an internal listener");
    assert_eq!(app.get("/metrics").await.status(), 404);
    assert_eq!(app.get("/readyz").await.status(), 404);
    assert_eq!(app.get("/healthz").await.status(), 200);
    let client = reqwest::Client::new();
    let ready = client.get(format!("{internal}/readyz")).send().await.unwrap();
    assert_eq!(ready.status(), 200);
    assert_eq!(ready.text().await.unwrap(), "ready");
    let metrics = client.get(format!("{internal}/metrics")).send().await.unwrap();
    assert_eq!(metrics.status(), 200);
    let text = metrics.text().await.unwrap();
    assert!(text.lines().any(|line| line.starts_with("outflank_queue_waiting ")), "{text}");
}

#[actix_web::test]
async fn without_a_metrics_address_metrics_and_readiness_are_served_with_the_site() {
    let app = spawn_app().await;
    assert_eq!(app.metrics_url, None);
    assert_eq!(app.get("/metrics").await.status(), 200);
    assert_eq!(app.get("/readyz").await.status(), 200);
}
