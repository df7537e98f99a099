//! The analysis board's engine work: every legal move of a position valued, on a few threads
//! of the idle scheduling class ([`IdleThreads`]), so that live games' searches and moves
//! always come first, and that give way to live computer searches between moves too.
//!
//! Each request's values may take at most [`BoardValuesSettings::nodes`] engine nodes, shared
//! among the positions valued: a position of 21 empties costs no more than the opening, and
//! the answer says how deep its searches got ([`Valuation::searched_depth`]).
//!
//! A player stepping through a line asks for one position after another and needs only the
//! last answer, so each requester (a session's player, or a visitor's address) has at most
//! [`IN_FLIGHT_PER_REQUESTER`] requests running or waiting: a newer one cancels the oldest,
//! which answers [`BoardValuesError::Superseded`]. One client address, with however many
//! sessions, has at most [`IN_FLIGHT_PER_ADDRESS`]; past that a request is refused with
//! [`BoardValuesError::TooMany`], so that no address fills the queue. A request whose client
//! goes away is cancelled: its search stops at its next poll of the flag. At most `workers`
//! positions are valued at once and `waiting` more wait; past that a request is refused with
//! [`BoardValuesError::Busy`] at once. Answers are kept in a small cache by position, so
//! stepping back costs nothing.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use outflank_engine::Board;
use outflank_engine::analysis::{self, BEST_LINE_PLIES, ReviewOptions, Valuation};
use thiserror::Error;
use tokio::sync::Semaphore;

use crate::domain::{ClientKey, PlayerId};
use crate::metrics::{BoardRequestGuard, BoardSearchEnd, ErrorKind, Metrics};

use super::idle_threads::IdleThreads;
use super::search::LiveSearches;

/// Requests one requester may have running or waiting; a newer one cancels the oldest.
pub const IN_FLIGHT_PER_REQUESTER: usize = 2;
/// Requests one client address may have running or waiting, all its sessions together; past
/// it a request is refused.
pub const IN_FLIGHT_PER_ADDRESS: usize = 4;
/// Positions valued at once by default.
pub const DEFAULT_BOARD_WORKERS: usize = 1;
/// Requests waiting for a worker at most by default.
pub const DEFAULT_BOARD_WAITING: usize = 16;
/// Answers kept by default.
pub const DEFAULT_BOARD_CACHE: usize = 1024;
/// Engine nodes one request may take by default: about as many as one move of the computer's
/// strongest level, well under a second of one core for searches and solving together (the
/// engine's README has the rates).
pub const DEFAULT_BOARD_NODES: u64 = 4_000_000;

/// Who asks: the limits are counted per requester.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Requester {
    /// A session's player.
    Player(PlayerId),
    /// A visitor without a session, by address.
    Visitor(ClientKey),
}

/// How many positions are valued and wait at once, how many answers are kept, how deep values
/// look and how many nodes one request may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardValuesSettings {
    pub workers: usize,
    pub waiting: usize,
    pub cache: usize,
    pub options: ReviewOptions,
    /// Engine nodes one request may take, solver and searches together.
    pub nodes: u64,
}

impl Default for BoardValuesSettings {
    fn default() -> Self {
        BoardValuesSettings {
            workers: DEFAULT_BOARD_WORKERS,
            waiting: DEFAULT_BOARD_WAITING,
            cache: DEFAULT_BOARD_CACHE,
            options: ReviewOptions::default(),
            nodes: DEFAULT_BOARD_NODES,
        }
    }
}

/// Why a position was not valued.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum BoardValuesError {
    #[error("a newer request for the analysis board replaced this one")]
    Superseded,
    #[error(
        "too many analysis board requests from this address are running or waiting; \
         please wait for their answers"
    )]
    TooMany,
    #[error("the engine is busy with other positions; please try again in a moment")]
    Busy,
}

/// The engine's options for valuing `board` within `nodes` in all: shared evenly among the
/// positions valued (after each legal move, then along the best line), half for the solver and
/// half for the search of each, never more than `options` allow already.
pub fn within_budget(options: ReviewOptions, nodes: u64, board: &Board) -> ReviewOptions {
    let moves = u64::from(board.legal_moves().count()).max(1);
    let line = u64::try_from(BEST_LINE_PLIES.saturating_sub(1)).unwrap_or(u64::MAX);
    let share = (nodes / (2 * (moves + line))).max(1);
    ReviewOptions {
        exact_node_limit: options.exact_node_limit.min(share),
        node_budget: options.node_budget.min(share),
        ..options
    }
}

