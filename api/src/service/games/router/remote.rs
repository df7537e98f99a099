//! A game that runs on another node, reached through requests on that node's channel: the
//! cluster's messages are spoken here and in [`super::serving`], nowhere else in the service.

use std::fmt;

use crate::cluster::wire::{NodeMsg, Refusal, Reply};
use crate::cluster::{Cluster, ClusterError};
use crate::domain::{GameId, PlayerId};
use crate::live::Action;
use crate::service::ServiceError;
use crate::service::games::local_game::Subscription;

/// A game whose lease another live node holds.
#[derive(Clone)]
pub(in crate::service::games) struct RemoteGame {
    cluster: Cluster,
    owner: String,
}

impl fmt::Debug for RemoteGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RemoteGame").field("owner", &self.owner).finish()
    }
}

/// What became of a request sent to the owner.
#[derive(Debug)]
pub(in crate::service::games) enum Answer<T> {
    /// The owner answered.
    Answered(Result<T, ServiceError>),
    /// The owner no longer runs the game (or did not answer in time): find it again.
    Moved,
}

impl RemoteGame {
    pub(super) fn new(cluster: Cluster, owner: String) -> RemoteGame {
        RemoteGame { cluster, owner }
    }

    /// Asks the owner to apply `by`'s `action` to game `id`.
    pub(in crate::service::games) async fn act(
        &self,
        id: &GameId,
        by: PlayerId,
        action: Action,
    ) -> Answer<()> {
        let game = id.clone();
        let request = |id, from| NodeMsg::Command { id, from, game, by, action };
        match self.cluster.request(&self.owner, request).await {
            Ok(Reply::Done) => Answer::Answered(Ok(())),
            Ok(Reply::Refused { refusal }) => Answer::Answered(Err(refused(id, refusal))),
            Ok(Reply::NotHere | Reply::Subscribed { .. }) | Err(ClusterError::Timeout) => {
                Answer::Moved
            }
            Err(ClusterError::Redis(error)) => {
                tracing::warn!(%error, "cannot reach the cluster");
                Answer::Answered(Err(ServiceError::Unavailable))
            }
        }
    }

    /// Follows game `id`'s stream on this node, then asks the owner for what `player` missed
    /// since version `since`.
    ///
    /// # Errors
    /// [`ServiceError::Unavailable`] when the owner cannot be reached or no longer runs it.
    pub(in crate::service::games) async fn subscribe(
        &self,
        id: &GameId,
        player: PlayerId,
        since: Option<u64>,
    ) -> Result<Subscription, ServiceError> {
        let events =
            self.cluster.follow(id, &self.owner).await.map_err(|_| ServiceError::Unavailable)?;
        let game = id.clone();
        let request = |id, from| NodeMsg::Subscribe { id, from, game, player, since };
        match self.cluster.request(&self.owner, request).await {
            Ok(Reply::Subscribed { seat, catch_up, presence }) => {
                Ok(Subscription { seat, catch_up, presence, events })
            }
            _ => Err(ServiceError::Unavailable),
        }
    }

    /// Tells the owner that one of `player`'s connections to game `id` opened or closed.
    pub(in crate::service::games) fn presence(
        &self,
        id: &GameId,
        player: PlayerId,
        connected: bool,
    ) {
        let from = self.cluster.node().to_owned();
        let msg = NodeMsg::Presence { from, game: id.clone(), player, connected };
        self.cluster.tell(&self.owner, &msg);
    }
}

/// How the node running a game tells another node that it refused a command.
pub(super) fn refusal(error: &ServiceError) -> Refusal {
    match error {
        ServiceError::Command(error) => Refusal::Command(*error),
        ServiceError::NotFound(_) => Refusal::NotFound,
        ServiceError::Storage(_)
        | ServiceError::Unavailable
        | ServiceError::Corrupt(_)
        | ServiceError::OverBudget(_) => Refusal::Unavailable,
    }
}

/// The error of a command that the node running game `id` refused.
fn refused(id: &GameId, refusal: Refusal) -> ServiceError {
    match refusal {
        Refusal::Command(error) => ServiceError::Command(error),
        Refusal::NotFound => ServiceError::NotFound(id.clone()),
        Refusal::Unavailable => ServiceError::Unavailable,
    }
}
