//! Which sessions no longer count: per player, the time before which their sessions were
//! ended (by signing out, deleting the account or changing the name).
//!
//! Checked on every request without a database read: each node keeps the revocations of the
//! last [`LIFETIME_SECONDS`] (older sessions have expired anyway) in memory, records its own at
//! once, and reads the other nodes' from the store every [`POLL_EVERY`].
//!
//! What outlives a request, an open WebSocket, holds a [`SessionWatch`]: it hears of every new
//! revocation this node records, its own or another node's, so the socket ends as soon as its
//! session does.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use tokio::sync::broadcast;

use crate::domain::{PlayerId, Timestamp};
use crate::identity::session::LIFETIME_SECONDS;
use crate::storage::{DbError, DbResult, Revocation, Store};

/// How often a node reads the revocations other nodes made.
pub const POLL_EVERY: Duration = Duration::from_secs(2);
/// How far back each read looks again, for clocks of different nodes that disagree a little.
const CLOCK_SKEW_MS: i64 = 60_000;
const LIFETIME_MS: i64 = LIFETIME_SECONDS * 1000;
/// New revocations a slow watcher may fall behind by before it checks its session again anyway.
const NEWS_BACKLOG: usize = 256;

/// The revocations in force, shared by every request of this node. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Revocations(Arc<Shared>);

#[derive(Debug)]
struct Shared {
    /// Per player, the time before which their sessions no longer count.
    ended: RwLock<HashMap<PlayerId, Timestamp>>,
    /// The player of each revocation recorded since, for the [`SessionWatch`]es.
    news: broadcast::Sender<PlayerId>,
}

impl Default for Revocations {
    fn default() -> Revocations {
        let (news, _) = broadcast::channel(NEWS_BACKLOG);
        Revocations(Arc::new(Shared { ended: RwLock::default(), news }))
    }
}

impl Revocations {
    /// Whether a session of `player` issued at `issued_at` has been ended.
    pub fn is_revoked(&self, player: &PlayerId, issued_at: Timestamp) -> bool {
        let revocations = self.0.ended.read().unwrap_or_else(|poisoned| poisoned.into_inner());
        revocations.get(player).is_some_and(|valid_after| issued_at < *valid_after)
    }

    /// A watch on the session of `player` issued at `issued_at`, for as long as it stays open.
    pub fn watch(&self, player: PlayerId, issued_at: Timestamp) -> SessionWatch {
        SessionWatch { revocations: self.clone(), news: self.0.news.subscribe(), player, issued_at }
    }

    /// Ends the sessions of `player` issued before `at`, here and (through `store`) on every
    /// node. The stored revocation expires with the last session it ends, [`LIFETIME_SECONDS`]
    /// after `at`.
    ///
    /// The store's write runs to its end even if the caller is dropped meanwhile (a request
    /// whose client left), so a revocation this node recorded always reaches the others.
    ///
    /// # Errors
    /// The store could not record it; this node has recorded it all the same.
    pub async fn revoke(&self, store: &Store, player: &PlayerId, at: Timestamp) -> DbResult<()> {
        self.record(player.clone(), at);
        let revocation = Revocation {
            player: player.clone(),
            valid_after: at,
            expires_at: at.plus(LIFETIME_MS),
        };
        let store = store.clone();
        let write = tokio::spawn(async move { store.revoke_sessions(&revocation).await });
        write
            .await
            .map_err(|error| DbError::Other(format!("the revocation's write failed: {error}")))?
    }

    /// Reads every revocation still in force at `now` from `store`, after deleting the expired
    /// ones; returns the time to read from next (see [`Revocations::spawn_refresh`]).
    ///
    /// # Errors
    /// The store could not be read or written.
    pub async fn load(&self, store: &Store, now: Timestamp) -> DbResult<Timestamp> {
        let deleted = store.delete_expired_revocations(now).await?;
        if deleted > 0 {
            tracing::info!(deleted, "expired session revocations deleted");
        }
        self.refresh(store, Timestamp(now.0 - LIFETIME_MS), now).await
    }

    /// Reads from `store` the revocations made since `since` and records them; returns the
    /// time to read from next.
    ///
    /// # Errors
    /// The store could not be read.
    pub async fn refresh(
        &self,
        store: &Store,
        since: Timestamp,
        now: Timestamp,
    ) -> DbResult<Timestamp> {
        let read = store.session_revocations_since(Timestamp(since.0 - CLOCK_SKEW_MS)).await?;
        let newest = read.iter().map(|(_, at)| *at).max().unwrap_or(since).max(since);
        for (player, at) in read {
            self.record(player, at);
        }
        self.forget_before(Timestamp(now.0 - LIFETIME_MS));
        Ok(newest)
    }

