//! What each signed-in player is told as it happens (a challenge, a notification), for the
//! player's sockets (`/api/me/ws`) on this node and, through the cluster, on every other.
//! Nothing here is kept: what a player must not miss is stored first (the challenge, the
//! notification), and a socket that opens reads it from the store.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::broadcast;

use crate::cluster::Cluster;
use crate::domain::PlayerId;
use crate::social::PlayerEvent;

/// Events buffered per player on this node; a socket further behind misses some and is told
/// to read the lists again.
const BUFFER: usize = 64;

/// The players' feeds on this node. Cheap to clone.
#[derive(Clone, Debug, Default)]
pub struct PlayerFeed {
    inner: Arc<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    players: Mutex<HashMap<PlayerId, broadcast::Sender<PlayerEvent>>>,
    cluster: Option<Cluster>,
}

impl PlayerFeed {
    /// A feed for one node, or for this node of `cluster` (then spawns the task that passes
    /// what other nodes tell players to the sockets here).
    pub fn new(cluster: Option<Cluster>) -> PlayerFeed {
        let feed = PlayerFeed { inner: Arc::new(Inner { players: Mutex::default(), cluster }) };
        if let Some(cluster) = &feed.inner.cluster {
            let mut heard = cluster.player_events();
            let relay = feed.clone();
            actix_web::rt::spawn(async move {
                loop {
                    match heard.recv().await {
                        Ok((to, event)) => relay.deliver(&to, event),
                        Err(broadcast::error::RecvError::Lagged(missed)) => {
                            tracing::warn!(missed, "players' events from other nodes were missed");
                        }
                        Err(broadcast::error::RecvError::Closed) => break,
                    }
                }
            });
        }
        feed
    }

    /// Tells `to` about `event` on every node.
    pub fn tell(&self, to: &PlayerId, event: &PlayerEvent) {
        self.deliver(to, event.clone());
        if let Some(cluster) = &self.inner.cluster {
            cluster.tell_player(to, event);
        }
    }

    /// What `player` is told from now on, on this node.
    pub fn subscribe(&self, player: &PlayerId) -> Subscription {
        let receiver = self
            .players()
            .entry(player.clone())
            .or_insert_with(|| broadcast::channel(BUFFER).0)
            .subscribe();
        Subscription { receiver, feed: self.clone(), player: player.clone() }
    }

    /// Whether `player` has a socket open on this node.
    pub fn is_connected(&self, player: &PlayerId) -> bool {
        self.players().get(player).is_some_and(|sender| sender.receiver_count() > 0)
    }

    fn deliver(&self, to: &PlayerId, event: PlayerEvent) {
        if let Some(sender) = self.players().get(to) {
            let _ = sender.send(event);
        }
    }

    fn players(&self) -> MutexGuard<'_, HashMap<PlayerId, broadcast::Sender<PlayerEvent>>> {
        self.inner.players.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// One socket's share of a player's feed; the player is forgotten with their last one.
#[derive(Debug)]
pub struct Subscription {
    receiver: broadcast::Receiver<PlayerEvent>,
    feed: PlayerFeed,
    player: PlayerId,
}

impl Subscription {
    /// The next event; `None` when some were missed (the socket reads its lists again).
    pub async fn next(&mut self) -> Option<PlayerEvent> {
        match self.receiver.recv().await {
            Ok(event) => Some(event),
            Err(broadcast::error::RecvError::Lagged(_)) => None,
            // The sender is kept while this receiver lives.
            Err(broadcast::error::RecvError::Closed) => std::future::pending().await,
        }
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let mut players = self.feed.players();
        // This receiver is still counted: it is the last when the count is one.
        if players.get(&self.player).is_some_and(|sender| sender.receiver_count() <= 1) {
            players.remove(&self.player);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{NotificationId, NotificationKind, Timestamp};
    use crate::social::Notification;

    fn event() -> PlayerEvent {
        PlayerEvent::Notification {
            notification: Notification {
                id: NotificationId::generate(),
                kind: NotificationKind::ChallengeDeclined,
                created_at: Timestamp(1),
                read: false,
                data: serde_json::Value::Null,
            },
        }
    }

    #[tokio::test]
    async fn an_event_reaches_every_socket_of_its_player_and_no_other() {
        let feed = PlayerFeed::default();
        let (alice, bob) = (PlayerId::generate(), PlayerId::generate());
        let mut first = feed.subscribe(&alice);
        let mut second = feed.subscribe(&alice);
        let mut other = feed.subscribe(&bob);
        feed.tell(&alice, &event());
        assert!(first.next().await.is_some());
        assert!(second.next().await.is_some());
        assert!(other.receiver.try_recv().is_err());
    }

    #[test]
    fn a_player_is_forgotten_with_their_last_socket() {
        let feed = PlayerFeed::default();
        let alice = PlayerId::generate();
        let first = feed.subscribe(&alice);
        let second = feed.subscribe(&alice);
        drop(first);
        assert!(feed.is_connected(&alice));
        drop(second);
        assert!(!feed.is_connected(&alice));
        assert!(feed.players().is_empty());
    }
}
