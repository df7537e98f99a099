//! Open sockets counted in Redis, so that the caps per address and per player hold on all
//! nodes together.

use std::time::Duration;

use outflank_api::cluster::{CapReached, Cluster, SharedSocket, SocketCaps};
use outflank_api::domain::{ClientKey, PlayerId};
use redis::AsyncCommands;

use crate::redis_prefix;
use crate::storage_support::redis_url;

const CAPS: SocketCaps = SocketCaps { per_player: 2, per_client: 3 };

fn client(last: u8) -> ClientKey {
    ClientKey::of(std::net::IpAddr::from([203, 0, 113, last]))
}

async fn two_nodes(url: &str, prefix: &str) -> (Cluster, Cluster) {
    let (ours, _) = Cluster::connect(url, prefix).await.unwrap();
    let (theirs, _) = Cluster::connect(url, prefix).await.unwrap();
    (ours, theirs)
}

async fn enter(node: &Cluster, client: ClientKey, player: Option<&PlayerId>) -> SharedSocket {
    node.enter_socket(&client, player, CAPS).await.unwrap().expect("under the caps")
}

async fn refusal(node: &Cluster, client: ClientKey, player: Option<&PlayerId>) -> CapReached {
    node.enter_socket(&client, player, CAPS).await.unwrap().expect_err("over a cap")
}

/// Enters until a place frees up (a closed socket is counted out in the background).
async fn enter_once_free(node: &Cluster, client: ClientKey) -> SharedSocket {
    for _ in 0..100 {
        if let Ok(socket) = node.enter_socket(&client, None, CAPS).await.unwrap() {
            return socket;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("no place was freed");
}

async fn redis(url: &str) -> redis::aio::MultiplexedConnection {
    redis::Client::open(url).unwrap().get_multiplexed_async_connection().await.unwrap()
}

#[tokio::test]
async fn an_address_is_capped_on_all_nodes_together() {
    let Some(url) = redis_url() else { return };
    let (ours, theirs) = two_nodes(&url, &redis_prefix("sockets")).await;
    let _held = [
        enter(&ours, client(1), None).await,
        enter(&ours, client(1), None).await,
        enter(&theirs, client(1), None).await,
    ];
    assert_eq!(refusal(&ours, client(1), None).await, CapReached::Client);
    assert_eq!(refusal(&theirs, client(1), None).await, CapReached::Client);
    // Another address is not affected.
    enter(&theirs, client(2), None).await;
}

#[tokio::test]
async fn a_player_is_capped_on_all_nodes_together_whatever_their_address() {
    let Some(url) = redis_url() else { return };
    let (ours, theirs) = two_nodes(&url, &redis_prefix("sockets")).await;
    let ann = PlayerId::generate();
    let _held =
        [enter(&ours, client(1), Some(&ann)).await, enter(&theirs, client(2), Some(&ann)).await];
    assert_eq!(refusal(&ours, client(3), Some(&ann)).await, CapReached::Player);
    enter(&ours, client(3), Some(&PlayerId::generate())).await;
}

#[tokio::test]
async fn a_closed_socket_frees_its_place_on_every_node() {
    let Some(url) = redis_url() else { return };
    let (ours, theirs) = two_nodes(&url, &redis_prefix("sockets")).await;
    let mut held = vec![
        enter(&ours, client(1), None).await,
        enter(&ours, client(1), None).await,
        enter(&ours, client(1), None).await,
    ];
    assert_eq!(refusal(&theirs, client(1), None).await, CapReached::Client);
    drop(held.pop());
    enter_once_free(&theirs, client(1)).await;
}

#[tokio::test]
async fn the_sockets_of_a_node_no_longer_alive_stop_counting() {
    let Some(url) = redis_url() else { return };
    let prefix = redis_prefix("sockets");
    let (ours, _) = Cluster::connect(&url, &prefix).await.unwrap();
    let mut redis = redis(&url).await;
    // A node that stopped proving it is alive left three sockets of the address counted.
    let dead = "00000000deadbeef";
    let () = redis.sadd(format!("{prefix}:socket-nodes"), dead).await.unwrap();
    let () = redis.hset(format!("{prefix}:sockets:{dead}"), "c:203.0.113.1", 3).await.unwrap();

    let _held = enter(&ours, client(1), None).await;

    let nodes: Vec<String> = redis.smembers(format!("{prefix}:socket-nodes")).await.unwrap();
    assert_eq!(nodes, [ours.node()]);
    let left: bool = redis.exists(format!("{prefix}:sockets:{dead}")).await.unwrap();
    assert!(!left, "the dead node's counts are deleted");
}

#[tokio::test]
async fn recounting_replaces_a_nodes_counts_by_the_sockets_it_holds() {
    let Some(url) = redis_url() else { return };
    let (ours, theirs) = two_nodes(&url, &redis_prefix("sockets")).await;
    // Three sockets counted in whose counting out was lost while Redis was unreachable.
    for _ in 0..3 {
        std::mem::forget(enter(&ours, client(1), None).await);
    }
    assert_eq!(refusal(&theirs, client(1), None).await, CapReached::Client);

    // The node holds one of them still.
    ours.recount_sockets(&[(client(1), 1)], &[]).await.unwrap();

    let _held = [enter(&theirs, client(1), None).await, enter(&theirs, client(1), None).await];
    assert_eq!(refusal(&theirs, client(1), None).await, CapReached::Client);
}