    /// Keeps reading the other nodes' revocations from `store` until the process ends.
    pub fn spawn_refresh(&self, store: Store, mut since: Timestamp) {
        let revocations = self.clone();
        actix_web::rt::spawn(async move {
            let mut every = tokio::time::interval(POLL_EVERY);
            loop {
                every.tick().await;
                match revocations.refresh(&store, since, Timestamp::now()).await {
                    Ok(next) => since = next,
                    Err(error) => tracing::warn!(%error, "session revocations not read"),
                }
            }
        });
    }

    /// Records that the sessions of `player` issued before `at` are ended; the watches hear of
    /// it unless an equal or later revocation was recorded already.
    fn record(&self, player: PlayerId, at: Timestamp) {
        {
            let mut revocations =
                self.0.ended.write().unwrap_or_else(|poisoned| poisoned.into_inner());
            let valid_after = revocations.entry(player.clone()).or_insert(Timestamp(i64::MIN));
            if *valid_after >= at {
                return;
            }
            *valid_after = at;
        }
        // No socket open on this node: nobody to tell.
        let _ = self.0.news.send(player);
    }

    /// Drops revocations older than any session that could still be valid.
    fn forget_before(&self, oldest: Timestamp) {
        let mut revocations = self.0.ended.write().unwrap_or_else(|poisoned| poisoned.into_inner());
        revocations.retain(|_, valid_after| *valid_after >= oldest);
    }
}

/// One open session's watch on the revocations: says whether it is ended, and waits until it
/// is. Each revocation recorded on the node wakes every watch once, which compares players.
#[derive(Debug)]
pub struct SessionWatch {
    revocations: Revocations,
    news: broadcast::Receiver<PlayerId>,
    player: PlayerId,
    issued_at: Timestamp,
}

impl SessionWatch {
    /// Whether the session has been ended.
    pub fn is_revoked(&self) -> bool {
        self.revocations.is_revoked(&self.player, self.issued_at)
    }

    /// Resolves once the session has been ended (at once if it already is). Cancel-safe: it
    /// may be dropped and called again, as in a `select!` loop.
    pub async fn revoked(&mut self) {
        loop {
            if self.is_revoked() {
                return;
            }
            match self.news.recv().await {
                // Another player's, or fallen behind: checked again above.
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                // The node's revocations are gone (it is stopping): nothing more will end it.
                Err(broadcast::error::RecvError::Closed) => std::future::pending().await,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_issued_before_its_revocation_is_revoked_and_one_issued_after_is_not() {
        let revocations = Revocations::default();
        let ann = PlayerId::generate();
        revocations.record(ann.clone(), Timestamp(1_000));
        assert!(revocations.is_revoked(&ann, Timestamp(999)));
        assert!(!revocations.is_revoked(&ann, Timestamp(1_000)));
        assert!(!revocations.is_revoked(&PlayerId::generate(), Timestamp(0)));
    }

    #[test]
    fn the_later_of_two_revocations_counts() {
        let revocations = Revocations::default();
        let ann = PlayerId::generate();
        revocations.record(ann.clone(), Timestamp(2_000));
        revocations.record(ann.clone(), Timestamp(1_000));
        assert!(revocations.is_revoked(&ann, Timestamp(1_500)));
    }

    #[tokio::test]
    async fn a_watch_wakes_when_its_session_is_revoked() {
        let revocations = Revocations::default();
        let ann = PlayerId::generate();
        let mut watch = revocations.watch(ann.clone(), Timestamp(1_000));
        assert!(!watch.is_revoked());
        revocations.record(ann, Timestamp(1_001));
        assert!(watch.is_revoked());
        tokio::time::timeout(Duration::from_secs(1), watch.revoked()).await.unwrap();
    }

    #[tokio::test]
    async fn a_watch_sleeps_through_other_players_and_later_sessions_revocations() {
        let revocations = Revocations::default();
        let ann = PlayerId::generate();
        let mut watch = revocations.watch(ann.clone(), Timestamp(1_000));
        revocations.record(PlayerId::generate(), Timestamp(2_000));
        revocations.record(ann, Timestamp(1_000));
        let waited = tokio::time::timeout(Duration::from_millis(50), watch.revoked()).await;
        assert!(waited.is_err());
        assert!(!watch.is_revoked());
    }

    #[tokio::test]
    async fn a_watch_that_fell_behind_still_sees_its_revocation() {
        let revocations = Revocations::default();
        let ann = PlayerId::generate();
        let mut watch = revocations.watch(ann.clone(), Timestamp(1_000));
        revocations.record(ann, Timestamp(2_000));
        for _ in 0..=NEWS_BACKLOG {
            revocations.record(PlayerId::generate(), Timestamp(2_000));
        }
        tokio::time::timeout(Duration::from_secs(1), watch.revoked()).await.unwrap();
    }

    #[test]
    fn revocations_older_than_a_session_lifetime_are_forgotten() {
        let revocations = Revocations::default();
        let ann = PlayerId::generate();
        revocations.record(ann.clone(), Timestamp(1_000));
        revocations.forget_before(Timestamp(1_001));
        assert!(!revocations.is_revoked(&ann, Timestamp(0)));
    }
}
