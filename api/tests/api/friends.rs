//! Friend games by link: rooms, whole games, clocks, spectators, rematch, restart.

use serde_json::{Value, json};

use outflank_api::ws::protocol::{ResultMsg, ServerMsg};

use crate::helpers::{Socket, TestApp, User, legal_squares, spawn_app, spawn_app_with_clock};

/// Ann creates a room and Bob joins it: both, the room's API path and its first game's id.
async fn joined_room(app: &TestApp) -> (User, User, String, String) {
    let ann = app.user("Ann").await;
    let bob = app.user("Bob").await;
    let room: Value = ann.post("/api/rooms", &json!({})).await.json().await.unwrap();
    let path = format!("/api/rooms/{}", room["code"].as_str().unwrap());
    let joined = bob.post(&format!("{path}/join"), &json!({})).await;
    assert_eq!(joined.status(), 200);
    let joined: Value = joined.json().await.unwrap();
    (ann, bob, path, joined["game_id"].as_str().unwrap().to_owned())
}

/// Ann creates a room, Bob joins; returns both with their sockets (black first) and the game id.
async fn friend_game(app: &TestApp) -> (User, Socket, User, Socket, String, Value) {
    let (ann, bob, _, id) = joined_room(app).await;
    seated(ann, bob, id).await
}

/// Ann and Bob on game `id` with their sockets, black first, the game's id and the black
/// player's first view.
async fn seated(ann: User, bob: User, id: String) -> (User, Socket, User, Socket, String, Value) {
    let (ann_socket, ann_view) = ann.join(&id).await;
    let (bob_socket, bob_view) = bob.join(&id).await;
    if ann_view["you"] == "black" {
        (ann, ann_socket, bob, bob_socket, id, ann_view)
    } else {
        (bob, bob_socket, ann, ann_socket, id, bob_view)
    }
}

#[actix_web::test]
async fn a_room_link_expires_after_24_hours_and_unknown_links_are_not_found() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let room: Value = ann.post("/api/rooms", &json!({})).await.json().await.unwrap();
    let code = room["code"].as_str().unwrap();
    assert!(room["link"].as_str().unwrap().ends_with(&format!("/join/{code}")));
    let created_to_expiry = room["expires_at"].as_i64().unwrap() - chrono_now_ms();
    assert!((24 * 3600 * 1000 - 5_000..=24 * 3600 * 1000).contains(&created_to_expiry));
    let missing = app.get("/api/rooms/abcdefgh").await;
    assert_eq!(missing.status(), 404);
}

fn chrono_now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64
}

#[actix_web::test]
async fn a_second_friend_cannot_take_the_seat_and_the_first_can_rejoin() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let bob = app.user("Bob").await;
    let eve = app.user("Eve").await;
    let room: Value = ann.post("/api/rooms", &json!({})).await.json().await.unwrap();
    let join = format!("/api/rooms/{}/join", room["code"].as_str().unwrap());
    let first: Value = bob.post(&join, &json!({})).await.json().await.unwrap();
    let again: Value = bob.post(&join, &json!({})).await.json().await.unwrap();
    assert_eq!(again["game_id"], first["game_id"]);
    assert_eq!(again["games_played"], 1);
    let taken = eve.post(&join, &json!({})).await;
    assert_eq!(taken.status(), 409);
    let body: Value = taken.json().await.unwrap();
    assert_eq!(body["error"]["code"], "room_taken");
    let own = ann.post(&join, &json!({})).await;
    assert_eq!(own.status(), 409);
}

