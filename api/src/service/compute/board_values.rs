//! The analysis board's engine work: every legal move of a position valued, on a small pool of
//! blocking threads that gives way to live games.
//!
//! A player stepping through a line asks for one position after another and needs only the
//! last answer, so each requester (a session's player, or a visitor's address) has at most
//! [`IN_FLIGHT_PER_REQUESTER`] requests running or waiting: a newer one cancels the oldest,
//! which answers [`BoardValuesError::Superseded`]. A request whose client goes away is
//! cancelled too. At most `workers` positions are valued at once and `waiting` more wait; past
//! that a request is refused with [`BoardValuesError::Busy`] at once. Answers are kept in a
//! small cache by position, so stepping back costs nothing.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use outflank_engine::Board;
use outflank_engine::analysis::{self, PositionValues, ReviewOptions};
use thiserror::Error;
use tokio::sync::Semaphore;

use crate::domain::{ClientKey, PlayerId};

use super::search::LiveSearches;

/// Requests one requester may have running or waiting; a newer one cancels the oldest.
pub const IN_FLIGHT_PER_REQUESTER: usize = 2;
/// Positions valued at once by default.
pub const DEFAULT_BOARD_WORKERS: usize = 1;
/// Requests waiting for a worker at most by default.
pub const DEFAULT_BOARD_WAITING: usize = 16;
/// Answers kept by default.
pub const DEFAULT_BOARD_CACHE: usize = 1024;

/// Who asks: the limits are counted per requester.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Requester {
    /// A session's player.
    Player(PlayerId),
    /// A visitor without a session, by address.
    Visitor(ClientKey),
}

/// How many positions are valued and wait at once, how many answers are kept, and how deep
/// values look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardValuesSettings {
    pub workers: usize,
    pub waiting: usize,
    pub cache: usize,
    pub options: ReviewOptions,
}

impl Default for BoardValuesSettings {
    fn default() -> Self {
        BoardValuesSettings {
            workers: DEFAULT_BOARD_WORKERS,
            waiting: DEFAULT_BOARD_WAITING,
            cache: DEFAULT_BOARD_CACHE,
            options: ReviewOptions::default(),
        }
    }
}

/// Why a position was not valued.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum BoardValuesError {
    #[error("a newer request for the analysis board replaced this one")]
    Superseded,
    #[error("the engine is busy with other positions; please try again in a moment")]
    Busy,
}

/// A requester's requests running or waiting, oldest first: each ticket's number and its
/// cancel flag.
type InFlight = VecDeque<(u64, Arc<AtomicBool>)>;

/// The analysis board's pool. Cheap to clone.
#[derive(Clone, Debug)]
pub struct BoardValues {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    settings: BoardValuesSettings,
    live: LiveSearches,
    workers: Arc<Semaphore>,
    waiting: AtomicUsize,
    next_ticket: AtomicU64,
    in_flight: Mutex<HashMap<Requester, InFlight>>,
    cache: Mutex<Cache>,
}

impl BoardValues {
    /// A pool valuing positions with `settings`, giving way to the searches of `live`.
    pub fn new(settings: BoardValuesSettings, live: LiveSearches) -> BoardValues {
        let inner = Inner {
            workers: Arc::new(Semaphore::new(settings.workers.max(1))),
            settings,
            live,
            waiting: AtomicUsize::new(0),
            next_ticket: AtomicU64::new(0),
            in_flight: Mutex::default(),
            cache: Mutex::new(Cache::new(settings.cache)),
        };
        BoardValues { inner: Arc::new(inner) }
    }

    /// The engine's settings for the values.
    pub fn options(&self) -> ReviewOptions {
        self.inner.settings.options
    }

