use crate::helpers::{TestApp, spawn_app};

#[actix_web::test]
async fn every_page_route_serves_its_html_page() {
    let app = spawn_app().await;
    for (path, marker) in [
        ("/", r#"<h1 class="home-title">Play Reversi online</h1>"#),
        ("/rules", "<h1>How to play Reversi</h1>"),
        ("/join/ABCDEFGH", r#"<script type="module" src="/js/join.js">"#),
        ("/analysis", r#"<script type="module" src="/js/analysis.js">"#),
        ("/puzzles", r#"<script type="module" src="/js/puzzles.js">"#),
        ("/puzzles/k7Hq2mXp9R-3", r#"<script type="module" src="/js/puzzles.js">"#),
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(response.headers()["content-type"], "text/html; charset=utf-8", "{path}");
        assert!(response.text().await.unwrap().contains(marker), "{path}");
    }
}

#[actix_web::test]
async fn a_games_page_is_found_for_a_game_and_not_found_otherwise() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let id = ann.create_game(serde_json::json!({ "mode": "same_device" })).await;
    let marker = r#"<script type="module" src="/js/game.js">"#;
    for page in ["game", "replay"] {
        for (game, status) in [(id.as_str(), 200), ("k7Hq2mXp9R", 404), ("not-an-id", 404)] {
            let response = app.get(&format!("/{page}/{game}")).await;
            assert_eq!(response.status(), status, "/{page}/{game}");
            assert_eq!(response.headers()["content-type"], "text/html; charset=utf-8");
            assert!(response.text().await.unwrap().contains(marker), "/{page}/{game}");
        }
    }
}

#[actix_web::test]
async fn assets_are_served_with_their_content_types() {
    let app = spawn_app().await;
    for (path, content_type, marker) in [
        ("/css/style.css", "text/css; charset=utf-8", ".board"),
        ("/js/game.js", "text/javascript; charset=utf-8", "import"),
        ("/js/board/Board.js", "text/javascript; charset=utf-8", "export class Board"),
        ("/img/icon.svg", "image/svg+xml", "<svg"),
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(response.headers()["content-type"], content_type, "{path}");
        assert!(response.text().await.unwrap().contains(marker), "{path}");
    }
}

#[actix_web::test]
async fn pages_have_no_inline_scripts() {
    let app = spawn_app().await;
    for path in ["/", "/rules", "/game/k7Hq2mXp9R", "/join/ABCDEFGH", "/no/such/page"] {
        let body = app.get(path).await.text().await.unwrap();
        for tag in body.split("<script").skip(1) {
            assert!(tag.trim_start().starts_with("type=\"module\" src=\"/js/"), "{path}: {tag}");
        }
        assert!(!body.contains(" onclick="), "{path}");
    }
}

#[actix_web::test]
async fn unknown_paths_get_the_not_found_page() {
    let app = spawn_app().await;
    for path in ["/no/such/page", "/js/missing.js", "/js/../Cargo.toml", "/css/", "/game"] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 404, "{path}");
        assert_eq!(response.headers()["content-type"], "text/html; charset=utf-8", "{path}");
        assert!(response.text().await.unwrap().contains("Page not found"), "{path}");
    }
}

#[actix_web::test]
async fn unknown_api_paths_answer_json() {
    let app = spawn_app().await;
    let response = app.get("/api/no/such/route").await;
    assert_eq!(response.status(), 404);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "not_found");
}

#[actix_web::test]
async fn pages_carry_a_strict_content_security_policy_and_no_framing() {
    let app = crate::helpers::spawn_app().await;
    for path in ["/", "/rules", "/api/stats", "/no/such/page"] {
        let response = app.get(path).await;
        let headers = response.headers();
        assert_eq!(
            headers["content-security-policy"],
            outflank_api::http::security_headers::CONTENT_SECURITY_POLICY,
            "{path}"
        );
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(headers["referrer-policy"], "strict-origin-when-cross-origin", "{path}");
        assert_eq!(headers["x-frame-options"], "DENY", "{path}");
    }
}

/// `GET path` with one request header `name: value`.
async fn get_with(app: &TestApp, path: &str, name: &str, value: &str) -> reqwest::Response {
    app.client.get(format!("{}{path}", app.url)).header(name, value).send().await.unwrap()
}

#[actix_web::test]
async fn text_assets_are_compressed_for_clients_that_accept_it() {
    let app = spawn_app().await;
    let plain = app.get("/css/style.css").await.bytes().await.unwrap();
    for encoding in ["br", "gzip"] {
        let response = get_with(&app, "/css/style.css", "accept-encoding", encoding).await;
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["content-encoding"], encoding);
        let sent = response.bytes().await.unwrap();
        assert!(
            sent.len() * 2 < plain.len(),
            "{encoding}: {} of {} bytes",
            sent.len(),
            plain.len()
        );
    }
}

#[actix_web::test]
async fn an_unchanged_file_is_not_sent_again() {
    let app = spawn_app().await;
    let first = app.get("/js/game.js").await;
    assert_eq!(first.headers()["cache-control"], "no-cache");
    let tag = first.headers()["etag"].to_str().unwrap().to_owned();
    let again = get_with(&app, "/js/game.js", "if-none-match", &tag).await;
    assert_eq!(again.status(), 304);
    assert_eq!(again.headers()["etag"], tag.as_str());
    assert!(again.bytes().await.unwrap().is_empty());
    // A tag a proxy weakened still matches.
    let weakened = get_with(&app, "/js/game.js", "if-none-match", &format!("W/{tag}")).await;
    assert_eq!(weakened.status(), 304);
    // Another file's tag does not match.
    let other = app.get("/css/style.css").await.headers()["etag"].to_str().unwrap().to_owned();
    assert_ne!(other, tag);
}
