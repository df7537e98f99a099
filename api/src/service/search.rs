//! Computer searches on a bounded set of blocking workers, so they never starve the sockets,
//! shared fairly ([`FairQueue`]): one search at a time per owner, owners in turn, and the
//! computer standing in for a missing opponent first.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::metrics::Metrics;
use outflank_engine::ai::{self, Level};
use outflank_engine::{Board, Move};

use super::fair_queue::{FairQueue, Owner, Urgency};

/// Runs engine searches, at most `workers` at a time, off the async runtime.
#[derive(Clone, Debug)]
pub struct SearchPool {
    turns: FairQueue,
    metrics: Metrics,
}

impl SearchPool {
    /// A pool running at most `workers` searches at once (at least one), counting its searches
    /// in `metrics`.
    pub fn new(workers: usize, metrics: Metrics) -> SearchPool {
        SearchPool { turns: FairQueue::new(workers), metrics }
    }

    /// A pool sized for this machine: one worker per core but one, so sockets keep a core.
    pub fn for_this_machine(metrics: Metrics) -> SearchPool {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        SearchPool::new(cores.saturating_sub(1), metrics)
    }

    /// The move `level` plays in `board`, searched in a turn of `owner`'s; `None` if `cancel`
    /// was set before or during the search (a cancelled search never yields a move) or the
    /// game is over.
    pub async fn best_move(
        &self,
        (board, level): (Board, Level),
        (owner, urgency): (Owner, Urgency),
        cancel: Arc<AtomicBool>,
    ) -> Option<Move> {
        let mut counted = self.metrics.search_queued();
        let permit = self.turns.turn(owner, urgency).await;
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
