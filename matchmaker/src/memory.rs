//! The in-process queue: one server, no external store.

use std::collections::HashMap;

use tokio::sync::Mutex;

use crate::policy::{Policy, pair};
use crate::queue::{Queue, QueueResult};
use crate::ticket::{Decision, Millis, QueueKind, SeekerId, Ticket};

/// A queue held in this process's memory: the embedded default. One lock guards everything,
/// so a pairing run is atomic with respect to joins and leaves.
#[derive(Debug, Default)]
pub struct InProcessQueue {
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// Waiting seekers, with the time of their last heartbeat.
    waiting: HashMap<SeekerId, (Ticket, Millis)>,
    /// Decisions not yet taken, with the time they were made.
    decisions: HashMap<SeekerId, (Decision, Millis)>,
}

impl InProcessQueue {
    /// An empty queue.
    pub fn new() -> Self {
        Self::default()
    }
}

impl Queue for InProcessQueue {
    async fn join(&self, ticket: Ticket, now: Millis) -> QueueResult<()> {
        self.state.lock().await.waiting.insert(ticket.seeker.clone(), (ticket, now));
        Ok(())
    }

    async fn leave(&self, seeker: &SeekerId) -> QueueResult<bool> {
        Ok(self.state.lock().await.waiting.remove(seeker).is_some())
    }

    async fn heartbeat(&self, seeker: &SeekerId, now: Millis) -> QueueResult<bool> {
        let mut state = self.state.lock().await;
        Ok(match state.waiting.get_mut(seeker) {
            Some((_, seen)) => {
                *seen = (*seen).max(now);
                true
            }
            None => false,
        })
    }

    async fn waiting(&self, queue: QueueKind) -> QueueResult<Vec<Ticket>> {
        let state = self.state.lock().await;
        let mut tickets: Vec<Ticket> = state
            .waiting
            .values()
            .filter(|(t, _)| t.queue == queue)
            .map(|(t, _)| t.clone())
            .collect();
        tickets.sort_by(|a, b| a.listing_key().cmp(&b.listing_key()));
        Ok(tickets)
    }

    async fn run_pairing(&self, now: Millis, policy: &Policy) -> QueueResult<Vec<Decision>> {
        let mut state = self.state.lock().await;
        let lapse_before = now.plus(-policy.heartbeat_ttl_ms);
        state.waiting.retain(|_, (_, seen)| *seen >= lapse_before);
        let forget_before = now.plus(-policy.decision_ttl_ms);
        state.decisions.retain(|_, (_, made)| *made >= forget_before);

        let tickets: Vec<Ticket> = state.waiting.values().map(|(t, _)| t.clone()).collect();
        let decisions = pair(&tickets, now, policy);
        for decision in &decisions {
            for seeker in decision.seekers() {
                state.waiting.remove(seeker);
                state.decisions.insert(seeker.clone(), (decision.clone(), now));
            }
        }
        Ok(decisions)
    }

    async fn take_decision(&self, seeker: &SeekerId) -> QueueResult<Option<Decision>> {
        Ok(self.state.lock().await.decisions.remove(seeker).map(|(d, _)| d))
    }
}