#[actix_web::test]
async fn concurrent_joins_by_the_same_friend_start_one_game() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let bob = app.user("Bob").await;
    let room: Value = ann.post("/api/rooms", &json!({})).await.json().await.unwrap();
    let join = format!("/api/rooms/{}/join", room["code"].as_str().unwrap());
    let empty = json!({});
    let (first, second) = tokio::join!(bob.post(&join, &empty), bob.post(&join, &empty));
    let statuses = [first.status(), second.status()];
    let first: Value = first.json().await.unwrap();
    let second: Value = second.json().await.unwrap();
    assert_eq!(statuses, [200, 200]);
    let room: Value = ann
        .get(&format!("/api/rooms/{}", room["code"].as_str().unwrap()))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(room["games_played"], 1);
    assert!(first["game_id"] == room["game_id"] || second["game_id"] == room["game_id"]);
}

#[actix_web::test]
async fn a_whole_friend_game_is_played_to_its_end_and_stored() {
    let app = spawn_app().await;
    let (black, mut black_socket, _white, mut white_socket, id, mut position) =
        friend_game(&app).await;
    let ended = loop {
        let mover =
            if position["to_move"] == "black" { &mut black_socket } else { &mut white_socket };
        if let Some(square) = legal_squares(&position).first() {
            // At a human pace: well under the per-socket message limit.
            tokio::time::sleep(std::time::Duration::from_millis(60)).await;
            mover.send(json!({ "type": "move", "square": square })).await;
        }
        let msg = black_socket.next().await.unwrap();
        let echoed = white_socket.next().await.unwrap();
        assert_eq!(msg, echoed, "both players see the same events");
        match msg["type"].as_str() {
            Some("moved") => position = msg,
            Some("ended") => break msg,
            other => panic!("unexpected {other:?}"),
        }
    };
    let game: Value = black.get(&format!("/api/games/{id}")).await.json().await.unwrap();
    assert_eq!(game["status"], "finished");
    assert_eq!(game["mode"], "friend");
    assert_eq!(game["result"]["winner"], ended["result"]["winner"]);
    assert_eq!(game["result"]["black"], ended["counts"]["black"]);
}

#[actix_web::test]
async fn moves_out_of_turn_and_illegal_moves_are_refused_and_change_nothing() {
    let app = spawn_app().await;
    let (_black, mut black_socket, _white, mut white_socket, _id, start) = friend_game(&app).await;
    white_socket.send(json!({ "type": "move", "square": "d3" })).await;
    let error = white_socket.expect("error").await;
    assert_eq!(error["code"], "not_your_turn");
    black_socket.send(json!({ "type": "move", "square": "a1" })).await;
    let error = black_socket.expect("error").await;
    assert_eq!(error["code"], "illegal_move");
    let moved = black_socket.play("d3").await;
    assert_eq!(moved["version"].as_u64().unwrap(), start["version"].as_u64().unwrap() + 1);
}

#[actix_web::test]
async fn a_spectator_sees_moves_and_cannot_play() {
    let app = spawn_app().await;
    let (_black, mut black_socket, _white, _white_socket, id, _) = friend_game(&app).await;
    let stranger = app.stranger();
    let (mut watching, snapshot) = stranger.join(&id).await;
    assert_eq!(snapshot["you"], "spectator");
    black_socket.play("d3").await;
    let seen = watching.expect("moved").await;
    assert_eq!(seen["last_move"]["square"], "d3");
    watching.send(json!({ "type": "move", "square": "c3" })).await;
    assert_eq!(watching.expect("error").await["code"], "not_a_player");
}

#[actix_web::test]
async fn resigning_ends_the_game_with_the_opponent_winning() {
    let app = spawn_app().await;
    let (_black, mut black_socket, _white, mut white_socket, _id, _) = friend_game(&app).await;
    black_socket.play("d3").await;
    white_socket.expect("moved").await;
    white_socket.send(json!({ "type": "resign" })).await;
    let ended = white_socket.expect("ended").await;
    assert_eq!(ended["result"]["winner"], "black");
    assert_eq!(ended["result"]["reason"], "resignation");
}

