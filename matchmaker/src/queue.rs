//! The queue interface shared by the in-process and Redis implementations.

use std::future::Future;

use crate::policy::Policy;
use crate::ticket::{Decision, Millis, QueueKind, SeekerId, Ticket};

/// Why a queue operation failed.
#[derive(Debug, thiserror::Error)]
pub enum QueueError {
    /// The backing store could not be reached or refused the command; retry later (and
    /// re-join seekers whose heartbeat reports them gone).
    #[error("queue backend unavailable: {0}")]
    Backend(String),
    /// The store held something this version cannot read.
    #[error("corrupt queue record for {key}: {reason}")]
    Corrupt {
        /// The key or seeker concerned.
        key: String,
        /// What was wrong with it.
        reason: String,
    },
}

/// The result of a queue operation.
pub type QueueResult<T> = Result<T, QueueError>;

/// Seekers waiting to be paired, and the decisions made for them.
///
/// Every method takes the time from the caller, so tests step it by hand. A seeker leaves the
/// queue by [`leave`](Queue::leave), by being paired ([`run_pairing`](Queue::run_pairing)), or
/// when their last heartbeat (or join) is older than [`Policy::heartbeat_ttl_ms`] at a pairing
/// run. The node holding a seeker's connection learns the outcome with
/// [`take_decision`](Queue::take_decision): decisions are kept for [`Policy::decision_ttl_ms`].
///
/// ```
/// # async fn demo() -> Result<(), outflank_matchmaker::QueueError> {
/// use outflank_matchmaker::{InProcessQueue, Millis, Policy, Queue, QueueKind, Ticket};
///
/// let queue = InProcessQueue::new();
/// let t0 = Millis(1_700_000_000_000);
/// queue.join(Ticket::new("ann", QueueKind::Quick, 1500, t0), t0).await?;
/// queue.join(Ticket::new("bob", QueueKind::Quick, 1550, t0), t0).await?;
/// let made = queue.run_pairing(t0.plus(500), &Policy::default()).await?;
/// assert_eq!(queue.take_decision(&"ann".into()).await?, Some(made[0].clone()));
/// assert!(!queue.heartbeat(&"bob".into(), t0.plus(600)).await?, "bob is paired, not waiting");
/// # Ok(())
/// # }
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(demo()).unwrap();
/// ```
pub trait Queue: Send + Sync {
    /// Puts a seeker in the queue, replacing any ticket they had (in either queue). `now`
    /// counts as the first heartbeat, so a seeker re-registering (after a store restart) can
    /// keep their original `joined_at`, and with it their widened gap.
    fn join(&self, ticket: Ticket, now: Millis) -> impl Future<Output = QueueResult<()>> + Send;

    /// Takes a seeker out of the queue (cancel, or connection closed). `true` if they were in.
    fn leave(&self, seeker: &SeekerId) -> impl Future<Output = QueueResult<bool>> + Send;

    /// Records that the seeker's connection is alive at `now`. `false` if they are not in the
    /// queue (paired already, lapsed, or lost in a store restart: check for a decision, then
    /// join again).
    fn heartbeat(
        &self,
        seeker: &SeekerId,
        now: Millis,
    ) -> impl Future<Output = QueueResult<bool>> + Send;

    /// The tickets waiting in one queue, by rating, then join time.
    fn waiting(&self, queue: QueueKind) -> impl Future<Output = QueueResult<Vec<Ticket>>> + Send;

    /// Drops lapsed seekers, runs [`pair`](crate::pair) on each queue and claims the result
    /// atomically: a seeker already claimed by another node (or gone) voids that decision,
    /// which is left for a later run. Returns the decisions this call made; each is also kept
    /// for its seekers' [`take_decision`](Queue::take_decision).
    fn run_pairing(
        &self,
        now: Millis,
        policy: &Policy,
    ) -> impl Future<Output = QueueResult<Vec<Decision>>> + Send;

    /// Removes and returns the decision made for `seeker`, if any is waiting.
    fn take_decision(
        &self,
        seeker: &SeekerId,
    ) -> impl Future<Output = QueueResult<Option<Decision>>> + Send;
}

/// A shared queue is a queue: lets one [`InProcessQueue`](crate::InProcessQueue) serve many
/// tasks.
impl<Q: Queue> Queue for std::sync::Arc<Q> {
    fn join(&self, ticket: Ticket, now: Millis) -> impl Future<Output = QueueResult<()>> + Send {
        Q::join(self, ticket, now)
    }

    fn leave(&self, seeker: &SeekerId) -> impl Future<Output = QueueResult<bool>> + Send {
        Q::leave(self, seeker)
    }

    fn heartbeat(
        &self,
        seeker: &SeekerId,
        now: Millis,
    ) -> impl Future<Output = QueueResult<bool>> + Send {
        Q::heartbeat(self, seeker, now)
    }

    fn waiting(&self, queue: QueueKind) -> impl Future<Output = QueueResult<Vec<Ticket>>> + Send {
        Q::waiting(self, queue)
    }

    fn run_pairing(
        &self,
        now: Millis,
        policy: &Policy,
    ) -> impl Future<Output = QueueResult<Vec<Decision>>> + Send {
        Q::run_pairing(self, now, policy)
    }

    fn take_decision(
        &self,
        seeker: &SeekerId,
    ) -> impl Future<Output = QueueResult<Option<Decision>>> + Send {
        Q::take_decision(self, seeker)
    }
}
