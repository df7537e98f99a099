//! The lobby as it changes, for every open `/api/lobby/ws` on this node: one task builds the
//! lobby ([`Lobby::now`], the same as `GET /api/lobby`) every [`LobbyFeed::EVERY`] while anyone
//! watches, and hands it to the sockets only when it changed. So the store is read once per
//! period, not once per visitor, and a visitor hears of a seek, a move or a result within a
//! period without asking. Every node builds it from the shared store and queue, so visitors on
//! different nodes see the same lobby (its `online` count excepted: who has a socket open is
//! known per node).

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use crate::routes::lobby::Lobby;
use crate::service::{Matchmaking, Online};
use crate::storage::Store;

/// The lobby's latest JSON (`None` until it was first built). Cheap to clone.
#[derive(Clone, Debug)]
pub struct LobbyFeed {
    sender: Arc<watch::Sender<Option<Arc<str>>>>,
}

impl Default for LobbyFeed {
    fn default() -> Self {
        LobbyFeed { sender: Arc::new(watch::Sender::new(None)) }
    }
}

impl LobbyFeed {
    /// How often the lobby is built again while someone watches.
    pub const EVERY: Duration = Duration::from_secs(2);

    /// The lobby as it changes: the latest first, then each change.
    pub fn subscribe(&self) -> watch::Receiver<Option<Arc<str>>> {
        self.sender.subscribe()
    }

    /// Starts the task that builds the lobby every `every` while a socket watches it.
    pub fn spawn(&self, online: Online, matchmaking: Matchmaking, store: Store, every: Duration) {
        let sender = Arc::clone(&self.sender);
        actix_web::rt::spawn(async move {
            let mut ticks = tokio::time::interval(every);
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                ticks.tick().await;
                if sender.receiver_count() == 0 {
                    // Nobody watches: what is kept is stale by the next visitor, who waits for
                    // the next build instead.
                    sender.send_replace(None);
                    continue;
                }
                match Lobby::now(&online, &matchmaking, &store, matchmaking.now()).await {
                    Ok(lobby) => {
                        let text: Arc<str> = serde_json::json!({ "type": "lobby", "lobby": lobby })
                            .to_string()
                            .into();
                        sender.send_if_modified(|held| {
                            let changed = held.as_deref() != Some(&*text);
                            if changed {
                                *held = Some(text);
                            }
                            changed
                        });
                    }
                    Err(error) => tracing::warn!(%error, "the lobby could not be built"),
                }
            }
        });
    }
}