#[actix_web::test]
async fn a_draw_offer_can_be_accepted() {
    let app = spawn_app().await;
    let (_black, mut black_socket, _white, mut white_socket, _id, _) = friend_game(&app).await;
    black_socket.send(json!({ "type": "offer_draw" })).await;
    assert_eq!(white_socket.expect("draw_offered").await["by"], "black");
    white_socket.send(json!({ "type": "accept_draw" })).await;
    let ended = black_socket.until("ended").await;
    assert_eq!(ended["result"]["winner"], "draw");
    assert_eq!(ended["result"]["reason"], "agreed_draw");
}

#[actix_web::test]
async fn a_draw_offer_can_be_declined_and_the_game_goes_on() {
    let app = spawn_app().await;
    let (_black, mut black_socket, _white, mut white_socket, _id, _) = friend_game(&app).await;
    black_socket.send(json!({ "type": "offer_draw" })).await;
    white_socket.expect("draw_offered").await;
    white_socket.send(json!({ "type": "decline_draw" })).await;
    assert_eq!(black_socket.until("draw_declined").await["by"], "white");
    let moved = black_socket.play("d3").await;
    assert_eq!(moved["last_move"]["square"], "d3");
}

#[actix_web::test]
async fn a_move_declines_a_pending_draw_offer() {
    let app = spawn_app().await;
    let (_black, mut black_socket, _white, mut white_socket, _id, _) = friend_game(&app).await;
    black_socket.play("d3").await;
    white_socket.expect("moved").await;
    black_socket.send(json!({ "type": "offer_draw" })).await;
    white_socket.expect("draw_offered").await;
    white_socket.send(json!({ "type": "move", "square": "c3" })).await;
    assert_eq!(white_socket.expect("draw_declined").await["by"], "white");
}

#[actix_web::test]
async fn a_rematch_needs_both_and_swaps_colours() {
    let app = spawn_app().await;
    let (black, mut black_socket, white, mut white_socket, _id, _) = friend_game(&app).await;
    black_socket.send(json!({ "type": "resign" })).await;
    black_socket.expect("ended").await;
    white_socket.expect("ended").await;
    black_socket.send(json!({ "type": "rematch" })).await;
    white_socket.expect("rematch_asked").await;
    white_socket.send(json!({ "type": "rematch" })).await;
    let started = white_socket.until("rematch_started").await;
    let next = started["game_id"].as_str().unwrap();
    let (_, black_view) = black.join(next).await;
    let (_, white_view) = white.join(next).await;
    assert_eq!(black_view["you"], "white");
    assert_eq!(white_view["you"], "black");
}

/// Ann resigns game `id` and both ask for a rematch: the `rematch_started` message.
async fn resigned_and_rematched(ann: &User, bob: &User, id: &str) -> Value {
    let (mut ann_socket, _) = ann.join(id).await;
    let (mut bob_socket, _) = bob.join(id).await;
    ann_socket.send(json!({ "type": "resign" })).await;
    bob_socket.until("ended").await;
    ann_socket.send(json!({ "type": "rematch" })).await;
    bob_socket.until("rematch_asked").await;
    bob_socket.send(json!({ "type": "rematch" })).await;
    ann_socket.until("rematch_started").await
}

#[actix_web::test]
async fn a_rematch_becomes_the_rooms_game_and_is_counted() {
    let app = spawn_app().await;
    let (ann, bob, room_path, id) = joined_room(&app).await;
    let started = resigned_and_rematched(&ann, &bob, &id).await;
    let room: Value = ann.get(&room_path).await.json().await.unwrap();
    assert_eq!((&room["game_id"], &room["games_played"]), (&started["game_id"], &json!(2)));
}

#[actix_web::test]
async fn a_finished_game_restored_after_a_restart_keeps_its_rematch() {
    let mut app = spawn_app().await;
    let (mut ann, mut bob, _, id) = joined_room(&app).await;
    let started = resigned_and_rematched(&ann, &bob, &id).await;
    app.restart().await;
    ann.reconnect_to(&app);
    bob.reconnect_to(&app);
    let (mut ann_socket, view) = ann.join(&id).await;
    assert_eq!(view["rematch"]["game_id"], started["game_id"], "{view}");
    ann_socket.send(json!({ "type": "rematch" })).await;
    assert_eq!(ann_socket.until("error").await["code"], "rematch_already_started");
}

