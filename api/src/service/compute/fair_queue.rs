//! Turns on a few workers, shared fairly: each owner (a client) has at most one turn at a
//! time, owners waiting take turns round-robin rather than first come first served, and the
//! urgent (the computer standing in for a missing opponent) go before the others.
//!
//! A pure-ish scheduler behind a mutex: [`FairQueue::turn`] waits for a turn; dropping the
//! [`Turn`] gives the worker to the next owner.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

/// Who a turn is for: the key searches are shared fairly across (a client's address, or a
/// player when the address is not known).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SearchOwner(pub String);

/// How soon a turn is wanted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Urgency {
    /// Before every normal turn: a player is waiting for the computer that stands in for a
    /// missing opponent.
    High,
    Normal,
}

/// Workers handed out fairly.
#[derive(Clone, Debug)]
pub struct FairQueue {
    state: Arc<Mutex<State>>,
}

#[derive(Debug)]
struct State {
    /// Workers not in use.
    free: usize,
    /// Per owner, the waiters in order, and whether the owner holds a turn now.
    owners: HashMap<SearchOwner, OwnerQueue>,
    /// Owners with waiters and no turn, in the order they get one: urgent first.
    ready_high: VecDeque<SearchOwner>,
    ready_normal: VecDeque<SearchOwner>,
}

#[derive(Debug, Default)]
struct OwnerQueue {
    waiting: VecDeque<(Urgency, oneshot::Sender<Turn>)>,
    busy: bool,
}

/// A worker held; dropping it hands the worker on. A turn granted to a waiter that has gone
/// meanwhile is dropped with the channel that carried it, so no worker is ever lost.
#[derive(Debug)]
pub struct Turn {
    queue: FairQueue,
    owner: SearchOwner,
    /// False for a turn that was never handed out.
    held: bool,
}

impl FairQueue {
    /// A queue handing out `workers` turns at once (at least one).
    pub fn new(workers: usize) -> FairQueue {
        let state = State {
            free: workers.max(1),
            owners: HashMap::new(),
            ready_high: VecDeque::new(),
            ready_normal: VecDeque::new(),
        };
        FairQueue { state: Arc::new(Mutex::new(state)) }
    }

    /// Waits for a turn of `owner`'s.
    pub async fn turn(&self, owner: SearchOwner, urgency: Urgency) -> Turn {
        let (granted, wait) = oneshot::channel();
        {
            let mut state = self.lock();
            let queue = state.owners.entry(owner.clone()).or_default();
            queue.waiting.push_back((urgency, granted));
            let (busy, first) = (queue.busy, queue.waiting.len() == 1);
            if !busy && first {
                state.ready(owner.clone(), urgency);
            }
            state.dispatch(self);
        }
        match wait.await {
            Ok(turn) => turn,
            // The sender is only dropped unsent when the queue itself is gone.
            Err(_) => Turn { queue: self.clone(), owner, held: false },
        }
    }

