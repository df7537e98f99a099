//! Several threads on one solve: Young Brothers Wait (YBWC) over the shared table.
//!
//! The leading thread searches as one thread would. At a node with enough empties whose first
//! move has been searched without a cutoff (so the node most likely needs all its moves), and
//! while some thread is idle, it opens a *split point*: the moves left go to a shared list that
//! every thread at the node takes from, and the best score so far (and so the window) is
//! shared. A helper never starts a search of its own; it waits for split points. The thread
//! that opened one, once the list is empty, helps with split points opened below it until the
//! others are done (the "helpful master"), then goes on with the node's result.
//!
//! A move that refutes a split node (score at least beta) stops the node: the threads still
//! searching its moves see the flag the next time they poll (every [`PARALLEL_POLL`] nodes),
//! and so do those searching below it, through the split points' parent links.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use super::search::Candidate;
use super::tt::NO_MOVE;

/// Nodes between two polls of the stop flags in a parallel solve: small enough that a thread
/// wastes little work after a cutoff elsewhere.
pub(super) const PARALLEL_POLL: u64 = 512;

/// What the threads of one solve share besides the table.
#[derive(Debug, Default)]
pub(super) struct Pool {
    /// The split points with moves left to take.
    open: Mutex<Vec<Arc<SplitPoint>>>,
    /// Signalled when a split point opens, when a thread leaves one, and at the end.
    wake: Condvar,
    /// Threads waiting for work: helpers between split points, and threads that opened a
    /// split point and wait for its last moves.
    idle: AtomicUsize,
    /// Set once the leading thread is done (or gave up): helpers return.
    pub(super) done: AtomicBool,
}

/// A node whose remaining moves several threads search.
#[derive(Debug)]
pub(super) struct SplitPoint {
    pub(super) p: u64,
    pub(super) o: u64,
    pub(super) empties: u32,
    pub(super) beta: i32,
    /// Whether the node belongs to the selective presearch.
    pub(super) selective: bool,
    /// The split point the opening thread was searching under, if any: a stop there stops
    /// this one too.
    pub(super) parent: Option<Arc<SplitPoint>>,
    /// Set when a move refutes the node, or when the opening thread stops early.
    pub(super) stop: AtomicBool,
    /// Threads searching a move of this node, the opener included.
    workers: AtomicUsize,
    state: Mutex<SplitState>,
}

/// The shared progress of a split point.
#[derive(Debug)]
pub(super) struct SplitState {
    moves: Vec<Candidate>,
    next: usize,
    pub(super) alpha: i32,
    pub(super) best: i32,
    pub(super) best_move: u8,
}

impl SplitPoint {
    /// A split point over `moves` (best first), the opener counted as a worker.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        p: u64,
        o: u64,
        empties: u32,
        alpha: i32,
        beta: i32,
        best: i32,
        best_move: u8,
        moves: Vec<Candidate>,
        selective: bool,
        parent: Option<Arc<SplitPoint>>,
    ) -> SplitPoint {
        SplitPoint {
            p,
            o,
            empties,
            beta,
            selective,
            parent,
            stop: AtomicBool::new(false),
            workers: AtomicUsize::new(1),
            state: Mutex::new(SplitState { moves, next: 0, alpha, best, best_move }),
        }
    }

    fn state(&self) -> MutexGuard<'_, SplitState> {
        // A thread panicking mid-search is a bug; the others may as well see its state.
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Whether this split point or one it lies under was stopped.
    #[inline]
    pub(super) fn stopped(&self) -> bool {
        let mut at = Some(self);
        while let Some(split) = at {
            if split.stop.load(Ordering::Relaxed) {
                return true;
            }
            at = split.parent.as_deref();
        }
        false
    }

    /// Whether a split point this one lies under was stopped (this one's own flag aside).
    pub(super) fn parent_stopped(&self) -> bool {
        self.parent.as_deref().is_some_and(SplitPoint::stopped)
    }

    /// The next move to search and the current alpha, unless the node is done or stopped.
    pub(super) fn take(&self) -> Option<(Candidate, i32)> {
        let mut state = self.state();
        if state.next >= state.moves.len() || self.stopped() {
            return None;
        }
        let candidate = state.moves[state.next];
        state.next += 1;
        Some((candidate, state.alpha))
    }

    /// Records a move's score; says whether it refutes the node (which stops it).
    pub(super) fn record(&self, square: u8, score: i32) -> bool {
        let mut state = self.state();
        if score > state.best {
            state.best = score;
            state.best_move = square;
            if score >= self.beta {
                self.stop.store(true, Ordering::Relaxed);
                return true;
            }
            state.alpha = state.alpha.max(score);
        }
        false
    }

    /// The best score and move found.
    pub(super) fn result(&self) -> (i32, u8) {
        let state = self.state();
        (state.best, if state.best == super::search::NO_SCORE { NO_MOVE } else { state.best_move })
    }

    /// Whether moves are left to take.
    fn has_moves(&self) -> bool {
        let state = self.state();
        state.next < state.moves.len() && !self.stopped()
    }

    /// Counts one more worker, if moves are left.
    fn try_join(&self) -> bool {
        let state = self.state();
        if state.next >= state.moves.len() || self.stopped() {
            return false;
        }
        self.workers.fetch_add(1, Ordering::Relaxed);
        true
    }

    /// Whether `ancestor` is this split point or one it lies under.
    fn lies_under(&self, ancestor: &SplitPoint) -> bool {
        let mut at = Some(self);
        while let Some(split) = at {
            if std::ptr::eq(split, ancestor) {
                return true;
            }
            at = split.parent.as_deref();
        }
        false
    }
}

