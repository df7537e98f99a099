//! Games against the computer: whole games, undo, the reply delay.

use std::time::Instant;

use serde_json::{Value, json};

use crate::helpers::{Socket, TestApp, User, legal_squares, spawn_app};

/// Ann, and a new game of hers against the computer at Easy, Ann playing Black.
async fn easy_game_as_black(app: &TestApp) -> (User, String) {
    let ann = app.user("Ann").await;
    let id =
        ann.create_game(json!({ "mode": "computer", "level": "easy", "color": "black" })).await;
    (ann, id)
}

/// Plays the first legal move whenever it is `side`'s turn, until the game ends.
async fn play_to_the_end(socket: &mut Socket, side: &str, mut position: Value) -> Value {
    loop {
        if position["to_move"] == side {
            let square = legal_squares(&position)[0].clone();
            socket.send(json!({ "type": "move", "square": square })).await;
        }
        let msg = socket.next().await.expect("socket open");
        match msg["type"].as_str() {
            Some("moved") => position = msg,
            Some("ended") => return msg,
            other => panic!("unexpected {other:?}: {msg}"),
        }
    }
}

#[actix_web::test]
async fn a_whole_game_against_the_computer_ends_with_a_stored_result() {
    let app = spawn_app().await;
    let (ann, id) = easy_game_as_black(&app).await;
    let (mut socket, snapshot) = ann.join(&id).await;
    assert_eq!(snapshot["you"], "black");
    assert_eq!(snapshot["players"]["white"]["computer"], true);
    assert_eq!(snapshot["players"]["white"]["level"], "easy");
    let ended = play_to_the_end(&mut socket, "black", snapshot).await;

    let game: Value = ann.get(&format!("/api/games/{id}")).await.json().await.unwrap();
    assert_eq!(game["status"], "finished");
    assert_eq!(game["result"]["reason"], "normal");
    assert_eq!(game["result"]["winner"], ended["result"]["winner"]);
    assert_eq!(game["players"]["white"]["computer"], true);
}

#[actix_web::test]
async fn the_computer_moves_first_when_the_player_takes_white() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let id =
        ann.create_game(json!({ "mode": "computer", "level": "medium", "color": "white" })).await;
    let (mut socket, snapshot) = ann.join(&id).await;
    assert_eq!(snapshot["you"], "white");
    let moved = if snapshot["moves"].as_array().unwrap().is_empty() {
        socket.expect("moved").await
    } else {
        snapshot
    };
    assert_eq!(moved["to_move"], "white");
}

#[actix_web::test]
async fn the_computer_replies_no_sooner_than_300_ms() {
    let app = spawn_app().await;
    let (ann, id) = easy_game_as_black(&app).await;
    let (mut socket, _) = ann.join(&id).await;
    let started = Instant::now();
    socket.play("d3").await;
    let reply = socket.expect("moved").await;
    assert!(started.elapsed().as_millis() >= 300, "{:?}", started.elapsed());
    assert_eq!(reply["plies"][0]["color"], "white");
}

#[actix_web::test]
async fn undo_takes_back_the_players_move_and_the_computers_reply() {
    let app = spawn_app().await;
    let (ann, id) = easy_game_as_black(&app).await;
    let (mut socket, start) = ann.join(&id).await;
    socket.play("d3").await;
    socket.expect("moved").await;
    socket.send(json!({ "type": "undo" })).await;
    let undone = socket.expect("undone").await;
    assert_eq!(undone["ply_count"], 0);
    assert_eq!(undone["board"], start["board"]);
    let game: Value = ann.get(&format!("/api/games/{id}")).await.json().await.unwrap();
    assert_eq!(game["moves"], json!([]));
}

#[actix_web::test]
async fn undo_while_the_computer_thinks_cancels_its_reply() {
    let app = spawn_app().await;
    let (ann, id) = easy_game_as_black(&app).await;
    let (mut socket, start) = ann.join(&id).await;
    socket.play("d3").await;
    // Within the 300 ms before the reply may appear.
    socket.send(json!({ "type": "undo" })).await;
    let undone = socket.expect("undone").await;
    assert_eq!(undone["board"], start["board"]);
    // The cancelled search never moves: the next message is the reply to the next move.
    socket.play("c4").await;
    let reply = socket.expect("moved").await;
    assert_eq!(reply["plies"][0]["number"], 2);
    let game: Value = ann.get(&format!("/api/games/{id}")).await.json().await.unwrap();
    assert_eq!(game["moves"].as_array().unwrap().len(), 2);
    assert_eq!(game["moves"][0], "c4");
}

#[actix_web::test]
async fn the_computers_side_is_always_present() {
    let app = spawn_app().await;
    let (ann, id) = easy_game_as_black(&app).await;
    let mut socket = ann.connect(&id).await;
    socket.send(json!({ "type": "join", "game_id": id })).await;
    assert_eq!(socket.next_any().await.unwrap()["type"], "snapshot");
    let presence = socket.next_any().await.unwrap();
    assert_eq!(presence, json!({ "type": "presence", "black": true, "white": true }));
}
