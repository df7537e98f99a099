//! The registry of running games: finds a game's task, starting it from the store if needed,
//! and does for the tasks what they ask ([`FollowUp`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};

use outflank_engine::Color;
use tokio::sync::{broadcast, mpsc};

use crate::domain::{ClientKey, GameId, PlayerId, RoomCode};
use crate::live::{GameState, Setup, TimeControl, Timing};
use crate::metrics::{ErrorKind, Metrics};
use crate::service::ServiceError;
use crate::service::compute::SearchPool;
use crate::service::review::Analyses;
use crate::service::time::Clock;
use crate::storage::{DbError, RoomGame, Store};

/// How long a game without a clock may go untouched before it is ended as aborted: 30 days.
pub const ABANDONED_AFTER_MS: i64 = 30 * 24 * 3600 * 1000;
/// How often the store is swept for such games (and once at start-up).
const SWEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(3600);

use super::budget::{BudgetKind, GameBudget, OverBudget};
use super::convert;
use super::handle::{GameHandle, Locate, Route, RouteFuture};
use super::local_game::LocalGame;
use super::news::{DailyTurn, GameNews, StartedGame};
use super::origin::Origin;
use super::router::{Owner, Router};
use super::start::Start;
use super::task::{self, FollowUp, GameTask, TaskContext};

struct Inner {
    games: Mutex<HashMap<GameId, LocalGame>>,
    context: Arc<TaskContext>,
    /// Where games that end here are queued for analysis, once set.
    analyses: std::sync::OnceLock<Analyses>,
}

/// All games running in this process.
#[derive(Clone)]
pub struct GameHub {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for GameHub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameHub")
            .field("timing", &self.inner.context.timing)
            .finish_non_exhaustive()
    }
}

impl GameHub {
    /// A hub whose games count themselves (and their moves, stores, errors) in `metrics`, read
    /// the time from `clock`, and are shared with other nodes as `router` says. Must be called
    /// inside a Tokio runtime: it starts the task that acts on the games' follow-ups.
    pub fn new(
        store: Store,
        pool: SearchPool,
        (timing, clock): (Timing, Clock),
        metrics: Metrics,
        router: Router,
    ) -> GameHub {
        let (shutdown, _) = broadcast::channel(1);
        let (follow_ups, requests) = mpsc::unbounded_channel();
        let context = TaskContext {
            store,
            pool,
            timing,
            metrics,
            clock,
            router,
            shutdown,
            stopping: AtomicBool::new(false),
            follow_ups,
            budget: Mutex::default(),
            news: GameNews::default(),
        };
        let hub = GameHub {
            inner: Arc::new(Inner {
                games: Mutex::default(),
                context: Arc::new(context),
                analyses: std::sync::OnceLock::new(),
            }),
        };
        tokio::spawn(follow_up_loop(Arc::downgrade(&hub.inner), requests));
        hub
    }

    /// From now on, wakes `analyses` for every game that finishes here, whose review the store
    /// queued with its end (a second call changes nothing).
    pub fn analyse_finished_games(&self, analyses: Analyses) {
        let _ = self.inner.analyses.set(analyses);
    }

    /// The clock games here are played by: what every part of the service reads the time from.
    pub fn clock(&self) -> &Clock {
        &self.inner.context.clock
    }

    /// The time rules games are created with.
    pub fn timing(&self) -> Timing {
        self.inner.context.timing
    }

    /// Creates, stores and starts a game continuing `game` (normally a fresh one); with `room`,
    /// it becomes that friend room's first game in the same write.
    ///
    /// # Errors
    /// [`ServiceError::Storage`] if the game could not be stored; nothing is started then. With
    /// [`DbError::Conflict`] when the room has a game already (another request started it).
    pub async fn create(
        &self,
        (setup, control): (Setup, TimeControl),
        start: impl Into<Start>,
        room: Option<&RoomCode>,
        origin: Origin,
    ) -> Result<GameId, ServiceError> {
        let id = GameId::generate();
        self.create_with_id(id.clone(), (setup, control), start, room, origin).await?;
        Ok(id)
    }