/// A request counted for its requester.
#[derive(Debug)]
struct Counted {
    ticket: u64,
    address: ClientKey,
    cancel: Arc<AtomicBool>,
    /// Wakes the request if it waits for a worker when it is cancelled.
    wake: Arc<tokio::sync::Notify>,
}

/// A requester's requests running or waiting, oldest first.
type InFlight = VecDeque<Counted>;

/// The requests counted against the limits: by requester, and how many by address.
#[derive(Debug, Default)]
struct Counts {
    requesters: HashMap<Requester, InFlight>,
    addresses: HashMap<ClientKey, usize>,
}

impl Counts {
    fn forget_one_of(&mut self, address: &ClientKey) {
        if let Some(count) = self.addresses.get_mut(address) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                self.addresses.remove(address);
            }
        }
    }
}

/// The analysis board's pool. Cheap to clone.
#[derive(Clone, Debug)]
pub struct BoardValues {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    settings: BoardValuesSettings,
    live: LiveSearches,
    threads: IdleThreads,
    metrics: Metrics,
    workers: Arc<Semaphore>,
    waiting: AtomicUsize,
    next_ticket: AtomicU64,
    in_flight: Mutex<Counts>,
    cache: Mutex<Cache>,
}

impl BoardValues {
    /// A pool valuing positions with `settings` on threads of its own (`board-0`, …) of the idle
    /// class, giving way to the searches of `live`, and counted in `metrics`.
    ///
    /// # Errors
    /// When the system refuses a thread.
    pub fn start(
        settings: BoardValuesSettings,
        live: LiveSearches,
        metrics: Metrics,
    ) -> std::io::Result<BoardValues> {
        let workers = settings.workers.max(1);
        let inner = Inner {
            threads: IdleThreads::start("board", workers)?,
            workers: Arc::new(Semaphore::new(workers)),
            settings,
            live,
            metrics,
            waiting: AtomicUsize::new(0),
            next_ticket: AtomicU64::new(0),
            in_flight: Mutex::default(),
            cache: Mutex::new(Cache::new(settings.cache)),
        };
        Ok(BoardValues { inner: Arc::new(inner) })
    }

    /// The engine's settings for the values, before a request's node budget.
    pub fn options(&self) -> ReviewOptions {
        self.inner.settings.options
    }

    /// Every legal move of `board` valued for `requester` at `address`.
    ///
    /// # Errors
    /// [`BoardValuesError::Superseded`] when newer requests of `requester`'s cancelled this
    /// one, [`BoardValuesError::TooMany`] when `address` has too many requests already,
    /// [`BoardValuesError::Busy`] when too many requests wait already.
    pub async fn values(
        &self,
        requester: Requester,
        address: ClientKey,
        board: Board,
    ) -> Result<Valuation, BoardValuesError> {
        if let Some(values) = lock(&self.inner.cache).get(&board) {
            return Ok(values);
        }
        let ticket = Ticket::issue(&self.inner, requester, address).inspect_err(|error| {
            self.inner.metrics.error(ErrorKind::Refused, error.code());
        })?;
        let permit = {
            let _waiting = Waiting::enter(&self.inner).inspect_err(|error| {
                self.inner.metrics.error(ErrorKind::Refused, error.code());
            })?;
            // A request replaced while it waits leaves the line at once: it no longer counts
            // against its address, so it must not keep a waiting place either.
            let workers = Arc::clone(&self.inner.workers);
            tokio::select! {
                permit = workers.acquire_owned() => permit.map_err(|_| BoardValuesError::Busy)?,
                () = ticket.cancelled() => return Err(BoardValuesError::Superseded),
            }
        };
        if ticket.cancel.load(Ordering::Relaxed) {
            return Err(BoardValuesError::Superseded);
        }
        // The permit goes with the work: a request whose client left frees its worker only when
        // the cancelled search has stopped.
        let job = {
            let (inner, cancel) = (Arc::clone(&self.inner), Arc::clone(&ticket.cancel));
            move || {
                let _permit = permit;
                let options = within_budget(inner.settings.options, inner.settings.nodes, &board);
                let mut give_way = |_: analysis::Progress| inner.live.wait_idle();
                let valued = analysis::valuation(&board, &options, &mut give_way, Some(&cancel));
                let end =
                    if valued.is_ok() { BoardSearchEnd::Finished } else { BoardSearchEnd::Stopped };
                inner.metrics.board_search_ended(end);
                valued
            }
        };
        // A lost job (a bug in the engine) leaves the request unanswered like a full pool.
        let valued = self.inner.threads.run(job).await.map_err(|_| BoardValuesError::Busy)?;
        let valued = valued.map_err(|_| BoardValuesError::Superseded)?;
        lock(&self.inner.cache).insert(board, valued.clone());
        Ok(valued)
    }
}

