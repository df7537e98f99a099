//! One task per live game: applies commands, stores their events, then broadcasts them.
//!
//! The task knows nothing of the registry that started it: what only the registry can do
//! (start a rematch's game, forget a stopped task) it asks for as a [`FollowUp`].

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use outflank_engine::Move;
use tokio::sync::{broadcast, mpsc, oneshot};

use outflank_engine::Color;

use crate::accounts::rating::RatedGame;
use crate::domain::{GameId, GameStatus, PlayerId, Timestamp};
use crate::live::{
    Announcement, Broadcast, CatchUp, Command, Event, GameState, History, Player, Resume, SearchId,
    SearchRequest, TimeControl, Timing,
};
use crate::metrics::{ErrorKind, Metrics};
use crate::storage::{GameRecord, RoomGame, Store};

use crate::service::ServiceError;
use crate::service::compute::SearchPool;
use crate::service::time::Clock;

use super::budget::GameBudget;
use super::convert;
use super::local_game::{LocalGame, Request, Subscription};
use super::news::{DailyTurn, GameNews};
use super::origin::Origin;
use super::router::Router;
use super::start::Start;

/// How long a game's task stays up with nobody watching once the game is over (for rematches and
/// late viewers), or while a game without a clock waits for its player; a later request starts
/// it again from the store.
pub(super) const IDLE_TIMEOUT: Duration = Duration::from_secs(600);
/// Pause before retrying a deadline whose events could not be stored.
const RETRY_AFTER_STORAGE_ERROR: Duration = Duration::from_secs(1);
/// Requests waiting for a game's task; senders wait when it is full.
const REQUEST_QUEUE: usize = 64;
/// Events buffered per subscriber before it must resubscribe (and catch up from its version).
/// A move makes one or two; every slot is allocated with the game, so few is cheaper.
const BROADCAST_BUFFER: usize = 32;

/// What every game task of this node shares.
pub(super) struct TaskContext {
    pub(super) store: Store,
    pub(super) pool: SearchPool,
    pub(super) timing: Timing,
    pub(super) metrics: Metrics,
    pub(super) clock: Clock,
    pub(super) router: Router,
    pub(super) shutdown: broadcast::Sender<()>,
    /// Set once the server is stopping: no game starts after that.
    pub(super) stopping: AtomicBool,
    /// Where tasks send what the registry must do for them.
    pub(super) follow_ups: mpsc::UnboundedSender<FollowUp>,
    /// Games against the computer and on one device in progress here, by player and client:
    /// an ended game's place is given back before its players hear of the end, so a new game
    /// can follow at once.
    pub(super) budget: std::sync::Mutex<GameBudget>,
    /// What the games tell the rest of the site.
    pub(super) news: GameNews,
}

/// What a game's task asks of the registry of running games.
#[derive(Debug)]
pub(super) enum FollowUp {
    /// Claim and start the rematch's game (already stored); answer once it runs, so that
    /// players hear of the rematch only when its game can be joined.
    StartRematch {
        state: Box<GameState>,
        origin: Origin,
        started: oneshot::Sender<Result<(), ServiceError>>,
        /// The runtime of the game it follows, which runs the rematch's task too.
        handle: tokio::runtime::Handle,
    },
    /// This game has ended with a result, and its review was queued with the end (its task
    /// goes on a while, for rematches and late viewers): wake the review workers.
    Ended(GameId),
    /// The task of this game has stopped.
    Stopped(GameId),
}

/// The task that owns one game's state.
pub(super) struct GameTask {
    state: GameState,
    history: History,
    context: Arc<TaskContext>,
    requests: mpsc::Receiver<Request>,
    events: broadcast::Sender<Announcement>,
    searches: HashMap<SearchId, Arc<AtomicBool>>,
    /// A search the game asked for while nobody was connected: started when someone is.
    deferred: Option<SearchRequest>,
    origin: Origin,
    /// Open connections per player, for presence.
    connections: HashMap<PlayerId, usize>,
    search_results: mpsc::Sender<(SearchId, Move)>,
    search_replies: mpsc::Receiver<(SearchId, Move)>,
}

/// Rebuilds a live game from its stored `record`. A finished game keeps the rematch it started,
/// so that its players are sent on to that game instead of being offered a second one.
pub(super) async fn restore(
    store: &Store,
    record: &GameRecord,
    timing: Timing,
    now: Timestamp,
) -> Result<GameState, ServiceError> {
    let mut stored = convert::stored(record)?;
    if stored.ending.is_some() {
        let next_game = GameId::rematch_of(&stored.id);
        stored.rematch = store.game_exists(&next_game).await?.then_some(next_game);
    }
    let id = stored.id.clone();
    GameState::restore(stored, timing, now)
        .map_err(|error| convert::CorruptGame { id, reason: error.to_string() }.into())
}

