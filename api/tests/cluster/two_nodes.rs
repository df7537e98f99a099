//! Two nodes in one process: a game whose players are on different nodes.

use serde_json::{Value, json};

use crate::helpers::{spawn_nodes, spawn_nodes_configured};
use crate::play::friend_game;

#[actix_web::test]
async fn players_on_different_nodes_see_each_others_moves() {
    let Some(nodes) = spawn_nodes(2).await else { return };
    let mut table = friend_game(&nodes[0], &nodes[1]).await;
    let mut played = Vec::new();
    for _ in 0..6 {
        played.push(table.play_one().await);
    }
    assert_eq!(table.stored_moves(&nodes[0]).await, played);
}

#[actix_web::test]
async fn a_spectator_on_a_third_node_watches_live() {
    let Some(nodes) = spawn_nodes(3).await else { return };
    let mut table = friend_game(&nodes[0], &nodes[1]).await;
    let (mut spectator, view) = nodes[2].stranger().join(&table.id).await;
    assert_eq!(view["you"], "spectator");
    let square = table.play_one().await;
    assert_eq!(spectator.until("moved").await["last_move"]["square"], square.as_str());
}

#[actix_web::test]
async fn a_refused_command_on_another_node_gets_the_owners_reason() {
    let Some(nodes) = spawn_nodes(2).await else { return };
    let mut table = friend_game(&nodes[0], &nodes[1]).await;
    // White tries to move first.
    table.white.1.send(json!({ "type": "move", "square": "d3" })).await;
    let error = table.white.1.expect("error").await;
    assert_eq!(error["code"], "not_your_turn");
}

#[actix_web::test]
async fn presence_counts_connections_on_every_node() {
    let Some(nodes) = spawn_nodes(2).await else { return };
    let mut table = friend_game(&nodes[0], &nodes[1]).await;
    table.black.1.presence_becomes(true, true).await;
    drop(table.white);
    table.black.1.presence_becomes(true, false).await;
}

#[actix_web::test]
async fn a_stopped_node_hands_its_games_to_the_others() {
    let Some(nodes) = spawn_nodes(3).await else { return };
    // Bob joins on node 1, so the game runs there.
    let mut table = friend_game(&nodes[0], &nodes[1]).await;
    let mut played = vec![table.play_one().await, table.play_one().await];

    nodes[1].stop().await;
    // Whoever was on node 1 comes back through node 2; the other stays on node 0.
    for user in [&mut table.black.0, &mut table.white.0] {
        if user.base() == nodes[1].url {
            user.set_base(&nodes[2].url);
        }
    }
    let view = table.rejoin().await.expect("the game is reachable after its node stopped");
    assert_eq!(view["moves"].as_array().unwrap().len(), 2);

    played.push(table.play_one().await);
    played.push(table.play_one().await);
    assert_eq!(table.stored_moves(&nodes[2]).await, played);
}

#[actix_web::test]
async fn a_rematch_across_nodes_runs_where_it_was_agreed() {
    let Some(nodes) = spawn_nodes(2).await else { return };
    let mut table = friend_game(&nodes[0], &nodes[1]).await;
    table.black.1.send(json!({ "type": "resign" })).await;
    table.white.1.until("ended").await;
    table.black.1.send(json!({ "type": "rematch" })).await;
    table.white.1.until("rematch_asked").await;
    table.white.1.send(json!({ "type": "rematch" })).await;
    let started = table.black.1.until("rematch_started").await;
    let next = started["game_id"].as_str().unwrap();

    // Colours swap: the old White opens the new game as Black, each on their own node.
    let (mut black, view) = table.white.0.join(next).await;
    let (mut white, _) = table.black.0.join(next).await;
    assert_eq!(view["you"], "black");
    let square = crate::helpers::legal_squares(&view)[0].clone();
    black.play(&square).await;
    assert_eq!(white.until("moved").await["last_move"]["square"], square.as_str());
}

