//! The socket caps on one node or several: a socket is counted on its node (who is online
//! here) and, when nodes share Redis, across the cluster, so that one address or player holds
//! no more sockets on all nodes together than the caps allow on one.

use crate::cluster::{CapReached, Cluster, SharedSocket, SocketCaps};
use crate::service::{MAX_SOCKETS_PER_PLAYER, Online, OnlineGuard, TooManySockets, Visitor};

/// Where sockets are counted: this node's [`Online`], and the cluster when there is one.
#[derive(Clone, Debug)]
pub struct OpenSockets {
    online: Online,
    cluster: Option<Cluster>,
}

/// One admitted socket, counted until dropped.
#[derive(Debug)]
pub struct Counted {
    _here: OnlineGuard,
    _across: Option<SharedSocket>,
}

impl OpenSockets {
    /// Counts on `online`, and across `cluster` when there is one.
    pub fn new(online: Online, cluster: Option<Cluster>) -> OpenSockets {
        OpenSockets { online, cluster }
    }

    /// Counts one more socket of `visitor`, unless a cap is reached on this node or, with a
    /// cluster, on all nodes together. When Redis cannot be reached the node's own caps still
    /// hold and the socket opens: a lost count must not lock players out.
    ///
    /// # Errors
    /// [`TooManySockets`] names the cap reached; nothing is counted then.
    pub async fn enter(&self, visitor: &Visitor) -> Result<Counted, TooManySockets> {
        let here = self.online.try_enter(visitor)?;
        let Some(cluster) = &self.cluster else {
            return Ok(Counted { _here: here, _across: None });
        };
        let caps =
            SocketCaps { per_player: MAX_SOCKETS_PER_PLAYER, per_client: self.online.client_cap() };
        match cluster.enter_socket(&visitor.client, visitor.player.as_ref(), caps).await {
            Ok(Ok(across)) => Ok(Counted { _here: here, _across: Some(across) }),
            Ok(Err(CapReached::Player)) => Err(TooManySockets::Player),
            Ok(Err(CapReached::Client)) => Err(TooManySockets::Client(caps.per_client)),
            Err(error) => {
                tracing::warn!(%error, "a socket was counted on this node only");
                Ok(Counted { _here: here, _across: None })
            }
        }
    }

    /// Rewrites this node's counts in the cluster from the sockets it holds, each time the
    /// connection to Redis comes back (counts-out may have been lost meanwhile). Runs for as
    /// long as the server; nothing to do without a cluster.
    pub async fn recount_after_reconnections(self) {
        let Some(cluster) = self.cluster else { return };
        loop {
            cluster.reconnected().await;
            let held = self.online.held();
            if let Err(error) = cluster.recount_sockets(&held.per_client, &held.per_player).await {
                tracing::warn!(%error, "this node's sockets could not be recounted");
            }
        }
    }
}
