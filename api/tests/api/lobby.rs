//! `GET /api/lobby` and `GET /api/stats`: counts that agree with each other, the live games to
//! watch and the latest results, and the matchmaking wait the home page shows.

use serde_json::{Value, json};

use crate::helpers::{Socket, User, spawn_app, spawn_app_with};

/// Pairs `ann` and `bob` in the quick queue; returns the game's id.
async fn paired(ann: &User, bob: &User) -> String {
    let mut ann_queue = ann.queue().await;
    let mut bob_queue = bob.queue().await;
    ann_queue.send(json!({ "type": "seek", "queue": "quick" })).await;
    ann_queue.expect("searching").await;
    bob_queue.send(json!({ "type": "seek", "queue": "quick" })).await;
    let game = ann_queue.until("paired").await["game_id"].as_str().unwrap().to_owned();
    assert_eq!(bob_queue.until("paired").await["game_id"], game.as_str());
    game
}

/// The counts of `answer` as one value, to compare `/api/stats` with `/api/lobby`.
fn counts(answer: &Value) -> Value {
    json!({
        "online": answer["online"],
        "waiting": answer["waiting"],
        "games_in_progress": answer["games_in_progress"],
    })
}

#[actix_web::test]
async fn a_player_in_a_game_in_progress_counts_as_online_even_with_the_page_closed() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    // A game against the computer, started and never opened: no socket anywhere.
    ann.create_game(json!({ "mode": "computer", "level": 1, "color": "black" })).await;
    let stats: Value = app.get("/api/stats").await.json().await.unwrap();
    assert_eq!(counts(&stats), json!({ "online": 1, "waiting": 0, "games_in_progress": 1 }));
    // A second game of hers is a second game, not a second player.
    ann.create_game(json!({ "mode": "same_device" })).await;
    let stats: Value = app.get("/api/stats").await.json().await.unwrap();
    assert_eq!(counts(&stats), json!({ "online": 1, "waiting": 0, "games_in_progress": 2 }));
}

#[actix_web::test]
async fn a_seeker_counts_as_waiting_and_online() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let mut queue: Socket = ann.queue().await;
    queue.send(json!({ "type": "seek", "queue": "quick" })).await;
    queue.expect("searching").await;
    let lobby: Value = app.get("/api/lobby").await.json().await.unwrap();
    assert_eq!(counts(&lobby), json!({ "online": 1, "waiting": 1, "games_in_progress": 0 }));
    assert_eq!(lobby["live_games"], json!([]));
    assert_eq!(lobby["recent_results"], json!([]));
}

#[actix_web::test]
async fn stats_give_the_servers_wait_before_the_computer_steps_in() {
    let app = spawn_app_with(|settings| settings.computer_after_ms = 4_321).await;
    let stats: Value = app.get("/api/stats").await.json().await.unwrap();
    assert_eq!(stats["computer_after_ms"], 4_321);
    let default = spawn_app().await;
    let stats: Value = default.get("/api/stats").await.json().await.unwrap();
    assert_eq!(stats["computer_after_ms"], 15_000);
}

#[actix_web::test]
async fn the_lobby_lists_a_live_quick_game_to_watch_then_its_result() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let bob = app.user("Bob").await;
    let id = paired(&ann, &bob).await;
    let (mut ann_game, view) = ann.join(&id).await;
    let ann_colour = view["you"].as_str().unwrap().to_owned();
    let (bob_colour, ann_name, bob_name) =
        if ann_colour == "black" { ("white", "Ann", "Bob") } else { ("black", "Bob", "Ann") };

    let lobby: Value = app.get("/api/lobby").await.json().await.unwrap();
    let stats: Value = app.get("/api/stats").await.json().await.unwrap();
    assert_eq!(counts(&lobby), json!({ "online": 2, "waiting": 0, "games_in_progress": 1 }));
    assert_eq!(counts(&stats), counts(&lobby));
    let live = lobby["live_games"].as_array().unwrap();
    assert_eq!(live.len(), 1);
    let guest = |name: &str| json!({ "name": name, "computer": false, "rating": null, "provisional": false });
    assert_eq!(live[0]["id"], id.as_str());
    assert_eq!(live[0]["url"], format!("/game/{id}"));
    assert_eq!(live[0]["mode"], "quick");
    assert_eq!(live[0]["control"], view["control"]);
    assert!(view["control"].is_string(), "a quick game has a clock: {view}");
    assert_eq!(live[0]["plies"], 0);
    assert_eq!(live[0]["black"], guest(ann_name));
    assert_eq!(live[0]["white"], guest(bob_name));
    // The link works for anyone: a spectator without a session watches the game.
    let (_, watched) = app.stranger().join(&id).await;
    assert_eq!(watched["you"], "spectator");

    ann_game.send(json!({ "type": "resign" })).await;
    ann_game.until("ended").await;
    let lobby: Value = app.get("/api/lobby").await.json().await.unwrap();
    assert_eq!(lobby["live_games"], json!([]));
    assert_eq!(lobby["games_in_progress"], 0);
    let results = lobby["recent_results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["id"], id.as_str());
    assert_eq!(results[0]["url"], format!("/replay/{id}"));
    assert_eq!(results[0]["winner"], bob_colour);
    assert_eq!(results[0]["reason"], "resignation");
    assert_eq!(results[0]["control"], view["control"]);
    assert_eq!(results[0]["counts"], json!({ "black": 2, "white": 2 }));
    assert!(results[0]["finished_at"].is_i64());
}