    /// Every legal move of `board` valued for `requester`.
    ///
    /// # Errors
    /// [`BoardValuesError::Superseded`] when newer requests of `requester`'s cancelled this
    /// one, [`BoardValuesError::Busy`] when too many requests wait already.
    pub async fn values(
        &self,
        requester: Requester,
        board: Board,
    ) -> Result<PositionValues, BoardValuesError> {
        if let Some(values) = lock(&self.inner.cache).get(&board) {
            return Ok(values);
        }
        let ticket = Ticket::issue(&self.inner, requester);
        let permit = {
            let _waiting = Waiting::enter(&self.inner)?;
            Arc::clone(&self.inner.workers)
                .acquire_owned()
                .await
                .map_err(|_| BoardValuesError::Busy)?
        };
        if ticket.cancel.load(Ordering::Relaxed) {
            return Err(BoardValuesError::Superseded);
        }
        // The permit goes with the work: a request whose client left frees its worker only when
        // the cancelled search has stopped.
        let run = {
            let (inner, cancel) = (Arc::clone(&self.inner), Arc::clone(&ticket.cancel));
            tokio::task::spawn_blocking(move || {
                let _permit = permit;
                let mut give_way = |_: analysis::Progress| inner.live.wait_idle();
                analysis::move_values(&board, &inner.settings.options, &mut give_way, Some(&cancel))
            })
        };
        let values = run.await.map_err(|_| BoardValuesError::Busy)?;
        let values = values.map_err(|_| BoardValuesError::Superseded)?;
        lock(&self.inner.cache).insert(board, values.clone());
        Ok(values)
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One request in flight for its requester. Dropping it (the answer sent, or the client gone)
/// cancels its search and frees its place.
struct Ticket {
    inner: Arc<Inner>,
    requester: Requester,
    id: u64,
    cancel: Arc<AtomicBool>,
}

impl Ticket {
    /// Counts a request of `requester`'s, cancelling its oldest one beyond the limit.
    fn issue(inner: &Arc<Inner>, requester: Requester) -> Ticket {
        let id = inner.next_ticket.fetch_add(1, Ordering::Relaxed);
        let cancel = Arc::new(AtomicBool::new(false));
        let mut in_flight = lock(&inner.in_flight);
        let queue = in_flight.entry(requester.clone()).or_default();
        queue.push_back((id, Arc::clone(&cancel)));
        while queue.len() > IN_FLIGHT_PER_REQUESTER {
            if let Some((_, oldest)) = queue.pop_front() {
                oldest.store(true, Ordering::Relaxed);
            }
        }
        Ticket { inner: Arc::clone(inner), requester, id, cancel }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        let mut in_flight = lock(&self.inner.in_flight);
        if let Some(queue) = in_flight.get_mut(&self.requester) {
            queue.retain(|(id, _)| *id != self.id);
            if queue.is_empty() {
                in_flight.remove(&self.requester);
            }
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
    values: HashMap<Board, PositionValues>,
    order: VecDeque<Board>,
}

impl Cache {
    fn new(capacity: usize) -> Cache {
        Cache { capacity, values: HashMap::new(), order: VecDeque::new() }
    }

    fn get(&self, board: &Board) -> Option<PositionValues> {
        self.values.get(board).cloned()
    }

    fn insert(&mut self, board: Board, values: PositionValues) {
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
    use crate::service::test_support::until;
    use outflank_engine::{Move, Square};

    fn quick(workers: usize, waiting: usize) -> BoardValuesSettings {
        BoardValuesSettings {
            workers,
            waiting,
            cache: 8,
            options: ReviewOptions { depth: 2, exact_empties: 4, ..ReviewOptions::default() },
        }
    }

    fn player(name: &str) -> Requester {
        Requester::Player(name.parse().unwrap())
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_opening_moves_are_valued_alike_by_symmetry() {
        let pool = BoardValues::new(quick(1, 4), LiveSearches::default());
        let values = pool.values(player("aaaaaaaaaaaaaaaa"), Board::start()).await.unwrap();
        let moves: Vec<Move> = values.moves.iter().map(|value| value.mv).collect();
        assert_eq!(moves, [Square::D3, Square::C4, Square::F5, Square::E6].map(Move::Place));
        assert!(values.moves.iter().all(|value| value.value == values.moves[0].value));
        assert_eq!(values.best_line.first(), Some(&Move::Place(Square::D3)));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_third_request_of_one_player_cancels_the_oldest() {
        let live = LiveSearches::default();
        let search = live.start();
        let pool = BoardValues::new(quick(1, 8), live.clone());
        let ask = |board: Board| {
            let pool = pool.clone();
            tokio::spawn(async move { pool.values(player("aaaaaaaaaaaaaaaa"), board).await })
        };
        let first = ask(Board::start());
        // The first one runs and waits for the live search to end; the second one waits.
        until(|| live.waiting() == 1).await;
        let after = |square| Board::start().play(Move::Place(square)).unwrap();
        let second = ask(after(Square::D3));
        until(|| pool.inner.waiting.load(Ordering::SeqCst) == 1).await;
        let third = ask(after(Square::F5));
        // The first one stops at its next step, once the live search has ended.
        drop(search);
        assert_eq!(first.await.unwrap(), Err(BoardValuesError::Superseded));
        assert!(second.await.unwrap().is_ok());
        assert!(third.await.unwrap().is_ok());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn past_the_waiting_limit_a_request_is_refused_at_once() {
        let live = LiveSearches::default();
        let search = live.start();
        let pool = BoardValues::new(quick(1, 1), live.clone());
        let ask = |name: &'static str, board: Board| {
            let pool = pool.clone();
            tokio::spawn(async move { pool.values(player(name), board).await })
        };
        let running = ask("aaaaaaaaaaaaaaaa", Board::start());
        until(|| live.waiting() == 1).await;
        let after = |square| Board::start().play(Move::Place(square)).unwrap();
        let waiting = ask("bbbbbbbbbbbbbbbb", after(Square::D3));
        until(|| pool.inner.waiting.load(Ordering::SeqCst) == 1).await;
        let refused = pool.values(player("cccccccccccccccc"), after(Square::F5)).await;
        assert_eq!(refused, Err(BoardValuesError::Busy));
        drop(search);
        assert!(running.await.unwrap().is_ok());
        assert!(waiting.await.unwrap().is_ok());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_valued_position_is_answered_from_the_cache_even_while_live_searches_run() {
        let live = LiveSearches::default();
        let pool = BoardValues::new(quick(1, 1), live.clone());
        let first = pool.values(player("aaaaaaaaaaaaaaaa"), Board::start()).await.unwrap();
        let _search = live.start();
        let again = pool.values(player("bbbbbbbbbbbbbbbb"), Board::start()).await.unwrap();
        assert_eq!(again, first);
        assert_eq!(live.waiting(), 0);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_request_dropped_by_its_client_frees_its_place_and_cancels_its_search() {
        let live = LiveSearches::default();
        let search = live.start();
        let pool = BoardValues::new(quick(1, 1), live.clone());
        let asked = {
            let pool = pool.clone();
            tokio::spawn(
                async move { pool.values(player("aaaaaaaaaaaaaaaa"), Board::start()).await },
            )
        };
        until(|| live.waiting() == 1).await;
        asked.abort();
        until(|| lock(&pool.inner.in_flight).is_empty()).await;
        drop(search);
        // The worker comes free: another position is valued.
        let after = Board::start().play(Move::Place(Square::D3)).unwrap();
        assert!(pool.values(player("bbbbbbbbbbbbbbbb"), after).await.is_ok());
    }

    #[test]
    fn the_cache_forgets_the_oldest_answer_first() {
        let mut cache = Cache::new(2);
        let boards: Vec<Board> = [Square::D3, Square::C4, Square::F5]
            .into_iter()
            .map(|square| Board::start().play(Move::Place(square)).unwrap())
            .collect();
        let values = PositionValues { moves: Vec::new(), best_line: Vec::new() };
        for board in &boards {
            cache.insert(*board, values.clone());
        }
        assert_eq!(cache.get(&boards[0]), None);
        assert_eq!(cache.get(&boards[1]), Some(values.clone()));
        assert_eq!(cache.get(&boards[2]), Some(values));
    }
}
