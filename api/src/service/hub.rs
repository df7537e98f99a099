//! The registry of running games: finds a game's task, starting it from the store if needed.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use outflank_engine::Game;
use thiserror::Error;
use tokio::sync::{broadcast, mpsc, oneshot};

use crate::domain::PlayerId;
use crate::domain::{GameId, GameStatus, RoomCode, Timestamp};
use crate::live::{Command, CommandError, Event, GameState, Seat, Setup, Snapshot, Timing};
use crate::metrics::Metrics;
use crate::storage::{DbError, RatedGame, Store};

use super::driver::{Driver, Request};
use super::search::SearchPool;
use super::{convert, remote};
use crate::cluster::Cluster;
use crate::ws::protocol::{RatingSide, ServerMsg};

/// Why a request to a game failed.
#[derive(Debug, Error)]
pub enum ServiceError {
    #[error("there is no game {0}")]
    NotFound(GameId),
    #[error(transparent)]
    Command(#[from] CommandError),
    #[error("the game could not be saved; nothing changed, please try again")]
    Storage(#[source] DbError),
    #[error("the game is restarting; please try again")]
    Unavailable,
    #[error(transparent)]
    Corrupt(#[from] convert::CorruptGame),
    /// The node running the game refused the command; the message says why.
    #[error("the command was refused")]
    Refused(Box<ServerMsg>),
}

impl From<DbError> for ServiceError {
    fn from(error: DbError) -> ServiceError {
        ServiceError::Storage(error)
    }
}

/// What a new subscriber needs before the live stream.
#[derive(Debug)]
pub enum CatchUp {
    /// The whole game as it stands.
    Snapshot(Box<Snapshot>),
    /// The public events after the version the subscriber gave, in order.
    Replay(Vec<Event>),
    /// The subscriber is up to date.
    UpToDate,
    /// Messages ready to send, from the node running the game.
    Messages(Vec<ServerMsg>),
}

/// What a game's task sends to every subscriber.
#[derive(Clone, Debug)]
pub enum Broadcast {
    /// A public event of the game, already stored.
    Event(Event),
    /// The server is shutting down; reconnect shortly.
    Shutdown,
    /// Who is connected changed: whether each side has someone connected.
    Presence { black: bool, white: bool },
    /// A rated game's result moved both ratings (sent after its `Ended` event).
    Rated(RatedGame),
    /// A message of a game running on another node.
    Wire(ServerMsg),
}

impl Broadcast {
    /// The message every socket on the game gets; `None` for shutting down, which each socket
    /// handles itself.
    pub fn to_message(&self) -> Option<ServerMsg> {
        match self {
            Broadcast::Event(event) => ServerMsg::from_event(event),
            Broadcast::Presence { black, white } => {
                Some(ServerMsg::Presence { black: *black, white: *white })
            }
            Broadcast::Rated(rated) => Some(ServerMsg::RatingChanged {
                black: RatingSide::from(&rated.black),
                white: RatingSide::from(&rated.white),
            }),
            Broadcast::Wire(msg) => Some(msg.clone()),
            Broadcast::Shutdown => None,
        }
    }
}

/// A subscription to one game: what was missed, then the live stream (with no gap between).
#[derive(Debug)]
pub struct Subscription {
    /// What the subscriber may do in the game.
    pub seat: Seat,
    pub catch_up: CatchUp,
    /// Whether each side has someone connected, this subscriber included: `(black, white)`.
    pub presence: (bool, bool),
    pub events: broadcast::Receiver<Broadcast>,
}

/// A way to reach one game: its task on this node, or, in a cluster, wherever it runs.
#[derive(Clone, Debug)]
pub struct GameHandle {
    route: HandleRoute,
}

#[derive(Clone, Debug)]
enum HandleRoute {
    Local(LocalGame),
    /// Found again on each use, since the game may move between nodes.
    Cluster {
        hub: GameHub,
        id: GameId,
    },
}

/// Where a game runs.
pub(super) enum Route {
    Local(LocalGame),
    Remote { cluster: Cluster, owner: String },
}

impl GameHandle {
    /// Applies `command`; `Ok` once its events are stored and broadcast.
    ///
    /// # Errors
    /// The game refused the command, could not store it, or its task has stopped.
    pub async fn command(&self, command: Command) -> Result<(), ServiceError> {
        match &self.route {
            HandleRoute::Local(game) => game.command(command).await,
            HandleRoute::Cluster { hub, id } => remote::command(hub, id, command).await,
        }
    }

    /// Subscribes `player` to the game; `since` is the last version the client saw.
    ///
    /// # Errors
    /// [`ServiceError::Unavailable`] if the game's task has stopped.
    pub async fn subscribe(
        &self,
        player: PlayerId,
        since: Option<u64>,
    ) -> Result<Subscription, ServiceError> {
        match &self.route {
            HandleRoute::Local(game) => game.subscribe(player, since).await,
            HandleRoute::Cluster { hub, id } => remote::subscribe(hub, id, player, since).await,
        }
    }

    /// Tells the game that one of `player`'s connections opened (`true`) or closed (`false`).
    pub async fn presence(&self, player: PlayerId, connected: bool) {
        match &self.route {
            HandleRoute::Local(game) => game.presence(player, connected).await,
            HandleRoute::Cluster { hub, id } => remote::presence(hub, id, player, connected).await,
        }
    }
}

impl From<LocalGame> for GameHandle {
    fn from(game: LocalGame) -> GameHandle {
        GameHandle { route: HandleRoute::Local(game) }
    }
}

/// The task running a game on this node.
#[derive(Clone, Debug)]
pub(super) struct LocalGame {
    requests: mpsc::Sender<Request>,
}

impl LocalGame {
    pub(super) fn new(requests: mpsc::Sender<Request>) -> LocalGame {
        LocalGame { requests }
    }

    pub(super) async fn command(&self, command: Command) -> Result<(), ServiceError> {
        let (reply, answer) = oneshot::channel();
        self.requests
            .send(Request::Command { command, reply })
            .await
            .map_err(|_| ServiceError::Unavailable)?;
        answer.await.map_err(|_| ServiceError::Unavailable)?
    }

    pub(super) async fn subscribe(
        &self,
        player: PlayerId,
        since: Option<u64>,
    ) -> Result<Subscription, ServiceError> {
        let (reply, answer) = oneshot::channel();
        self.requests
            .send(Request::Subscribe { player, since, reply })
            .await
            .map_err(|_| ServiceError::Unavailable)?;
        answer.await.map_err(|_| ServiceError::Unavailable)
    }

    pub(super) async fn presence(&self, player: PlayerId, connected: bool) {
        let _ = self.requests.send(Request::Presence { player, connected }).await;
    }

    /// Asks the task to stop (another node has taken the game over).
    async fn stop(&self) {
        let _ = self.requests.send(Request::Stop).await;
    }

    fn is_running(&self) -> bool {
        !self.requests.is_closed()
    }
}

pub(super) struct Inner {
    pub(super) games: Mutex<HashMap<GameId, LocalGame>>,
    pub(super) store: Store,
    pub(super) pool: SearchPool,
    pub(super) timing: Timing,
    pub(super) metrics: Metrics,
    pub(super) shutdown: broadcast::Sender<()>,
    /// Set once the server is stopping: no game starts after that.
    pub(super) stopping: AtomicBool,
    /// The other nodes, when several share the games.
    pub(super) cluster: Option<Cluster>,
}

/// All games running in this process.
#[derive(Clone)]
pub struct GameHub {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for GameHub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameHub").field("timing", &self.inner.timing).finish_non_exhaustive()
    }
}

impl GameHub {
    /// A hub whose games count themselves (and their moves, stores, errors) in `metrics`; with
    /// `cluster`, games are shared with the other nodes.
    pub fn new(
        store: Store,
        pool: SearchPool,
        timing: Timing,
        metrics: Metrics,
        cluster: Option<Cluster>,
    ) -> GameHub {
        let (shutdown, _) = broadcast::channel(1);
        GameHub {
            inner: Arc::new(Inner {
                games: Mutex::default(),
                store,
                pool,
                timing,
                metrics,
                shutdown,
                stopping: AtomicBool::new(false),
                cluster,
            }),
        }
    }

    /// The cluster this node belongs to, if any.
    pub fn cluster(&self) -> Option<&Cluster> {
        self.inner.cluster.as_ref()
    }

    /// The time rules games are created with.
    pub fn timing(&self) -> Timing {
        self.inner.timing
    }

    /// Creates, stores and starts a game continuing `game` (normally a fresh one); with `room`,
    /// it becomes that friend room's current game in the same write.
    ///
    /// # Errors
    /// [`ServiceError::Storage`] if the game could not be stored; nothing is started then.
    pub async fn create(
        &self,
        setup: Setup,
        game: Game,
        room: Option<&RoomCode>,
    ) -> Result<GameId, ServiceError> {
        let id = GameId::generate();
        self.create_with_id(id.clone(), setup, game, room).await?;
        Ok(id)
    }

    /// Like [`GameHub::create`] with a given id. If a game with that id exists already (another
    /// node created it for the same pairing), that game is the one: it is started here too.
    ///
    /// # Errors
    /// [`ServiceError::Storage`] if the game could not be stored.
    pub async fn create_with_id(
        &self,
        id: GameId,
        setup: Setup,
        game: Game,
        room: Option<&RoomCode>,
    ) -> Result<(), ServiceError> {
        self.refuse_when_stopping()?;
        let now = Timestamp::now();
        let row = convert::new_game(&id, &setup, game.start(), &self.inner.timing, room, now);
        match self.inner.store.create_game_with(&row, game.plies(), now, room.is_some()).await {
            Ok(()) => {}
            Err(DbError::Conflict) => {
                self.handle(&id).await?;
                return Ok(());
            }
            Err(error) => return Err(error.into()),
        }
        if let Some(cluster) = &self.inner.cluster {
            // A new id is free, so this claims it; the claim tells other nodes where it runs.
            cluster.claim(&id).await.map_err(|_| ServiceError::Unavailable)?;
        }
        let state = GameState::from_game(id, setup, game, self.inner.timing, now);
        self.start(state);
        Ok(())
    }

    /// The game `id`: its task here (started from the store if it is not running and no
    /// other node runs it), or, in a cluster, a handle that reaches it on whichever node does.
    ///
    /// # Errors
    /// [`ServiceError::NotFound`] for an unknown id, or a storage error.
    pub async fn handle(&self, id: &GameId) -> Result<GameHandle, ServiceError> {
        match self.route(id).await? {
            Route::Local(game) => Ok(GameHandle::from(game)),
            Route::Remote { .. } => {
                Ok(GameHandle { route: HandleRoute::Cluster { hub: self.clone(), id: id.clone() } })
            }
        }
    }

    /// Where game `id` runs now, starting it here if nobody alive runs it.
    pub(super) async fn route(&self, id: &GameId) -> Result<Route, ServiceError> {
        self.refuse_when_stopping()?;
        if let Some(handle) = self.running(id) {
            return Ok(Route::Local(handle));
        }
        if let Some(cluster) = &self.inner.cluster {
            let owner = cluster.claim(id).await.map_err(|error| {
                tracing::warn!(game = %id, %error, "cannot reach the cluster");
                ServiceError::Unavailable
            })?;
            if owner != cluster.node() {
                return Ok(Route::Remote { cluster: cluster.clone(), owner });
            }
        }
        let record = match self.inner.store.load_game(id).await {
            Err(DbError::NotFound) => {
                if let Some(cluster) = &self.inner.cluster {
                    cluster.release(id).await;
                }
                return Err(ServiceError::NotFound(id.clone()));
            }
            other => other?,
        };
        let stored = convert::stored(&record)?;
        let state = GameState::restore(stored, self.inner.timing, Timestamp::now())
            .map_err(|error| convert::CorruptGame { id: id.clone(), reason: error.to_string() })?;
        // Another request may have started it meanwhile: keep the first.
        if let Some(handle) = self.running(id) {
            return Ok(Route::Local(handle));
        }
        Ok(Route::Local(self.start(state)))
    }

    /// Keeps this node's leases on the games it runs; a game another node has taken over (this
    /// node was thought dead) stops here, and its sockets follow it to the new owner.
    pub fn spawn_lease_renewal(&self) {
        let Some(cluster) = self.inner.cluster.clone() else { return };
        let hub = self.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(crate::cluster::RENEW_EVERY);
            loop {
                tokio::select! {
                    _ = every.tick() => {}
                    () = cluster.reconnected() => {}
                }
                let games: Vec<(GameId, LocalGame)> = {
                    let games = lock(&hub.inner.games);
                    games.iter().map(|(id, handle)| (id.clone(), handle.clone())).collect()
                };
                let ids: Vec<GameId> = games.iter().map(|(id, _)| id.clone()).collect();
                let owners = match cluster.claim_all(&ids).await {
                    Ok(owners) => owners,
                    Err(error) => {
                        tracing::warn!(%error, "cannot renew game leases");
                        continue;
                    }
                };
                for ((id, handle), owner) in games.into_iter().zip(owners) {
                    if owner != cluster.node() {
                        tracing::warn!(game = %id, %owner, "another node took this game over");
                        handle.stop().await;
                    }
                }
            }
        });
    }