/// The result of an `ended` message.
fn ended_result(msg: Option<ServerMsg>) -> ResultMsg {
    match msg {
        Some(ServerMsg::Ended { result, .. }) => result,
        other => panic!("expected ended, got {other:?}"),
    }
}

#[actix_web::test]
async fn running_out_of_time_after_the_first_moves_loses() {
    let app = spawn_app_with_clock().await;
    let (_black, mut black_socket, _white, mut white_socket, _id, _) = friend_game(&app).await;
    black_socket.play("d3").await;
    white_socket.expect("moved").await;
    white_socket.play("c3").await;
    black_socket.expect("moved").await;
    // 30 s and the 500-ms allowance pass on the server's clock without Black moving.
    app.advance(30_500);
    let result = ended_result(black_socket.next_msg().await);
    assert_eq!((result.reason.as_str(), result.winner.as_deref()), ("timeout", Some("white")));
}

#[actix_web::test]
async fn a_move_in_time_keeps_the_game_going() {
    let app = spawn_app_with_clock().await;
    let (_black, mut black_socket, _white, mut white_socket, _id, _) = friend_game(&app).await;
    app.advance(29_000);
    black_socket.play("d3").await;
    white_socket.expect("moved").await;
    app.advance(29_000);
    white_socket.play("c3").await;
    let Some(ServerMsg::Moved { clocks: Some(clocks), .. }) = black_socket.next_msg().await else {
        panic!("expected Black's turn with its clock running");
    };
    assert_eq!(clocks.black_ms, 30_000);
}

#[actix_web::test]
async fn the_clock_runs_on_while_a_player_is_disconnected() {
    let app = spawn_app_with_clock().await;
    let (_black, mut black_socket, _white, mut white_socket, _id, _) = friend_game(&app).await;
    black_socket.play("d3").await;
    white_socket.expect("moved").await;
    white_socket.play("c3").await;
    drop(black_socket);
    app.advance(30_500);
    let result = ended_result(white_socket.next_msg().await);
    assert_eq!((result.reason.as_str(), result.winner.as_deref()), ("timeout", Some("white")));
}

#[actix_web::test]
async fn a_first_move_never_made_aborts_the_game() {
    let app = spawn_app_with_clock().await;
    let (black, mut black_socket, _white, _white_socket, id, _) = friend_game(&app).await;
    app.advance(30_500);
    let result = ended_result(black_socket.next_msg().await);
    assert_eq!((result.reason.as_str(), result.winner), ("aborted", None));
    let game: Value = black.get(&format!("/api/games/{id}")).await.json().await.unwrap();
    assert_eq!(game["status"], "aborted");
}

#[actix_web::test]
async fn reconnecting_resumes_the_game_exactly() {
    let app = spawn_app().await;
    let (black, mut black_socket, _white, mut white_socket, id, _) = friend_game(&app).await;
    black_socket.play("d3").await;
    white_socket.expect("moved").await;
    drop(black_socket);
    let (_, again) = black.join(&id).await;
    let (_, white_again) = _white.join(&id).await;
    assert_eq!(again["board"], white_again["board"]);
    assert_eq!(again["moves"].as_array().unwrap().len(), 1);
    assert_eq!(again["you"], "black");
}

#[actix_web::test]
async fn a_client_resuming_from_a_version_gets_only_what_it_missed() {
    let app = spawn_app().await;
    let (black, mut black_socket, _white, mut white_socket, id, start) = friend_game(&app).await;
    black_socket.play("d3").await;
    white_socket.expect("moved").await;
    let mut socket = black.connect(&id).await;
    socket.send(json!({ "type": "join", "game_id": id, "since": start["version"] })).await;
    let missed = socket.expect("moved").await;
    assert_eq!(missed["last_move"]["square"], "d3");
}

