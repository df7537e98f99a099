//! Admission of new games under overload: when the server is truly saturated, requests that
//! would start a game get `503 Service Unavailable` with `Retry-After` at once, instead of
//! queueing behind the moves of games already running until they time out. Moves, reads and
//! everything else still go through, so running games keep their pace.
//!
//! Saturation is read in two places, against one limit: the workers' own event loops (a probe on
//! each worker sleeps a short period and measures how late it wakes; late on several ticks
//! running, it has more ready work than it can do), and the write path (the running mean of how
//! long moves take to become durable, [`WriteLatency`]). Either over the limit, the server
//! refuses new games for a short hold, renewed while it lasts. And however quiet the server, it
//! works on at most [`STARTING_AT_ONCE`] requests that start a game at a time: a crowd arriving
//! together is paced instead of admitted at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderValue, RETRY_AFTER};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::web;

use crate::http::error::error_response;
use crate::metrics::{ErrorKind, Metrics};
use crate::storage::WriteLatency;

/// How often each worker's probe wakes.
pub const PROBE_PERIOD: Duration = Duration::from_millis(50);

/// Late ticks in a row that count as saturation (one late tick is a hiccup).
pub const LATE_TICKS: u32 = 3;

/// How long new games are refused after the last saturated reading.
pub const HOLD: Duration = Duration::from_secs(3);

/// The default lag, beyond [`PROBE_PERIOD`], at which a tick is late.
pub const DEFAULT_LAG_LIMIT: Duration = Duration::from_millis(100);

/// Whether the server admits new games now; shared by every worker.
#[derive(Clone, Debug)]
pub struct Admission {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    /// A tick is late when it wakes more than this after its time; `None`: never refuse.
    lag_limit: Option<Duration>,
    /// What the stamps below count from.
    origin: Instant,
    /// Milliseconds after `origin` until which new games are refused (0: not refusing).
    busy_until_ms: AtomicU64,
    /// The store's recent move-write latency, when watched.
    writes: Option<Arc<WriteLatency>>,
    /// Requests starting a game admitted and not yet answered.
    starting: AtomicUsize,
}

/// How many requests that start a game a node works on at once; more are refused at once.
///
/// Saturation shows only once the games already admitted slow the server down, which a crowd
/// arriving together outruns: thousands of set-ups admitted in the same second all queue for the
/// write path, and the games they start overload it before any reading rises. Working on a few
/// at a time paces them at the speed the server sets games up, and the rest hear at once to come
/// back in a second.
pub const STARTING_AT_ONCE: usize = 32;

/// A place among the requests starting a game, given back when dropped.
#[derive(Debug)]
pub struct Starting {
    admission: Admission,
}

impl Drop for Starting {
    fn drop(&mut self) {
        self.admission.inner.starting.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The answer for a request that would start a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Admit,
    /// Refused: try again after this many whole seconds.
    Busy {
        retry_after_secs: u64,
    },
}

/// Counts one worker's late ticks in a row.
#[derive(Debug, Default, Clone, Copy)]
pub struct Probe {
    late_in_a_row: u32,
}

impl Probe {
    /// Takes one tick's lag; true when this reading means saturation.
    pub fn tick(&mut self, lag: Duration, limit: Duration) -> bool {
        if lag > limit {
            self.late_in_a_row = self.late_in_a_row.saturating_add(1);
        } else {
            self.late_in_a_row = 0;
        }
        self.late_in_a_row >= LATE_TICKS
    }
}

impl Admission {
    /// Refuses new games while the workers' lag stays above `lag_limit`; `None` never refuses.
    pub fn new(lag_limit: Option<Duration>) -> Admission {
        Admission {
            inner: Arc::new(Inner {
                lag_limit,
                origin: Instant::now(),
                busy_until_ms: AtomicU64::new(0),
                writes: None,
                starting: AtomicUsize::new(0),
            }),
        }
    }

    /// The same, also refusing while moves take longer than the limit to become durable.
    pub fn watching_writes(lag_limit: Option<Duration>, writes: Arc<WriteLatency>) -> Admission {
        Admission {
            inner: Arc::new(Inner {
                lag_limit,
                origin: Instant::now(),
                busy_until_ms: AtomicU64::new(0),
                writes: Some(writes),
                starting: AtomicUsize::new(0),
            }),
        }
    }

    fn millis(&self, at: Instant) -> u64 {
        u64::try_from(at.saturating_duration_since(self.inner.origin).as_millis())
            .unwrap_or(u64::MAX)
    }

    /// Records a saturated reading at `now`: new games are refused for [`HOLD`] from it.
    pub fn saturated(&self, now: Instant) {
        let until = self.millis(now).saturating_add(HOLD.as_millis() as u64);
        self.inner.busy_until_ms.fetch_max(until, Ordering::Relaxed);
    }

