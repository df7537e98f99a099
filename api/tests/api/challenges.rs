//! Challenges and notifications over HTTP and the player's own socket: a challenge reaches the
//! challenged player at once, starts its game when accepted (rated when asked), tells the
//! sender of every answer, respects blocks without saying so, and refuses bad input without
//! changing anything.

use serde_json::{Value, json};

use crate::helpers::{Socket, TestApp, User};
use crate::oidc_support::named_account;
use crate::ranked::app;

async fn json_of(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

/// Ann and Bob, named accounts, and Bob's own socket past its greeting.
async fn ann_and_bob(app: &TestApp) -> (User, User, Socket) {
    let ann = named_account(app, "ann-sub", "Ann").await;
    let bob = named_account(app, "bob-sub", "Bob").await;
    let mut bob_socket = bob.me_socket().await;
    let hello = bob_socket.expect("hello").await;
    assert_eq!(
        hello,
        json!({ "type": "hello", "unread": 0, "challenges": { "incoming": [], "outgoing": [] } })
    );
    (ann, bob, bob_socket)
}

async fn challenge(from: &User, body: Value) -> Value {
    let (status, made) = json_of(from.post("/api/challenges", &body).await).await;
    assert_eq!(status, 201, "{made}");
    made
}

fn path(challenge: &Value, action: &str) -> String {
    format!("/api/challenges/{}/{action}", challenge["id"].as_str().unwrap())
}

#[actix_web::test]
async fn a_challenge_reaches_the_challenged_player_at_once_and_accepting_starts_its_game() {
    let Some(app) = app().await else { return };
    let (ann, bob, mut bob_socket) = ann_and_bob(&app).await;
    let made = challenge(&ann, json!({ "to": "bob", "control": "3+2", "colour": "white" })).await;
    assert_eq!(
        (&made["from"], &made["to"], &made["control"], &made["colour"], &made["status"]),
        (&json!("Ann"), &json!("Bob"), &json!("3+2"), &json!("white"), &json!("open"))
    );
    assert_eq!(made["expires_at"].as_i64().unwrap() - made["created_at"].as_i64().unwrap(), 60_000);
    let told = bob_socket.expect("notification").await;
    assert_eq!(told["unread"], 1);
    assert_eq!(told["notification"]["kind"], "challenge_received");
    assert_eq!(told["notification"]["data"]["id"], made["id"]);
    assert_eq!(bob_socket.expect("challenge").await["challenge"], made);
    let listed: Value = bob.get("/api/challenges").await.json().await.unwrap();
    assert_eq!(listed, json!({ "incoming": [made.clone()], "outgoing": [] }));

    let (status, accepted) = json_of(bob.post(&path(&made, "accept"), &json!({})).await).await;
    assert_eq!(status, 200, "{accepted}");
    assert_eq!(accepted["status"], "accepted");
    let game_id = accepted["game_id"].as_str().unwrap();
    let game: Value = ann.get(&format!("/api/games/{game_id}")).await.json().await.unwrap();
    assert_eq!(game["mode"], "friend", "{game}");
    assert_eq!(game["players"]["white"]["name"], "Ann");
    assert_eq!(game["players"]["black"]["name"], "Bob");
    assert_eq!(game["control"], "3+2", "{game}");
}

#[actix_web::test]
async fn a_rated_challenge_starts_a_rated_game() {
    let Some(app) = app().await else { return };
    let (ann, bob, _bob_socket) = ann_and_bob(&app).await;
    let made = challenge(&ann, json!({ "to": "Bob", "control": "3+2", "rated": true })).await;
    let (status, accepted) = json_of(bob.post(&path(&made, "accept"), &json!({})).await).await;
    assert_eq!(status, 200, "{accepted}");
    let game_id = accepted["game_id"].as_str().unwrap();
    let game: Value = ann.get(&format!("/api/games/{game_id}")).await.json().await.unwrap();
    assert_eq!(game["mode"], "ranked", "{game}");
}

#[actix_web::test]
async fn the_sender_hears_at_once_that_a_challenge_was_accepted_or_declined() {
    let Some(app) = app().await else { return };
    let (ann, bob, _bob_socket) = ann_and_bob(&app).await;
    let mut ann_socket = ann.me_socket().await;
    ann_socket.expect("hello").await;
    let first = challenge(&ann, json!({ "to": "Bob" })).await;
    assert_eq!(ann_socket.expect("challenge").await["challenge"], first);
    bob.post(&path(&first, "decline"), &json!({})).await;
    let told = ann_socket.until("notification").await;
    assert_eq!(told["notification"]["kind"], "challenge_declined");
    assert_eq!(ann_socket.expect("challenge").await["challenge"]["status"], "declined");

    let second = challenge(&ann, json!({ "to": "Bob" })).await;
    ann_socket.expect("challenge").await;
    bob.post(&path(&second, "accept"), &json!({})).await;
    let told = ann_socket.expect("notification").await;
    assert_eq!(told["notification"]["kind"], "challenge_accepted");
    assert_eq!(told["unread"], 2);
    let changed = ann_socket.expect("challenge").await;
    assert_eq!(changed["challenge"]["status"], "accepted");
    assert!(changed["challenge"]["game_id"].is_string());
}

#[actix_web::test]
async fn a_cancelled_challenge_leaves_the_challenged_players_page_and_cannot_be_accepted() {
    let Some(app) = app().await else { return };
    let (ann, bob, mut bob_socket) = ann_and_bob(&app).await;
    let made = challenge(&ann, json!({ "to": "Bob" })).await;
    bob_socket.until("challenge").await;
    let (status, cancelled) = json_of(ann.post(&path(&made, "cancel"), &json!({})).await).await;
    assert_eq!((status, &cancelled["status"]), (200, &json!("cancelled")));
    assert_eq!(bob_socket.expect("challenge").await["challenge"]["status"], "cancelled");
    let (status, refused) = json_of(bob.post(&path(&made, "accept"), &json!({})).await).await;
    assert_eq!((status, &refused["error"]["code"]), (409, &json!("challenge_closed")));
}

#[actix_web::test]
async fn a_challenge_is_answered_once_and_by_the_right_player() {
    let Some(app) = app().await else { return };
    let (ann, bob, _bob_socket) = ann_and_bob(&app).await;
    let cid = named_account(&app, "cid-sub", "Cid").await;
    let made = challenge(&ann, json!({ "to": "Bob" })).await;
    let code = |body: &Value| body["error"]["code"].clone();
    let (status, refused) = json_of(ann.post(&path(&made, "accept"), &json!({})).await).await;
    assert_eq!((status, code(&refused)), (403, json!("not_your_challenge")));
    let (status, refused) = json_of(bob.post(&path(&made, "cancel"), &json!({})).await).await;
    assert_eq!((status, code(&refused)), (403, json!("not_your_challenge")));
    let (status, refused) = json_of(cid.post(&path(&made, "accept"), &json!({})).await).await;
    assert_eq!((status, code(&refused)), (404, json!("challenge_not_found")));
    assert_eq!(bob.post(&path(&made, "accept"), &json!({})).await.status(), 200);
    let (status, refused) = json_of(bob.post(&path(&made, "accept"), &json!({})).await).await;
    assert_eq!((status, code(&refused)), (409, json!("challenge_closed")));
    let unknown = "/api/challenges/AAAAAAAAAAAA/accept";
    let (status, refused) = json_of(bob.post(unknown, &json!({})).await).await;
    assert_eq!((status, code(&refused)), (404, json!("challenge_not_found")));
    let (status, refused) =
        json_of(bob.post("/api/challenges/nope/decline", &json!({})).await).await;
    assert_eq!((status, code(&refused)), (404, json!("challenge_not_found")));
}

#[actix_web::test]
async fn bad_challenges_are_refused_and_change_nothing() {
    let Some(app) = app().await else { return };
    let (ann, _bob, mut bob_socket) = ann_and_bob(&app).await;
    let guest = app.user("Gus").await;
    let cases = [
        (&ann, json!({ "to": "Ann" }), 422, "self_challenge"),
        (&ann, json!({ "to": "nobody" }), 404, "player_not_found"),
        (&ann, json!({ "to": "no spaces!" }), 404, "player_not_found"),
        (&ann, json!({ "to": "Bob", "control": "7+7" }), 422, "bad_time_control"),
        (&ann, json!({ "to": "Bob", "control": "fast" }), 422, "bad_time_control"),
        (&ann, json!({ "to": "Bob", "control": "1+0", "rated": true }), 422, "no_rating_pool"),
        (
            &ann,
            json!({ "to": "Bob", "control": "10+5", "xot": true, "rated": true }),
            422,
            "no_rating_pool",
        ),
        (&ann, json!({ "to": "Bob", "colour": "green" }), 400, "bad_request"),
        (&ann, json!({ "to": "Bob", "stakes": 10 }), 400, "bad_request"),
        (&ann, json!({ "control": "3+2" }), 400, "bad_request"),
        (&guest, json!({ "to": "Bob" }), 401, "not_signed_in"),
    ];
    for (user, body, status, code) in cases {
        let (got, refused) = json_of(user.post("/api/challenges", &body).await).await;
        assert_eq!(
            (got, refused["error"]["code"].as_str()),
            (status, Some(code)),
            "{body}: {refused}"
        );
    }
    assert!(bob_socket.idle(200).await.is_empty(), "Bob heard of no challenge");
    let listed: Value = ann.get("/api/challenges").await.json().await.unwrap();
    assert_eq!(listed, json!({ "incoming": [], "outgoing": [] }));
}

#[actix_web::test]
async fn a_player_keeps_three_challenges_open_at_most() {
    let Some(app) = app().await else { return };
    let (ann, _bob, _bob_socket) = ann_and_bob(&app).await;
    let mut made = Vec::new();
    for _ in 0..3 {
        made.push(challenge(&ann, json!({ "to": "Bob" })).await);
    }
    let (status, refused) =
        json_of(ann.post("/api/challenges", &json!({ "to": "Bob" })).await).await;
    assert_eq!((status, &refused["error"]["code"]), (429, &json!("too_many_challenges")));
    ann.post(&path(&made[0], "cancel"), &json!({})).await;
    challenge(&ann, json!({ "to": "Bob" })).await;
}

#[actix_web::test]
async fn a_blocked_sender_is_told_declined_and_nothing_more() {
    let Some(app) = app().await else { return };
    let (ann, bob, mut bob_socket) = ann_and_bob(&app).await;
    assert_eq!(bob.post("/api/blocks", &json!({ "name": "Ann" })).await.status(), 201);
    let made = challenge(&ann, json!({ "to": "Bob" })).await;
    assert_eq!(made["status"], "declined");
    assert!(bob_socket.idle(200).await.is_empty(), "Bob heard nothing");
    let notifications: Value = bob.get("/api/notifications").await.json().await.unwrap();
    assert_eq!(notifications, json!({ "unread": 0, "notifications": [] }));
    let listed: Value = bob.get("/api/challenges").await.json().await.unwrap();
    assert_eq!(listed, json!({ "incoming": [], "outgoing": [] }));
}

#[actix_web::test]
async fn notifications_are_listed_and_marked_read() {
    let Some(app) = app().await else { return };
    let (ann, bob, _bob_socket) = ann_and_bob(&app).await;
    challenge(&ann, json!({ "to": "Bob" })).await;
    challenge(&ann, json!({ "to": "Bob" })).await;
    let listed: Value = bob.get("/api/notifications").await.json().await.unwrap();
    assert_eq!(listed["unread"], 2);
    let items = listed["notifications"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert!(items.iter().all(|n| n["kind"] == "challenge_received" && n["read"] == false));
    let newest = items[0]["id"].clone();
    let (status, left) =
        json_of(bob.post("/api/notifications/read", &json!({ "ids": [newest] })).await).await;
    assert_eq!((status, left), (200, json!({ "unread": 1 })));
    // Another player's ids change nothing of theirs.
    let (_, left) =
        json_of(ann.post("/api/notifications/read", &json!({ "all": true })).await).await;
    assert_eq!(left, json!({ "unread": 0 }));
    let (_, left) =
        json_of(bob.post("/api/notifications/read", &json!({ "all": true })).await).await;
    assert_eq!(left, json!({ "unread": 0 }));
}

#[actix_web::test]
async fn bad_notification_requests_are_refused() {
    let Some(app) = app().await else { return };
    let (_ann, bob, _bob_socket) = ann_and_bob(&app).await;
    let guest = app.user("Gus").await;
    assert_eq!(guest.get("/api/notifications").await.status(), 401);
    for body in [
        json!({}),
        json!({ "all": true, "ids": [] }),
        json!({ "ids": ["short"] }),
        json!({ "ids": "all" }),
        json!({ "everything": true }),
    ] {
        let (status, refused) = json_of(bob.post("/api/notifications/read", &body).await).await;
        assert_eq!((status, &refused["error"]["code"]), (400, &json!("bad_request")), "{body}");
    }
}

#[actix_web::test]
async fn the_players_socket_is_for_signed_in_accounts_only() {
    let Some(app) = app().await else { return };
    let guest = app.user("Gus").await;
    let url = format!("{}/api/me/ws", app.url.replacen("http", "ws", 1));
    let mut request =
        tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(url)
            .unwrap();
    request.headers_mut().insert("cookie", guest.cookie().parse().unwrap());
    let refused = tokio_tungstenite::connect_async(request).await.unwrap_err();
    match refused {
        tokio_tungstenite::tungstenite::Error::Http(response) => {
            assert_eq!(response.status(), 401);
        }
        other => panic!("expected 401, got {other}"),
    }
}

#[actix_web::test]
async fn a_challenge_from_another_site_is_refused() {
    let Some(app) = app().await else { return };
    let (ann, _bob, mut bob_socket) = ann_and_bob(&app).await;
    let response = reqwest::Client::new()
        .post(format!("{}/api/challenges", app.url))
        .header("cookie", ann.cookie())
        .header("origin", "https://elsewhere.example")
        .json(&json!({ "to": "Bob" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 403);
    assert!(bob_socket.idle(200).await.is_empty());
}

#[actix_web::test]
async fn a_daily_challenge_waits_a_week_for_its_answer() {
    let Some(app) = app().await else { return };
    let (ann, _bob, _bob_socket) = ann_and_bob(&app).await;
    let made = challenge(&ann, json!({ "to": "Bob", "control": "2d" })).await;
    let waits = made["expires_at"].as_i64().unwrap() - made["created_at"].as_i64().unwrap();
    assert_eq!(waits, 7 * 24 * 3600 * 1000);
}

#[actix_web::test]
async fn a_daily_game_tells_the_player_to_move_and_reminds_them_near_the_deadline() {
    let Some(provider) = crate::oidc_support::local_provider() else { return };
    let app = crate::helpers::spawn_app_with_clock_and(|settings| {
        settings.oidc = Some(provider.settings());
    })
    .await;
    let (ann, bob, mut bob_socket) = ann_and_bob(&app).await;
    let made = challenge(&ann, json!({ "to": "Bob", "control": "1d", "colour": "black" })).await;
    bob_socket.until("challenge").await;
    let accepted: Value = bob.post(&path(&made, "accept"), &json!({})).await.json().await.unwrap();
    bob_socket.until("challenge").await;
    let game = accepted["game_id"].as_str().unwrap().to_owned();
    let (mut socket, snapshot) = ann.join(&game).await;
    let square = crate::helpers::legal_squares(&snapshot)[0].clone();
    socket.play(&square).await;

    let told = bob_socket.expect("notification").await;
    assert_eq!(told["notification"]["kind"], "daily_turn");
    let data = &told["notification"]["data"];
    assert_eq!((data["game_id"].as_str(), &data["opponent"]), (Some(game.as_str()), &json!("Ann")));
    // A day a move: the reminder comes with a tenth of it, 2.4 hours, left.
    app.advance(21 * 3600 * 1000);
    assert!(bob_socket.idle(1_500).await.is_empty(), "not yet");
    app.advance(3600 * 1000);
    let reminded = bob_socket.expect("notification").await;
    assert_eq!(reminded["notification"]["kind"], "daily_reminder");
    assert_eq!(reminded["notification"]["data"], *data);
}

#[actix_web::test]
async fn an_expired_challenge_is_neither_listed_nor_accepted_nor_cancelled() {
    let Some(provider) = crate::oidc_support::local_provider() else { return };
    let app = crate::helpers::spawn_app_with_clock_and(|settings| {
        settings.oidc = Some(provider.settings());
    })
    .await;
    let (ann, bob, _bob_socket) = ann_and_bob(&app).await;
    let made = challenge(&ann, json!({ "to": "Bob", "control": "3+2" })).await;
    app.advance(60_000);
    let listed: Value = bob.get("/api/challenges").await.json().await.unwrap();
    assert_eq!(listed, json!({ "incoming": [], "outgoing": [] }));
    let (status, refused) = json_of(bob.post(&path(&made, "accept"), &json!({})).await).await;
    assert_eq!((status, &refused["error"]["code"]), (410, &json!("challenge_expired")));
    let (status, refused) = json_of(ann.post(&path(&made, "cancel"), &json!({})).await).await;
    assert_eq!((status, &refused["error"]["code"]), (410, &json!("challenge_expired")));
    // Expired, it no longer counts against the sender's three.
    for _ in 0..3 {
        challenge(&ann, json!({ "to": "Bob" })).await;
    }
}
