//! The recent public events of a game, so a client that reconnects gets what it missed.

use std::collections::VecDeque;

use super::Event;

/// The last public events of one game, oldest first, with consecutive versions.
#[derive(Clone, Debug)]
pub struct History {
    capacity: usize,
    events: VecDeque<Event>,
}

/// What to send a client that last saw version `since`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resume {
    /// Nothing was missed.
    UpToDate,
    /// These events, in order.
    Replay(Vec<Event>),
    /// Too much was missed (or the version is unknown): send a snapshot.
    Snapshot,
}

impl History {
    /// How many events a game keeps by default.
    pub const DEFAULT_CAPACITY: usize = 64;

    /// An empty history keeping at most `capacity` events. It grows as events come, so an
    /// idle game costs nothing here.
    pub fn new(capacity: usize) -> History {
        History { capacity, events: VecDeque::new() }
    }

    /// Keeps the public events among `events`, dropping the oldest beyond the capacity.
    pub fn record(&mut self, events: &[Event]) {
        for event in events.iter().filter(|event| event.is_public()) {
            if self.events.len() == self.capacity {
                self.events.pop_front();
            }
            if self.capacity > 0 {
                self.events.push_back(event.clone());
            }
        }
    }

    /// What a client that saw everything up to `since` needs when the game is at `current`.
    pub fn resume(&self, since: u64, current: u64) -> Resume {
        if since == current {
            return Resume::UpToDate;
        }
        let oldest = self.events.front().and_then(Event::version);
        let newest = self.events.back().and_then(Event::version);
        match (oldest, newest) {
            (Some(oldest), Some(newest))
                if since < current && oldest <= since.saturating_add(1) && newest == current =>
            {
                Resume::Replay(
                    self.events
                        .iter()
                        .filter(|event| event.version().is_some_and(|v| v > since))
                        .cloned()
                        .collect(),
                )
            }
            _ => Resume::Snapshot,
        }
    }
}

impl Default for History {
    fn default() -> History {
        History::new(History::DEFAULT_CAPACITY)
    }
}

#[cfg(test)]
mod tests {
    use outflank_engine::Color;

    use super::*;

    fn offers(versions: std::ops::RangeInclusive<u64>) -> Vec<Event> {
        versions.map(|version| Event::DrawOffered { version, by: Color::Black }).collect()
    }

    #[test]
    fn a_client_that_saw_the_last_version_is_up_to_date() {
        let mut history = History::new(4);
        history.record(&offers(1..=3));
        assert_eq!(history.resume(3, 3), Resume::UpToDate);
    }

    #[test]
    fn a_client_gets_exactly_the_events_after_its_version() {
        let mut history = History::new(4);
        history.record(&offers(1..=3));
        assert_eq!(history.resume(1, 3), Resume::Replay(offers(2..=3)));
    }

    #[test]
    fn a_client_that_missed_more_than_is_kept_gets_a_snapshot() {
        let mut history = History::new(2);
        history.record(&offers(1..=5));
        assert_eq!(history.resume(3, 5), Resume::Replay(offers(4..=5)));
        assert_eq!(history.resume(2, 5), Resume::Snapshot);
    }

    #[test]
    fn a_version_from_the_future_or_an_empty_history_gives_a_snapshot() {
        let mut history = History::new(4);
        assert_eq!(history.resume(0, 7), Resume::Snapshot);
        history.record(&offers(1..=3));
        assert_eq!(history.resume(9, 3), Resume::Snapshot);
    }

    #[test]
    fn driver_instructions_are_not_kept() {
        let mut history = History::new(4);
        history.record(&[Event::CancelSearch(crate::live::SearchId(1))]);
        assert_eq!(history.resume(0, 0), Resume::UpToDate);
        assert_eq!(history.resume(0, 1), Resume::Snapshot);
    }
}
