//! Prometheus metrics of this node, rendered by `GET /metrics` in the text exposition format
//! (version 0.0.4). Hand-rolled atomics: nothing here blocks for long or allocates per update,
//! except the small error map.
//!
//! Every metric (all names start with `outflank_`):
//! - `outflank_sockets_open{kind="game"|"queue"}` (gauge): WebSockets open now, by kind.
//! - `outflank_live_games{mode}` (gauge): game tasks running on this node, by game mode.
//! - `outflank_moves_total` (counter): plies applied and stored (forced passes included).
//! - `outflank_move_ack_seconds` (histogram): from a socket's move command to the game's answer.
//! - `outflank_queue_waiting` (gauge): players waiting in the matchmaking queue (read at scrape).
//! - `outflank_searches_queued` / `outflank_searches_running` (gauges): computer searches
//!   waiting for a worker / running on one.
//! - `outflank_search_seconds` (histogram): time of one computer search on its worker.
//! - `outflank_store_seconds` (histogram): time of the store writes of one game command.
//! - `outflank_board_requests` (gauge): analysis board requests for values waiting for the
//!   engine or valued now.
//! - `outflank_board_searches_total{end="finished"|"stopped"}` (counter): analysis board
//!   positions valued to the end / stopped because nobody waits for them any more.
//! - `outflank_errors_total{kind,code}` (counter): storage errors of game tasks
//!   (`kind="storage"`), commands refused (`kind="command_refused"`, `code` as sent to the
//!   client), WebSocket protocol errors (`kind="ws_protocol"`, `code` as sent to the client),
//!   and clients refused by a limit that protects the site (`kind="refused"`: `rate_limited`,
//!   `too_many_sockets`, `too_many_games`, `pair_cap`, `too_many_board_requests`,
//!   `analysis_busy`).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::domain::Mode;

/// Bucket bounds, in seconds, of the latency histograms (move acknowledge, store).
const LATENCY_BUCKETS: &[f64] =
    &[0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];
/// Bucket bounds, in seconds, of the computer search histogram.
const SEARCH_BUCKETS: &[f64] = &[0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0];

/// What kind of WebSocket a socket gauge counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SocketKind {
    /// `/api/games/{id}/ws`: a player or spectator of one game.
    Game,
    /// `/api/queue/ws`: a player looking for an opponent.
    Queue,
    /// `/api/lobby/ws`: a visitor watching the lobby.
    Lobby,
    /// `/api/me/ws`: a signed-in player's challenges and notifications, on any page.
    Player,
}

/// What kind of error `outflank_errors_total` counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A game task could not store a command's events.
    Storage,
    /// A game refused a command from a socket.
    CommandRefused,
    /// A socket sent something the protocol does not allow.
    WsProtocol,
    /// A limit that protects the site refused a client: `rate_limited` (HTTP API),
    /// `too_many_sockets`, `too_many_games`, `pair_cap` (a ranked result not rated because the
    /// two played too often today), `too_many_board_requests`, `analysis_busy` (the analysis
    /// board).
    Refused,
}

impl ErrorKind {
    const fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Storage => "storage",
            ErrorKind::CommandRefused => "command_refused",
            ErrorKind::WsProtocol => "ws_protocol",
            ErrorKind::Refused => "refused",
        }
    }
}

/// How an analysis board's search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardSearchEnd {
    /// Every move was valued.
    Finished,
    /// Its request was cancelled (the client left, or a newer request replaced it).
    Stopped,
}

/// This node's metrics; cheap to clone (all clones share the same values).
#[derive(Clone, Debug, Default)]
pub struct Metrics {
    inner: Arc<Registry>,
}

#[derive(Debug)]
struct Registry {
    game_sockets: AtomicI64,
    queue_sockets: AtomicI64,
    lobby_sockets: AtomicI64,
    player_sockets: AtomicI64,
    /// Indexed like [`Mode::ALL`].
    live_games: Vec<AtomicI64>,
    moves: AtomicU64,
    move_ack: Histogram,
    searches_queued: AtomicI64,
    searches_running: AtomicI64,
    search_time: Histogram,
    store_time: Histogram,
    board_requests: AtomicI64,
    board_searches_finished: AtomicU64,
    board_searches_stopped: AtomicU64,
    errors: Mutex<BTreeMap<(&'static str, &'static str), u64>>,
}

