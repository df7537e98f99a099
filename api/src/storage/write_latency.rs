//! How long moves take to become durable, as a running mean: the server's admission of new
//! games reads it to tell a saturated write path (moves queueing for their commit).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A write older than this says nothing about the write path now.
const FRESH: Duration = Duration::from_secs(1);

/// The running mean of recent move writes (each new one weighs 1/8).
#[derive(Debug)]
pub struct WriteLatency {
    origin: Instant,
    mean_micros: AtomicU64,
    /// Milliseconds after `origin` of the last write recorded.
    last_ms: AtomicU64,
}

impl Default for WriteLatency {
    fn default() -> WriteLatency {
        WriteLatency {
            origin: Instant::now(),
            mean_micros: AtomicU64::new(0),
            last_ms: AtomicU64::new(0),
        }
    }
}

impl WriteLatency {
    fn millis(&self, at: Instant) -> u64 {
        u64::try_from(at.saturating_duration_since(self.origin).as_millis()).unwrap_or(u64::MAX)
    }

    /// Records one write that took `took`, finished at `at`.
    pub fn record(&self, took: Duration, at: Instant) {
        let sample = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        let _ = self.mean_micros.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |mean| {
            Some(mean - mean / 8 + sample / 8)
        });
        self.last_ms.fetch_max(self.millis(at), Ordering::Relaxed);
    }

    /// The running mean at `now`; zero when no write finished in the last second.
    pub fn recent_mean(&self, now: Instant) -> Duration {
        let last = self.last_ms.load(Ordering::Relaxed);
        if self.millis(now).saturating_sub(last) > FRESH.as_millis() as u64 || last == 0 {
            return Duration::ZERO;
        }
        Duration::from_micros(self.mean_micros.load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mean_follows_recent_writes() {
        let latency = WriteLatency::default();
        let now = Instant::now() + Duration::from_millis(10);
        for _ in 0..64 {
            latency.record(Duration::from_millis(200), now);
        }
        let mean = latency.recent_mean(now);
        assert!(
            mean > Duration::from_millis(190) && mean <= Duration::from_millis(200),
            "{mean:?}"
        );
        for _ in 0..64 {
            latency.record(Duration::from_millis(1), now);
        }
        assert!(latency.recent_mean(now) < Duration::from_millis(5));
    }

    #[test]
    fn without_a_recent_write_the_mean_is_zero() {
        let latency = WriteLatency::default();
        let at = Instant::now() + Duration::from_millis(10);
        assert_eq!(latency.recent_mean(at), Duration::ZERO);
        latency.record(Duration::from_secs(1), at);
        assert!(latency.recent_mean(at) > Duration::ZERO);
        assert_eq!(latency.recent_mean(at + Duration::from_secs(2)), Duration::ZERO);
    }
}
