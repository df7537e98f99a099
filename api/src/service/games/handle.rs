//! A way to reach one game, wherever it runs: its task on this node, or, in a cluster, the
//! node holding its lease, reached through the router.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::domain::{GameId, PlayerId};
use crate::live::{Action, Command};
use crate::service::ServiceError;

use super::local_game::{LocalGame, Subscription};
use super::router::{Answer, RemoteGame};

/// Where a game runs now.
pub(super) enum Route {
    Local(LocalGame),
    Remote(RemoteGame),
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
        let remote = match locate.locate(id).await? {
            Route::Local(game) => return game.command(Command::Player { by, action }).await,
            Route::Remote(remote) => remote,
        };
        match remote.act(id, by.clone(), action).await {
            Answer::Answered(result) => return result,
            Answer::Moved => {}
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
    match locate.locate(id).await? {
        Route::Local(game) => game.subscribe(player, since).await,
        Route::Remote(remote) => remote.subscribe(id, player, since).await,
    }
}

/// Counts a connection of `player` opening or closing on game `id`, wherever it runs.
async fn presence_anywhere(locate: &dyn Locate, id: &GameId, player: PlayerId, connected: bool) {
    match locate.locate(id).await {
        Ok(Route::Local(game)) => game.presence(player, connected).await,
        Ok(Route::Remote(remote)) => remote.presence(id, player, connected),
        Err(_) => {}
    }
}
