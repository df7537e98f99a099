//! Where games run: on this node alone, or shared with other nodes through Redis. The one
//! seam between the games and the cluster, chosen once at start-up (as the matchmaker's
//! `AnyQueue` chooses the queue).

use crate::cluster::Cluster;
use crate::domain::GameId;
use crate::live::Broadcast;

use super::ServiceError;

/// Where games run.
#[derive(Clone, Debug)]
pub enum Router {
    /// Every game runs in this process.
    Alone,
    /// Games are shared with the other nodes of the cluster; each runs on its lease holder.
    Cluster(Cluster),
}

/// Who runs a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Owner {
    /// This node (it holds the lease, or there is no cluster).
    Here,
    /// Another node, alive, holding the lease.
    Node(String),
}

impl Router {
    /// The cluster, when games are shared.
    pub fn cluster(&self) -> Option<&Cluster> {
        match self {
            Router::Alone => None,
            Router::Cluster(cluster) => Some(cluster),
        }
    }

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
        Ok(if owner == cluster.node() { Owner::Here } else { Owner::Node(owner) })
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
}
