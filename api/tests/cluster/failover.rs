//! Three server processes on loopback sharing PostgreSQL and Redis; the node running a game is
//! killed outright (SIGKILL) in the middle of it, and the game is finished on the others with
//! every acknowledged move intact.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::helpers::{TestApp, User};
use crate::play::Table;
use crate::storage_support::{Service, TempDatabase, admin_url, available, redis_url_if_set};

/// One `outflank` process.
struct Node {
    url: String,
    child: Child,
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

async fn start_node(database_url: &str, redis_url: &str, prefix: &str) -> Node {
    let port = free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_outflank"))
        .env_clear()
        .env("OUTFLANK_ADDR", format!("127.0.0.1:{port}"))
        .env("DATABASE_URL", database_url)
        .env("REDIS_URL", redis_url)
        .env("OUTFLANK_REDIS_PREFIX", prefix)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server binary starts");
    let node = Node { url: format!("http://127.0.0.1:{port}"), child };
    let deadline = Instant::now() + Duration::from_secs(30);
    let client = reqwest::Client::new();
    loop {
        let ready = client.get(format!("{}/readyz", node.url)).send().await;
        if ready.is_ok_and(|response| response.status() == 200) {
            return node;
        }
        assert!(Instant::now() < deadline, "node {} did not become ready", node.url);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A new PostgreSQL database, the Redis URL and a key prefix of this test's own: what the
/// nodes of one test share; `None` when the test is skipped for want of PostgreSQL or Redis.
async fn shared_services(test: &str) -> Option<(TempDatabase, String, String)> {
    let admin = admin_url()?;
    let redis = available(Service::Redis, redis_url_if_set())?;
    let prefix = format!("outflank-{test}-{}", std::process::id());
    Some((TempDatabase::create(&admin).await, redis, prefix))
}

/// A person talking to `node`: a guest session made there.
async fn user(node: &Node, nickname: &str) -> User {
    TestApp::user_at(&node.url, nickname).await
}

#[actix_web::test]
async fn killing_the_node_running_a_game_loses_no_acknowledged_move() {
    let Some((database, redis, prefix)) = shared_services("failover").await else { return };
    let mut nodes = Vec::new();
    for _ in 0..3 {
        nodes.push(Some(start_node(&database.url, &redis, &prefix).await));
    }
    let urls: Vec<String> = nodes.iter().map(|node| node.as_ref().unwrap().url.clone()).collect();
    let url = |i: usize| urls[i].clone();

    // Ann on node 0 invites Bob, who joins on node 1: the game runs on node 1.
    let ann = user(nodes[0].as_ref().unwrap(), "Ann").await;
    let mut bob = user(nodes[0].as_ref().unwrap(), "Bob").await;
    bob.set_base(&url(1));
    let mut table = Table::between(ann, bob).await;
    let mut played = Vec::new();
    for _ in 0..4 {
        played.push(table.play_one().await);
    }

    // Node 1 dies without a word.
    let killed = nodes[1].take();
    drop(killed);

    // The player who was on node 1 comes back through node 2; the other stays on node 0.
    let dead = table.joiner_base.clone();
    for user in [&mut table.black.0, &mut table.white.0] {
        if user.base() == dead {
            user.set_base(&url(2));
        }
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    let view = loop {
        match table.rejoin().await {
            Some(view) => break view,
            None => {
                assert!(Instant::now() < deadline, "the game was not taken over in time");
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
        }
    };
    let moves: Vec<String> = view["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|ply| ply["move"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(moves, played, "every acknowledged move survives");
    // The player to move has a full move's time again.
    let clocks = &view["clocks"];
    let to_move = view["to_move"].as_str().unwrap();
    assert!(clocks[format!("{to_move}_ms")].as_i64().unwrap() > 25_000, "{clocks}");

    for _ in 0..4 {
        played.push(table.play_one().await);
    }
    let reader = TestApp::user_at(&url(2), "Reader").await;
    let game: serde_json::Value =
        reader.get(&format!("/api/games/{}", table.id)).await.json().await.unwrap();
    let stored: Vec<&str> =
        game["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert_eq!(stored, played);
}

#[actix_web::test]
async fn a_player_whose_node_dies_is_shown_as_gone_to_the_opponent() {
    let Some((database, redis, prefix)) = shared_services("presence").await else { return };
    let mut ann_node = Some(start_node(&database.url, &redis, &prefix).await);
    let game_node = start_node(&database.url, &redis, &prefix).await;

    // Ann plays through her node; Bob joins through the other, which runs the game.
    let ann_url = ann_node.as_ref().unwrap().url.clone();
    let ann = user(ann_node.as_ref().unwrap(), "Ann").await;
    let mut bob = user(ann_node.as_ref().unwrap(), "Bob").await;
    bob.set_base(&game_node.url);
    let mut table = Table::between(ann, bob).await;
    let (ann_color, bob_socket) = if table.black.0.base() == ann_url {
        ("black", &mut table.white.1)
    } else {
        ("white", &mut table.black.1)
    };

    // Ann's node dies without a word: her socket closes, and nobody says so.
    drop(ann_node.take());

    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let msg = bob_socket.next_any().await.expect("Bob's socket stays open");
        if msg["type"] == "presence" && msg[ann_color] == false {
            assert_eq!(msg[if ann_color == "black" { "white" } else { "black" }], true);
            break;
        }
        assert!(Instant::now() < deadline, "Ann was still shown as connected");
    }
}