impl Default for Registry {
    fn default() -> Registry {
        Registry {
            game_sockets: AtomicI64::new(0),
            queue_sockets: AtomicI64::new(0),
            lobby_sockets: AtomicI64::new(0),
            player_sockets: AtomicI64::new(0),
            live_games: Mode::ALL.iter().map(|_| AtomicI64::new(0)).collect(),
            moves: AtomicU64::new(0),
            move_ack: Histogram::new(LATENCY_BUCKETS),
            searches_queued: AtomicI64::new(0),
            searches_running: AtomicI64::new(0),
            search_time: Histogram::new(SEARCH_BUCKETS),
            store_time: Histogram::new(LATENCY_BUCKETS),
            board_requests: AtomicI64::new(0),
            board_searches_finished: AtomicU64::new(0),
            board_searches_stopped: AtomicU64::new(0),
            errors: Mutex::default(),
        }
    }
}

impl Metrics {
    pub fn new() -> Metrics {
        Metrics::default()
    }

    /// Counts a socket of `kind` as open until the guard is dropped.
    pub fn socket_opened(&self, kind: SocketKind) -> SocketGuard {
        self.socket_gauge(kind).fetch_add(1, Ordering::Relaxed);
        SocketGuard { metrics: self.clone(), kind }
    }

    /// Counts a game task of `mode` as running until the guard is dropped.
    pub fn game_started(&self, mode: Mode) -> LiveGameGuard {
        if let Some(gauge) = self.live_game_gauge(mode) {
            gauge.fetch_add(1, Ordering::Relaxed);
        }
        LiveGameGuard { metrics: self.clone(), mode }
    }

    /// Counts `plies` plies applied and stored.
    pub fn moves_applied(&self, plies: usize) {
        self.inner.moves.fetch_add(u64::try_from(plies).unwrap_or(u64::MAX), Ordering::Relaxed);
    }

    /// Records the time from a socket's move command to the game's answer.
    pub fn move_acknowledged(&self, took: Duration) {
        self.inner.move_ack.observe(took);
    }

    /// Counts a computer search as waiting for a worker until the guard is dropped.
    pub fn search_queued(&self) -> SearchGuard {
        self.inner.searches_queued.fetch_add(1, Ordering::Relaxed);
        SearchGuard { metrics: self.clone(), running: false }
    }

    /// Records the time of one computer search.
    pub fn search_finished(&self, took: Duration) {
        self.inner.search_time.observe(took);
    }

    /// Records the time of the store writes of one game command.
    pub fn store_written(&self, took: Duration) {
        self.inner.store_time.observe(took);
    }

    /// Counts an analysis board request for values as waiting or valued until the guard is
    /// dropped.
    pub fn board_request(&self) -> BoardRequestGuard {
        self.inner.board_requests.fetch_add(1, Ordering::Relaxed);
        BoardRequestGuard { metrics: self.clone() }
    }

