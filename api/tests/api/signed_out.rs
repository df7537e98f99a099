//! A socket lasts no longer than its session: signing out (or any other end of the session)
//! closes the player's open sockets, and nothing sent on them afterwards is acted on.

use serde_json::json;

use crate::helpers::spawn_app;

/// How the server closes a socket whose session was revoked: 1008, "signed out".
fn signed_out() -> Option<(u16, String)> {
    Some((1008, "signed out".to_owned()))
}

#[actix_web::test]
async fn signing_out_closes_the_players_game_socket_and_a_move_sent_after_is_not_played() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    let (mut socket, before) = ann.join(&id).await;
    assert_eq!(ann.delete("/api/session").await.status(), 204);
    socket.try_send(json!({ "type": "move", "square": "d3" })).await;
    assert_eq!(socket.expect("error").await["code"], "session_revoked");
    assert_eq!(socket.close_reason().await, signed_out());
    let (_, after) = app.stranger().join(&id).await;
    assert_eq!(after["version"], before["version"]);
    assert_eq!(after["moves"], json!([]));
}

#[actix_web::test]
async fn signing_out_closes_the_players_queue_socket() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let mut queue = ann.queue().await;
    queue.send(json!({ "type": "ping" })).await;
    queue.expect("pong").await;
    assert_eq!(ann.delete("/api/session").await.status(), 204);
    assert_eq!(queue.expect("error").await["code"], "session_revoked");
    assert_eq!(queue.close_reason().await, signed_out());
}

#[actix_web::test]
async fn a_new_nickname_closes_the_sockets_of_the_old_session() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    let (mut socket, _) = ann.join(&id).await;
    let renamed = ann.post("/api/session", &json!({ "nickname": "Annie" })).await;
    assert_eq!(renamed.status(), 200);
    assert_eq!(socket.expect("error").await["code"], "session_revoked");
    assert_eq!(socket.close_reason().await, signed_out());
}

#[actix_web::test]
async fn another_players_socket_stays_open_when_one_signs_out() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let bob = app.user("Bob").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    let (mut anns, _) = ann.join(&id).await;
    let (mut bobs, _) = bob.join(&id).await;
    assert_eq!(ann.delete("/api/session").await.status(), 204);
    assert_eq!(anns.close_reason().await, signed_out());
    bobs.send(json!({ "type": "ping" })).await;
    bobs.expect("pong").await;
}