    /// Creates a game against the computer or on one device that its player asked for from
    /// `origin`'s client, within the budget of such games in progress per player and per
    /// client (`OverBudget`). Other games are created as by [`GameHub::create`].
    ///
    /// # Errors
    /// [`ServiceError::OverBudget`] when either is at its limit; a storage error otherwise.
    pub async fn create_within_budget(
        &self,
        (setup, control): (Setup, TimeControl),
        start: impl Into<Start>,
        origin: Origin,
    ) -> Result<GameId, ServiceError> {
        let start = start.into();
        let (Some((kind, player)), Some(client)) = (BudgetKind::of(&setup), origin.client) else {
            return self.create((setup, control), start, None, origin).await;
        };
        let id = GameId::generate();
        let context = &self.inner.context;
        let admitted = match self.in_progress_elsewhere(kind, &player, client).await {
            Err(over) => Err(over),
            Ok(()) => lock(&context.budget).admit(id.clone(), kind, player, client),
        };
        if let Err(over) = admitted {
            self.inner.context.metrics.error(ErrorKind::Refused, "too_many_games");
            tracing::info!(%client, %over, "a game was refused");
            return Err(over.into());
        }
        // Given back unless the game starts, also when this request is dropped half-way.
        let admission = Admission { budget: &self.inner.context.budget, game: Some(id.clone()) };
        self.create_with_id(id.clone(), (setup, control), start, None, origin).await?;
        admission.started();
        Ok(id)
    }

    /// Whether `player` and `client` are within the budget of `kind` as the store counts it:
    /// the games in progress (changed lately) on every node, not only those running here.
    async fn in_progress_elsewhere(
        &self,
        kind: BudgetKind,
        player: &PlayerId,
        client: ClientKey,
    ) -> Result<(), OverBudget> {
        let context = &self.inner.context;
        let idle_ms = i64::try_from(task::IDLE_TIMEOUT.as_millis()).unwrap_or(i64::MAX);
        let active_since = crate::domain::Timestamp(context.clock.now().0.saturating_sub(idle_ms));
        let counted =
            context.store.games_in_progress_of(kind.mode(), player, client, active_since).await;
        // The store unreachable: this node's own count decides, as the game cannot be
        // created anyway.
        let Ok(counted) = counted else { return Ok(()) };
        if counted.of_player as usize >= kind.per_player() {
            return Err(OverBudget::Player(kind));
        }
        if counted.from_client as usize >= kind.per_client() {
            return Err(OverBudget::Client(kind));
        }
        Ok(())
    }

    /// Like [`GameHub::create`] with a given id. If a game with that id exists already (another
    /// node created it for the same pairing), that game is the one: it is started here too. A
    /// room's game always has a new id, so there a conflict is the room's own (see `create`).
    ///
    /// # Errors
    /// [`ServiceError::Storage`] if the game could not be stored.
    pub async fn create_with_id(
        &self,
        id: GameId,
        (setup, control): (Setup, TimeControl),
        start: impl Into<Start>,
        room: Option<&RoomCode>,
        origin: Origin,
    ) -> Result<(), ServiceError> {
        self.refuse_when_stopping()?;
        let now = self.inner.context.clock.now();
        let context = &self.inner.context;
        let start = start.into();
        let game = start.game();
        let mut row = convert::new_game(&id, &setup, game.start(), (control, room), &origin, now);
        row.opening = start.opening();
        let room_game = room.map(|_| RoomGame::First);
        match context.store.create_game_with(&row, game.plies(), now, room_game).await {
            Ok(()) => {}
            Err(DbError::Conflict) if room.is_none() => {
                self.handle(&id).await?;
                return Ok(());
            }
            Err(error) => return Err(error.into()),
        }
        // A new id is free, so this claims it; the claim tells other nodes where it runs.
        context.router.claim(&id).await?;
        let started = match (&setup, setup.human(Color::Black), setup.human(Color::White)) {
            (
                Setup::Friend { .. } | Setup::Quick { .. } | Setup::Ranked { .. },
                Some(black),
                Some(white),
            ) => Some(StartedGame {
                id: id.clone(),
                mode: setup.mode(),
                control,
                black: black.clone(),
                white: white.clone(),
            }),
            _ => None,
        };
        let state = start.into_state(id, setup, (control, context.timing), now);
        self.start(state, origin);
        if let Some(started) = started {
            let _ = self.inner.context.news.started.send(started);
        }
        Ok(())
    }

