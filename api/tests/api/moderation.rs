//! Trust and safety over HTTP: a report travels from a game to a moderator's sanction and the
//! victim's refund; moderators' routes check the role on every request; sanctions close ranked
//! play, sign-in or a name; blocks keep two players apart in the queue; bad input changes
//! nothing.

use std::time::Duration;

use outflank_api::commands;
use outflank_api::domain::Timestamp;
use outflank_api::storage::Store;
use serde_json::{Value, json};

use crate::helpers::{TestApp, User};
use crate::oidc_support::{named_account, provider_round_trip, signing_browser};
use crate::ranked::{alice_resigns_to_bob, app, pair};

/// Runs the server binary's command `line` on `app`'s database.
async fn command(app: &TestApp, line: &str) -> String {
    let store = Store::connect(app.database_url()).await.unwrap();
    let args: Vec<String> = line.split(' ').map(str::to_owned).collect();
    let out = commands::run(&store, &args, Timestamp::now()).await.unwrap();
    store.close().await;
    out
}

/// Mia, signed in and made a moderator.
async fn moderator(app: &TestApp) -> User {
    let mia = named_account(app, "mia-sub", "Mia").await;
    assert_eq!(command(app, "moderators add Mia").await, "Mia is now a moderator\n");
    mia
}

async fn json_of(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn profile(app: &TestApp, name: &str) -> Value {
    app.get(&format!("/api/players/{name}")).await.json().await.unwrap()
}

#[actix_web::test]
async fn a_report_from_a_game_ends_in_a_sanction_and_the_victims_refund() {
    let Some(app) = app().await else { return };
    let (alice, bob, game) = alice_resigns_to_bob(&app).await;
    assert_eq!(profile(&app, "alice").await["rating"], 1180);
    let bob_color = {
        let view: Value = alice.get(&format!("/api/games/{game}")).await.json().await.unwrap();
        if view["players"]["black"]["name"] == "Bob" { "black" } else { "white" }
    };
    let report = json!({ "game": game, "color": bob_color, "reason": "engine", "details": "" });
    let (status, filed) = json_of(alice.post("/api/reports", &report).await).await;
    assert_eq!(status, 201, "{filed}");
    assert_eq!((filed["name"].as_str(), filed["status"].as_str()), (Some("Bob"), Some("received")));
    let (status, again) = json_of(alice.post("/api/reports", &report).await).await;
    assert_eq!((status, again["error"]["code"].as_str()), (409, Some("already_reported")));

    let mia = moderator(&app).await;
    let queue: Value = mia.get("/api/mod/queue").await.json().await.unwrap();
    let bob_id = profile(&app, "bob").await["id"].as_str().unwrap().to_owned();
    assert_eq!(queue["players"].as_array().unwrap().len(), 1);
    assert_eq!(queue["players"][0]["id"], bob_id);
    assert_eq!(queue["players"][0]["reports"][0]["reason"], "engine");
    assert_eq!(queue["players"][0]["reports"][0]["game"], game);
    let file: Value = mia.get(&format!("/api/mod/players/{bob_id}")).await.json().await.unwrap();
    assert_eq!(file["public_name"], "Bob");
    assert_eq!(file["endings"]["rated_games"], 1);
    assert_eq!(file["reports"].as_array().unwrap().len(), 1);

    let sanction = json!({ "player": bob_id, "kind": "engine", "reason": "every move best" });
    let (status, sanctioned) = json_of(mia.post("/api/mod/sanctions", &sanction).await).await;
    assert_eq!(status, 201, "{sanctioned}");

    // Alice has her points back, and is told; her report was acted on.
    assert_eq!(profile(&app, "alice").await["rating"], 1200);
    let notices: Value = alice.get("/api/account/notices").await.json().await.unwrap();
    assert_eq!(
        notices["refunds"],
        json!([{ "game": game, "pool": "30s", "points": 20.0, "at": notices["refunds"][0]["at"] }])
    );
    let mine: Value = alice.get("/api/reports/mine").await.json().await.unwrap();
    assert_eq!(mine["reports"][0]["status"], "acted_on");
    // Bob is labelled, off the leaderboard, out of ranked play, and sees what happened.
    assert_eq!(profile(&app, "bob").await["label"], "engine_assistance");
    let board: Value = app.get("/api/leaderboard").await.json().await.unwrap();
    let names: Vec<&str> =
        board["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Alice"]);
    let mut queue = bob.queue().await;
    queue.send(json!({ "type": "seek", "queue": "ranked" })).await;
    assert_eq!(queue.expect("error").await["code"], "ranked_closed");
    let notices: Value = bob.get("/api/account/notices").await.json().await.unwrap();
    assert_eq!(notices["sanctions"][0]["kind"], "engine");
    assert_eq!(notices["sanctions"][0]["lifted_at"], Value::Null);

    // Lifted from the log: everything undone.
    let log: Value = mia.get("/api/mod/log").await.json().await.unwrap();
    assert_eq!(log["entries"][0]["action"], "sanction");
    assert_eq!(log["entries"][0]["moderator_name"], "Mia");
    let id = sanctioned["id"].as_str().unwrap();
    assert_eq!(log["entries"][0]["subject"], format!("engine:{id}"));
    let lift = json!({ "reason": "appeal" });
    assert_eq!(mia.post(&format!("/api/mod/sanctions/{id}/lift"), &lift).await.status(), 200);
    assert_eq!(profile(&app, "alice").await["rating"], 1180);
    assert_eq!(profile(&app, "bob").await["label"], Value::Null);
}

