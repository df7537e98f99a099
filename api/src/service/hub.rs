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

use super::convert;
use super::driver::{Driver, Request};
use super::search::SearchPool;

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

/// A way to reach one game's task.
#[derive(Clone, Debug)]
pub struct GameHandle {
    requests: mpsc::Sender<Request>,
}

impl GameHandle {
    pub(super) fn new(requests: mpsc::Sender<Request>) -> GameHandle {
        GameHandle { requests }
    }

    /// Applies `command`; `Ok` once its events are stored and broadcast.
    ///
    /// # Errors
    /// The game refused the command, could not store it, or its task has stopped.
    pub async fn command(&self, command: Command) -> Result<(), ServiceError> {
        let (reply, answer) = oneshot::channel();
        self.requests
            .send(Request::Command { command, reply })
            .await
            .map_err(|_| ServiceError::Unavailable)?;
        answer.await.map_err(|_| ServiceError::Unavailable)?
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
        let (reply, answer) = oneshot::channel();
        self.requests
            .send(Request::Subscribe { player, since, reply })
            .await
            .map_err(|_| ServiceError::Unavailable)?;
        answer.await.map_err(|_| ServiceError::Unavailable)
    }

    /// Tells the game that one of `player`'s connections opened (`true`) or closed (`false`).
    pub async fn presence(&self, player: PlayerId, connected: bool) {
        let _ = self.requests.send(Request::Presence { player, connected }).await;
    }

    fn is_running(&self) -> bool {
        !self.requests.is_closed()
    }
}

pub(super) struct Inner {
    pub(super) games: Mutex<HashMap<GameId, GameHandle>>,
    pub(super) store: Store,
    pub(super) pool: SearchPool,
    pub(super) timing: Timing,
    pub(super) metrics: Metrics,
    pub(super) shutdown: broadcast::Sender<()>,
    /// Set once the server is stopping: no game starts after that.
    pub(super) stopping: AtomicBool,
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
    /// A hub whose games count themselves (and their moves, stores, errors) in `metrics`.
    pub fn new(store: Store, pool: SearchPool, timing: Timing, metrics: Metrics) -> GameHub {
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
            }),
        }
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
        let state = GameState::from_game(id, setup, game, self.inner.timing, now);
        self.start(state);
        Ok(())
    }

    /// The running game `id`, starting it from the store if it is not running here.
    ///
    /// # Errors
    /// [`ServiceError::NotFound`] for an unknown id, or a storage error.
    pub async fn handle(&self, id: &GameId) -> Result<GameHandle, ServiceError> {
        self.refuse_when_stopping()?;
        if let Some(handle) = self.running(id) {
            return Ok(handle);
        }
        let record = match self.inner.store.load_game(id).await {
            Err(DbError::NotFound) => return Err(ServiceError::NotFound(id.clone())),
            other => other?,
        };
        let stored = convert::stored(&record)?;
        let state = GameState::restore(stored, self.inner.timing, Timestamp::now())
            .map_err(|error| convert::CorruptGame { id: id.clone(), reason: error.to_string() })?;
        // Another request may have started it meanwhile: keep the first.
        if let Some(handle) = self.running(id) {
            return Ok(handle);
        }
        Ok(self.start(state))
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
    }

    fn refuse_when_stopping(&self) -> Result<(), ServiceError> {
        if self.inner.stopping.load(Ordering::SeqCst) {
            Err(ServiceError::Unavailable)
        } else {
            Ok(())
        }
    }

    fn running(&self, id: &GameId) -> Option<GameHandle> {
        let mut games = self.inner.games.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        match games.get(id) {
            Some(handle) if handle.is_running() => Some(handle.clone()),
            Some(_) => {
                games.remove(id);
                None
            }
            None => None,
        }
    }

    pub(super) fn start(&self, state: GameState) -> GameHandle {
        let id = state.id().clone();
        let mut games = self.inner.games.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(handle) = games.get(&id).filter(|handle| handle.is_running()) {
            return handle.clone();
        }
        let (handle, driver) = Driver::new(state, Arc::clone(&self.inner));
        games.insert(id, handle.clone());
        tokio::spawn(driver.run(self.clone()));
        handle
    }

    pub(super) fn remove_if_stopped(&self, id: &GameId) {
        let mut games = self.inner.games.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if games.get(id).is_some_and(|handle| !handle.is_running()) {
            games.remove(id);
        }
    }
}

/// Stored plies are numbered from 0.
pub(super) fn ply_number(index: usize) -> u32 {
    u32::try_from(index).unwrap_or(u32::MAX)
}
