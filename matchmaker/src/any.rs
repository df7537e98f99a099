//! The queue chosen once at startup, for servers that pick the backend from configuration.

use std::sync::Arc;

use crate::memory::InProcessQueue;
use crate::policy::Policy;
use crate::queue::{Queue, QueueResult};
use crate::redis_queue::RedisQueue;
use crate::ticket::{Decision, Millis, QueueKind, SeekerId, Ticket};

/// Either queue, behind one type: the backend is picked once, by [`AnyQueue::from_url`].
#[derive(Debug, Clone)]
pub enum AnyQueue {
    /// One server, in memory.
    InProcess(Arc<InProcessQueue>),
    /// Shared by the server nodes through Redis.
    Redis(RedisQueue),
}

impl AnyQueue {
    /// In-process when `url` is `None` or empty, else Redis at `url` with keys under `prefix`.
    ///
    /// # Errors
    /// [`QueueError::Backend`](crate::QueueError::Backend) if Redis cannot be reached.
    pub async fn from_url(url: Option<&str>, prefix: &str) -> QueueResult<Self> {
        match url.filter(|u| !u.is_empty()) {
            None => Ok(AnyQueue::InProcess(Arc::new(InProcessQueue::new()))),
            Some(url) => Ok(AnyQueue::Redis(RedisQueue::connect(url, prefix).await?)),
        }
    }
}

impl Queue for AnyQueue {
    async fn join(&self, ticket: Ticket, now: Millis) -> QueueResult<()> {
        match self {
            AnyQueue::InProcess(q) => q.join(ticket, now).await,
            AnyQueue::Redis(q) => q.join(ticket, now).await,
        }
    }

    async fn leave(&self, seeker: &SeekerId) -> QueueResult<bool> {
        match self {
            AnyQueue::InProcess(q) => q.leave(seeker).await,
            AnyQueue::Redis(q) => q.leave(seeker).await,
        }
    }

    async fn heartbeat(&self, seeker: &SeekerId, now: Millis) -> QueueResult<bool> {
        match self {
            AnyQueue::InProcess(q) => q.heartbeat(seeker, now).await,
            AnyQueue::Redis(q) => q.heartbeat(seeker, now).await,
        }
    }

    async fn waiting(&self, queue: QueueKind) -> QueueResult<Vec<Ticket>> {
        match self {
            AnyQueue::InProcess(q) => q.waiting(queue).await,
            AnyQueue::Redis(q) => q.waiting(queue).await,
        }
    }

    async fn run_pairing(&self, now: Millis, policy: &Policy) -> QueueResult<Vec<Decision>> {
        match self {
            AnyQueue::InProcess(q) => q.run_pairing(now, policy).await,
            AnyQueue::Redis(q) => q.run_pairing(now, policy).await,
        }
    }

    async fn take_decision(&self, seeker: &SeekerId) -> QueueResult<Option<Decision>> {
        match self {
            AnyQueue::InProcess(q) => q.take_decision(seeker).await,
            AnyQueue::Redis(q) => q.take_decision(seeker).await,
        }
    }
}
