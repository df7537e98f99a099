//! A way to reach one game, wherever it runs: its task on this node, or, in a cluster, the
//! node holding its lease, reached through requests on that node's channel.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::cluster::wire::{NodeMsg, Reply};
use crate::cluster::{Cluster, ClusterError};
use crate::domain::{GameId, PlayerId};
use crate::live::{Action, Command};

use super::ServiceError;
use super::local_game::{LocalGame, Subscription};

/// Where a game runs now.
pub(super) enum Route {
    Local(LocalGame),
    Remote { cluster: Cluster, owner: String },
}

/// A boxed future of a [`Route`].
pub(super) type RouteFuture<'a> =
    Pin<Box<dyn Future<Output = Result<Route, ServiceError>> + Send + 'a>>;

/// Finds where a game runs, starting it here when nobody alive runs it (the registry of
/// running games does this; a handle asks again on each use, since games move between nodes).
pub(super) trait Locate: Send + Sync {
    fn locate<'a>(&'a self, id: &'a GameId) -> RouteFuture<'a>;
}

/// A way to reach one game. Cheap to clone.
#[derive(Clone)]
pub struct GameHandle {
    route: HandleRoute,
}

#[derive(Clone)]
enum HandleRoute {
    Local(LocalGame),
    /// Found again on each use.
    Cluster {
        locate: Arc<dyn Locate>,
        id: GameId,
    },
}

impl fmt::Debug for GameHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.route {
            HandleRoute::Local(game) => f.debug_tuple("GameHandle::Local").field(game).finish(),
            HandleRoute::Cluster { id, .. } => {
                f.debug_struct("GameHandle::Cluster").field("id", id).finish()
            }
        }
    }
}

impl GameHandle {
    pub(super) fn local(game: LocalGame) -> GameHandle {
        GameHandle { route: HandleRoute::Local(game) }
    }

    pub(super) fn cluster(locate: Arc<dyn Locate>, id: GameId) -> GameHandle {
        GameHandle { route: HandleRoute::Cluster { locate, id } }
    }

    /// Applies `by`'s `action`; `Ok` once its events are stored and broadcast.
    ///
    /// # Errors
    /// The game refused the action, could not store it, or cannot be reached now.
    pub async fn act(&self, by: PlayerId, action: Action) -> Result<(), ServiceError> {
        match &self.route {
            HandleRoute::Local(game) => game.command(Command::Player { by, action }).await,
            HandleRoute::Cluster { locate, id } => act_anywhere(&**locate, id, by, action).await,
        }
    }

    /// Subscribes `player` to the game; `since` is the last version the client saw.
    ///
    /// # Errors
    /// [`ServiceError::Unavailable`] if the game's task has stopped or cannot be reached.
    pub async fn subscribe(
        &self,
        player: PlayerId,
        since: Option<u64>,
    ) -> Result<Subscription, ServiceError> {
        match &self.route {
            HandleRoute::Local(game) => game.subscribe(player, since).await,
            HandleRoute::Cluster { locate, id } => {
                subscribe_anywhere(&**locate, id, player, since).await
            }
        }
    }

    /// Tells the game that one of `player`'s connections opened (`true`) or closed (`false`).
    pub async fn presence(&self, player: PlayerId, connected: bool) {
        match &self.route {
            HandleRoute::Local(game) => game.presence(player, connected).await,
            HandleRoute::Cluster { locate, id } => {
                presence_anywhere(&**locate, id, player, connected).await;
            }
        }
    }
}

/// Applies `action` to game `id` wherever it runs. If the owner has gone, the game is found
/// again (and taken over when nobody runs it) and the action tried once more.
async fn act_anywhere(
    locate: &dyn Locate,
    id: &GameId,
    by: PlayerId,
    action: Action,
) -> Result<(), ServiceError> {
    for _ in 0..2 {
        let (cluster, owner) = match locate.locate(id).await? {
            Route::Local(game) => return game.command(Command::Player { by, action }).await,
            Route::Remote { cluster, owner } => (cluster, owner),
        };
        let (game, by) = (id.clone(), by.clone());
        let request = |id, from| NodeMsg::Command { id, from, game, by, action };
        match cluster.request(&owner, request).await {
            Ok(Reply::Done) => return Ok(()),
            Ok(Reply::Refused { refusal }) => return Err(ServiceError::refused(id, refusal)),
            Ok(Reply::NotHere | Reply::Subscribed { .. }) | Err(ClusterError::Timeout) => {}
            Err(ClusterError::Redis(error)) => {
                tracing::warn!(%error, "cannot reach the cluster");
                return Err(ServiceError::Unavailable);
            }
        }
    }
    Err(ServiceError::Unavailable)
}

/// Subscribes `player` to game `id` wherever it runs: on another node, the game's stream is
/// followed here first, then the owner sends what the player missed.
async fn subscribe_anywhere(
    locate: &dyn Locate,
    id: &GameId,
    player: PlayerId,
    since: Option<u64>,
) -> Result<Subscription, ServiceError> {
    let (cluster, owner) = match locate.locate(id).await? {
        Route::Local(game) => return game.subscribe(player, since).await,
        Route::Remote { cluster, owner } => (cluster, owner),
    };
    let events = cluster.follow(id, &owner).await.map_err(|_| ServiceError::Unavailable)?;
    let game = id.clone();
    let request = |id, from| NodeMsg::Subscribe { id, from, game, player, since };
    match cluster.request(&owner, request).await {
        Ok(Reply::Subscribed { seat, catch_up, presence }) => {
            Ok(Subscription { seat, catch_up, presence, events })
        }
        _ => Err(ServiceError::Unavailable),
    }
}

/// Counts a connection of `player` opening or closing on game `id`, wherever it runs.
async fn presence_anywhere(locate: &dyn Locate, id: &GameId, player: PlayerId, connected: bool) {
    match locate.locate(id).await {
        Ok(Route::Local(game)) => game.presence(player, connected).await,
        Ok(Route::Remote { cluster, owner }) => {
            let from = cluster.node().to_owned();
            let msg = NodeMsg::Presence { from, game: id.clone(), player, connected };
            cluster.tell(&owner, &msg);
        }
        Err(_) => {}
    }
}