impl BoardValuesError {
    /// The short name the metrics count a refusal by, as the client gets it.
    fn code(self) -> &'static str {
        match self {
            BoardValuesError::Superseded => "superseded",
            BoardValuesError::TooMany => "too_many_board_requests",
            BoardValuesError::Busy => "analysis_busy",
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One request in flight for its requester and address. Dropping it (the answer sent, or the
/// client gone) cancels its search and frees its place.
struct Ticket {
    inner: Arc<Inner>,
    requester: Requester,
    address: ClientKey,
    id: u64,
    cancel: Arc<AtomicBool>,
    wake: Arc<tokio::sync::Notify>,
    _counted: BoardRequestGuard,
}

impl Ticket {
    /// Resolves once a newer request of the same requester has cancelled this one.
    async fn cancelled(&self) {
        while !self.cancel.load(Ordering::Relaxed) {
            self.wake.notified().await;
        }
    }
}

impl Ticket {
    /// Counts a request of `requester`'s from `address`, cancelling the requester's oldest one
    /// beyond its limit.
    ///
    /// # Errors
    /// [`BoardValuesError::TooMany`] when `address` has its limit of requests already and none
    /// of them is `requester`'s to replace.
    fn issue(
        inner: &Arc<Inner>,
        requester: Requester,
        address: ClientKey,
    ) -> Result<Ticket, BoardValuesError> {
        let mut counts = lock(&inner.in_flight);
        // The oldest request this one replaces frees its address's place for it.
        let replaces_here = counts.requesters.get(&requester).is_some_and(|queue| {
            queue.len() >= IN_FLIGHT_PER_REQUESTER
                && queue.front().is_some_and(|oldest| oldest.address == address)
        });
        let from_address = counts.addresses.get(&address).copied().unwrap_or(0);
        if !replaces_here && from_address >= IN_FLIGHT_PER_ADDRESS {
            return Err(BoardValuesError::TooMany);
        }
        let id = inner.next_ticket.fetch_add(1, Ordering::Relaxed);
        let cancel = Arc::new(AtomicBool::new(false));
        let queue = counts.requesters.entry(requester.clone()).or_default();
        let wake = Arc::new(tokio::sync::Notify::new());
        let counted =
            Counted { ticket: id, address, cancel: Arc::clone(&cancel), wake: Arc::clone(&wake) };
        queue.push_back(counted);
        let mut replaced = Vec::new();
        while queue.len() > IN_FLIGHT_PER_REQUESTER {
            if let Some(oldest) = queue.pop_front() {
                oldest.cancel.store(true, Ordering::Relaxed);
                oldest.wake.notify_one();
                replaced.push(oldest.address);
            }
        }
        *counts.addresses.entry(address).or_default() += 1;
        for address in &replaced {
            counts.forget_one_of(address);
        }
        Ok(Ticket {
            inner: Arc::clone(inner),
            requester,
            address,
            id,
            cancel,
            wake,
            _counted: inner.metrics.board_request(),
        })
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        let mut counts = lock(&self.inner.in_flight);
        let Some(queue) = counts.requesters.get_mut(&self.requester) else { return };
        let before = queue.len();
        queue.retain(|counted| counted.ticket != self.id);
        let counted = queue.len() < before;
        if queue.is_empty() {
            counts.requesters.remove(&self.requester);
        }
        // A replaced request no longer counts against its address.
        if counted {
            counts.forget_one_of(&self.address);
        }
    }
}

/// A request counted as waiting for a worker while it lives.
struct Waiting<'a> {
    inner: &'a Inner,
}

impl<'a> Waiting<'a> {
    fn enter(inner: &'a Inner) -> Result<Waiting<'a>, BoardValuesError> {
        let limit = inner.settings.waiting;
        inner
            .waiting
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| (n < limit).then_some(n + 1))
            .map_err(|_| BoardValuesError::Busy)?;
        Ok(Waiting { inner })
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.inner.waiting.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Answers by position, the oldest forgotten first.
#[derive(Debug)]
struct Cache {
    capacity: usize,
    values: HashMap<Board, Valuation>,
    order: VecDeque<Board>,
}

impl Cache {
    fn new(capacity: usize) -> Cache {
        Cache { capacity, values: HashMap::new(), order: VecDeque::new() }
    }

    fn get(&self, board: &Board) -> Option<Valuation> {
        self.values.get(board).cloned()
    }

    fn insert(&mut self, board: Board, values: Valuation) {
        if self.capacity == 0 || self.values.insert(board, values).is_some() {
            return;
        }
        self.order.push_back(board);
        while self.order.len() > self.capacity {
            if let Some(oldest) = self.order.pop_front() {
                self.values.remove(&oldest);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::compute::LiveSearch;
    use crate::service::test_support::until;
    use outflank_engine::analysis::PositionValues;
    use outflank_engine::{Move, Square};

    fn quick(workers: usize, waiting: usize) -> BoardValuesSettings {
        BoardValuesSettings {
            workers,
            waiting,
            cache: 8,
            options: ReviewOptions { depth: 2, exact_empties: 4, ..ReviewOptions::default() },
            nodes: DEFAULT_BOARD_NODES,
        }
    }

    fn pool(settings: BoardValuesSettings, live: &LiveSearches) -> BoardValues {
        BoardValues::start(settings, live.clone(), Metrics::new()).unwrap()
    }

    fn player(name: &str) -> Requester {
        Requester::Player(name.parse().unwrap())
    }

    fn address(text: &str) -> ClientKey {
        ClientKey::of(text.parse().unwrap())
    }

    fn here() -> ClientKey {
        address("192.0.2.1")
    }

    fn after(square: Square) -> Board {
        Board::start().play(Move::Place(square)).unwrap()
    }

    /// A pool under `settings` whose workers are held by a live search until it is dropped: the
    /// live searches, that search and the pool.
    fn held(settings: BoardValuesSettings) -> (LiveSearches, LiveSearch, BoardValues) {
        let live = LiveSearches::default();
        let search = live.start();
        let pool = pool(settings, &live);
        (live, search, pool)
    }

    /// Asks `pool` for `board`'s values as player `name` from `from`, in a task of its own.
    fn ask(
        pool: &BoardValues,
        name: &'static str,
        from: ClientKey,
        board: Board,
    ) -> tokio::task::JoinHandle<Result<Valuation, BoardValuesError>> {
        let pool = pool.clone();
        tokio::spawn(async move { pool.values(player(name), from, board).await })
    }

    /// How many requests wait for a worker.
    fn waiting(pool: &BoardValues) -> usize {
        pool.inner.waiting.load(Ordering::SeqCst)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_opening_moves_are_valued_alike_by_symmetry() {
        let pool = pool(quick(1, 4), &LiveSearches::default());
        let valued = pool.values(player("aaaaaaaaaaaaaaaa"), here(), Board::start()).await.unwrap();
        let values = valued.values;
        let moves: Vec<Move> = values.moves.iter().map(|value| value.mv).collect();
        assert_eq!(moves, [Square::D3, Square::C4, Square::F5, Square::E6].map(Move::Place));
        assert!(values.moves.iter().all(|value| value.value == values.moves[0].value));
        assert_eq!(values.best_line.first(), Some(&Move::Place(Square::D3)));
        assert_eq!(valued.searched_depth, Some(2));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_values_are_made_on_a_thread_of_the_idle_class() {
        let pool = pool(quick(1, 4), &LiveSearches::default());
        let name = pool.inner.threads.run(|| std::thread::current().name().map(str::to_owned));
        assert_eq!(name.await, Ok(Some("board-0".to_owned())));
    }

    #[test]
    fn a_requests_nodes_are_shared_among_the_moves_and_the_best_line_solver_and_search_alike() {
        // The start has 4 moves and the best line 7 positions after its first move: 11, each
        // with a solve and a search.
        let options = within_budget(ReviewOptions::default(), 22_000, &Board::start());
        assert_eq!((options.exact_node_limit, options.node_budget), (1_000, 1_000));
        assert_eq!(options.depth, ReviewOptions::default().depth);
    }

    #[test]
    fn a_budget_larger_than_the_settings_leaves_them_as_they_are() {
        let settings =
            ReviewOptions { exact_node_limit: 10, node_budget: 20, ..ReviewOptions::default() };
        let options = within_budget(settings, u64::MAX, &Board::start());
        assert_eq!(options, settings);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_small_budget_values_every_move_less_deep_and_says_so() {
        let settings = BoardValuesSettings {
            options: ReviewOptions { depth: 6, exact_empties: 0, ..ReviewOptions::default() },
            nodes: 4_000,
            ..quick(1, 4)
        };
        let pool = pool(settings, &LiveSearches::default());
        let board = after(Square::F5);
        let valued = pool.values(player("aaaaaaaaaaaaaaaa"), here(), board).await.unwrap();
        assert_eq!(valued.values.moves.len(), 3);
        assert!(valued.searched_depth.is_some_and(|depth| depth < 6), "{valued:?}");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_third_request_of_one_player_cancels_the_oldest() {
        let (live, search, pool) = held(quick(1, 8));
        let ann = "aaaaaaaaaaaaaaaa";
        let first = ask(&pool, ann, here(), Board::start());
        // The first one runs and waits for the live search to end; the second one waits.
        until(|| live.waiting() == 1).await;
        let second = ask(&pool, ann, here(), after(Square::D3));
        until(|| waiting(&pool) == 1).await;
        let third = ask(&pool, ann, here(), after(Square::F5));
        // The first one stops at its next step, once the live search has ended.
        drop(search);
        assert_eq!(first.await.unwrap(), Err(BoardValuesError::Superseded));
        assert!(second.await.unwrap().is_ok());
        assert!(third.await.unwrap().is_ok());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_waiting_request_replaced_by_newer_ones_leaves_the_line_at_once() {
        let (live, search, pool) = held(quick(1, 3));
        let bob = "bbbbbbbbbbbbbbbb";
        let running = ask(&pool, "aaaaaaaaaaaaaaaa", here(), Board::start());
        until(|| live.waiting() == 1).await;
        // Bob's first request waits; his next two replace it while the worker is still held.
        let replaced = ask(&pool, bob, here(), after(Square::D3));
        until(|| waiting(&pool) == 1).await;
        let second = ask(&pool, bob, here(), after(Square::C4));
        until(|| waiting(&pool) == 2).await;
        let third = ask(&pool, bob, here(), after(Square::F5));
        // It answers while the worker is still held (the bound only keeps a failure from
        // hanging the test).
        let answered = tokio::time::timeout(std::time::Duration::from_secs(10), replaced).await;
        assert_eq!(answered.expect("answered at once").unwrap(), Err(BoardValuesError::Superseded));
        until(|| waiting(&pool) == 2).await;
        drop(search);
        for request in [running, second, third] {
            assert!(request.await.unwrap().is_ok());
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn past_its_limit_an_address_is_refused_whatever_its_sessions_and_another_is_not() {
        let (_live, search, pool) = held(quick(1, 16));
        let boards = [Square::D3, Square::C4, Square::F5, Square::E6].map(after);
        let names =
            ["aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb", "cccccccccccccccc", "dddddddddddddddd"];
        let mut asked = Vec::new();
        for (name, board) in names.into_iter().zip(boards) {
            asked.push(ask(&pool, name, here(), board));
            until(|| lock(&pool.inner.in_flight).addresses.get(&here()) == Some(&asked.len()))
                .await;
        }
        let refused = pool.values(player("eeeeeeeeeeeeeeee"), here(), Board::start()).await;
        assert_eq!(refused.err(), Some(BoardValuesError::TooMany));
        let elsewhere = ask(&pool, "ffffffffffffffff", address("198.51.100.7"), Board::start());
        until(|| lock(&pool.inner.in_flight).addresses.len() == 2).await;
        drop(search);
        assert!(elsewhere.await.unwrap().is_ok());
        for request in asked {
            assert!(request.await.unwrap().is_ok());
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_request_replacing_its_players_oldest_is_not_refused_by_the_address_limit() {
        let (_live, search, pool) = held(quick(1, 16));
        let boards = [Square::D3, Square::C4, Square::F5, Square::E6].map(after);
        let names =
            ["aaaaaaaaaaaaaaaa", "aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb", "bbbbbbbbbbbbbbbb"];
        let mut asked = Vec::new();
        for (name, board) in names.into_iter().zip(boards) {
            asked.push(ask(&pool, name, here(), board));
            until(|| lock(&pool.inner.in_flight).addresses.get(&here()) == Some(&asked.len()))
                .await;
        }
        let third = ask(&pool, "aaaaaaaaaaaaaaaa", here(), Board::start());
        drop(search);
        assert!(third.await.unwrap().is_ok());
        let ends: Vec<_> = futures_util::future::join_all(asked).await;
        assert_eq!(ends[0].as_ref().unwrap().as_ref().err(), Some(&BoardValuesError::Superseded));
        assert!(ends[1..].iter().all(|end| end.as_ref().unwrap().is_ok()));
        assert!(lock(&pool.inner.in_flight).addresses.is_empty());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn past_the_waiting_limit_a_request_is_refused_at_once() {
        let (live, search, pool) = held(quick(1, 1));
        let running = ask(&pool, "aaaaaaaaaaaaaaaa", here(), Board::start());
        until(|| live.waiting() == 1).await;
        let queued = ask(&pool, "bbbbbbbbbbbbbbbb", here(), after(Square::D3));
        until(|| waiting(&pool) == 1).await;
        let refused = pool.values(player("cccccccccccccccc"), here(), after(Square::F5)).await;
        assert_eq!(refused.err(), Some(BoardValuesError::Busy));
        drop(search);
        assert!(running.await.unwrap().is_ok());
        assert!(queued.await.unwrap().is_ok());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_valued_position_is_answered_from_the_cache_even_while_live_searches_run() {
        let live = LiveSearches::default();
        let pool = pool(quick(1, 1), &live);
        let first = pool.values(player("aaaaaaaaaaaaaaaa"), here(), Board::start()).await.unwrap();
        let _search = live.start();
        let again = pool.values(player("bbbbbbbbbbbbbbbb"), here(), Board::start()).await.unwrap();
        assert_eq!(again, first);
        assert_eq!(live.waiting(), 0);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_request_dropped_by_its_client_frees_its_place_and_stops_its_search() {
        let live = LiveSearches::default();
        let search = live.start();
        let metrics = Metrics::new();
        let pool = BoardValues::start(quick(1, 1), live.clone(), metrics.clone()).unwrap();
        let asked = {
            let pool = pool.clone();
            tokio::spawn(async move {
                pool.values(player("aaaaaaaaaaaaaaaa"), here(), Board::start()).await
            })
        };
        until(|| live.waiting() == 1).await;
        asked.abort();
        until(|| lock(&pool.inner.in_flight).requesters.is_empty()).await;
        drop(search);
        // The worker comes free once the search has stopped, without a value.
        let valued = pool.values(player("bbbbbbbbbbbbbbbb"), here(), after(Square::D3)).await;
        assert!(valued.is_ok());
        let text = metrics.render(None);
        assert!(text.contains("outflank_board_searches_total{end=\"stopped\"} 1\n"), "{text}");
        assert!(text.contains("outflank_board_searches_total{end=\"finished\"} 1\n"), "{text}");
        assert!(text.contains("outflank_board_requests 0\n"), "{text}");
    }

    #[test]
    fn the_cache_forgets_the_oldest_answer_first() {
        let mut cache = Cache::new(2);
        let boards: Vec<Board> = [Square::D3, Square::C4, Square::F5].map(after).to_vec();
        let values = Valuation {
            values: PositionValues { moves: Vec::new(), best_line: Vec::new() },
            searched_depth: None,
        };
        for board in &boards {
            cache.insert(*board, values.clone());
        }
        assert_eq!(cache.get(&boards[0]), None);
        assert_eq!(cache.get(&boards[1]), Some(values.clone()));
        assert_eq!(cache.get(&boards[2]), Some(values));
    }
}