    /// Turns waiting now, all owners together.
    #[cfg(test)]
    fn waiting(&self) -> usize {
        self.lock().owners.values().map(|queue| queue.waiting.len()).sum()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl State {
    fn ready(&mut self, owner: SearchOwner, urgency: Urgency) {
        match urgency {
            Urgency::High => self.ready_high.push_back(owner),
            Urgency::Normal => self.ready_normal.push_back(owner),
        }
    }

    /// Hands free workers to the owners whose turn it is.
    fn dispatch(&mut self, queue: &FairQueue) {
        while self.free > 0 {
            let Some(owner) = self.ready_high.pop_front().or_else(|| self.ready_normal.pop_front())
            else {
                return;
            };
            let Some(waiters) = self.owners.get_mut(&owner) else { continue };
            let Some((_, granted)) = waiters.waiting.pop_front() else { continue };
            let turn = Turn { queue: queue.clone(), owner: owner.clone(), held: true };
            match granted.send(turn) {
                Ok(()) => {
                    waiters.busy = true;
                    self.free -= 1;
                }
                Err(mut unsent) => {
                    // The waiter gave up: the owner's next waiter, if any, takes its place.
                    unsent.held = false;
                    self.requeue(owner);
                }
            }
        }
    }

    /// Puts `owner` back in line behind the others if it has waiters, or forgets it.
    fn requeue(&mut self, owner: SearchOwner) {
        match self.owners.get(&owner).and_then(|queue| queue.waiting.front()) {
            Some((urgency, _)) => {
                let urgency = *urgency;
                self.ready(owner, urgency);
            }
            None => {
                if self.owners.get(&owner).is_some_and(|queue| !queue.busy) {
                    self.owners.remove(&owner);
                }
            }
        }
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        if !self.held {
            return;
        }
        let mut state = self.queue.lock();
        state.free += 1;
        if let Some(queue) = state.owners.get_mut(&self.owner) {
            queue.busy = false;
        }
        state.requeue(self.owner.clone());
        state.dispatch(&self.queue);
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn owner(name: &str) -> SearchOwner {
        SearchOwner(name.to_owned())
    }

    /// Starts a waiter for a turn that records its label when granted and holds the turn until
    /// told to let go.
    fn waiter(
        queue: &FairQueue,
        name: &str,
        urgency: Urgency,
        log: &Arc<Mutex<Vec<String>>>,
        label: &str,
    ) -> oneshot::Sender<()> {
        let (release, hold) = oneshot::channel::<()>();
        let (queue, owner, log, label) =
            (queue.clone(), owner(name), log.clone(), label.to_owned());
        tokio::spawn(async move {
            let turn = queue.turn(owner, urgency).await;
            log.lock().unwrap().push(label);
            let _ = hold.await;
            drop(turn);
        });
        release
    }

    async fn settle() {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    /// Lets the turns go one by one, in the order they were granted.
    async fn run_all(
        releases: &mut HashMap<String, oneshot::Sender<()>>,
        log: &Arc<Mutex<Vec<String>>>,
    ) {
        for step in 0.. {
            settle().await;
            let granted = log.lock().unwrap().get(step).cloned();
            let Some(label) = granted else { break };
            let _ = releases.remove(&label).expect("a waiter").send(());
        }
    }

    #[tokio::test]
    async fn owners_take_turns_round_robin_not_first_come() {
        let queue = FairQueue::new(1);
        let log = Arc::new(Mutex::new(Vec::new()));
        let mut releases = HashMap::new();
        for n in 0..4 {
            let label = format!("flood-{n}");
            releases.insert(label.clone(), waiter(&queue, "flood", Urgency::Normal, &log, &label));
            settle().await;
        }
        releases.insert("ann".into(), waiter(&queue, "ann", Urgency::Normal, &log, "ann"));
        run_all(&mut releases, &log).await;
        assert_eq!(*log.lock().unwrap(), ["flood-0", "ann", "flood-1", "flood-2", "flood-3"]);
    }

    #[tokio::test]
    async fn an_urgent_turn_goes_before_every_normal_one() {
        let queue = FairQueue::new(1);
        let log = Arc::new(Mutex::new(Vec::new()));
        let mut releases = HashMap::new();
        for name in ["a", "b", "c"] {
            releases.insert(name.to_owned(), waiter(&queue, name, Urgency::Normal, &log, name));
            settle().await;
        }
        releases.insert("stand-in".into(), waiter(&queue, "d", Urgency::High, &log, "stand-in"));
        run_all(&mut releases, &log).await;
        assert_eq!(*log.lock().unwrap(), ["a", "stand-in", "b", "c"]);
    }

    #[tokio::test]
    async fn an_owner_never_holds_two_turns_at_once() {
        let queue = FairQueue::new(2);
        let log = Arc::new(Mutex::new(Vec::new()));
        let _first = waiter(&queue, "ann", Urgency::Normal, &log, "ann-1");
        let _second = waiter(&queue, "ann", Urgency::Normal, &log, "ann-2");
        settle().await;
        assert_eq!(*log.lock().unwrap(), ["ann-1"]);
        assert_eq!(queue.waiting(), 1);
    }

    #[tokio::test]
    async fn a_waiter_that_gives_up_hands_its_place_on() {
        let queue = FairQueue::new(1);
        let held = queue.turn(owner("a"), Urgency::Normal).await;
        let gone = tokio::spawn({
            let queue = queue.clone();
            async move { queue.turn(owner("b"), Urgency::Normal).await }
        });
        settle().await;
        gone.abort();
        let next = tokio::spawn({
            let queue = queue.clone();
            async move { queue.turn(owner("c"), Urgency::Normal).await }
        });
        settle().await;
        drop(held);
        tokio::time::timeout(Duration::from_secs(1), next).await.unwrap().unwrap();
    }
}
