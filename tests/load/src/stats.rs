//! Counters shared by every bot: sockets, games, move acknowledgements and errors.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

#[derive(Debug)]
pub struct Stats {
    pub start: Instant,
    sockets_open: AtomicU64,
    sockets_peak: AtomicU64,
    pub sockets_opened: AtomicU64,
    pub games_started: AtomicU64,
    pub games_finished: AtomicU64,
    pub moves_sent: AtomicU64,
    /// New games the server refused as saturated (`503 server_busy`, `Retry-After` honoured).
    pub setups_refused_busy: AtomicU64,
    /// Messages whose version was not above the last one (ignored, as the protocol says).
    pub duplicates_ignored: AtomicU64,
    /// Gaps in the versions, answered with `join` and `since`.
    pub resyncs: AtomicU64,
    /// Move acknowledgements, in the order they came.
    acks: Mutex<Vec<Ack>>,
    errors: Mutex<BTreeMap<String, u64>>,
}

/// Where in a game's life on one socket a move was made: its first moves pay for whatever a
/// new game or a new socket costs the server (a rematch set up, a remote game followed), so
/// their latencies are reported apart from the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AckPhase {
    /// One of the mover's first [`AckPhase::OPENING_MOVES`] moves on the socket.
    Opening,
    /// Every later move.
    Later,
}

impl AckPhase {
    pub const OPENING_MOVES: u32 = 2;

    /// The phase of the mover's move numbered `index` (from 0) on its socket.
    pub fn of_move(index: u32) -> AckPhase {
        if index < Self::OPENING_MOVES { AckPhase::Opening } else { AckPhase::Later }
    }
}

/// One move acknowledgement.
#[derive(Clone, Copy, Debug)]
struct Ack {
    /// Milliseconds since the start.
    at: u32,
    /// Latency in microseconds.
    micros: u32,
    phase: AckPhase,
}

/// Counts a socket as open until dropped.
#[derive(Debug)]
pub struct OpenSocket<'a>(&'a Stats);