impl GameTask {
    pub(super) fn new(
        state: GameState,
        origin: Origin,
        context: Arc<TaskContext>,
    ) -> (LocalGame, GameTask) {
        let (requests_tx, requests) = mpsc::channel(REQUEST_QUEUE);
        let (events, _) = broadcast::channel(BROADCAST_BUFFER);
        let (search_results, search_replies) = mpsc::channel(4);
        let task = GameTask {
            state,
            history: History::default(),
            context,
            requests,
            events,
            searches: HashMap::new(),
            deferred: None,
            origin,
            connections: HashMap::new(),
            search_results,
            search_replies,
        };
        (LocalGame::new(requests_tx), task)
    }

    pub(super) async fn run(mut self) {
        let id = self.state.id().clone();
        let _live = self.context.metrics.game_started(self.state.mode());
        if let Some(request) = self.state.search_request(self.context.clock.now()) {
            self.start_search(request);
        }
        let mut shutdown = self.context.shutdown.subscribe();
        // A shutdown that began before this task subscribed would otherwise go unnoticed.
        let mut stopping = self.context.stopping.load(Ordering::SeqCst);
        loop {
            if stopping {
                self.broadcast(Broadcast::Shutdown);
                break;
            }
            let deadline = self.state.next_deadline();
            let waiting = self.state.ending().is_some() || !self.state.has_clock();
            let idle = waiting && self.events.receiver_count() == 0 && self.connections.is_empty();
            tokio::select! {
                request = self.requests.recv() => match request {
                    Some(Request::Command { command, reply }) => {
                        let outcome = self.apply(command).await;
                        let _ = reply.send(outcome);
                    }
                    Some(Request::Subscribe { player, since, reply }) => {
                        let _ = reply.send(self.subscribe(&player, since));
                    }
                    Some(Request::Presence { player, connected }) => self.count_connection(player, connected),
                    Some(Request::Stop) | None => break,
                },
                Some((search_id, mv)) = self.search_replies.recv() => {
                    self.searches.remove(&search_id);
                    if let Err(error) = self.apply(Command::ComputerMove { search_id, mv }).await {
                        tracing::warn!(game = %id, %error, "computer move not applied");
                        // The state is as before the reply: search again rather than wait forever.
                        if let Some(request) = self.state.search_request(self.context.clock.now()) {
                            self.start_search(request);
                        }
                    }
                }
                () = self.context.clock.sleep_until(deadline) => {
                    if let Err(error) = self.apply(Command::Tick).await {
                        tracing::warn!(game = %id, %error, "clock tick not applied");
                        tokio::time::sleep(RETRY_AFTER_STORAGE_ERROR).await;
                    }
                }
                () = tokio::time::sleep(IDLE_TIMEOUT), if idle => break,
                Ok(()) = shutdown.recv() => stopping = true,
            }
        }
        for cancel in self.searches.values() {
            cancel.store(true, Ordering::Relaxed);
        }
        // Its place in the budget is given back while it still counts as running, so a start
        // of the same game after this (counted anew) cannot lose its place to this stop.
        self.context.budget.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).release(&id);
        self.requests.close();
        self.context.router.stopped(&id).await;
        let _ = self.context.follow_ups.send(FollowUp::Stopped(id));
    }

    /// Applies one command: state first, then storage, then the broadcast, so nothing unsaved
    /// is ever announced. When storing fails the game is rebuilt from what the store holds
    /// (some of the command's writes may have landed); clients see the version jump and resync.
    async fn apply(&mut self, command: Command) -> Result<(), ServiceError> {
        let now = self.context.clock.now();
        let before = self.state.clone();
        let events = self.state.apply(command, now)?;
        let stored = match self.store(&events, now).await {
            Ok(rated) => self.hand_over(&events, now).await.map(|()| rated),
            Err(error) => Err(error),
        };
        let rated = match stored {
            Ok(rated) => rated,
            Err(error) => {
                self.context.metrics.error(ErrorKind::Storage, "store_failed");
                tracing::error!(game = %self.state.id(), %error, "storing events failed; reloading the game");
                self.state = match self.reload(now).await {
                    Some(state) => state,
                    None => before,
                };
                return Err(error);
            }
        };
        self.history.record(&events);
        let plies = events
            .iter()
            .map(|event| match event {
                Event::Moved { plies, .. } => plies.len(),
                _ => 0,
            })
            .sum();
        if plies > 0 {
            self.context.metrics.moves_applied(plies);
        }
        for event in events {
            match event {
                Event::StartSearch(request) => self.start_search(request),
                Event::CancelSearch(search_id) => {
                    if self.deferred.is_some_and(|deferred| deferred.search_id == search_id) {
                        self.deferred = None;
                    }
                    if let Some(cancel) = self.searches.remove(&search_id) {
                        cancel.store(true, Ordering::Relaxed);
                    }
                }
                public => self.broadcast(Broadcast::Event(public)),
            }
        }
        if let Some(rated) = rated {
            self.broadcast(Broadcast::Rated(rated));
        }
        Ok(())
    }

    /// Sends `broadcast` to this game's sockets here and, in a cluster, on the other nodes.
    fn broadcast(&self, broadcast: Broadcast) {
        self.context.router.publish(self.state.id(), &broadcast);
        let _ = self.events.send(Announcement::new(broadcast));
    }

    /// Stores what `events` say happened, in order, timing the writes; the rating changes when
    /// a rated game ended.
    async fn store(
        &self,
        events: &[Event],
        now: Timestamp,
    ) -> Result<Option<RatedGame>, ServiceError> {
        let writes = events.iter().any(|event| {
            matches!(
                event,
                Event::Moved { .. }
                    | Event::Undone { .. }
                    | Event::Ended { .. }
                    | Event::RematchStarted { .. }
            )
        });
        let started = Instant::now();
        let outcome = self.store_events(events, now).await;
        if writes {
            self.context.metrics.store_written(started.elapsed());
        }
        outcome
    }

    /// Stores what `events` say happened, in order.
    async fn store_events(
        &self,
        events: &[Event],
        now: Timestamp,
    ) -> Result<Option<RatedGame>, ServiceError> {
        let store = &self.context.store;
        let id = self.state.id();
        let mut rated = None;
        for event in events {
            match event {
                Event::Moved { at, plies, .. } => {
                    let Some(first) = plies.first() else { continue };
                    let moves: Vec<Move> = plies.iter().map(|ply| ply.mv).collect();
                    let first = convert::ply_number(first.number - 1);
                    store.append_plies(id, first, &moves, *at).await?;
                }
                Event::Undone { ply_count, .. } => {
                    store.truncate_moves(id, convert::ply_number(*ply_count)).await?;
                }
                Event::Ended { ending, .. } => {
                    let game = self.state.game();
                    let players = self.state.rated_players();
                    let rateable = players.is_some();
                    let finished = convert::finished(ending, game, now, players);
                    rated = store.finish_game(id, &finished).await?;
                    if rateable && rated.is_none() {
                        // Only the cap on rated games between the same two leaves it unrated
                        // (or an account deleted meanwhile).
                        self.context.metrics.error(ErrorKind::Refused, "pair_cap");
                    }
                }
                Event::RematchStarted { game_id, setup, .. } => {
                    let room = store.game(id).await?.room_code;
                    let start = outflank_engine::Board::start();
                    let mut row = convert::new_game(
                        game_id,
                        setup,
                        start,
                        (self.control(), room.as_ref()),
                        &self.origin,
                        now,
                    );
                    // A rematch of an XOT game starts from the same opening.
                    let start = Start::rematch_of(self.state.opening());
                    row.opening = start.opening();
                    let room_game = room.as_ref().map(|_| RoomGame::Rematch { of: id });
                    store.create_game_with(&row, start.game().plies(), now, room_game).await?;
                }
                _ => {}
            }
        }
        Ok(rated)
    }

    /// The control this game is timed by, which a rematch keeps (the default when it has no
    /// clock).
    fn control(&self) -> TimeControl {
        self.state.control().unwrap_or(self.context.timing.default_control())
    }

    /// Does, once `events` are stored and before anyone hears of them, what follows from them
    /// outside this game: an ended game gives its computer-game place back and wakes the review
    /// workers; a rematch's game is started, so players hear of it only when it can be joined.
    async fn hand_over(&self, events: &[Event], now: Timestamp) -> Result<(), ServiceError> {
        let id = self.state.id();
        for event in events {
            match event {
                Event::Ended { ending, .. } => {
                    self.context
                        .budget
                        .lock()
                        .unwrap_or_else(|poisoned| poisoned.into_inner())
                        .release(id);
                    if convert::is_reviewed(ending) {
                        let _ = self.context.follow_ups.send(FollowUp::Ended(id.clone()));
                    }
                }
                Event::Moved { .. } => self.tell_daily_turn(),
                Event::RematchStarted { game_id, setup, .. } => {
                    let start = Start::rematch_of(self.state.opening());
                    let timing = (self.control(), self.context.timing);
                    let next = start.into_state(game_id.clone(), setup.clone(), timing, now);
                    self.start_rematch(next).await?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Tells the site that this daily game, still on, waits for a person's move.
    fn tell_daily_turn(&self) {
        let Some(control @ TimeControl::Daily { .. }) = self.state.control() else { return };
        let Some(deadline) = self.state.next_deadline() else { return };
        if self.state.status() != GameStatus::Live {
            return;
        }
        let side = self.state.game().side_to_move();
        let setup = self.state.setup();
        let (Some(to_move), Some(opponent)) = (setup.human(side), setup.human(side.opposite()))
        else {
            return;
        };
        let _ = self.context.news.turns.send(DailyTurn {
            game: self.state.id().clone(),
            to_move: to_move.clone(),
            opponent: opponent.name.to_string(),
            plies: self.state.game().plies().len(),
            move_ms: control.initial_ms(),
            deadline,
        });
    }

    /// Has the registry start the rematch's game, and waits until it runs.
    async fn start_rematch(&self, next: GameState) -> Result<(), ServiceError> {
        let (started, answer) = oneshot::channel();
        let origin = self.origin.clone();
        let follow_up = FollowUp::StartRematch {
            state: Box::new(next),
            origin,
            started,
            handle: tokio::runtime::Handle::current(),
        };
        self.context.follow_ups.send(follow_up).map_err(|_| ServiceError::Unavailable)?;
        answer.await.map_err(|_| ServiceError::Unavailable)?
    }

    /// The game as the store has it, if it can be read back.
    async fn reload(&self, now: Timestamp) -> Option<GameState> {
        let record = self.context.store.load_game(self.state.id()).await.ok()?;
        restore(&self.context.store, &record, self.context.timing, now).await.ok()
    }

    /// Whether each side has someone connected; the computer always is.
    fn presence(&self) -> (bool, bool) {
        let side = |color: Color| match self.state.setup().player(color) {
            Player::Computer(_) => true,
            Player::Human(human) => self.connections.get(&human.id).is_some_and(|n| *n > 0),
        };
        (side(Color::Black), side(Color::White))
    }

    fn count_connection(&mut self, player: PlayerId, connected: bool) {
        let before = self.presence();
        let count = self.connections.entry(player.clone()).or_default();
        if connected {
            *count += 1;
        } else {
            *count = count.saturating_sub(1);
            if *count == 0 {
                self.connections.remove(&player);
            }
        }
        let after = self.presence();
        if after != before {
            self.broadcast(Broadcast::Presence { black: after.0, white: after.1 });
        }
        if connected && let Some(request) = self.deferred.take() {
            self.run_search(request);
        }
    }

    fn subscribe(&self, player: &PlayerId, since: Option<u64>) -> Subscription {
        let events = self.events.subscribe();
        let current = self.state.version();
        let catch_up = match since.map(|since| self.history.resume(since, current)) {
            Some(Resume::UpToDate) => CatchUp::UpToDate,
            Some(Resume::Replay(events)) => CatchUp::Replay(events),
            Some(Resume::Snapshot) | None => {
                CatchUp::Snapshot(Box::new(self.state.snapshot(self.context.clock.now())))
            }
        };
        Subscription {
            seat: self.state.seat_of(player),
            catch_up,
            presence: self.presence(),
            events,
        }
    }

    /// Starts `request`'s search, or, with nobody connected to an untimed game, keeps it until
    /// someone is: a game whose players have all gone costs no search. Under a clock the
    /// computer moves whoever is watching, or its time would run out.
    fn start_search(&mut self, request: SearchRequest) {
        if self.connections.is_empty() && !self.state.has_clock() {
            self.deferred = Some(request);
            return;
        }
        self.run_search(request);
    }

    fn run_search(&mut self, request: SearchRequest) {
        let cancel = Arc::new(AtomicBool::new(false));
        self.searches.insert(request.search_id, Arc::clone(&cancel));
        let pool = self.context.pool.clone();
        let results = self.search_results.clone();
        let origin = self.origin.clone();
        tokio::spawn(async move {
            let owner = (origin.owner, origin.urgency);
            let search = (request.board, request.level, request.think_ms);
            if let Some(mv) = pool.best_move(search, owner, cancel).await {
                let _ = results.send((request.search_id, mv)).await;
            }
        });
    }
}