    /// Counts an analysis board search that ended as `end` says.
    pub fn board_search_ended(&self, end: BoardSearchEnd) {
        let counter = match end {
            BoardSearchEnd::Finished => &self.inner.board_searches_finished,
            BoardSearchEnd::Stopped => &self.inner.board_searches_stopped,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts one error of `kind`; `code` is the error code sent to the client (or a short name).
    pub fn error(&self, kind: ErrorKind, code: &'static str) {
        let mut errors = self.inner.errors.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        *errors.entry((kind.as_str(), code)).or_default() += 1;
    }

    /// Every metric in the Prometheus text format; `queue_waiting` is the matchmaking queue's
    /// size if it could be read.
    pub fn render(&self, queue_waiting: Option<usize>) -> String {
        let r = &*self.inner;
        let mut out = String::new();
        header(
            &mut out,
            "outflank_sockets_open",
            "gauge",
            "WebSockets open on this node, by kind.",
        );
        for (kind, gauge) in [
            ("game", &r.game_sockets),
            ("queue", &r.queue_sockets),
            ("lobby", &r.lobby_sockets),
            ("player", &r.player_sockets),
        ] {
            let value = gauge.load(Ordering::Relaxed);
            let _ = writeln!(out, "outflank_sockets_open{{kind=\"{kind}\"}} {value}");
        }
        header(
            &mut out,
            "outflank_live_games",
            "gauge",
            "Game tasks running on this node, by mode.",
        );
        for (mode, gauge) in Mode::ALL.iter().zip(&r.live_games) {
            let value = gauge.load(Ordering::Relaxed);
            let _ = writeln!(out, "outflank_live_games{{mode=\"{mode}\"}} {value}");
        }
        header(&mut out, "outflank_moves_total", "counter", "Plies applied and stored.");
        let _ = writeln!(out, "outflank_moves_total {}", r.moves.load(Ordering::Relaxed));
        r.move_ack.render(
            &mut out,
            "outflank_move_ack_seconds",
            "Time from a socket's move command to the game's answer.",
        );
        if let Some(waiting) = queue_waiting {
            header(
                &mut out,
                "outflank_queue_waiting",
                "gauge",
                "Players in the matchmaking queue.",
            );
            let _ = writeln!(out, "outflank_queue_waiting {waiting}");
        }
        header(
            &mut out,
            "outflank_searches_queued",
            "gauge",
            "Computer searches waiting for a worker.",
        );
        let queued = r.searches_queued.load(Ordering::Relaxed);
        let _ = writeln!(out, "outflank_searches_queued {queued}");
        header(&mut out, "outflank_searches_running", "gauge", "Computer searches running.");
        let running = r.searches_running.load(Ordering::Relaxed);
        let _ = writeln!(out, "outflank_searches_running {running}");
        r.search_time.render(&mut out, "outflank_search_seconds", "Time of one computer search.");
        r.store_time.render(
            &mut out,
            "outflank_store_seconds",
            "Time of the store writes of one game command.",
        );
        header(
            &mut out,
            "outflank_board_requests",
            "gauge",
            "Analysis board requests for values waiting or valued.",
        );
        let board = r.board_requests.load(Ordering::Relaxed);
        let _ = writeln!(out, "outflank_board_requests {board}");
        header(
            &mut out,
            "outflank_board_searches_total",
            "counter",
            "Analysis board positions valued to the end, or stopped as nobody waits for them.",
        );
        for (end, counter) in
            [("finished", &r.board_searches_finished), ("stopped", &r.board_searches_stopped)]
        {
            let count = counter.load(Ordering::Relaxed);
            let _ = writeln!(out, "outflank_board_searches_total{{end=\"{end}\"}} {count}");
        }
        header(&mut out, "outflank_errors_total", "counter", "Errors, by kind and code.");
        let errors = r.errors.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        for ((kind, code), count) in errors.iter() {
            let _ =
                writeln!(out, "outflank_errors_total{{kind=\"{kind}\",code=\"{code}\"}} {count}");
        }
        out
    }

    fn socket_gauge(&self, kind: SocketKind) -> &AtomicI64 {
        match kind {
            SocketKind::Game => &self.inner.game_sockets,
            SocketKind::Queue => &self.inner.queue_sockets,
            SocketKind::Lobby => &self.inner.lobby_sockets,
            SocketKind::Player => &self.inner.player_sockets,
        }
    }

    fn live_game_gauge(&self, mode: Mode) -> Option<&AtomicI64> {
        let index = Mode::ALL.iter().position(|m| *m == mode)?;
        self.inner.live_games.get(index)
    }
}

/// Keeps a socket counted as open; see [`Metrics::socket_opened`].
#[derive(Debug)]
pub struct SocketGuard {
    metrics: Metrics,
    kind: SocketKind,
}

impl Drop for SocketGuard {
    fn drop(&mut self) {
        self.metrics.socket_gauge(self.kind).fetch_sub(1, Ordering::Relaxed);
    }
}

/// Keeps a game task counted as running; see [`Metrics::game_started`].
#[derive(Debug)]
pub struct LiveGameGuard {
    metrics: Metrics,
    mode: Mode,
}

impl Drop for LiveGameGuard {
    fn drop(&mut self) {
        if let Some(gauge) = self.metrics.live_game_gauge(self.mode) {
            gauge.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

/// Keeps a computer search counted as queued, then (after [`SearchGuard::running`]) running.
#[derive(Debug)]
pub struct SearchGuard {
    metrics: Metrics,
    running: bool,
}

impl SearchGuard {
    /// The search got a worker: it counts as running, no longer as queued.
    pub fn running(&mut self) {
        if !self.running {
            self.running = true;
            self.metrics.inner.searches_queued.fetch_sub(1, Ordering::Relaxed);
            self.metrics.inner.searches_running.fetch_add(1, Ordering::Relaxed);
        }
    }
}

impl Drop for SearchGuard {
    fn drop(&mut self) {
        let gauge = if self.running {
            &self.metrics.inner.searches_running
        } else {
            &self.metrics.inner.searches_queued
        };
        gauge.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Keeps an analysis board request counted; see [`Metrics::board_request`].
#[derive(Debug)]
pub struct BoardRequestGuard {
    metrics: Metrics,
}

impl Drop for BoardRequestGuard {
    fn drop(&mut self) {
        self.metrics.inner.board_requests.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A histogram of durations with fixed bucket bounds (seconds).
#[derive(Debug)]
struct Histogram {
    bounds: &'static [f64],
    /// Observations per bucket (not cumulative); the last one is `+Inf`.
    buckets: Vec<AtomicU64>,
    sum_nanos: AtomicU64,
}

impl Histogram {
    fn new(bounds: &'static [f64]) -> Histogram {
        Histogram {
            bounds,
            buckets: (0..=bounds.len()).map(|_| AtomicU64::new(0)).collect(),
            sum_nanos: AtomicU64::new(0),
        }
    }

    fn observe(&self, took: Duration) {
        let seconds = took.as_secs_f64();
        let index =
            self.bounds.iter().position(|bound| seconds <= *bound).unwrap_or(self.bounds.len());
        if let Some(bucket) = self.buckets.get(index) {
            bucket.fetch_add(1, Ordering::Relaxed);
        }
        let nanos = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
        self.sum_nanos.fetch_add(nanos, Ordering::Relaxed);
    }

    fn render(&self, out: &mut String, name: &str, help: &str) {
        header(out, name, "histogram", help);
        let mut cumulative = 0u64;
        for (index, bucket) in self.buckets.iter().enumerate() {
            cumulative += bucket.load(Ordering::Relaxed);
            match self.bounds.get(index) {
                Some(bound) => {
                    let _ = writeln!(out, "{name}_bucket{{le=\"{bound}\"}} {cumulative}");
                }
                None => {
                    let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {cumulative}");
                }
            }
        }
        #[allow(clippy::cast_precision_loss)]
        let sum = self.sum_nanos.load(Ordering::Relaxed) as f64 / 1e9;
        let _ = writeln!(out, "{name}_sum {sum}");
        // The count is the +Inf bucket, so the two always agree within one scrape.
        let _ = writeln!(out, "{name}_count {cumulative}");
    }
}

fn header(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} {kind}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_updates_and_guards() {
        let metrics = Metrics::new();
        let socket = metrics.socket_opened(SocketKind::Game);
        let game = metrics.game_started(Mode::SameDevice);
        metrics.moves_applied(2);
        metrics.move_acknowledged(Duration::from_millis(3));
        metrics.error(ErrorKind::WsProtocol, "bad_json");
        let text = metrics.render(Some(4));
        assert!(text.contains("outflank_sockets_open{kind=\"game\"} 1\n"), "{text}");
        assert!(text.contains("outflank_live_games{mode=\"same_device\"} 1\n"), "{text}");
        assert!(text.contains("outflank_moves_total 2\n"), "{text}");
        assert!(text.contains("outflank_move_ack_seconds_bucket{le=\"0.0025\"} 0\n"), "{text}");
        assert!(text.contains("outflank_move_ack_seconds_bucket{le=\"0.005\"} 1\n"), "{text}");
        assert!(text.contains("outflank_move_ack_seconds_count 1\n"), "{text}");
        assert!(text.contains("outflank_queue_waiting 4\n"), "{text}");
        assert!(text.contains("outflank_errors_total{kind=\"ws_protocol\",code=\"bad_json\"} 1\n"));
        drop((socket, game));
        let text = metrics.render(None);
        assert!(text.contains("outflank_sockets_open{kind=\"game\"} 0\n"), "{text}");
        assert!(text.contains("outflank_live_games{mode=\"same_device\"} 0\n"), "{text}");
        assert!(!text.contains("outflank_queue_waiting"), "{text}");
    }

    #[test]
    fn board_requests_are_counted_while_they_last_and_searches_by_how_they_ended() {
        let metrics = Metrics::new();
        let request = metrics.board_request();
        metrics.board_search_ended(BoardSearchEnd::Stopped);
        let text = metrics.render(None);
        assert!(text.contains("outflank_board_requests 1\n"), "{text}");
        assert!(text.contains("outflank_board_searches_total{end=\"finished\"} 0\n"), "{text}");
        assert!(text.contains("outflank_board_searches_total{end=\"stopped\"} 1\n"), "{text}");
        drop(request);
        assert!(metrics.render(None).contains("outflank_board_requests 0\n"));
    }

    #[test]
    fn search_guard_moves_from_queued_to_running() {
        let metrics = Metrics::new();
        let mut search = metrics.search_queued();
        assert!(metrics.render(None).contains("outflank_searches_queued 1\n"));
        search.running();
        let text = metrics.render(None);
        assert!(
            text.contains("outflank_searches_queued 0\n")
                && text.contains("outflank_searches_running 1\n")
        );
        drop(search);
        assert!(metrics.render(None).contains("outflank_searches_running 0\n"));
    }
}
