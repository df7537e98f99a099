use crate::helpers::spawn_app;

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