    /// The games between two people created on this node from now on (rematches are not
    /// created but follow their game).
    pub fn started_games(&self) -> broadcast::Receiver<StartedGame> {
        self.inner.context.news.started.subscribe()
    }

    /// The daily games that come to a person's move on this node from now on.
    pub fn daily_turns(&self) -> broadcast::Receiver<DailyTurn> {
        self.inner.context.news.turns.subscribe()
    }

    /// The game `id`: its task here (started from the store if it is not running and no
    /// other node runs it), or, in a cluster, a handle that reaches it on whichever node does.
    ///
    /// # Errors
    /// [`ServiceError::NotFound`] for an unknown id, or a storage error.
    pub async fn handle(&self, id: &GameId) -> Result<GameHandle, ServiceError> {
        match self.route(id).await? {
            Route::Local(game) => Ok(GameHandle::local(game)),
            Route::Remote { .. } => Ok(GameHandle::cluster(Arc::new(self.clone()), id.clone())),
        }
    }

    /// Where game `id` runs now, starting it here if nobody alive runs it.
    pub(super) async fn route(&self, id: &GameId) -> Result<Route, ServiceError> {
        self.refuse_when_stopping()?;
        if let Some(handle) = self.running(id) {
            return Ok(Route::Local(handle));
        }
        let context = &self.inner.context;
        if let Owner::Elsewhere(remote) = context.router.claim(id).await? {
            return Ok(Route::Remote(remote));
        }
        let record = match context.store.load_game(id).await {
            Err(DbError::NotFound) => {
                context.router.release(id).await;
                return Err(ServiceError::NotFound(id.clone()));
            }
            other => other?,
        };
        let now = self.inner.context.clock.now();
        let state = task::restore(&context.store, &record, context.timing, now).await?;
        // Another request may have started it meanwhile: keep the first.
        if let Some(handle) = self.running(id) {
            return Ok(Route::Local(handle));
        }
        let origin = Origin::restored(&state, record.game.origin, record.game.stand_in);
        Ok(Route::Local(self.start(state, origin)))
    }

    /// Ends as aborted, now and then every `SWEEP_EVERY`, the games without a clock that
    /// nobody has touched for `ABANDONED_AFTER_MS`: games against the computer and on one
    /// device have no clock to end them, and would otherwise stay live for ever.
    pub fn spawn_abandoned_sweep(&self) {
        let hub = self.clone();
        actix_web::rt::spawn(async move {
            let mut every = tokio::time::interval(SWEEP_EVERY);
            loop {
                every.tick().await;
                let context = &hub.inner.context;
                let now = context.clock.now();
                let idle_since = crate::domain::Timestamp(now.0 - ABANDONED_AFTER_MS);
                match context.store.abort_abandoned_games(idle_since, now).await {
                    Ok(0) => {}
                    Ok(ended) => tracing::info!(ended, "abandoned games without a clock aborted"),
                    Err(error) => tracing::warn!(%error, "abandoned games not swept"),
                }
            }
        });
    }

