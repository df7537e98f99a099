//! `GET /api/players?q=`: finding a player by the start of their public name.

use serde_json::{Value, json};

use crate::oidc_support::named_account;
use crate::ranked::app;

async fn names(app: &crate::helpers::TestApp, q: &str) -> Vec<String> {
    let found: Value = app.get(&format!("/api/players?q={q}")).await.json().await.unwrap();
    found["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect()
}

#[actix_web::test]
async fn a_player_is_found_by_the_start_of_their_name_whatever_its_case_or_look_alikes() {
    let Some(app) = app().await else { return };
    for (subject, name) in [("a", "Anno"), ("b", "Annie"), ("c", "Bob_x"), ("d", "Bobby")] {
        named_account(&app, subject, name).await;
    }
    assert_eq!(names(&app, "ann").await, ["Annie", "Anno"]);
    assert_eq!(names(&app, "ANN0").await, ["Anno"], "0 reads as O");
    assert_eq!(names(&app, "Ånn1").await, ["Annie"], "Å as A, 1 as i");
    assert_eq!(names(&app, "bob_").await, ["Bob_x"], "_ is a letter, not a wildcard");
    assert_eq!(names(&app, "bo%25").await, Vec::<String>::new(), "% neither");
    assert_eq!(names(&app, "zed").await, Vec::<String>::new());
}

#[actix_web::test]
async fn a_found_player_comes_with_their_ratings_and_whether_they_are_online() {
    let Some(app) = app().await else { return };
    let anno = named_account(&app, "a", "Anno").await;
    let found: Value = app.get("/api/players?q=anno").await.json().await.unwrap();
    assert_eq!(found, json!({ "players": [{ "name": "Anno", "online": false, "ratings": {} }] }));
    let mut queue = anno.queue().await;
    queue.send(json!({ "type": "seek", "queue": "quick" })).await;
    queue.expect("searching").await;
    let found: Value = app.get("/api/players?q=anno").await.json().await.unwrap();
    assert_eq!(found["players"][0]["online"], true);
}

#[actix_web::test]
async fn a_search_needs_one_to_twenty_characters() {
    let Some(app) = app().await else { return };
    for path in [
        "/api/players",
        "/api/players?q=",
        "/api/players?q=%20",
        &format!("/api/players?q={}", "a".repeat(21)),
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 400, "{path}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["error"]["code"], "bad_search");
    }
}