#[actix_web::test]
async fn a_friend_game_survives_a_server_restart() {
    let mut app = spawn_app().await;
    let (mut black, mut black_socket, mut white, mut white_socket, id, _) = friend_game(&app).await;
    black_socket.play("d3").await;
    white_socket.expect("moved").await;
    app.restart().await;
    assert_eq!(black_socket.until("error").await["code"], "shutting_down");
    black.reconnect_to(&app);
    white.reconnect_to(&app);
    let (_, view) = black.join(&id).await;
    assert_eq!(view["moves"].as_array().unwrap().len(), 1);
    assert_eq!(view["to_move"], "white");
    assert!(view["clocks"]["white_ms"].as_i64().unwrap() > 25_000, "{view}");
    let (mut white_socket, _) = white.join(&id).await;
    let moved = white_socket.play("c3").await;
    assert_eq!(moved["last_move"]["square"], "c3");
}

#[actix_web::test]
async fn players_see_when_their_opponent_disconnects_and_returns() {
    let app = spawn_app().await;
    let (_black, mut black_socket, white, white_socket, id, _) = friend_game(&app).await;
    black_socket.presence_becomes(true, true).await;
    drop(white_socket);
    black_socket.presence_becomes(true, false).await;
    let (_again, _) = white.join(&id).await;
    black_socket.presence_becomes(true, true).await;
}

