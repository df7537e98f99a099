//! Several nodes sharing live games through Redis.
//!
//! Each live game runs on one node, its owner, which holds a lease on it in Redis
//! (`<prefix>:game:<id>:owner`). Sockets on other nodes reach the game through the owner: their
//! commands and subscriptions travel as requests on the owner's channel (`<prefix>:node:<node>`)
//! and come back as replies on theirs, and the owner publishes every message of the game on the
//! game's channel (`<prefix>:game:<id>`), in order, for those nodes to pass on. A node proves it
//! is alive with a short-lived key renewed every second; a lease whose owner stopped proving it
//! is taken over by the next node that needs the game, which rebuilds it from the store.

mod sockets;
pub mod wire;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use rand::Rng;
use redis::aio::{ConnectionManager, ConnectionManagerConfig, PubSubSink};
use redis::{AsyncCommands, Script};
use thiserror::Error;
use tokio::sync::{broadcast, mpsc, oneshot};

use crate::domain::{GameId, PlayerId};
use crate::live::{Announcement, Broadcast};
use crate::social::PlayerEvent;
pub use sockets::{CapReached, SharedSocket, SocketCaps};
use wire::{GameWire, NodeMsg, PlayerWire, Reply, WireError};

/// How long a node's proof of life lasts; it is renewed every [`HEARTBEAT`].
const ALIVE_MS: u64 = 4_000;
const HEARTBEAT: Duration = Duration::from_secs(1);
/// How long an owner's lease lasts without renewal; leases are renewed every [`RENEW_EVERY`].
pub const LEASE_MS: u64 = 30_000;
pub const RENEW_EVERY: Duration = Duration::from_secs(5);
/// How long one Redis operation may take before it counts as failed.
const REDIS_TIMEOUT: Duration = Duration::from_secs(2);
/// How long a request to another node may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);
/// How often games followed for local sockets are checked for a dead owner.
const WATCH_EVERY: Duration = Duration::from_secs(1);
/// After Redis comes back, how long followers wait before resubscribing, so that owners have
/// claimed their games again first.
const RESUBSCRIBE_AFTER: Duration = Duration::from_millis(1_500);
/// Messages buffered per follower of a remote game; a follower further behind catches up from
/// its version.
const FEED_BUFFER: usize = 32;
/// Players' events buffered for this node's sockets; a reader further behind misses some (the
/// client reads the rest when it lists them).
const PLAYERS_BUFFER: usize = 1024;

/// For each of `KEYS`, a game's lease: takes it when it is free, already ours (renewing it), or
/// held by a node that is no longer alive; returns the owners in order.
const CLAIM: &str = r"
local owners = {}
for i, key in ipairs(KEYS) do
  local owner = redis.call('GET', key)
  if owner == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  elseif owner and redis.call('EXISTS', ARGV[3] .. owner .. ':alive') == 1 then
    -- Owned by a live node: left alone.
  else
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
    owner = ARGV[1]
  end
  owners[i] = owner
end
return owners
";

/// [`CLAIM`], hashed once for `EVALSHA`.
static CLAIM_SCRIPT: LazyLock<Script> = LazyLock::new(|| Script::new(CLAIM));

/// How many leases one [`CLAIM`] call takes, so that no call holds Redis for long.
const CLAIM_CHUNK: usize = 500;

/// Gives the lease up, if it is ours.
const RELEASE: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
";

/// Why the cluster could not be reached.
#[derive(Debug, Error)]
pub enum ClusterError {
    #[error("redis: {0}")]
    Redis(#[from] redis::RedisError),
    #[error("the node owning the game (or Redis) did not answer in time")]
    Timeout,
}

/// This node's membership of the cluster. Cheap to clone.
#[derive(Clone)]
pub struct Cluster {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cluster").field("node", &self.inner.node).finish_non_exhaustive()
    }
}