#[actix_web::test]
async fn games_between_friends_and_against_the_computer_are_not_listed() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    ann.create_game(json!({ "mode": "computer", "level": 1, "color": "black" })).await;
    let lobby: Value = app.get("/api/lobby").await.json().await.unwrap();
    assert_eq!(lobby["games_in_progress"], 1);
    assert_eq!(lobby["live_games"], json!([]));
}

/// The JSON examples of `docs/protocol.md`'s "Stats and the lobby" section.
fn documented_examples() -> Vec<Value> {
    let doc = include_str!("../../../docs/protocol.md");
    let section = doc.split("\n## Stats and the lobby\n").nth(1).expect("the section");
    let section = section.split("\n## ").next().unwrap();
    section
        .split("```json\n")
        .skip(1)
        .map(|block| serde_json::from_str(block.split("```").next().unwrap()).unwrap())
        .collect()
}

/// The keys of `value`, nested, with one element standing for each array: what a client reads.
fn shape(value: &Value) -> Value {
    match value {
        Value::Object(map) => map.iter().map(|(key, value)| (key.clone(), shape(value))).collect(),
        Value::Array(items) => items.first().map_or(json!([]), |first| json!([shape(first)])),
        _ => Value::Null,
    }
}

#[actix_web::test]
async fn the_documented_examples_have_the_fields_the_server_sends() {
    let app = spawn_app().await;
    let (ann, bob) = (app.user("Ann").await, app.user("Bob").await);
    let (cat, dan) = (app.user("Cat").await, app.user("Dan").await);
    let finished = paired(&cat, &dan).await;
    let (mut cat_game, _) = cat.join(&finished).await;
    cat_game.send(json!({ "type": "resign" })).await;
    cat_game.until("ended").await;
    paired(&ann, &bob).await;
    // Someone waiting, for the seeks.
    let eve = app.user("Eve").await;
    let mut eve_queue = eve.queue().await;
    eve_queue.send(json!({ "type": "seek", "queue": "quick" })).await;
    eve_queue.expect("searching").await;

    let [stats, lobby] = documented_examples().try_into().expect("two examples");
    let real_stats: Value = app.get("/api/stats").await.json().await.unwrap();
    let real_lobby: Value = app.get("/api/lobby").await.json().await.unwrap();
    assert_eq!(shape(&stats), shape(&real_stats));
    assert_eq!(shape(&lobby), shape(&real_lobby));
}

/// Reads the lobby socket's pushes until one's lobby passes `wanted`; returns that lobby.
async fn pushed_until(socket: &mut Socket, wanted: impl Fn(&Value) -> bool) -> Value {
    loop {
        let push = socket.until("lobby").await;
        if wanted(&push["lobby"]) {
            return push["lobby"].clone();
        }
    }
}

#[actix_web::test]
async fn the_lobby_socket_pushes_seeks_and_live_boards_as_they_change() {
    let app = spawn_app().await;
    let mut lobby = app.stranger().lobby().await;
    let first = lobby.until("lobby").await;
    assert_eq!(first["lobby"]["seeks"], json!([]));
    assert_eq!(counts(&first["lobby"])["waiting"], 0);

    // A seek shows with who waits and where; the counts agree with it.
    let ann = app.user("Ann").await;
    let mut ann_queue = ann.queue().await;
    ann_queue.send(json!({ "type": "seek", "queue": "quick" })).await;
    ann_queue.expect("searching").await;
    let seeking =
        pushed_until(&mut lobby, |lobby| lobby["seeks"].as_array().is_some_and(|s| !s.is_empty()))
            .await;
    let seek = &seeking["seeks"][0];
    assert_eq!(
        (&seek["queue"], &seek["name"], &seek["rating"]),
        (&json!("quick"), &json!("Ann"), &Value::Null)
    );
    assert_eq!(seek["pools"][0], "30s");
    assert_eq!(seeking["waiting"], 1);
    assert_eq!(
        seeking["online_players"],
        json!([{ "name": "Ann", "account": false, "status": "waiting" }])
    );

    // Bob takes it: the seek goes, the game comes with its board, and a move changes the board.
    let bob = app.user("Bob").await;
    let mut bob_queue = bob.queue().await;
    bob_queue.send(json!({ "type": "seek", "queue": "quick" })).await;
    let game = ann_queue.until("paired").await["game_id"].as_str().unwrap().to_owned();
    bob_queue.until("paired").await;
    let playing = pushed_until(&mut lobby, |lobby| {
        lobby["live_games"].as_array().is_some_and(|g| !g.is_empty())
    })
    .await;
    assert_eq!(playing["seeks"], json!([]));
    assert_eq!(playing["live_games"][0]["id"], game.as_str());
    let start = "---------------------------OX------XO---------------------------";
    assert_eq!(playing["live_games"][0]["board"], start);

    let (mut ann_game, snapshot) = ann.join(&game).await;
    let (mut bob_game, _) = bob.join(&game).await;
    let (black, other) = if snapshot["you"] == "black" {
        (&mut ann_game, &mut bob_game)
    } else {
        (&mut bob_game, &mut ann_game)
    };
    black.play("d3").await;
    other.expect("moved").await;
    let moved = pushed_until(&mut lobby, |lobby| lobby["live_games"][0]["plies"] == 1).await;
    assert_eq!(
        moved["live_games"][0]["board"],
        "-------------------X-------XX------XO---------------------------"
    );
}

#[actix_web::test]
async fn the_lobby_socket_answers_a_ping_and_refuses_anything_else() {
    let app = spawn_app().await;
    let mut lobby = app.stranger().lobby().await;
    lobby.send(json!({ "type": "ping" })).await;
    lobby.until("pong").await;
    lobby.send(json!({ "type": "seek", "queue": "quick" })).await;
    assert_eq!(lobby.until("error").await["code"], "bad_message");
}
