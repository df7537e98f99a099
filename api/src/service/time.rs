//! The time live games are played by: the system's, or one that tests move by hand, so that
//! "30 s pass while the player is offline" takes no 30 s over real sockets.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use crate::domain::Timestamp;

/// Where game tasks read the time and wait for deadlines.
#[derive(Clone, Debug, Default)]
pub enum Clock {
    /// The system clock.
    #[default]
    System,
    /// A clock that moves only when told ([`ManualClock::advance`]).
    Manual(ManualClock),
}

/// A clock for tests: it stands still until advanced, and wakes every task waiting for a
/// deadline it passes.
#[derive(Clone, Debug)]
pub struct ManualClock {
    now: Arc<watch::Sender<Timestamp>>,
}

impl ManualClock {
    /// A clock standing at `start`.
    pub fn new(start: Timestamp) -> ManualClock {
        ManualClock { now: Arc::new(watch::Sender::new(start)) }
    }

    /// The time it shows.
    pub fn now(&self) -> Timestamp {
        *self.now.borrow()
    }

    /// Moves the clock forward by `millis`.
    pub fn advance(&self, millis: i64) {
        self.now.send_modify(|now| *now = now.plus(millis));
    }
}

impl Clock {
    /// The time now.
    pub fn now(&self) -> Timestamp {
        match self {
            Clock::System => Timestamp::now(),
            Clock::Manual(clock) => clock.now(),
        }
    }

    /// Waits until `deadline` by this clock; forever without one.
    pub async fn sleep_until(&self, deadline: Option<Timestamp>) {
        let Some(deadline) = deadline else { return std::future::pending().await };
        match self {
            Clock::System => {
                let wait = deadline.since(Timestamp::now()).max(0);
                tokio::time::sleep(Duration::from_millis(wait.unsigned_abs())).await;
            }
            Clock::Manual(clock) => {
                let mut now = clock.now.subscribe();
                while *now.borrow_and_update() < deadline {
                    if now.changed().await.is_err() {
                        return std::future::pending().await;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_manual_clock_wakes_a_sleeper_once_advanced_past_its_deadline() {
        let manual = ManualClock::new(Timestamp(1_000));
        let clock = Clock::Manual(manual.clone());
        let sleeper = tokio::spawn(async move { clock.sleep_until(Some(Timestamp(31_000))).await });
        tokio::task::yield_now().await;
        manual.advance(29_999);
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!sleeper.is_finished());
        manual.advance(1);
        tokio::time::timeout(Duration::from_secs(1), sleeper).await.unwrap().unwrap();
        assert_eq!(manual.now(), Timestamp(31_000));
    }
}