/// The status of game `id` as `user` reads it once a restarted server had time to sweep.
async fn status_after_restart(app: &mut TestApp, user: &mut User, id: &str, wanted: &str) -> Value {
    app.restart().await;
    user.reconnect_to(app);
    let mut status = Value::Null;
    for _ in 0..40 {
        let game: Value = user.get(&format!("/api/games/{id}")).await.json().await.unwrap();
        status = game["status"].clone();
        if status == wanted {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    status
}

#[actix_web::test]
async fn a_game_without_a_clock_left_for_thirty_days_is_aborted() {
    let mut app = spawn_app_with_clock().await;
    let mut ann = app.user("Ann").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    let (mut socket, _) = ann.join(&id).await;
    socket.play("d3").await;
    drop(socket);
    app.advance(31 * 24 * 3600 * 1000);
    assert_eq!(status_after_restart(&mut app, &mut ann, &id, "aborted").await, "aborted");
}

#[actix_web::test]
async fn a_game_without_a_clock_left_for_a_day_stays_live() {
    let mut app = spawn_app_with_clock().await;
    let mut ann = app.user("Ann").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    app.advance(24 * 3600 * 1000);
    assert_eq!(status_after_restart(&mut app, &mut ann, &id, "aborted").await, "live");
}

/// Ann's room timed by `control` and Bob's joining it: both with their sockets (black first),
/// the game's id and the black player's first view.
async fn timed_friend_game(
    app: &TestApp,
    control: &str,
) -> (User, Socket, User, Socket, String, Value) {
    let ann = app.user("Ann").await;
    let bob = app.user("Bob").await;
    let created = ann.post("/api/rooms", &json!({ "control": control })).await;
    assert_eq!(created.status(), 201);
    let room: Value = created.json().await.unwrap();
    assert_eq!(room["control"], control);
    let join = format!("/api/rooms/{}/join", room["code"].as_str().unwrap());
    let joined: Value = bob.post(&join, &json!({})).await.json().await.unwrap();
    let id = joined["game_id"].as_str().unwrap().to_owned();
    seated(ann, bob, id).await
}

#[actix_web::test]
async fn a_room_timed_three_plus_two_gives_each_side_three_minutes_and_two_seconds_a_move() {
    let app = spawn_app_with_clock().await;
    let (_black, mut black_socket, _white, mut white_socket, _, view) =
        timed_friend_game(&app, "3+2").await;
    assert_eq!((&view["control"], &view["move_time_ms"]), (&json!("3+2"), &Value::Null));
    assert_eq!(
        view["clocks"],
        json!({ "black_ms": 180_000, "white_ms": 180_000, "running": "black" })
    );
    app.advance(10_000);
    let moved = black_socket.play("d3").await;
    assert_eq!(
        moved["clocks"],
        json!({ "black_ms": 172_000, "white_ms": 180_000, "running": "white" })
    );
    white_socket.expect("moved").await;
    app.advance(4_000);
    let moved = white_socket.play("c3").await;
    assert_eq!(
        moved["clocks"],
        json!({ "black_ms": 172_000, "white_ms": 178_000, "running": "black" })
    );
}

#[actix_web::test]
async fn a_side_under_a_per_game_control_loses_once_its_whole_time_is_spent() {
    let app = spawn_app_with_clock().await;
    let (_black, mut black_socket, _white, mut white_socket, _, _) =
        timed_friend_game(&app, "1+0").await;
    black_socket.play("d3").await;
    white_socket.expect("moved").await;
    white_socket.play("c3").await;
    black_socket.expect("moved").await;
    // Thirty seconds a move would have flagged Black long before; a minute a game does not.
    app.advance(45_000);
    black_socket.play("b3").await;
    app.advance(60_500);
    let result = ended_result(black_socket.next_msg().await);
    assert_eq!((result.reason.as_str(), result.winner.as_deref()), ("timeout", Some("black")));
}

#[actix_web::test]
async fn a_rematch_keeps_the_rooms_control() {
    let app = spawn_app_with_clock().await;
    let (black, mut black_socket, white, mut white_socket, _, _) =
        timed_friend_game(&app, "10+5").await;
    black_socket.send(json!({ "type": "resign" })).await;
    white_socket.until("ended").await;
    black_socket.send(json!({ "type": "rematch" })).await;
    white_socket.until("rematch_asked").await;
    white_socket.send(json!({ "type": "rematch" })).await;
    let started = black_socket.until("rematch_started").await;
    let next = started["game_id"].as_str().unwrap();
    let (_, view) = white.join(next).await;
    assert_eq!(view["control"], "10+5");
    assert_eq!(view["clocks"]["black_ms"], 600_000);
    let game: Value = black.get(&format!("/api/games/{next}")).await.json().await.unwrap();
    assert_eq!(game["control"], "10+5");
}

#[actix_web::test]
async fn a_per_game_clock_restored_after_a_restart_stands_where_the_moves_left_it() {
    let mut app = spawn_app_with_clock().await;
    let (mut black, mut black_socket, mut white, mut white_socket, id, _) =
        timed_friend_game(&app, "5+3").await;
    app.advance(20_000);
    black_socket.play("d3").await;
    white_socket.expect("moved").await;
    app.advance(7_000);
    app.restart().await;
    black.reconnect_to(&app);
    white.reconnect_to(&app);
    let (_, view) = white.join(&id).await;
    // Black spent 20 s and got 3 back; White has been thinking for 7 s, restart or not.
    assert_eq!(
        view["clocks"],
        json!({ "black_ms": 283_000, "white_ms": 293_000, "running": "white" })
    );
}

#[actix_web::test]
async fn a_room_with_a_control_not_offered_or_unreadable_is_refused_and_not_made() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    for control in ["4+2", "fast", "0s", "8d"] {
        let refused = ann.post("/api/rooms", &json!({ "control": control })).await;
        assert_eq!(refused.status(), 422, "{control}");
        let body: Value = refused.json().await.unwrap();
        assert_eq!(body["error"]["code"], "bad_time_control");
        let message = body["error"]["message"].as_str().unwrap();
        assert!(message.contains("3+2") && message.contains("2d"), "{message}");
    }
    let unknown = ann.post("/api/rooms", &json!({ "clock": "3+2" })).await;
    assert_eq!(unknown.status(), 400);
}

#[actix_web::test]
async fn a_room_asked_for_xot_starts_each_game_from_an_opening_its_rematch_keeps() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let bob = app.user("Bob").await;
    let created = ann.post("/api/rooms", &json!({ "control": "3+2", "xot": true })).await;
    assert_eq!(created.status(), 201);
    let room: Value = created.json().await.unwrap();
    assert_eq!((&room["control"], &room["xot"]), (&json!("3+2"), &json!(true)));
    let join = format!("/api/rooms/{}/join", room["code"].as_str().unwrap());
    let joined: Value = bob.post(&join, &json!({})).await.json().await.unwrap();
    let id = joined["game_id"].as_str().unwrap().to_owned();
    let (_, view) = ann.join(&id).await;
    assert!(view["opening"].is_string(), "{view}");
    assert_eq!(view["moves"].as_array().unwrap().len(), 8);
    assert_eq!(view["control"], "3+2");
    assert_eq!(view["to_move"], "black");

    let started = resigned_and_rematched(&ann, &bob, &id).await;
    let (_, next) = ann.join(started["game_id"].as_str().unwrap()).await;
    assert_eq!((&next["opening"], &next["moves"]), (&view["opening"], &view["moves"]));
    assert_ne!(next["you"], view["you"], "colours swapped");
}