#[actix_web::test]
async fn the_desk_is_for_moderators_only_and_checked_on_every_request() {
    let Some(app) = app().await else { return };
    let guest = app.user("Gus").await;
    assert_eq!(json_of(guest.get("/api/mod/queue").await).await.0, 401);
    let mia = moderator(&app).await;
    let ann = named_account(&app, "ann-sub", "Ann").await;
    let (status, body) = json_of(ann.get("/api/mod/queue").await).await;
    assert_eq!((status, body["error"]["code"].as_str()), (403, Some("not_moderator")));
    let (status, body) = json_of(ann.get("/api/mod/me").await).await;
    assert_eq!((status, body), (200, json!({ "moderator": false })));
    for path in ["/api/mod/me", "/api/mod/queue", "/api/mod/log"] {
        assert_eq!(mia.get(path).await.status(), 200, "{path}");
    }
    command(&app, "moderators remove Mia").await;
    assert_eq!(json_of(mia.get("/api/mod/queue").await).await.0, 403);
    assert_eq!(json_of(mia.get("/api/mod/me").await).await.1, json!({ "moderator": false }));
    let sanction = json!({ "player": "x", "kind": "engine", "reason": "r" });
    assert_eq!(json_of(mia.post("/api/mod/sanctions", &sanction).await).await.0, 403);
}

#[actix_web::test]
async fn closing_an_account_ends_its_sessions_and_refuses_its_sign_in() {
    let Some(app) = app().await else { return };
    let mia = moderator(&app).await;
    let bob = named_account(&app, "bob-sub", "Bob").await;
    let bob_id = profile(&app, "bob").await["id"].as_str().unwrap().to_owned();
    let close = json!({ "player": bob_id, "kind": "closed", "reason": "abuse in chat" });
    let (status, closed) = json_of(mia.post("/api/mod/sanctions", &close).await).await;
    assert_eq!(status, 201);
    // The old session no longer signs Bob in; a new sign-in is sent home with the reason.
    let me: Value = bob.get("/api/me").await.json().await.unwrap();
    assert_eq!(me.get("account").cloned().unwrap_or(Value::Null), Value::Null, "{me}");
    let browser = signing_browser();
    let callback = provider_round_trip(&app, &browser, "bob-sub", "/").await;
    let landed = browser.get(&callback).send().await.unwrap();
    let location = landed.headers()["location"].to_str().unwrap().to_owned();
    assert_eq!(location, "/?sign_in_error=closed");
    assert_eq!(profile(&app, "bob").await["label"], "closed");
    let id = closed["id"].as_str().unwrap();
    let lift = json!({ "reason": "appeal" });
    assert_eq!(mia.post(&format!("/api/mod/sanctions/{id}/lift"), &lift).await.status(), 200);
    let callback = provider_round_trip(&app, &browser, "bob-sub", "/").await;
    let landed = browser.get(&callback).send().await.unwrap();
    assert_eq!(landed.headers()["location"], "/");
}