struct Inner {
    node: String,
    prefix: String,
    client: redis::Client,
    redis: ConnectionManager,
    /// Where channels are subscribed; replaced when the connection is re-established.
    sink: tokio::sync::Mutex<PubSubSink>,
    /// Publications in the order they were made, with when, sent by one task.
    outbox: mpsc::UnboundedSender<(String, String, Instant)>,
    pending: Mutex<HashMap<u64, oneshot::Sender<Reply>>>,
    next_request: AtomicU64,
    /// Remote games followed for sockets on this node, by id.
    feeds: Mutex<HashMap<GameId, Feed>>,
    /// Told when the connection to Redis came back, so owners renew their leases at once.
    reconnected: tokio::sync::Notify,
    /// What other nodes told players, for this node's sockets.
    players: broadcast::Sender<(PlayerId, PlayerEvent)>,
}

struct Feed {
    owner: String,
    events: broadcast::Sender<Announcement>,
}

impl Cluster {
    /// Joins the cluster on Redis at `url`, with keys under `prefix`. Requests for this node
    /// arrive on the returned receiver.
    ///
    /// # Errors
    /// Redis cannot be reached.
    pub async fn connect(
        url: &str,
        prefix: &str,
    ) -> Result<(Cluster, mpsc::UnboundedReceiver<NodeMsg>), ClusterError> {
        let client = redis::Client::open(url)?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(REDIS_TIMEOUT)
            .set_response_timeout(REDIS_TIMEOUT)
            .set_number_of_retries(2);
        let redis = ConnectionManager::new_with_config(client.clone(), config).await?;
        let node = format!("{:016x}", rand::rng().random::<u64>());
        let (sink, stream) = client.get_async_pubsub().await?.split();
        let (outbox, outgoing) = mpsc::unbounded_channel();
        let inner = Arc::new(Inner {
            node,
            prefix: prefix.to_owned(),
            client,
            redis,
            sink: tokio::sync::Mutex::new(sink),
            outbox,
            pending: Mutex::default(),
            next_request: AtomicU64::new(1),
            feeds: Mutex::default(),
            reconnected: tokio::sync::Notify::new(),
            players: broadcast::channel(PLAYERS_BUFFER).0,
        });
        let cluster = Cluster { inner };
        {
            let mut sink = cluster.inner.sink.lock().await;
            sink.subscribe(cluster.node_channel(&cluster.inner.node)).await?;
            sink.subscribe(cluster.players_channel()).await?;
        }
        cluster.prove_alive().await?;
        let (requests, incoming) = mpsc::unbounded_channel();
        tokio::spawn(cluster.clone().publish_loop(outgoing));
        tokio::spawn(cluster.clone().read_loop(stream, requests));
        tokio::spawn(cluster.clone().heartbeat_loop());
        tokio::spawn(cluster.clone().watch_loop());
        Ok((cluster, incoming))
    }

    /// This node's id.
    pub fn node(&self) -> &str {
        &self.inner.node
    }

    /// Claims game `id` for this node when nobody alive owns it; returns the owner.
    ///
    /// # Errors
    /// Redis cannot be reached.
    pub async fn claim(&self, id: &GameId) -> Result<String, ClusterError> {
        let owners = self.claim_all(std::slice::from_ref(id)).await?;
        owners.into_iter().next().ok_or_else(|| {
            let missing = (redis::ErrorKind::TypeError, "the lease script named no owner");
            ClusterError::Redis(missing.into())
        })
    }

    /// [`Cluster::claim`] for many games in few round trips; the owners in the same order.
    ///
    /// # Errors
    /// Redis cannot be reached.
    pub async fn claim_all(&self, ids: &[GameId]) -> Result<Vec<String>, ClusterError> {
        let mut redis = self.inner.redis.clone();
        let alive_prefix = format!("{}:node:", self.inner.prefix);
        let mut owners = Vec::with_capacity(ids.len());
        for chunk in ids.chunks(CLAIM_CHUNK) {
            let mut invocation = CLAIM_SCRIPT.prepare_invoke();
            for id in chunk {
                invocation.key(self.owner_key(id));
            }
            let chunk_owners: Vec<String> = invocation
                .arg(&self.inner.node)
                .arg(LEASE_MS)
                .arg(&alive_prefix)
                .invoke_async(&mut redis)
                .await?;
            owners.extend(chunk_owners);
        }
        Ok(owners)
    }

    /// Gives up the lease on `id` if this node holds it.
    pub async fn release(&self, id: &GameId) {
        let mut redis = self.inner.redis.clone();
        let released: Result<i64, _> = Script::new(RELEASE)
            .key(self.owner_key(id))
            .arg(&self.inner.node)
            .invoke_async(&mut redis)
            .await;
        if let Err(error) = released {
            tracing::warn!(game = %id, %error, "releasing a game's lease failed");
        }
    }