#[actix_web::test]
async fn a_room_is_from_the_standard_start_unless_asked_and_xot_must_be_true_or_false() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let room: Value = ann.post("/api/rooms", &json!({})).await.json().await.unwrap();
    assert_eq!(room["xot"], false);
    let refused = ann.post("/api/rooms", &json!({ "xot": "yes" })).await;
    assert_eq!(refused.status(), 400);
}

#[actix_web::test]
async fn my_games_list_the_live_ones_mine_to_move_first_with_a_daily_deadline() {
    let app = spawn_app_with_clock().await;
    let (black, mut black_socket, white, mut white_socket, id, view) =
        timed_friend_game(&app, "2d").await;
    assert_eq!(view["control"], "2d");
    let mine = listed(&black).await;
    assert_eq!(mine.len(), 1);
    assert_eq!(mine[0]["id"], id.as_str());
    assert_eq!(mine[0]["url"], format!("/game/{id}"));
    assert_eq!((&mine[0]["mode"], &mine[0]["control"]), (&json!("friend"), &json!("2d")));
    assert_eq!((&mine[0]["you"], &mine[0]["your_turn"]), (&json!("black"), &json!(true)));
    assert_eq!(mine[0]["opponent"], view["players"]["white"]["name"]);
    assert_eq!(mine[0]["xot"], false);
    let deadline = mine[0]["deadline"].as_i64().expect("a daily deadline");
    assert_eq!(listed(&white).await[0]["your_turn"], false);

    // After Black's move it is White's turn, with a fresh two days.
    app.advance(60_000);
    black_socket.play("d3").await;
    white_socket.expect("moved").await;
    assert_eq!(listed(&black).await[0]["your_turn"], false);
    let theirs = listed(&white).await;
    assert_eq!(theirs[0]["your_turn"], true);
    assert_eq!(theirs[0]["deadline"].as_i64().unwrap(), deadline + 60_000);

    // Over, it is listed no more.
    white_socket.send(json!({ "type": "resign" })).await;
    black_socket.until("ended").await;
    assert_eq!(listed(&black).await, Vec::<Value>::new());
    assert_eq!(app.stranger().get("/api/me/games").await.status(), 401);
}

/// `user`'s live games, as `GET /api/me/games` lists them.
async fn listed(user: &User) -> Vec<Value> {
    let body: Value = user.get("/api/me/games").await.json().await.unwrap();
    body["games"].as_array().unwrap().clone()
}