impl Drop for OpenSocket<'_> {
    fn drop(&mut self) {
        self.0.sockets_open.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Stats {
    pub fn new() -> Stats {
        Stats {
            start: Instant::now(),
            sockets_open: AtomicU64::new(0),
            sockets_peak: AtomicU64::new(0),
            sockets_opened: AtomicU64::new(0),
            games_started: AtomicU64::new(0),
            games_finished: AtomicU64::new(0),
            moves_sent: AtomicU64::new(0),
            setups_refused_busy: AtomicU64::new(0),
            duplicates_ignored: AtomicU64::new(0),
            resyncs: AtomicU64::new(0),
            acks: Mutex::new(Vec::new()),
            errors: Mutex::new(BTreeMap::new()),
        }
    }

    pub fn socket_opened(&self) -> OpenSocket<'_> {
        let open = self.sockets_open.fetch_add(1, Ordering::Relaxed) + 1;
        self.sockets_peak.fetch_max(open, Ordering::Relaxed);
        self.sockets_opened.fetch_add(1, Ordering::Relaxed);
        OpenSocket(self)
    }

    pub fn sockets_open(&self) -> u64 {
        self.sockets_open.load(Ordering::Relaxed)
    }

    pub fn sockets_peak(&self) -> u64 {
        self.sockets_peak.load(Ordering::Relaxed)
    }

    pub fn count(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    pub fn get(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }

    pub fn ack(&self, latency: Duration, phase: AckPhase) {
        let at = u32::try_from(self.start.elapsed().as_millis()).unwrap_or(u32::MAX);
        let micros = u32::try_from(latency.as_micros()).unwrap_or(u32::MAX);
        self.acks.lock().unwrap_or_else(|e| e.into_inner()).push(Ack { at, micros, phase });
    }

    pub fn error(&self, kind: impl Into<String>) {
        let mut errors = self.errors.lock().unwrap_or_else(|e| e.into_inner());
        *errors.entry(kind.into()).or_default() += 1;
    }

    pub fn errors(&self) -> BTreeMap<String, u64> {
        self.errors.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    pub fn error_total(&self) -> u64 {
        self.errors.lock().unwrap_or_else(|e| e.into_inner()).values().sum()
    }

    pub fn acks_total(&self) -> u64 {
        self.acks.lock().unwrap_or_else(|e| e.into_inner()).len() as u64
    }

    /// Latencies (µs) of the acknowledgements received between `from` and `to` after the start.
    pub fn latencies(&self, from: Duration, to: Duration) -> Vec<u32> {
        self.latencies_where(from, to, |_| true)
    }

    /// [`Stats::latencies`] of the moves in one phase only.
    pub fn phase_latencies(&self, from: Duration, to: Duration, phase: AckPhase) -> Vec<u32> {
        self.latencies_where(from, to, |ack| ack.phase == phase)
    }

    fn latencies_where(
        &self,
        from: Duration,
        to: Duration,
        keep: impl Fn(&Ack) -> bool,
    ) -> Vec<u32> {
        let (from, to) = (from.as_millis(), to.as_millis());
        let acks = self.acks.lock().unwrap_or_else(|e| e.into_inner());
        acks.iter()
            .filter(|ack| (from..to).contains(&u128::from(ack.at)) && keep(ack))
            .map(|ack| ack.micros)
            .collect()
    }
}

/// Percentiles of a set of latencies, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Percentiles {
    pub count: usize,
    pub p50: f64,
    pub p90: f64,
    pub p95: f64,
    pub p99: f64,
    pub max: f64,
}

impl Percentiles {
    pub fn of(mut micros: Vec<u32>) -> Percentiles {
        if micros.is_empty() {
            return Percentiles::default();
        }
        micros.sort_unstable();
        // Nearest rank: the smallest value with at least p % of the samples at or below it.
        let rank = |p: f64| {
            let index = ((p / 100.0) * micros.len() as f64).ceil() as usize;
            f64::from(micros[index.clamp(1, micros.len()) - 1]) / 1000.0
        };
        Percentiles {
            count: micros.len(),
            p50: rank(50.0),
            p90: rank(90.0),
            p95: rank(95.0),
            p99: rank(99.0),
            max: f64::from(micros[micros.len() - 1]) / 1000.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_use_the_nearest_rank() {
        let micros: Vec<u32> = (1..=100).map(|ms| ms * 1000).collect();
        let p = Percentiles::of(micros);
        assert_eq!((p.count, p.p50, p.p95, p.p99, p.max), (100, 50.0, 95.0, 99.0, 100.0));
        assert_eq!(p.p90, 90.0);
        assert_eq!(Percentiles::of(vec![]), Percentiles::default());
        assert_eq!(Percentiles::of(vec![1500]).p99, 1.5);
    }

    #[test]
    fn sockets_errors_and_acks_are_counted() {
        let stats = Stats::new();
        {
            let _a = stats.socket_opened();
            let _b = stats.socket_opened();
            assert_eq!(stats.sockets_open(), 2);
        }
        assert_eq!((stats.sockets_open(), stats.sockets_peak()), (0, 2));
        stats.error("socket closed");
        stats.error("socket closed");
        assert_eq!(stats.errors()["socket closed"], 2);
        stats.ack(Duration::from_millis(3), AckPhase::Later);
        assert_eq!(stats.latencies(Duration::ZERO, Duration::from_secs(60)), [3000]);
    }

    #[test]
    fn a_sockets_first_two_moves_are_its_opening() {
        let phases: Vec<AckPhase> = (0..4).map(AckPhase::of_move).collect();
        use AckPhase::{Later, Opening};
        assert_eq!(phases, [Opening, Opening, Later, Later]);
    }

    #[test]
    fn latencies_are_split_by_phase() {
        let stats = Stats::new();
        stats.ack(Duration::from_millis(40), AckPhase::Opening);
        stats.ack(Duration::from_millis(2), AckPhase::Later);
        stats.ack(Duration::from_millis(3), AckPhase::Later);
        let whole = (Duration::ZERO, Duration::from_secs(60));
        assert_eq!(stats.phase_latencies(whole.0, whole.1, AckPhase::Opening), [40_000]);
        assert_eq!(stats.phase_latencies(whole.0, whole.1, AckPhase::Later), [2000, 3000]);
        assert_eq!(stats.latencies(whole.0, whole.1), [40_000, 2000, 3000]);
    }
}