    /// Publishes what game `id` broadcast, for its sockets on other nodes.
    pub fn publish(&self, id: &GameId, broadcast: &Broadcast) {
        let wire = match broadcast {
            Broadcast::Shutdown => GameWire::Closed { node: self.inner.node.clone() },
            other => GameWire::Broadcast { broadcast: other.clone() },
        };
        self.send(self.game_channel(id), &wire);
    }

    /// Tells followers on other nodes that this node stopped running game `id`.
    pub fn closed(&self, id: &GameId) {
        self.send(self.game_channel(id), &GameWire::Closed { node: self.inner.node.clone() });
    }

    /// Sends `request` (its `id` and `from` filled in here) to node `owner` and waits for the
    /// reply.
    ///
    /// # Errors
    /// Redis cannot be reached, or the owner did not answer in time.
    pub async fn request(
        &self,
        owner: &str,
        request: impl FnOnce(u64, String) -> NodeMsg,
    ) -> Result<Reply, ClusterError> {
        let id = self.inner.next_request.fetch_add(1, Ordering::Relaxed);
        let (reply, answer) = oneshot::channel();
        lock(&self.inner.pending).insert(id, reply);
        self.send(self.node_channel(owner), &request(id, self.inner.node.clone()));
        let outcome = tokio::time::timeout(REQUEST_TIMEOUT, answer).await;
        lock(&self.inner.pending).remove(&id);
        match outcome {
            Ok(Ok(reply)) => Ok(reply),
            _ => Err(ClusterError::Timeout),
        }
    }

    /// Sends `msg` to node `node` without waiting for anything.
    pub fn tell(&self, node: &str, msg: &NodeMsg) {
        self.send(self.node_channel(node), msg);
    }

    /// Answers request `id` of node `to`.
    pub fn reply(&self, to: &str, id: u64, body: Reply) {
        self.send(self.node_channel(to), &NodeMsg::Reply { id, body });
    }

    /// Follows game `id`, run by `owner`, for a socket on this node: the game's messages from
    /// now on. Subscribed before returning, so nothing published afterwards is missed.
    ///
    /// # Errors
    /// Redis cannot be reached.
    pub async fn follow(
        &self,
        id: &GameId,
        owner: &str,
    ) -> Result<broadcast::Receiver<Announcement>, ClusterError> {
        {
            let feeds = lock(&self.inner.feeds);
            if let Some(feed) = feeds.get(id).filter(|feed| feed.owner == owner) {
                return Ok(feed.events.subscribe());
            }
        }
        let channel = self.game_channel(id);
        let subscribed = tokio::time::timeout(REDIS_TIMEOUT, async {
            self.inner.sink.lock().await.subscribe(channel).await
        })
        .await;
        match subscribed {
            Ok(result) => result?,
            Err(_) => return Err(ClusterError::Timeout),
        }
        let mut feeds = lock(&self.inner.feeds);
        let feed = feeds.entry(id.clone()).or_insert_with(|| Feed {
            owner: owner.to_owned(),
            events: broadcast::channel(FEED_BUFFER).0,
        });
        if feed.owner != owner {
            // The game moved to another node: followers of the old one start again.
            *feed = Feed { owner: owner.to_owned(), events: broadcast::channel(FEED_BUFFER).0 };
        }
        Ok(feed.events.subscribe())
    }

    /// Tells player `to`'s sockets on every other node about `event`.
    pub fn tell_player(&self, to: &PlayerId, event: &PlayerEvent) {
        let wire =
            PlayerWire { node: self.inner.node.clone(), to: to.clone(), event: event.clone() };
        self.send(self.players_channel(), &wire);
    }

    /// What other nodes tell players, from now on.
    pub fn player_events(&self) -> broadcast::Receiver<(PlayerId, PlayerEvent)> {
        self.inner.players.subscribe()
    }

    /// Waits until the connection to Redis has come back after a loss (Redis may have lost
    /// every lease).
    pub async fn reconnected(&self) {
        self.inner.reconnected.notified().await;
    }