    /// Keeps this node's leases on the games it runs; a game another node has taken over (this
    /// node was thought dead) stops here, and its sockets follow it to the new owner.
    pub fn spawn_lease_renewal(&self) {
        let Some(mut renewal) = self.inner.context.router.lease_renewal() else { return };
        let hub = self.clone();
        tokio::spawn(async move {
            loop {
                renewal.due().await;
                let games: Vec<(GameId, LocalGame)> = {
                    let games = lock(&hub.inner.games);
                    games.iter().map(|(id, handle)| (id.clone(), handle.clone())).collect()
                };
                let ids: Vec<GameId> = games.iter().map(|(id, _)| id.clone()).collect();
                let Ok(taken_over) = renewal.renew(&ids).await else { continue };
                for ((id, handle), owner) in games.into_iter().zip(taken_over) {
                    if let Some(owner) = owner {
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
        let records = self.inner.context.store.live_timed_games().await?;
        let mut started = 0;
        for record in &records {
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
        self.inner.context.stopping.store(true, Ordering::SeqCst);
        let _ = self.inner.context.shutdown.send(());
        self.inner.context.router.shutdown();
    }

    fn refuse_when_stopping(&self) -> Result<(), ServiceError> {
        if self.inner.context.stopping.load(Ordering::SeqCst) {
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

    pub(super) fn start(&self, state: GameState, origin: Origin) -> LocalGame {
        let id = state.id().clone();
        let mut games = lock(&self.inner.games);
        if let Some(handle) = games.get(&id).filter(|handle| handle.is_running()) {
            return handle.clone();
        }
        // A game in progress takes its place in the budget however it starts: created (admitted
        // already), a rematch, or opened again after its task stopped.
        if let (Some((kind, player)), Some(client), None) =
            (BudgetKind::of(state.setup()), origin.client, state.ending())
        {
            lock(&self.inner.context.budget).count(id.clone(), kind, player, client);
        }
        let (handle, task) = GameTask::new(state, origin, Arc::clone(&self.inner.context));
        games.insert(id, handle.clone());
        tokio::spawn(task.run());
        handle
    }

    fn remove_if_stopped(&self, id: &GameId) {
        let mut games = lock(&self.inner.games);
        if games.get(id).is_some_and(|handle| !handle.is_running()) {
            games.remove(id);
        }
    }
}

/// A place in the budget taken for a game being created: given back when dropped before the
/// game has started (its creation failed, or the request was dropped because its client left).
struct Admission<'a> {
    budget: &'a Mutex<GameBudget>,
    game: Option<GameId>,
}

impl Admission<'_> {
    /// The game runs: its task gives the place back when it ends or stops.
    fn started(mut self) {
        self.game = None;
    }
}

impl Drop for Admission<'_> {
    fn drop(&mut self) {
        if let Some(game) = self.game.take() {
            lock(self.budget).release(&game);
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Locate for GameHub {
    fn locate<'a>(&'a self, id: &'a GameId) -> RouteFuture<'a> {
        Box::pin(self.route(id))
    }
}

/// Acts on what the game tasks ask for, for as long as the registry exists.
async fn follow_up_loop(registry: Weak<Inner>, mut requests: mpsc::UnboundedReceiver<FollowUp>) {
    while let Some(follow_up) = requests.recv().await {
        let Some(inner) = registry.upgrade() else { break };
        let hub = GameHub { inner };
        match follow_up {
            FollowUp::StartRematch { state, origin, started, handle } => {
                // Claimed and started off this loop, so a slow cluster delays only this rematch,
                // and on the runtime of the game it follows (a worker's, for every game started
                // from a request), so its moves need no hand-over to this loop's main thread.
                handle.spawn(async move {
                    let _ = started.send(hub.start_rematch(*state, origin).await);
                });
            }
            FollowUp::Ended(id) => {
                // Its place in the budget was given back by its task already.
                if let Some(analyses) = hub.inner.analyses.get() {
                    analyses.game_ended(id);
                }
            }
            FollowUp::Stopped(id) => hub.remove_if_stopped(&id),
        }
    }
}

impl GameHub {
    /// Claims a rematch's new game (its id is new, so the claim succeeds unless the cluster
    /// cannot be reached) and starts it here.
    async fn start_rematch(&self, state: GameState, origin: Origin) -> Result<(), ServiceError> {
        match self.inner.context.router.claim(state.id()).await? {
            Owner::Here => {
                self.start(state, origin);
                Ok(())
            }
            // Someone asked for the game before it existed and a node claimed it meanwhile: it
            // is stored, so that node runs it.
            Owner::Elsewhere(_) => Ok(()),
        }
    }
}