impl Pool {
    fn open(&self) -> MutexGuard<'_, Vec<Arc<SplitPoint>>> {
        self.open.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Whether some thread waits for work.
    #[inline]
    pub(super) fn has_idle(&self) -> bool {
        self.idle.load(Ordering::Relaxed) > 0
    }

    /// Offers a split point's moves to the waiting threads.
    pub(super) fn publish(&self, split: &Arc<SplitPoint>) {
        self.open().push(Arc::clone(split));
        self.wake.notify_all();
    }

    /// Takes the split point off the list (its opener has no moves left to give).
    pub(super) fn withdraw(&self, split: &Arc<SplitPoint>) {
        self.open().retain(|open| !Arc::ptr_eq(open, split));
    }

    /// A worker is done with `split`.
    pub(super) fn leave(&self, split: &SplitPoint) {
        let _open = self.open();
        split.workers.fetch_sub(1, Ordering::Relaxed);
        self.wake.notify_all();
    }

    /// Ends the solve for the helpers.
    pub(super) fn finish(&self) {
        let _open = self.open();
        self.done.store(true, Ordering::Relaxed);
        self.wake.notify_all();
    }

    /// Waits for a split point to work on: one lying under `under` if given (the waiting
    /// opener of `under`, which returns `None` once it is the last worker there), or any
    /// (a helper, which returns `None` at the end of the solve). The split point returned
    /// counts the caller as a worker. Without `join`, only waits (for `under`'s workers).
    pub(super) fn wait_for_work(
        &self,
        under: Option<&SplitPoint>,
        join: bool,
    ) -> Option<Arc<SplitPoint>> {
        let mut open = self.open();
        self.idle.fetch_add(1, Ordering::Relaxed);
        let found = loop {
            if self.done.load(Ordering::Relaxed) {
                break None;
            }
            if let Some(split) = under
                && split.workers.load(Ordering::Relaxed) <= 1
            {
                break None;
            }
            // The split point with the most empties: the most work for one join.
            let mut chosen: Option<&Arc<SplitPoint>> = None;
            for split in open.iter() {
                if join
                    && under.is_none_or(|under| split.lies_under(under))
                    && split.has_moves()
                    && chosen.is_none_or(|chosen| split.empties > chosen.empties)
                {
                    chosen = Some(split);
                }
            }
            if let Some(split) = chosen {
                if split.try_join() {
                    break Some(Arc::clone(split));
                }
                // Its last move went meanwhile: look again.
                continue;
            }
            open = self.wake.wait(open).unwrap_or_else(std::sync::PoisonError::into_inner);
        };
        self.idle.fetch_sub(1, Ordering::Relaxed);
        found
    }
}
