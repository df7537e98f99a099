//! Quick games: waiting in the queue, being paired with a person, or with the computer.

use serde_json::{Value, json};

use crate::helpers::{spawn_app, spawn_app_with};

#[actix_web::test]
async fn two_seekers_are_paired_into_one_game_with_opposite_colours() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let bob = app.user("Bob").await;
    let mut ann_queue = ann.queue().await;
    let mut bob_queue = bob.queue().await;
    ann_queue.send(json!({ "type": "seek", "queue": "quick" })).await;
    assert_eq!(ann_queue.expect("searching").await["waited_ms"], 0);
    bob_queue.send(json!({ "type": "seek", "queue": "quick" })).await;
    let ann_paired = ann_queue.until("paired").await;
    let bob_paired = bob_queue.until("paired").await;
    assert_eq!(ann_paired["game_id"], bob_paired["game_id"]);
    assert_eq!(ann_paired["opponent"], json!({ "name": "Bob", "computer": false, "level": null }));
    assert_eq!(bob_paired["opponent"]["name"], "Ann");

    let id = ann_paired["game_id"].as_str().unwrap();
    let (mut ann_game, ann_view) = ann.join(id).await;
    let (mut bob_game, bob_view) = bob.join(id).await;
    assert_eq!(ann_view["mode"], "quick");
    let mut seats = [ann_view["you"].as_str().unwrap(), bob_view["you"].as_str().unwrap()];
    seats.sort_unstable();
    assert_eq!(seats, ["black", "white"]);
    assert!(ann_view["clocks"].is_object(), "quick games are clocked");
    let (black, watcher) = if ann_view["you"] == "black" {
        (&mut ann_game, &mut bob_game)
    } else {
        (&mut bob_game, &mut ann_game)
    };
    black.play("d3").await;
    assert_eq!(watcher.expect("moved").await["last_move"]["square"], "d3");
}

#[actix_web::test]
async fn a_lone_seeker_gets_the_computer_after_the_wait() {
    let app = spawn_app_with(|settings| settings.computer_after_ms = 1_500).await;
    let ann = app.user("Ann").await;
    let mut queue = ann.queue().await;
    queue.send(json!({ "type": "seek", "queue": "quick" })).await;
    let paired = queue.until("paired").await;
    assert_eq!(paired["opponent"]["computer"], true);
    // Guests wait at the starting rating, 1,200: the level rated nearest it.
    let level = outflank_engine::ai::Level::for_rating(1_200).number();
    assert_eq!(paired["opponent"]["level"], level);
    let levels: serde_json::Value = app.get("/api/computer/levels").await.json().await.unwrap();
    let listed = &levels["levels"][usize::from(level) - 1];
    assert_eq!(paired["opponent"]["name"], listed["name"]);
    let (_, view) = ann.join(paired["game_id"].as_str().unwrap()).await;
    assert_eq!(view["mode"], "computer");
    let computer_side = if view["you"] == "black" { "white" } else { "black" };
    assert_eq!(view["players"][computer_side]["computer"], true);
    assert_eq!(view["stand_in"], true, "the snapshot says the computer stands in");
    let game: Value = ann
        .get(&format!("/api/games/{}", paired["game_id"].as_str().unwrap()))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(game["rated"], false);
}

#[actix_web::test]
async fn no_computer_stands_in_for_a_seeker_with_three_computer_games_in_progress() {
    let app = spawn_app_with(|settings| settings.computer_after_ms = 500).await;
    let ann = app.user("Ann").await;
    for _ in 0..3 {
        ann.create_game(json!({ "mode": "computer", "level": "easy", "color": "black" })).await;
    }
    let mut queue = ann.queue().await;
    queue.send(json!({ "type": "seek", "queue": "quick" })).await;
    let refused = queue.until("error").await;
    assert_eq!(refused["code"], "too_many_games");
    assert_eq!(
        refused["message"],
        "you already have 3 games against the computer in progress: finish or leave one first"
    );
}

#[actix_web::test]
async fn cancelling_leaves_the_queue() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let mut queue = ann.queue().await;
    queue.send(json!({ "type": "seek", "queue": "quick" })).await;
    queue.expect("searching").await;
    let stats: Value = app.get("/api/stats").await.json().await.unwrap();
    assert_eq!(stats["waiting"], 1);
    queue.send(json!({ "type": "cancel" })).await;
    queue.until("cancelled").await;
    let stats: Value = app.get("/api/stats").await.json().await.unwrap();
    assert_eq!(stats["waiting"], 0);
}

#[actix_web::test]
async fn a_closed_connection_leaves_the_queue() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let mut queue = ann.queue().await;
    queue.send(json!({ "type": "seek", "queue": "quick" })).await;
    queue.expect("searching").await;
    drop(queue);
    let mut waiting = 1;
    for _ in 0..50 {
        let stats: Value = app.get("/api/stats").await.json().await.unwrap();
        waiting = stats["waiting"].as_i64().unwrap();
        if waiting == 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(waiting, 0);
}

#[actix_web::test]
async fn the_ranked_queue_needs_an_account() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let mut queue = ann.queue().await;
    queue.send(json!({ "type": "seek", "queue": "ranked" })).await;
    let error = queue.expect("error").await;
    assert_eq!(error["code"], "account_required");
}

#[actix_web::test]
async fn the_queue_needs_a_session() {
    let app = spawn_app().await;
    let response = app.get("/api/queue/ws").await;
    assert_eq!(response.status(), 401);
}

#[actix_web::test]
async fn stats_count_players_online_once_and_live_games() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    let (_socket, _) = ann.join(&id).await;
    let (_second_tab, _) = ann.join(&id).await;
    let stats: Value = app.get("/api/stats").await.json().await.unwrap();
    assert_eq!(
        stats,
        json!({ "online": 1, "waiting": 0, "games_in_progress": 1, "computer_after_ms": 15_000 })
    );
}

#[actix_web::test]
async fn spectators_without_a_session_are_not_counted_online() {
    let app = spawn_app().await;
    let ann = app.user("Ann").await;
    let id = ann.create_game(json!({ "mode": "same_device" })).await;
    let (_socket, _) = ann.join(&id).await;
    let mut spectators = Vec::new();
    for _ in 0..3 {
        spectators.push(app.stranger().join(&id).await);
    }
    let stats: Value = app.get("/api/stats").await.json().await.unwrap();
    assert_eq!(stats["online"], 1);
}
