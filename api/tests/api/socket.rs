//! Bad input on a game socket: a clear error to that client, nothing changed.

use serde_json::json;

use crate::helpers::spawn_app;

#[actix_web::test]
async fn malformed_json_and_unknown_types_get_errors_and_change_nothing() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    let (mut socket, snapshot) = ann.join(&id).await;
    socket.send_text("{not json".into()).await;
    assert_eq!(socket.expect("error").await["code"], "bad_json");
    socket.send(json!({ "type": "teleport" })).await;
    assert_eq!(socket.expect("error").await["code"], "unknown_type");
    socket.send(json!({ "type": "move", "square": "z9" })).await;
    assert_eq!(socket.expect("error").await["code"], "bad_square");
    let moved = socket.play("d3").await;
    assert_eq!(moved["version"].as_u64().unwrap(), snapshot["version"].as_u64().unwrap() + 1);
}

#[actix_web::test]
async fn commands_before_joining_are_refused() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    let mut socket = ann.connect(&id).await;
    socket.send(json!({ "type": "move", "square": "d3" })).await;
    assert_eq!(socket.expect("error").await["code"], "not_joined");
}

#[actix_web::test]
async fn an_oversized_frame_closes_the_socket() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    let (mut socket, _) = ann.join(&id).await;
    socket.send_text(format!("{{\"type\":\"ping\",\"pad\":\"{}\"}}", "x".repeat(10_000))).await;
    assert!(socket.is_closed().await);
}

#[actix_web::test]
async fn flooding_a_socket_gets_it_closed() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    let (mut socket, _) = ann.join(&id).await;
    for _ in 0..30 {
        socket.send(json!({ "type": "ping" })).await;
    }
    assert!(socket.is_closed().await);
}

#[actix_web::test]
async fn an_unknown_game_socket_is_refused() {
    let app = spawn_app().await;
    let response = app.get("/api/games/abcdefghij/ws").await;
    assert_eq!(response.status(), 404);
}

#[actix_web::test]
async fn twenty_messages_in_the_first_second_are_all_answered() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    let mut socket = ann.connect(&id).await;
    // Whatever the server sends on connecting (a ping) is answered, as a browser would.
    assert_eq!(socket.idle(200).await, Vec::<serde_json::Value>::new());
    for _ in 0..20 {
        socket.send(json!({ "type": "ping" })).await;
    }
    for _ in 0..20 {
        assert_eq!(socket.next().await.expect("socket open")["type"], "pong");
    }
    assert!(!socket.is_closed_within(300).await);
}

#[actix_web::test]
async fn a_refusal_caused_by_the_end_comes_after_the_end() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    // The socket reads frames and broadcasts as they come: over several games, a refusal sent
    // before its cause would show.
    for _ in 0..8 {
        let id = ann.create_game(json!({ "mode": "same_device" })).await;
        let (mut socket, _) = ann.join(&id).await;
        socket.send(json!({ "type": "resign" })).await;
        socket.send(json!({ "type": "resign" })).await;
        socket.send(json!({ "type": "move", "square": "d3" })).await;
        socket.expect("ended").await;
        assert_eq!(socket.expect("error").await["code"], "game_over");
        assert_eq!(socket.expect("error").await["code"], "game_over");
    }
}