    /// Whether a new game may start at `now`.
    pub fn verdict(&self, now: Instant) -> Verdict {
        if let (Some(limit), Some(writes)) = (self.inner.lag_limit, &self.inner.writes)
            && writes.recent_mean(now) > limit
        {
            self.saturated(now);
        }
        let until = self.inner.busy_until_ms.load(Ordering::Relaxed);
        let now = self.millis(now);
        if now >= until {
            return Verdict::Admit;
        }
        Verdict::Busy { retry_after_secs: (until - now).div_ceil(1000).max(1) }
    }

    /// A place among the requests starting a game now, if the server admits new games and
    /// fewer than [`STARTING_AT_ONCE`] are in progress; else the seconds to wait.
    pub fn start(&self, now: Instant) -> Result<Starting, u64> {
        if let Verdict::Busy { retry_after_secs } = self.verdict(now) {
            return Err(retry_after_secs);
        }
        let limit = if self.inner.lag_limit.is_some() { STARTING_AT_ONCE } else { usize::MAX };
        self.inner
            .starting
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| (n < limit).then_some(n + 1))
            .map_err(|_| 1u64)?;
        Ok(Starting { admission: self.clone() })
    }

    /// Starts this worker's probe on the current (worker's) runtime; nothing when admission
    /// never refuses.
    pub fn spawn_probe(&self) {
        let Some(limit) = self.inner.lag_limit else { return };
        let admission = self.clone();
        actix_web::rt::spawn(async move {
            let mut probe = Probe::default();
            loop {
                let due = Instant::now() + PROBE_PERIOD;
                tokio::time::sleep(PROBE_PERIOD).await;
                let now = Instant::now();
                if probe.tick(now.saturating_duration_since(due), limit) {
                    admission.saturated(now);
                }
            }
        });
    }
}

/// Whether a request would start a game: setting up a friend room or joining one, a computer
/// game, an import, or a place in the matchmaking queue.
pub fn starts_a_game(method: &Method, path: &str) -> bool {
    let path = path.trim_end_matches('/');
    if path == "/api/queue/ws" {
        return method == Method::GET;
    }
    method == Method::POST
        && (matches!(path, "/api/rooms" | "/api/games" | "/api/games/import")
            || (path.starts_with("/api/rooms/") && path.ends_with("/join")))
}

/// Middleware refusing requests that would start a game while the server is saturated.
pub async fn admit_new_games(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let mut place = None;
    if starts_a_game(request.method(), request.path())
        && let Some(admission) = request.app_data::<web::Data<Admission>>()
    {
        match admission.start(Instant::now()) {
            Ok(starting) => place = Some(starting),
            Err(retry_after_secs) => return Ok(refuse(request, retry_after_secs)),
        }
    }
    let response = next.call(request).await?.map_into_boxed_body();
    drop(place);
    Ok(response)
}