#[actix_web::test]
async fn a_name_sanction_sends_the_owner_to_choose_another() {
    let Some(app) = app().await else { return };
    let mia = moderator(&app).await;
    named_account(&app, "rude-sub", "Rude").await;
    let id = profile(&app, "rude").await["id"].as_str().unwrap().to_owned();
    let reset = json!({ "player": id, "kind": "name", "reason": "offensive name" });
    assert_eq!(mia.post("/api/mod/sanctions", &reset).await.status(), 201);
    assert_eq!(app.get("/api/players/rude").await.status(), 404);
    let browser = signing_browser();
    let callback = provider_round_trip(&app, &browser, "rude-sub", "/").await;
    let landed = browser.get(&callback).send().await.unwrap();
    assert_eq!(landed.headers()["location"], "/welcome?return_to=/");
}

#[actix_web::test]
async fn two_players_one_of_whom_blocked_the_other_are_never_paired() {
    let Some(app) = app().await else { return };
    let ann = named_account(&app, "ann-sub", "Ann").await;
    let bob = named_account(&app, "bob-sub", "Bob").await;
    let (status, blocked) = json_of(ann.post("/api/blocks", &json!({ "name": "bob" })).await).await;
    assert_eq!((status, blocked["name"].as_str()), (201, Some("Bob")));
    let list: Value = ann.get("/api/blocks").await.json().await.unwrap();
    assert_eq!(list["blocks"][0]["name"], "Bob");

    let mut ann_queue = ann.queue().await;
    let mut bob_queue = bob.queue().await;
    ann_queue.send(json!({ "type": "seek", "queue": "ranked" })).await;
    ann_queue.expect("searching").await;
    bob_queue.send(json!({ "type": "seek", "queue": "ranked" })).await;
    bob_queue.expect("searching").await;
    // Several pairing rounds pass (one each half second) without a pairing.
    tokio::time::sleep(Duration::from_millis(2_000)).await;
    ann_queue.send(json!({ "type": "cancel" })).await;
    assert_eq!(ann_queue.until("cancelled").await["type"], "cancelled");
    bob_queue.send(json!({ "type": "cancel" })).await;
    assert_eq!(bob_queue.until("cancelled").await["type"], "cancelled");
    drop((ann_queue, bob_queue));

    assert_eq!(ann.delete("/api/blocks/Bob").await.status(), 204);
    assert_eq!(ann.delete("/api/blocks/Bob").await.status(), 404);
    pair(&ann, &bob).await;
}

