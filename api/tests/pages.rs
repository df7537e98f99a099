//! The server answers over a real socket: health check, pages, and a clear 404.

use outflank_api::configuration::Settings;
use outflank_api::startup::Application;

/// Starts the real server on a free port and returns its base URL.
fn spawn_app() -> String {
    let settings = Settings { address: "127.0.0.1:0".parse().unwrap() };
    let app = Application::build(&settings).expect("server binds");
    let url = format!("http://{}", app.address());
    tokio::spawn(app.run_until_stopped());
    url
}

#[actix_web::test]
async fn healthz_answers_ok() {
    let url = spawn_app();
    let response = reqwest::get(format!("{url}/healthz")).await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.text().await.unwrap(), "ok");
}

#[actix_web::test]
async fn home_and_rules_pages_are_served_as_html() {
    let url = spawn_app();
    for (path, heading) in [("/", "<h1>Outflank</h1>"), ("/rules", "<h1>How to play Reversi</h1>")]
    {
        let response = reqwest::get(format!("{url}{path}")).await.unwrap();
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(response.headers()["content-type"], "text/html; charset=utf-8", "{path}");
        assert!(response.text().await.unwrap().contains(heading), "{path}");
    }
}

#[actix_web::test]
async fn unknown_paths_get_the_not_found_page() {
    let url = spawn_app();
    let response = reqwest::get(format!("{url}/no/such/page")).await.unwrap();
    assert_eq!(response.status(), 404);
    assert!(response.text().await.unwrap().contains("Page not found"));
}