    /// Starts every live game with a clock, e.g. after a restart, so its clock runs again.
    /// Games without a clock start when someone opens them. A game that cannot be rebuilt is
    /// logged and skipped.
    ///
    /// # Errors
    /// The store could not list the live games.
    pub async fn restore_live_games(&self) -> Result<usize, ServiceError> {
        let records = self.inner.store.live_games().await?;
        let mut started = 0;
        let clocked = |record: &&crate::storage::GameRecord| {
            record.game.status == GameStatus::Live && record.game.mode.has_clock()
        };
        for record in records.iter().filter(clocked) {
            match self.handle(&record.game.id).await {
                Ok(_) => started += 1,
                Err(error) => {
                    tracing::error!(game = %record.game.id, %error, "cannot restore game")
                }
            }
        }
        Ok(started)
    }

    /// Tells every connected client that the server is going away, and stops every game task.
    pub fn shutdown(&self) {
        self.inner.stopping.store(true, Ordering::SeqCst);
        let _ = self.inner.shutdown.send(());
        if let Some(cluster) = &self.inner.cluster {
            cluster.shutdown();
        }
    }

    fn refuse_when_stopping(&self) -> Result<(), ServiceError> {
        if self.inner.stopping.load(Ordering::SeqCst) {
            Err(ServiceError::Unavailable)
        } else {
            Ok(())
        }
    }

    pub(super) fn running(&self, id: &GameId) -> Option<LocalGame> {
        let mut games = lock(&self.inner.games);
        match games.get(id) {
            Some(handle) if handle.is_running() => Some(handle.clone()),
            Some(_) => {
                games.remove(id);
                None
            }
            None => None,
        }
    }

    pub(super) fn start(&self, state: GameState) -> LocalGame {
        let id = state.id().clone();
        let mut games = lock(&self.inner.games);
        if let Some(handle) = games.get(&id).filter(|handle| handle.is_running()) {
            return handle.clone();
        }
        let (handle, driver) = Driver::new(state, Arc::clone(&self.inner));
        games.insert(id, handle.clone());
        tokio::spawn(driver.run(self.clone()));
        handle
    }

    pub(super) fn remove_if_stopped(&self, id: &GameId) {
        let mut games = lock(&self.inner.games);
        if games.get(id).is_some_and(|handle| !handle.is_running()) {
            games.remove(id);
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Stored plies are numbered from 0.
pub(super) fn ply_number(index: usize) -> u32 {
    u32::try_from(index).unwrap_or(u32::MAX)
}
