//! Computer searches on a bounded set of blocking workers, so they never starve the sockets.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use outflank_engine::ai::{self, Level};
use outflank_engine::{Board, Move};
use tokio::sync::Semaphore;

use crate::metrics::Metrics;

/// Runs engine searches, at most `workers` at a time, off the async runtime.
#[derive(Clone, Debug)]
pub struct SearchPool {
    permits: Arc<Semaphore>,
    metrics: Metrics,
}

impl SearchPool {
    /// A pool running at most `workers` searches at once (at least one), counting its searches
    /// in `metrics`.
    pub fn new(workers: usize, metrics: Metrics) -> SearchPool {
        SearchPool { permits: Arc::new(Semaphore::new(workers.max(1))), metrics }
    }

    /// A pool sized for this machine: one worker per core but one, so sockets keep a core.
    pub fn for_this_machine(metrics: Metrics) -> SearchPool {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        SearchPool::new(cores.saturating_sub(1), metrics)
    }

    /// The move `level` plays in `board`; `None` if `cancel` was set before or during the
    /// search (a cancelled search never yields a move) or the game is over.
    pub async fn best_move(
        &self,
        board: Board,
        level: Level,
        cancel: Arc<AtomicBool>,
    ) -> Option<Move> {
        let mut counted = self.metrics.search_queued();
        let permit = Arc::clone(&self.permits).acquire_owned().await.ok()?;
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        counted.running();
        let metrics = self.metrics.clone();
        let choice = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let _counted = counted;
            let started = Instant::now();
            let choice = ai::best_move(&board, level, Some(&cancel));
            metrics.search_finished(started.elapsed());
            choice
        })
        .await
        .ok()?;
        choice.ok().map(|choice| choice.mv)
    }
}
