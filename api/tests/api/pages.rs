use crate::helpers::spawn_app;

#[actix_web::test]
async fn home_and_rules_pages_are_served_as_html() {
    let app = spawn_app().await;
    for (path, heading) in [("/", "<h1>Outflank</h1>"), ("/rules", "<h1>How to play Reversi</h1>")]
    {
        let response = app.get(path).await;
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(response.headers()["content-type"], "text/html; charset=utf-8", "{path}");
        assert!(response.text().await.unwrap().contains(heading), "{path}");
    }
}

#[actix_web::test]
async fn unknown_paths_get_the_not_found_page() {
    let app = spawn_app().await;
    let response = app.get("/no/such/page").await;
    assert_eq!(response.status(), 404);
    assert!(response.text().await.unwrap().contains("Page not found"));
}