    /// Tells every socket following a remote game that this node is shutting down.
    pub fn shutdown(&self) {
        for feed in lock(&self.inner.feeds).values() {
            let _ = feed.events.send(Announcement::new(Broadcast::Shutdown));
        }
    }

    fn send(&self, channel: String, msg: &impl serde::Serialize) {
        match wire::encode(msg) {
            Ok(payload) => {
                let _ = self.inner.outbox.send((channel, payload, Instant::now()));
            }
            Err(error) => tracing::error!(%error, "a cluster message could not be encoded"),
        }
    }

    fn owner_key(&self, id: &GameId) -> String {
        format!("{}:game:{id}:owner", self.inner.prefix)
    }

    fn game_channel(&self, id: &GameId) -> String {
        format!("{}:game:{id}", self.inner.prefix)
    }

    fn players_channel(&self) -> String {
        format!("{}:players", self.inner.prefix)
    }

    fn node_channel(&self, node: &str) -> String {
        format!("{}:node:{node}", self.inner.prefix)
    }

    fn alive_key(&self, node: &str) -> String {
        format!("{}:node:{node}:alive", self.inner.prefix)
    }

    async fn prove_alive(&self) -> Result<(), ClusterError> {
        let mut redis = self.inner.redis.clone();
        let () = redis.pset_ex(self.alive_key(&self.inner.node), 1, ALIVE_MS).await?;
        Ok(())
    }

    /// Whether node `node` proved it was alive within the last few seconds.
    ///
    /// # Errors
    /// Redis cannot be reached.
    pub async fn is_alive(&self, node: &str) -> Result<bool, ClusterError> {
        let mut redis = self.inner.redis.clone();
        Ok(redis.exists(self.alive_key(node)).await?)
    }

    /// Publishes in order, one at a time. A publication that fails is dropped, not retried:
    /// a request sent late could be applied after its sender was told it failed, and followers
    /// resubscribe anyway once the connection is back.
    async fn publish_loop(self, mut outgoing: mpsc::UnboundedReceiver<(String, String, Instant)>) {
        let mut redis = self.inner.redis.clone();
        while let Some((channel, payload, made)) = outgoing.recv().await {
            // Queued behind failures for so long that its request has timed out: drop it.
            if made.elapsed() >= REQUEST_TIMEOUT {
                continue;
            }
            if let Err(error) = redis.publish::<_, _, i64>(&channel, &payload).await {
                tracing::warn!(%error, "publishing to the cluster failed");
            }
        }
    }

    /// Reads this node's channels: replies complete requests, requests go to `requests`, and
    /// game messages go to the sockets following the game. Reconnects when Redis goes away.
    async fn read_loop(
        self,
        mut stream: redis::aio::PubSubStream,
        requests: mpsc::UnboundedSender<NodeMsg>,
    ) {
        let node_channel = self.node_channel(&self.inner.node);
        let game_prefix = format!("{}:game:", self.inner.prefix);
        let players_channel = self.players_channel();
        loop {
            while let Some(msg) = stream.next().await {
                let channel = msg.get_channel_name().to_owned();
                let Ok(payload) = msg.get_payload::<String>() else { continue };
                if channel == node_channel {
                    match wire::decode::<NodeMsg>(&payload) {
                        Ok(NodeMsg::Reply { id, body }) => {
                            if let Some(reply) = lock(&self.inner.pending).remove(&id) {
                                let _ = reply.send(body);
                            }
                        }
                        Ok(request) => {
                            let _ = requests.send(request);
                        }
                        Err(error) => unread(&error),
                    }
                } else if channel == players_channel {
                    match wire::decode::<PlayerWire>(&payload) {
                        Ok(wire) if wire.node != self.inner.node => {
                            let _ = self.inner.players.send((wire.to, wire.event));
                        }
                        Ok(_) => {}
                        Err(error) => unread(&error),
                    }
                } else if let Some(game) = channel.strip_prefix(&game_prefix) {
                    let Ok(id) = game.parse::<GameId>() else { continue };
                    match wire::decode::<GameWire>(&payload) {
                        Ok(GameWire::Broadcast { broadcast }) => {
                            if let Some(feed) = lock(&self.inner.feeds).get(&id) {
                                let _ = feed.events.send(Announcement::new(broadcast));
                            }
                        }
                        Ok(GameWire::Closed { node }) => {
                            let followed = lock(&self.inner.feeds)
                                .get(&id)
                                .is_some_and(|feed| feed.owner == node);
                            if followed {
                                self.drop_feed(&id).await;
                            }
                        }
                        Err(error) => unread(&error),
                    }
                }
            }
            tracing::warn!("lost the cluster's pub/sub connection; reconnecting");
            stream = self.reconnect().await;
        }
    }

