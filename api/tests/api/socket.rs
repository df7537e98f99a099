//! Bad input on a game socket: a clear error to that client, nothing changed.

use serde_json::json;

use crate::helpers::{spawn_app, spawn_app_with};

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
async fn a_message_in_several_frames_is_read_whole() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    let (mut socket, _) = ann.join(&id).await;
    socket.send_fragmented(&[r#"{"type":"mo"#, r#"ve","squ"#, r#"are":"d3"}"#]).await;
    assert_eq!(socket.expect("moved").await["last_move"]["square"], "d3");
}

#[actix_web::test]
async fn fragments_over_the_size_cap_close_the_socket() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    let (mut socket, _) = ann.join(&id).await;
    let pad = "x".repeat(3_000);
    socket.send_fragmented(&[r#"{"type":"ping","pad":""#, &pad, &pad, r#""}"#]).await;
    assert_eq!(socket.expect("error").await["code"], "too_large");
    assert!(socket.is_closed().await);
}

#[actix_web::test]
async fn a_flood_of_continuation_frames_gets_the_socket_closed() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    let (mut socket, _) = ann.join(&id).await;
    let parts = vec![" "; 30];
    socket.send_fragmented(&parts).await;
    assert_eq!(socket.expect("error").await["code"], "rate_limited");
    assert!(socket.is_closed().await);
}

#[actix_web::test]
async fn an_unknown_game_socket_is_refused() {
    let app = spawn_app().await;
    assert_eq!(app.stranger().try_connect("abcdefghij").await.err(), Some(404));
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

#[actix_web::test]
async fn a_plain_get_on_a_game_socket_is_refused_and_starts_no_game() {
    let mut app = spawn_app().await;
    let mut ann = app.user("Ann").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    // After a restart the game waits in the store: games without a clock start when opened.
    app.restart().await;
    ann.reconnect_to(&app);
    let running = "outflank_live_games{mode=\"same_device\"}";
    assert_eq!(app.metric(running).await, Some(0.0));
    let response = ann.get(&format!("/api/games/{id}/ws")).await;
    assert_eq!(response.status(), 400);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "bad_handshake");
    assert_eq!(app.metric(running).await, Some(0.0));
    ann.join(&id).await;
    assert_eq!(app.metric(running).await, Some(1.0));
}

#[actix_web::test]
async fn an_upgrade_from_another_site_is_refused_whatever_the_upgrade_header_lists() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    let handshake = |upgrade: &str, origin: &str| {
        format!(
            "GET /api/games/{id}/ws HTTP/1.1\nConnection: Upgrade\nUpgrade: {upgrade}\n\
             Sec-WebSocket-Version: 13\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\n\
             Origin: {origin}"
        )
    };
    for upgrade in ["websocket", "websocket, h2c", "h2c, WebSocket", "WEBSOCKET"] {
        assert_eq!(
            app.raw_status(&handshake(upgrade, "https://evil.example")).await,
            403,
            "{upgrade}"
        );
    }
    assert_eq!(app.raw_status(&handshake("websocket, h2c", &app.url)).await, 101);
}

#[actix_web::test]
async fn a_socket_that_does_not_join_within_ten_seconds_is_closed() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    let mut idle = app.stranger().connect(&id).await;
    let (mut joined, _) = ann.join(&id).await;
    assert!(!idle.is_closed_within(8_000).await);
    let error = idle.next().await.expect("an error before the close");
    assert_eq!(error["type"], "error");
    assert_eq!(error["code"], "not_joined");
    assert!(idle.is_closed().await);
    joined.send(json!({ "type": "ping" })).await;
    assert_eq!(joined.expect("pong").await["type"], "pong");
}

#[actix_web::test]
async fn sockets_from_one_address_are_capped_whoever_opens_them() {
    let app = spawn_app_with(|settings| settings.sockets_per_address = 3).await;
    let ann = app.user("Ann").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    let mut held = Vec::new();
    for _ in 0..3 {
        // Without a cookie each socket would be someone new: the address cap still counts it.
        held.push(app.stranger().try_connect(&id).await.expect("under the cap"));
    }
    assert_eq!(app.stranger().try_connect(&id).await.err(), Some(429));
    assert_eq!(ann.try_connect(&id).await.err(), Some(429));
    let refused = "outflank_errors_total{kind=\"refused\",code=\"too_many_sockets\"}";
    assert_eq!(app.metric(refused).await, Some(2.0));
    drop(held);
    assert!(ann.connect_once_free(&id).await.is_some(), "a closed socket frees its place");
}