/// The `503 server_busy` answer to a request that would start a game.
fn refuse(request: ServiceRequest, retry_after_secs: u64) -> ServiceResponse<BoxBody> {
    if let Some(metrics) = request.app_data::<web::Data<Metrics>>() {
        metrics.error(ErrorKind::Refused, "server_busy");
    }
    let mut response = error_response(
        StatusCode::SERVICE_UNAVAILABLE,
        "server_busy",
        format!(
            "the server is very busy right now; games already running go on, and a new one can \
             start in {retry_after_secs} s"
        ),
    );
    if let Ok(value) = HeaderValue::from_str(&retry_after_secs.to_string()) {
        response.headers_mut().insert(RETRY_AFTER, value);
    }
    request.into_response(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMIT: Duration = Duration::from_millis(100);

    #[test]
    fn one_late_tick_is_a_hiccup_and_several_in_a_row_are_saturation() {
        let mut probe = Probe::default();
        let late = Duration::from_millis(150);
        assert!(!probe.tick(late, LIMIT));
        assert!(!probe.tick(late, LIMIT));
        assert!(probe.tick(late, LIMIT));
        assert!(probe.tick(late, LIMIT));
        assert!(!probe.tick(Duration::from_millis(20), LIMIT));
        assert!(!probe.tick(late, LIMIT));
    }

    #[test]
    fn a_tick_exactly_at_the_limit_is_not_late() {
        let mut probe = Probe::default();
        for _ in 0..LATE_TICKS {
            assert!(!probe.tick(LIMIT, LIMIT));
        }
    }

    #[test]
    fn new_games_are_admitted_until_a_saturated_reading() {
        let admission = Admission::new(Some(LIMIT));
        assert_eq!(admission.verdict(Instant::now()), Verdict::Admit);
    }

    #[test]
    fn saturation_refuses_new_games_for_the_hold_with_the_seconds_left() {
        let admission = Admission::new(Some(LIMIT));
        let at = Instant::now();
        admission.saturated(at);
        assert_eq!(admission.verdict(at), Verdict::Busy { retry_after_secs: 3 });
        assert_eq!(
            admission.verdict(at + Duration::from_millis(2_500)),
            Verdict::Busy { retry_after_secs: 1 }
        );
        assert_eq!(admission.verdict(at + HOLD), Verdict::Admit);
    }

    #[test]
    fn a_later_reading_extends_the_hold_and_an_earlier_one_does_not_shorten_it() {
        let admission = Admission::new(Some(LIMIT));
        let at = Instant::now();
        admission.saturated(at + Duration::from_secs(2));
        admission.saturated(at);
        assert_eq!(
            admission.verdict(at + Duration::from_secs(4)),
            Verdict::Busy { retry_after_secs: 1 }
        );
        assert_eq!(admission.verdict(at + Duration::from_secs(5)), Verdict::Admit);
    }

    #[test]
    fn slow_move_writes_refuse_new_games_too() {
        let writes = Arc::new(WriteLatency::default());
        let admission = Admission::watching_writes(Some(LIMIT), Arc::clone(&writes));
        let at = Instant::now() + Duration::from_millis(10);
        writes.record(Duration::from_millis(50), at);
        assert_eq!(admission.verdict(at), Verdict::Admit);
        for _ in 0..32 {
            writes.record(Duration::from_millis(400), at);
        }
        assert_eq!(admission.verdict(at), Verdict::Busy { retry_after_secs: 3 });
    }

    #[test]
    fn a_crowd_of_new_games_is_worked_on_a_few_at_a_time() {
        let admission = Admission::new(Some(LIMIT));
        let now = Instant::now();
        let places: Vec<Starting> =
            (0..STARTING_AT_ONCE).map(|_| admission.start(now).unwrap()).collect();
        assert_eq!(admission.start(now).unwrap_err(), 1);
        drop(places);
        assert!(admission.start(now).is_ok());
    }

    #[test]
    fn a_saturated_server_refuses_a_new_game_for_the_hold_even_with_room_to_start_it() {
        let admission = Admission::new(Some(LIMIT));
        let now = Instant::now();
        admission.saturated(now);
        assert_eq!(admission.start(now).unwrap_err(), 3);
    }

    #[test]
    fn without_admission_any_number_of_new_games_starts_at_once() {
        let admission = Admission::new(None);
        let now = Instant::now();
        let places: Vec<Starting> =
            (0..4 * STARTING_AT_ONCE).map(|_| admission.start(now).unwrap()).collect();
        assert_eq!(places.len(), 4 * STARTING_AT_ONCE);
    }

    #[test]
    fn admission_turned_off_never_refuses() {
        let writes = Arc::new(WriteLatency::default());
        let admission = Admission::watching_writes(None, Arc::clone(&writes));
        let at = Instant::now() + Duration::from_millis(10);
        for _ in 0..32 {
            writes.record(Duration::from_secs(2), at);
        }
        assert_eq!(admission.verdict(at), Verdict::Admit);
    }

    #[test]
    fn only_requests_that_start_a_game_are_gated() {
        for (method, path) in [
            (Method::POST, "/api/rooms"),
            (Method::POST, "/api/rooms/ABCD2345/join"),
            (Method::POST, "/api/games"),
            (Method::POST, "/api/games/import"),
            (Method::GET, "/api/queue/ws"),
        ] {
            assert!(starts_a_game(&method, path), "{method} {path}");
        }
        for (method, path) in [
            (Method::GET, "/api/rooms/ABCD2345"),
            (Method::GET, "/api/games/abc"),
            (Method::GET, "/api/games/abc/ws"),
            (Method::POST, "/api/session"),
            (Method::GET, "/api/stats"),
            (Method::GET, "/"),
        ] {
            assert!(!starts_a_game(&method, path), "{method} {path}");
        }
    }

    #[actix_web::test]
    async fn a_saturated_server_answers_a_new_game_with_503_and_retry_after() {
        use actix_web::{App, HttpResponse, middleware::from_fn, test};
        let admission = Admission::new(Some(LIMIT));
        admission.saturated(Instant::now());
        let app = test::init_service(
            App::new()
                .app_data(web::Data::new(admission))
                .wrap(from_fn(admit_new_games))
                .route("/api/rooms", web::post().to(HttpResponse::Created))
                .route("/api/rooms/{code}", web::get().to(HttpResponse::Ok)),
        )
        .await;
        let refused =
            test::call_service(&app, test::TestRequest::post().uri("/api/rooms").to_request())
                .await;
        assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(refused.headers().get(RETRY_AFTER).unwrap(), "3");
        let body: serde_json::Value = test::read_body_json(refused).await;
        assert_eq!(body["error"]["code"], "server_busy");
        let read = test::call_service(
            &app,
            test::TestRequest::get().uri("/api/rooms/ABCD2345").to_request(),
        )
        .await;
        assert_eq!(read.status(), StatusCode::OK);
    }
}
