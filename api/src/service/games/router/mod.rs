//! Where games run: on this node alone, or shared with other nodes through Redis. The one
//! seam between the games and the cluster, chosen once at start-up (as the matchmaker's
//! `AnyQueue` chooses the queue): the rest of the service never names the cluster.

mod presence_ledger;
mod remote;
mod serving;

pub(super) use remote::{Answer, RemoteGame};
pub use serving::spawn_serving;

use tokio::time::Interval;

use crate::cluster::{Cluster, RENEW_EVERY};
use crate::domain::GameId;
use crate::live::Broadcast;
use crate::service::ServiceError;

/// Where games run.
#[derive(Clone, Debug)]
pub enum Router {
    /// Every game runs in this process.
    Alone,
    /// Games are shared with the other nodes of the cluster; each runs on its lease holder.
    Cluster(Cluster),
}

/// Who runs a game.
#[derive(Clone, Debug)]
pub(super) enum Owner {
    /// This node (it holds the lease, or there is no cluster).
    Here,
    /// Another node, alive, holding the lease.
    Elsewhere(RemoteGame),
}

impl Router {
    /// Claims game `id` for this node unless another live node runs it.
    ///
    /// # Errors
    /// [`ServiceError::Unavailable`] when the cluster cannot be reached.
    pub(super) async fn claim(&self, id: &GameId) -> Result<Owner, ServiceError> {
        let Router::Cluster(cluster) = self else { return Ok(Owner::Here) };
        let owner = cluster.claim(id).await.map_err(|error| {
            tracing::warn!(game = %id, %error, "cannot reach the cluster");
            ServiceError::Unavailable
        })?;
        Ok(if owner == cluster.node() {
            Owner::Here
        } else {
            Owner::Elsewhere(RemoteGame::new(cluster.clone(), owner))
        })
    }

    /// Tells the game's followers on other nodes what it broadcast.
    pub(super) fn publish(&self, id: &GameId, broadcast: &Broadcast) {
        if let Router::Cluster(cluster) = self {
            cluster.publish(id, broadcast);
        }
    }

    /// The game's task here has stopped: its followers elsewhere resubscribe, and the lease is
    /// given up so that the next node to need the game runs it.
    pub(super) async fn stopped(&self, id: &GameId) {
        if let Router::Cluster(cluster) = self {
            cluster.closed(id);
            cluster.release(id).await;
        }
    }

    /// Gives up the lease on a game that turned out not to exist.
    pub(super) async fn release(&self, id: &GameId) {
        if let Router::Cluster(cluster) = self {
            cluster.release(id).await;
        }
    }

    /// Tells the sockets following games on other nodes that this node is going away.
    pub(super) fn shutdown(&self) {
        if let Router::Cluster(cluster) = self {
            cluster.shutdown();
        }
    }

    /// The renewal of this node's leases, in a cluster.
    pub(super) fn lease_renewal(&self) -> Option<LeaseRenewal> {
        let Router::Cluster(cluster) = self else { return None };
        let every = tokio::time::interval(RENEW_EVERY);
        Some(LeaseRenewal { cluster: cluster.clone(), every })
    }
}

/// Keeps this node's leases on the games it runs, before they lapse.
#[derive(Debug)]
pub(super) struct LeaseRenewal {
    cluster: Cluster,
    every: Interval,
}

impl LeaseRenewal {
    /// Waits until the leases are due for renewal: every `RENEW_EVERY`, and at once when the
    /// connection to Redis comes back.
    pub(super) async fn due(&mut self) {
        tokio::select! {
            _ = self.every.tick() => {}
            () = self.cluster.reconnected() => {}
        }
    }

    /// Renews the leases on `ids`; for each, the node that took it over while this node was
    /// thought dead, if any.
    ///
    /// # Errors
    /// [`ServiceError::Unavailable`] when the cluster cannot be reached.
    pub(super) async fn renew(&self, ids: &[GameId]) -> Result<Vec<Option<String>>, ServiceError> {
        let owners = self.cluster.claim_all(ids).await.map_err(|error| {
            tracing::warn!(%error, "cannot renew game leases");
            ServiceError::Unavailable
        })?;
        let here = self.cluster.node();
        Ok(owners.into_iter().map(|owner| (owner != here).then_some(owner)).collect())
    }
}