    /// A new pub/sub connection with this node's channel subscribed. Owners are told first, to
    /// claim their games again; a moment later the followed games are dropped (their sockets
    /// resubscribe, since messages may have been missed meanwhile), by when the owners hold
    /// their leases again.
    async fn reconnect(&self) -> redis::aio::PubSubStream {
        loop {
            tokio::time::sleep(Duration::from_millis(500)).await;
            let connected = tokio::time::timeout(REDIS_TIMEOUT, async {
                let (mut sink, stream) = self.inner.client.get_async_pubsub().await?.split();
                sink.subscribe(self.node_channel(&self.inner.node)).await?;
                sink.subscribe(self.players_channel()).await?;
                Ok::<_, redis::RedisError>((sink, stream))
            })
            .await;
            match connected {
                Ok(Ok((sink, stream))) => {
                    *self.inner.sink.lock().await = sink;
                    let _ = self.prove_alive().await;
                    self.inner.reconnected.notify_waiters();
                    let cluster = self.clone();
                    tokio::spawn(async move {
                        tokio::time::sleep(RESUBSCRIBE_AFTER).await;
                        let followed: Vec<GameId> =
                            lock(&cluster.inner.feeds).keys().cloned().collect();
                        for id in followed {
                            cluster.drop_feed(&id).await;
                        }
                    });
                    return stream;
                }
                Ok(Err(error)) => tracing::warn!(%error, "cannot reach Redis yet"),
                Err(_) => tracing::warn!("cannot reach Redis yet"),
            }
        }
    }

    async fn drop_feed(&self, id: &GameId) {
        let removed = lock(&self.inner.feeds).remove(id);
        if removed.is_some() {
            let channel = self.game_channel(id);
            let _ = tokio::time::timeout(REDIS_TIMEOUT, async {
                self.inner.sink.lock().await.unsubscribe(channel).await
            })
            .await;
        }
    }

    async fn heartbeat_loop(self) {
        let mut every = tokio::time::interval(HEARTBEAT);
        loop {
            every.tick().await;
            if let Err(error) = self.prove_alive().await {
                tracing::warn!(%error, "cannot renew this node's proof of life");
            }
        }
    }

    /// Drops feeds nobody follows any more, and feeds whose owner died, so their sockets
    /// resubscribe and the game is taken over.
    async fn watch_loop(self) {
        let mut every = tokio::time::interval(WATCH_EVERY);
        loop {
            every.tick().await;
            let feeds: Vec<(GameId, String, usize)> = lock(&self.inner.feeds)
                .iter()
                .map(|(id, feed)| (id.clone(), feed.owner.clone(), feed.events.receiver_count()))
                .collect();
            // Each owner is asked about once, however many of its games are followed.
            let mut dead_owners = HashMap::new();
            for (_, owner, followers) in &feeds {
                if *followers > 0 && !dead_owners.contains_key(owner) {
                    let dead = matches!(self.is_alive(owner).await, Ok(false));
                    dead_owners.insert(owner.clone(), dead);
                }
            }
            for (id, owner, followers) in feeds {
                let dead = followers > 0 && dead_owners.get(&owner).copied().unwrap_or(false);
                if followers == 0 || dead {
                    if dead {
                        tracing::info!(game = %id, %owner, "the node running a game is gone");
                    }
                    self.drop_feed(&id).await;
                }
            }
        }
    }
}

/// Logs a message from another node that this one does not read: from a node of another
/// protocol version (during a rolling deploy), or malformed.
fn unread(error: &WireError) {
    match error {
        WireError::OtherVersion(_) => tracing::debug!(%error, "ignored a cluster message"),
        WireError::Malformed(_) => tracing::warn!(%error, "unreadable cluster message"),
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
