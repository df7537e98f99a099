//! Game leases in Redis, as nodes claim and renew them.

use outflank_api::cluster::Cluster;
use outflank_api::domain::GameId;
use redis::AsyncCommands;

use crate::redis_prefix;
use crate::storage_support::redis_url;

#[tokio::test]
async fn renewing_many_leases_keeps_ours_takes_free_and_dead_ones_and_leaves_live_owners() {
    let Some(url) = redis_url() else { return };
    let prefix = redis_prefix("leases");
    let (ours, _requests) = Cluster::connect(&url, &prefix).await.unwrap();
    let (theirs, _their_requests) = Cluster::connect(&url, &prefix).await.unwrap();
    let [held, live_owner, free, dead_owner] = std::array::from_fn(|_| GameId::generate());
    assert_eq!(ours.claim(&held).await.unwrap(), ours.node());
    assert_eq!(theirs.claim(&live_owner).await.unwrap(), theirs.node());
    // A node that stopped proving it is alive still names itself as the owner.
    let mut redis = redis::Client::open(url.as_str())
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();
    let dead_key = format!("{prefix}:game:{dead_owner}:owner");
    let () = redis.set_ex(&dead_key, "00000000deadbeef", 30).await.unwrap();

    let ids = [held.clone(), live_owner.clone(), free.clone(), dead_owner.clone()];
    let owners = ours.claim_all(&ids).await.unwrap();

    let me = ours.node().to_owned();
    assert_eq!(owners, [me.clone(), theirs.node().to_owned(), me.clone(), me.clone()]);
    for id in [&held, &free, &dead_owner] {
        let owner: String = redis.get(format!("{prefix}:game:{id}:owner")).await.unwrap();
        assert_eq!(owner, me, "the lease on {id} is ours");
        let ttl_ms: i64 = redis.pttl(format!("{prefix}:game:{id}:owner")).await.unwrap();
        assert!(ttl_ms > 25_000, "the lease on {id} was renewed: {ttl_ms} ms left");
    }
}

#[tokio::test]
async fn renewing_more_leases_than_one_call_takes_answers_every_game_in_order() {
    let Some(url) = redis_url() else { return };
    let prefix = redis_prefix("leases");
    let (ours, _requests) = Cluster::connect(&url, &prefix).await.unwrap();
    let (theirs, _their_requests) = Cluster::connect(&url, &prefix).await.unwrap();
    let ids: Vec<GameId> = (0..1_203).map(|_| GameId::generate()).collect();
    // Every hundredth game belongs to the other node.
    for id in ids.iter().step_by(100) {
        theirs.claim(id).await.unwrap();
    }
    let owners = ours.claim_all(&ids).await.unwrap();
    assert_eq!(owners.len(), ids.len());
    for (n, owner) in owners.iter().enumerate() {
        let expected = if n % 100 == 0 { theirs.node() } else { ours.node() };
        assert_eq!(owner, expected, "the owner of game {n}");
    }
}
