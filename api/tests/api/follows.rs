//! Following players and keeping a guest's games: a follower sees whom they follow online and
//! playing, hears when their games start, and profiles count followers; a guest who signs in
//! finds their games on the account.

use serde_json::{Value, json};

use crate::oidc_support::{land, named_account, provider_round_trip, signing_browser};
use crate::ranked::app;

async fn json_of(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[actix_web::test]
async fn a_player_follows_and_unfollows_and_profiles_count_followers() {
    let Some(app) = app().await else { return };
    let ann = named_account(&app, "ann-sub", "Ann").await;
    let bob = named_account(&app, "bob-sub", "Bob").await;
    let (status, followed) =
        json_of(ann.post("/api/follows", &json!({ "name": "bob" })).await).await;
    assert_eq!((status, followed), (201, json!({ "name": "Bob", "following": true })));
    assert_eq!(ann.post("/api/follows", &json!({ "name": "Bob" })).await.status(), 200);
    let profile: Value = ann.get("/api/players/Bob").await.json().await.unwrap();
    assert_eq!((&profile["followers"], &profile["following"]), (&json!(1), &json!(0)));
    assert_eq!(profile["you_follow"], true);
    let seen_by_bob: Value = bob.get("/api/players/Ann").await.json().await.unwrap();
    assert_eq!((&seen_by_bob["following"], &seen_by_bob["you_follow"]), (&json!(1), &json!(false)));
    let seen_by_visitor: Value = app.get("/api/players/Bob").await.json().await.unwrap();
    assert_eq!(seen_by_visitor["you_follow"], Value::Null);
    let listed: Value = ann.get("/api/follows").await.json().await.unwrap();
    let bob_listed = &listed["following"][0];
    assert_eq!(
        (&bob_listed["name"], &bob_listed["online"], &bob_listed["playing"], &bob_listed["recent"]),
        (&json!("Bob"), &json!(false), &Value::Null, &json!([]))
    );
    assert_eq!(ann.delete("/api/follows/Bob").await.status(), 204);
    assert_eq!(ann.delete("/api/follows/Bob").await.status(), 404);
    let listed: Value = ann.get("/api/follows").await.json().await.unwrap();
    assert_eq!(listed, json!({ "following": [] }));
}

#[actix_web::test]
async fn bad_follows_are_refused_and_change_nothing() {
    let Some(app) = app().await else { return };
    let ann = named_account(&app, "ann-sub", "Ann").await;
    let guest = app.user("Gus").await;
    let cases = [
        (&ann, json!({ "name": "Ann" }), 422, "yourself"),
        (&ann, json!({ "name": "nobody" }), 404, "player_not_found"),
        (&ann, json!({ "name": "two words" }), 404, "player_not_found"),
        (&ann, json!({ "who": "Bob" }), 400, "bad_request"),
        (&guest, json!({ "name": "Ann" }), 401, "not_signed_in"),
    ];
    for (user, body, status, code) in cases {
        let (got, refused) = json_of(user.post("/api/follows", &body).await).await;
        assert_eq!((got, refused["error"]["code"].as_str()), (status, Some(code)), "{body}");
    }
    assert_eq!(guest.get("/api/follows").await.status(), 401);
    let profile: Value = app.get("/api/players/Ann").await.json().await.unwrap();
    assert_eq!((&profile["followers"], &profile["following"]), (&json!(0), &json!(0)));
}

#[actix_web::test]
async fn a_follower_hears_when_a_followed_player_starts_a_game_and_sees_it_to_watch() {
    let Some(app) = app().await else { return };
    let ann = named_account(&app, "ann-sub", "Ann").await;
    let bob = named_account(&app, "bob-sub", "Bob").await;
    let cid = named_account(&app, "cid-sub", "Cid").await;
    ann.post("/api/follows", &json!({ "name": "Bob" })).await;
    let mut ann_socket = ann.me_socket().await;
    ann_socket.expect("hello").await;
    let mut bob_socket = bob.me_socket().await;
    bob_socket.expect("hello").await;
    let response = cid.post("/api/challenges", &json!({ "to": "Bob" })).await;
    let made: Value = response.json().await.unwrap();
    let accept = format!("/api/challenges/{}/accept", made["id"].as_str().unwrap());
    let accepted: Value = bob.post(&accept, &json!({})).await.json().await.unwrap();
    let game = accepted["game_id"].clone();

    let told = ann_socket.expect("notification").await;
    assert_eq!(told["notification"]["kind"], "followed_started");
    let data = &told["notification"]["data"];
    assert_eq!(
        (&data["game_id"], &data["player"], &data["opponent"]),
        (&game, &json!("Bob"), &json!("Cid"))
    );
    let listed: Value = ann.get("/api/follows").await.json().await.unwrap();
    assert_eq!(listed["following"][0]["playing"], game);
    assert_eq!(listed["following"][0]["online"], true);
}

#[actix_web::test]
async fn a_guest_who_signs_in_finds_their_games_on_the_account_and_is_told_so() {
    let Some(app) = app().await else { return };
    let browser = signing_browser();
    let response = browser
        .post(format!("{}/api/session", app.url))
        .json(&json!({ "nickname": "Gus" }))
        .send()
        .await
        .unwrap();
    let cookie = response
        .headers()
        .get_all(reqwest::header::SET_COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .find(|value| value.starts_with("outflank_session="))
        .map(|value| value.split(';').next().unwrap().to_owned())
        .unwrap();
    let gus = app.user_with_cookie(cookie);
    let id =
        gus.create_game(json!({ "mode": "computer", "level": "easy", "color": "black" })).await;
    let (mut socket, _) = gus.join(&id).await;
    socket.send(json!({ "type": "resign" })).await;
    socket.until("ended").await;

    let callback = provider_round_trip(&app, &browser, "gus-sub", "/").await;
    let landing = land(&browser, &callback).await;
    let mut account = app.user_with_cookie(landing.session.unwrap());
    let response = account.post("/api/account/name", &json!({ "name": "Gus" })).await;
    assert_eq!(response.status(), 200);
    account.take_cookie(&response);
    let profile: Value = account.get("/api/players/Gus").await.json().await.unwrap();
    assert_eq!(profile["recent_games"][0]["id"], id.as_str(), "{profile}");
    assert_eq!(profile["recent_games"][0]["result"], "loss");
    let notifications: Value = account.get("/api/notifications").await.json().await.unwrap();
    assert_eq!(notifications["notifications"][0]["kind"], "guest_history_kept");
    assert_eq!(notifications["notifications"][0]["data"], json!({ "games": 1, "puzzles": 0 }));
}