#[actix_web::test]
async fn bad_reports_and_sanctions_are_refused_and_change_nothing() {
    let Some(app) = app().await else { return };
    let mia = moderator(&app).await;
    let ann = named_account(&app, "ann-sub", "Ann").await;
    named_account(&app, "bob-sub", "Bob").await;
    let guest = app.user("Gus").await;
    let cases = [
        (&guest, json!({ "name": "Bob", "reason": "engine" }), 401, "not_signed_in"),
        (&ann, json!({ "name": "Ann", "reason": "engine" }), 400, "yourself"),
        (&ann, json!({ "name": "Bob", "reason": "cheating" }), 400, "bad_request"),
        (&ann, json!({ "name": "Bob", "reason": "signal" }), 400, "bad_request"),
        (&ann, json!({ "name": "Bob", "reason": "other" }), 400, "bad_request"),
        (
            &ann,
            json!({ "name": "Bob", "reason": "name", "details": "x".repeat(501) }),
            400,
            "bad_request",
        ),
        (&ann, json!({ "reason": "engine" }), 400, "bad_request"),
        (
            &ann,
            json!({ "name": "Bob", "game": "abcdefghij", "color": "black", "reason": "engine" }),
            400,
            "bad_request",
        ),
        (&ann, json!({ "name": "Nobody", "reason": "engine" }), 404, "not_found"),
        (
            &ann,
            json!({ "game": "abcdefghij", "color": "black", "reason": "engine" }),
            404,
            "not_found",
        ),
        (&ann, json!({ "name": "Bob", "reason": "engine", "extra": 1 }), 400, "bad_request"),
    ];
    for (user, body, status, code) in cases {
        let (got, error) = json_of(user.post("/api/reports", &body).await).await;
        assert_eq!((got, error["error"]["code"].as_str()), (status, Some(code)), "{body}");
    }
    let mine: Value = ann.get("/api/reports/mine").await.json().await.unwrap();
    assert_eq!(mine["reports"], json!([]));

    let bob_id = profile(&app, "bob").await["id"].as_str().unwrap().to_owned();
    let mia_id = profile(&app, "mia").await["id"].as_str().unwrap().to_owned();
    let sanctions = [
        (json!({ "player": bob_id, "kind": "ban", "reason": "r" }), 400),
        (json!({ "player": bob_id, "kind": "engine", "reason": "  " }), 400),
        (json!({ "player": bob_id, "kind": "engine", "reason": "r".repeat(501) }), 400),
        (json!({ "player": mia_id, "kind": "engine", "reason": "r" }), 400),
        (json!({ "player": "abcdefghijkl", "kind": "engine", "reason": "r" }), 404),
        (json!({ "player": bob_id, "kind": "engine" }), 400),
    ];
    for (body, status) in sanctions {
        assert_eq!(mia.post("/api/mod/sanctions", &body).await.status(), status, "{body}");
    }
    assert_eq!(profile(&app, "bob").await["label"], Value::Null);
    let lift = json!({ "reason": "r" });
    assert_eq!(mia.post("/api/mod/sanctions/nosuchid0000/lift", &lift).await.status(), 404);
    assert_eq!(mia.get("/api/mod/log?before=soon").await.status(), 400);
    let log: Value = mia.get("/api/mod/log").await.json().await.unwrap();
    let actions: Vec<&str> =
        log["entries"].as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["moderator_added"]);
}

#[actix_web::test]
async fn an_invitation_link_does_not_seat_a_player_its_host_blocked() {
    let Some(app) = app().await else { return };
    let ann = named_account(&app, "ann-sub", "Ann").await;
    let bob = named_account(&app, "bob-sub", "Bob").await;
    assert_eq!(ann.post("/api/blocks", &json!({ "name": "Bob" })).await.status(), 201);
    let room: Value = ann.post("/api/rooms", &json!({})).await.json().await.unwrap();
    let code = room["code"].as_str().unwrap();
    let (status, refused) =
        json_of(bob.post(&format!("/api/rooms/{code}/join"), &json!({})).await).await;
    assert_eq!(
        (status, refused["error"]["code"].as_str(), refused["error"]["message"].as_str()),
        (403, Some("room_declined"), Some("this invitation was declined"))
    );
    let room: Value = ann.get(&format!("/api/rooms/{code}")).await.json().await.unwrap();
    assert_eq!(room["guest"], Value::Null, "nothing changed");
}

#[actix_web::test]
async fn a_reporter_is_notified_at_once_when_their_report_is_acted_on() {
    let Some(app) = app().await else { return };
    let ann = named_account(&app, "ann-sub", "Ann").await;
    named_account(&app, "bob-sub", "Bob").await;
    let mut ann_socket = ann.me_socket().await;
    ann_socket.expect("hello").await;
    let report = json!({ "name": "Bob", "reason": "name", "details": "an insult" });
    let (status, filed) = json_of(ann.post("/api/reports", &report).await).await;
    assert_eq!(status, 201, "{filed}");
    let mia = moderator(&app).await;
    let bob_id = profile(&app, "bob").await["id"].as_str().unwrap().to_owned();
    let sanction = json!({ "player": bob_id, "kind": "name", "reason": "an insult" });
    assert_eq!(mia.post("/api/mod/sanctions", &sanction).await.status(), 201);
    let told = ann_socket.expect("notification").await;
    assert_eq!(told["unread"], 1);
    assert_eq!(told["notification"]["kind"], "report_acted_on");
    assert_eq!(told["notification"]["data"], json!({ "report": filed["id"], "target": "Bob" }));
}
