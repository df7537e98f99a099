//! Computer searches on a bounded set of blocking workers, so they never starve the sockets,
//! shared fairly ([`FairQueue`]): one search at a time per owner, owners in turn, and the
//! computer standing in for a missing opponent first. [`LiveSearches`] counts the searches
//! running, so that background work (game analysis) can give way to them.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Instant;

use crate::metrics::Metrics;
use outflank_engine::ai::{Level, Search};
use outflank_engine::{Board, Move};

use super::fair_queue::{FairQueue, SearchOwner, Urgency};

/// Nodes a search is assumed to visit in a millisecond when the computer plays under a clock:
/// a tenth of what one core of a current server does (level 10's 4 M midgame nodes take about
/// 0.4 s), so that a slow or busy machine still moves in time.
const NODES_PER_MS: u64 = 1_000;

/// The nodes a search may visit in `think_ms` milliseconds, at [`NODES_PER_MS`].
fn nodes_within(think_ms: i64) -> u64 {
    u64::try_from(think_ms).unwrap_or(0).saturating_mul(NODES_PER_MS)
}

/// Runs engine searches, at most `workers` at a time, off the async runtime.
#[derive(Clone, Debug)]
pub struct SearchPool {
    turns: FairQueue,
    metrics: Metrics,
    live: LiveSearches,
}

impl SearchPool {
    /// A pool running at most `workers` searches at once (at least one), counting its searches
    /// in `metrics`.
    pub fn new(workers: usize, metrics: Metrics) -> SearchPool {
        SearchPool { turns: FairQueue::new(workers), metrics, live: LiveSearches::default() }
    }

    /// A pool sized for this machine: one worker per core but one, so sockets keep a core.
    pub fn for_this_machine(metrics: Metrics) -> SearchPool {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        SearchPool::new(cores.saturating_sub(1), metrics)
    }

    /// The count of this pool's searches running now, shared.
    pub fn live_searches(&self) -> LiveSearches {
        self.live.clone()
    }

    /// The move `level` plays in `board`, searched in a turn of `owner`'s, within the nodes
    /// `think_ms` allow if it is set (at `NODES_PER_MS`); `None` if `cancel` was set before or
    /// during the search (a cancelled search never yields a move) or the game is over.
    pub async fn best_move(
        &self,
        (board, level, think_ms): (Board, Level, Option<i64>),
        (owner, urgency): (SearchOwner, Urgency),
        cancel: Arc<AtomicBool>,
    ) -> Option<Move> {
        let mut counted = self.metrics.search_queued();
        let permit = self.turns.turn(owner, urgency).await;
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        counted.running();
        let metrics = self.metrics.clone();
        let live = self.live.clone();
        let choice = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let _counted = counted;
            let _live = live.start();
            let started = Instant::now();
            let mut search = match think_ms {
                Some(ms) => Search::for_level_within(level, nodes_within(ms)),
                None => Search::for_level(level),
            };
            let choice = search.run(&board, Some(&cancel));
            metrics.search_finished(started.elapsed());
            choice
        })
        .await
        .ok()?;
        choice.ok().map(|choice| choice.mv)
    }
}

/// How many live computer searches run now. Background work calls [`LiveSearches::wait_idle`]
/// between its steps, so it runs only while no live game waits for the computer.
#[derive(Clone, Debug, Default)]
pub struct LiveSearches {
    inner: Arc<LiveInner>,
}

#[derive(Debug, Default)]
struct LiveInner {
    running: Mutex<usize>,
    idle: Condvar,
    waiting: AtomicUsize,
}

/// One running live search; it stops counting when dropped.
#[derive(Debug)]
pub struct LiveSearch {
    inner: Arc<LiveInner>,
}

impl LiveSearches {
    /// Counts a live search as running until the returned guard is dropped.
    pub fn start(&self) -> LiveSearch {
        *self.inner.running.lock().unwrap_or_else(PoisonError::into_inner) += 1;
        LiveSearch { inner: Arc::clone(&self.inner) }
    }

    /// Live searches running now.
    pub fn running(&self) -> usize {
        *self.inner.running.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Threads blocked in [`LiveSearches::wait_idle`] now.
    pub fn waiting(&self) -> usize {
        self.inner.waiting.load(Ordering::SeqCst)
    }

    /// Blocks the calling thread (never an async worker's) until no live search runs.
    pub fn wait_idle(&self) {
        let mut running = self.inner.running.lock().unwrap_or_else(PoisonError::into_inner);
        if *running == 0 {
            return;
        }
        self.inner.waiting.fetch_add(1, Ordering::SeqCst);
        while *running > 0 {
            running = self.inner.idle.wait(running).unwrap_or_else(PoisonError::into_inner);
        }
        self.inner.waiting.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Drop for LiveSearch {
    fn drop(&mut self) {
        let mut running = self.inner.running.lock().unwrap_or_else(PoisonError::into_inner);
        *running = running.saturating_sub(1);
        if *running == 0 {
            self.inner.idle.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waiting_for_idle_returns_once_the_last_live_search_ends() {
        let live = LiveSearches::default();
        live.wait_idle();
        let (first, second) = (live.start(), live.start());
        assert_eq!(live.running(), 2);
        let waiter = {
            let live = live.clone();
            std::thread::spawn(move || live.wait_idle())
        };
        while live.waiting() == 0 {
            std::thread::yield_now();
        }
        drop(first);
        assert_eq!((live.running(), live.waiting()), (1, 1));
        drop(second);
        waiter.join().unwrap();
        assert_eq!((live.running(), live.waiting()), (0, 0));
    }
}
