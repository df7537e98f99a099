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