#[actix_web::test]
async fn a_friend_joining_through_two_nodes_at_once_starts_one_game() {
    let Some(nodes) = spawn_nodes(2).await else { return };
    let ann = nodes[0].user("Ann").await;
    let bob = nodes[0].user("Bob").await;
    let bob_elsewhere = nodes[1].user_with_cookie(bob.cookie().to_owned());
    let room: Value = ann.post("/api/rooms", &json!({})).await.json().await.unwrap();
    let code = room["code"].as_str().unwrap();
    let (join, empty) = (format!("/api/rooms/{code}/join"), json!({}));
    let (here, there) = tokio::join!(bob.post(&join, &empty), bob_elsewhere.post(&join, &empty));
    assert_eq!((here.status().as_u16(), there.status().as_u16()), (200, 200));
    let here: Value = here.json().await.unwrap();
    let there: Value = there.json().await.unwrap();
    let room: Value = ann.get(&format!("/api/rooms/{code}")).await.json().await.unwrap();
    assert_eq!(room["games_played"], 1);
    assert!(room["game_id"].is_string());
    // The join that lost the race answers the winner's game, as joining again would.
    assert_eq!((&here["game_id"], &there["game_id"]), (&room["game_id"], &room["game_id"]));
}

#[actix_web::test]
async fn signing_out_on_one_node_closes_the_players_socket_on_another() {
    let Some(nodes) = spawn_nodes(2).await else { return };
    let mut table = friend_game(&nodes[0], &nodes[1]).await;
    // Whoever joined through node 1 signs out through node 0.
    let (on_node_1, on_node_0) = if table.black.0.base() == nodes[1].url {
        (&mut table.black, &mut table.white)
    } else {
        (&mut table.white, &mut table.black)
    };
    on_node_1.0.set_base(&nodes[0].url);
    assert_eq!(on_node_1.0.delete("/api/session").await.status(), 204);
    assert_eq!(on_node_1.1.expect("error").await["code"], "session_revoked");
    assert_eq!(on_node_1.1.close_reason().await, Some((1008, "signed out".to_owned())));
    on_node_0.1.send(json!({ "type": "ping" })).await;
    on_node_0.1.expect("pong").await;
}

#[actix_web::test]
async fn an_addresss_games_against_the_computer_count_on_every_node() {
    let Some(nodes) = spawn_nodes(2).await else { return };
    let new_game = json!({ "mode": "computer", "level": "easy", "color": "black" });
    for n in 0..10 {
        let guest = nodes[n % 2].user(&format!("Guest {n}")).await;
        guest.create_game(new_game.clone()).await;
    }
    // Each node runs five, but the address has ten in progress across the site.
    for node in &nodes {
        let refused = node.user("One more").await.post("/api/games", &new_game).await;
        assert_eq!(refused.status(), 429);
        let body: Value = refused.json().await.unwrap();
        assert_eq!(body["error"]["code"], "too_many_games");
    }
}

#[actix_web::test]
async fn sockets_from_one_address_are_capped_on_all_nodes_together() {
    let configure = |settings: &mut outflank_api::configuration::Settings| {
        settings.sockets_per_address = 3;
    };
    let Some(nodes) = spawn_nodes_configured(2, configure).await else { return };
    let ann = nodes[0].user("Ann").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    let held = [
        nodes[0].stranger().try_connect(&id).await.expect("under the cap"),
        nodes[1].stranger().try_connect(&id).await.expect("under the cap"),
        nodes[1].stranger().try_connect(&id).await.expect("under the cap"),
    ];
    // Node 0 holds one socket of the address, but the address holds three on the site.
    assert_eq!(nodes[0].stranger().try_connect(&id).await.err(), Some(429));
    assert_eq!(ann.try_connect(&id).await.err(), Some(429));
    drop(held);
    assert!(
        ann.connect_once_free(&id).await.is_some(),
        "closed sockets free their places on every node"
    );
}
