//! One contract, two queues: every story runs on the in-process queue and on real Redis
//! (`TEST_REDIS_URL`, e.g. `redis://127.0.0.1:6379`). Without it the Redis tests are skipped with
//! a line saying what to start; `OUTFLANK_REQUIRE_SERVICES=1` (set by `tests/run.sh`) makes that
//! a failure, and `OUTFLANK_SKIP_REDIS=1` skips them even then.
//! Time is passed explicitly: nothing here sleeps to make a seeker wait.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use outflank_matchmaker::{
    Decision, InProcessQueue, Millis, Policy, PoolId, PoolSeek, Queue, QueueKind, RedisQueue,
    SeekerId, Ticket,
};

const T0: Millis = Millis(1_700_000_000_000);

fn at(ms: i64) -> Millis {
    T0.plus(ms)
}

fn quick(id: &str, rating: i32) -> Ticket {
    Ticket::new(id, QueueKind::Quick, rating, T0)
}

fn ids(tickets: &[Ticket]) -> Vec<&str> {
    tickets.iter().map(|t| t.seeker.as_str()).collect()
}

/// What a Redis test needs, said when it is skipped or fails for want of it.
const NEEDS_REDIS: &str =
    "needs Redis — run tests/run.sh, or start it and set TEST_REDIS_URL=redis://127.0.0.1:6379";

fn is_set(variable: &str) -> bool {
    std::env::var(variable).is_ok_and(|value| value == "1")
}

/// The Redis URL (`TEST_REDIS_URL`), or `None` after a line saying the test is skipped and
/// what to start; with `OUTFLANK_REQUIRE_SERVICES=1` a failure instead. `OUTFLANK_SKIP_REDIS=1`
/// skips in any case. The same rule as the server's tests (`api/tests/storage_support`).
fn redis_url() -> Option<String> {
    let url = std::env::var("TEST_REDIS_URL").ok().filter(|url| !url.is_empty());
    if let Some(url) = url.filter(|_| !is_set("OUTFLANK_SKIP_REDIS")) {
        return Some(url);
    }
    let test = std::thread::current().name().unwrap_or("a test").to_owned();
    // Written past the test harness's capture, so that a passing run shows it too.
    let say = |line: String| {
        use std::io::Write;
        let _ = writeln!(std::io::stderr().lock(), "{line}");
    };
    if is_set("OUTFLANK_SKIP_REDIS") {
        say(format!("skipped {test}: OUTFLANK_SKIP_REDIS=1 ({NEEDS_REDIS})"));
        return None;
    }
    if is_set("OUTFLANK_REQUIRE_SERVICES") {
        panic!("{NEEDS_REDIS} (OUTFLANK_REQUIRE_SERVICES=1 makes this a failure, not a skip)");
    }
    say(format!("skipped {test}: {NEEDS_REDIS}"));
    None
}

/// A key prefix no other test (or run) uses.
fn unique_prefix() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("outflank-test:{}:{nanos}:{n}", std::process::id())
}

/// Runs a one-queue story on both implementations, purging the Redis keys afterwards.
macro_rules! on_both {
    ($story:ident) => {
        mod $story {
            #[tokio::test]
            async fn in_process() {
                super::$story(outflank_matchmaker::InProcessQueue::new()).await;
            }

            #[tokio::test]
            async fn redis() {
                let Some(url) = super::redis_url() else { return };
                let q = outflank_matchmaker::RedisQueue::connect(&url, &super::unique_prefix())
                    .await
                    .expect("connect to TEST_REDIS_URL");
                super::$story(q.clone()).await;
                q.purge().await.expect("purge the test's keys");
            }

            #[tokio::test]
            async fn redis_through_any_queue() {
                let Some(url) = super::redis_url() else { return };
                let prefix = super::unique_prefix();
                let q = outflank_matchmaker::AnyQueue::from_url(Some(&url), &prefix)
                    .await
                    .expect("connect to TEST_REDIS_URL");
                super::$story(q.clone()).await;
                if let outflank_matchmaker::AnyQueue::Redis(redis) = q {
                    redis.purge().await.expect("purge the test's keys");
                } else {
                    panic!("a redis:// URL picks Redis");
                }
            }

            #[tokio::test]
            async fn in_process_through_any_queue() {
                let q = outflank_matchmaker::AnyQueue::from_url(None, "unused").await.unwrap();
                assert!(matches!(q, outflank_matchmaker::AnyQueue::InProcess(_)));
                super::$story(q).await;
            }
        }
    };
}

on_both!(join_leave_and_cancel);
async fn join_leave_and_cancel(q: impl Queue) {
    q.join(quick("ann", 1500), T0).await.unwrap();
    assert_eq!(ids(&q.waiting(QueueKind::Quick).await.unwrap()), ["ann"]);
    assert!(q.heartbeat(&"ann".into(), at(1_000)).await.unwrap());

    assert!(q.leave(&"ann".into()).await.unwrap(), "was waiting");
    assert!(!q.leave(&"ann".into()).await.unwrap(), "already gone");
    assert!(q.waiting(QueueKind::Quick).await.unwrap().is_empty());
    assert!(!q.heartbeat(&"ann".into(), at(2_000)).await.unwrap(), "gone: join again");

    // Joining again replaces the ticket, even across queues.
    q.join(quick("ann", 1500), at(2_500)).await.unwrap();
    q.join(Ticket::new("ann", QueueKind::Ranked, 1600, at(3_000)), at(3_000)).await.unwrap();
    assert!(q.waiting(QueueKind::Quick).await.unwrap().is_empty());
    let ranked = q.waiting(QueueKind::Ranked).await.unwrap();
    assert_eq!(ranked, vec![Ticket::new("ann", QueueKind::Ranked, 1600, at(3_000))]);

    // A cancelled seeker is never paired.
    q.join(Ticket::new("bob", QueueKind::Ranked, 1600, at(3_000)), at(3_000)).await.unwrap();
    assert!(q.leave(&"ann".into()).await.unwrap());
    let policy = Policy { heartbeat_ttl_ms: 60_000, ..Policy::default() };
    let decisions = q.run_pairing(at(30_000), &policy).await.unwrap();
    assert_eq!(decisions.len(), 1);
    assert!(matches!(&decisions[0], Decision::Computer { seeker, .. } if seeker.as_str() == "bob"));
    assert_eq!(q.take_decision(&"ann".into()).await.unwrap(), None);
}

on_both!(waiting_lists_by_queue_and_rating);
async fn waiting_lists_by_queue_and_rating(q: impl Queue) {
    for (id, queue, rating) in [
        ("c", QueueKind::Quick, 1800),
        ("a", QueueKind::Quick, 1200),
        ("r", QueueKind::Ranked, 1500),
        ("b", QueueKind::Quick, 1500),
    ] {
        q.join(Ticket::new(id, queue, rating, T0).with_last_opponent("z"), T0).await.unwrap();
    }
    let quick = q.waiting(QueueKind::Quick).await.unwrap();
    assert_eq!(ids(&quick), ["a", "b", "c"]);
    assert_eq!(quick[0].last_opponent, Some(SeekerId::from("z")), "tickets round-trip");
    assert_eq!(ids(&q.waiting(QueueKind::Ranked).await.unwrap()), ["r"]);
}

on_both!(closest_ratings_are_paired_first);
async fn closest_ratings_are_paired_first(q: impl Queue) {
    for (id, rating) in [("a", 1500), ("far", 1580), ("b", 1520)] {
        q.join(quick(id, rating), T0).await.unwrap();
    }
    let decisions = q.run_pairing(T0, &Policy::default()).await.unwrap();
    assert_eq!(decisions.len(), 1, "{decisions:?}");
    let Decision::Match { queue, black, white, .. } = &decisions[0] else {
        panic!("expected a match: {decisions:?}");
    };
    assert_eq!(*queue, QueueKind::Quick);
    let mut both = [black.as_str(), white.as_str()];
    both.sort_unstable();
    assert_eq!(both, ["a", "b"]);

    assert_eq!(ids(&q.waiting(QueueKind::Quick).await.unwrap()), ["far"]);
    assert!(!q.heartbeat(&"a".into(), at(100)).await.unwrap(), "paired: no longer waiting");
    assert_eq!(q.take_decision(&"a".into()).await.unwrap().as_ref(), Some(&decisions[0]));
    assert_eq!(q.take_decision(&"b".into()).await.unwrap().as_ref(), Some(&decisions[0]));
    assert_eq!(q.take_decision(&"a".into()).await.unwrap(), None, "taken once");
    assert!(q.run_pairing(at(100), &Policy::default()).await.unwrap().is_empty());
}

on_both!(a_tickets_blocks_are_kept_by_the_queue_and_honoured_by_its_pairing);
async fn a_tickets_blocks_are_kept_by_the_queue_and_honoured_by_its_pairing(q: impl Queue) {
    q.join(quick("a", 1500).avoiding([SeekerId::from("b")]), T0).await.unwrap();
    q.join(quick("b", 1500), T0).await.unwrap();
    let waiting = q.waiting(QueueKind::Quick).await.unwrap();
    let a = waiting.iter().find(|ticket| ticket.seeker.as_str() == "a").unwrap();
    assert_eq!(a.avoid, [SeekerId::from("b")]);
    assert!(q.run_pairing(T0, &Policy::default()).await.unwrap().is_empty());
}

on_both!(a_seeker_in_several_pools_is_paired_in_one_and_leaves_them_all);
async fn a_seeker_in_several_pools_is_paired_in_one_and_leaves_them_all(q: impl Queue) {
    let ranked = |id: &str, pools: &[&str]| {
        let pools = pools.iter().map(|&pool| PoolSeek::new(pool, 1500)).collect();
        Ticket::seeking(id, QueueKind::Ranked, pools, T0)
    };
    q.join(ranked("both", &["rapid", "blitz"]), T0).await.unwrap();
    q.join(ranked("rapid", &["rapid"]), T0).await.unwrap();
    let decisions = q.run_pairing(T0, &Policy::default()).await.unwrap();
    let [Decision::Match { pool, .. }] = decisions.as_slice() else {
        panic!("expected one match: {decisions:?}");
    };
    assert_eq!(pool, &PoolId::from("rapid"));
    // Paired in rapid, so no longer waiting in blitz: a blitz seeker finds nobody.
    q.join(ranked("blitz", &["blitz"]), at(100)).await.unwrap();
    assert!(q.run_pairing(at(100), &Policy::default()).await.unwrap().is_empty());
    assert_eq!(ids(&q.waiting(QueueKind::Ranked).await.unwrap()), ["blitz"]);
    assert_eq!(q.take_decision(&"both".into()).await.unwrap().as_ref(), Some(&decisions[0]));
}

on_both!(the_computer_takes_over_at_the_configured_wait);
async fn the_computer_takes_over_at_the_configured_wait(q: impl Queue) {
    let policy = Policy { computer_after_ms: 2_000, ..Policy::default() };
    q.join(quick("solo", 1000), T0).await.unwrap();
    q.join(Ticket::new("late", QueueKind::Quick, 2400, at(1_500)), at(1_500)).await.unwrap();
    assert!(q.run_pairing(at(1_999), &policy).await.unwrap().is_empty());
    let decisions = q.run_pairing(at(2_000), &policy).await.unwrap();
    let expected = Decision::Computer {
        queue: QueueKind::Quick,
        pool: PoolId::default(),
        seeker: "solo".into(),
        rating: 1000,
    };
    assert_eq!(decisions, vec![expected.clone()]);
    assert_eq!(q.take_decision(&"solo".into()).await.unwrap(), Some(expected));
    assert_eq!(ids(&q.waiting(QueueKind::Quick).await.unwrap()), ["late"]);
}

on_both!(a_lapsed_heartbeat_leaves_the_queue);
async fn a_lapsed_heartbeat_leaves_the_queue(q: impl Queue) {
    let policy =
        Policy { heartbeat_ttl_ms: 10_000, computer_after_ms: 60_000, ..Policy::default() };
    q.join(quick("gone", 1000), T0).await.unwrap();
    q.join(quick("alive", 2000), T0).await.unwrap();
    // Re-registered with the original join time: alive since now, not since then.
    q.join(Ticket::new("back", QueueKind::Quick, 3000, at(-20_000)), at(1_000)).await.unwrap();
    assert!(q.heartbeat(&"alive".into(), at(8_000)).await.unwrap());
    assert!(q.heartbeat(&"gone".into(), at(500)).await.unwrap());

    // 10 s since gone's last heartbeat: still in (the limit is "older than").
    assert!(q.run_pairing(at(10_500), &policy).await.unwrap().is_empty());
    assert_eq!(q.waiting(QueueKind::Quick).await.unwrap().len(), 3);

    assert!(q.run_pairing(at(10_501), &policy).await.unwrap().is_empty());
    assert_eq!(ids(&q.waiting(QueueKind::Quick).await.unwrap()), ["alive", "back"]);
    assert!(q.run_pairing(at(11_001), &policy).await.unwrap().is_empty());
    assert_eq!(ids(&q.waiting(QueueKind::Quick).await.unwrap()), ["alive"], "back lapsed too");
    assert!(!q.heartbeat(&"gone".into(), at(10_600)).await.unwrap());
    assert_eq!(q.take_decision(&"gone".into()).await.unwrap(), None);
}

/// Two nodes share one queue; 1,000 seekers join concurrently through both while both run
/// pairing in a loop. Everyone ends in exactly one decision.
async fn two_nodes_never_pair_anyone_twice<Q: Queue + Clone + 'static>(a: Q, b: Q) {
    const SEEKERS: usize = 1_000;
    let policy = Arc::new(Policy {
        computer_after_ms: 3_000,
        heartbeat_ttl_ms: 600_000,
        ..Policy::default()
    });

    let mut joins = tokio::task::JoinSet::new();
    for i in 0..SEEKERS {
        let node = if i % 2 == 0 { a.clone() } else { b.clone() };
        let queue = if i % 5 == 0 { QueueKind::Ranked } else { QueueKind::Quick };
        // Ratings spread over 1000..2200, with repeats.
        let rating = 1000 + i32::try_from((i * 7_919) % 1_200).unwrap_or(0);
        let ticket = Ticket::new(format!("s{i:04}"), queue, rating, T0);
        joins.spawn(async move { node.join(ticket, T0).await });
    }
    let joined = Arc::new(AtomicBool::new(false));
    let mut pairing = tokio::task::JoinSet::new();
    for node in [a.clone(), b.clone()] {
        let (joined, policy) = (joined.clone(), policy.clone());
        pairing.spawn(async move {
            // The clock stands still while seekers join, then moves 50 ms per run.
            let (mut made, mut elapsed) = (Vec::new(), 0);
            for _ in 0..10_000 {
                let done = joined.load(Ordering::SeqCst);
                made.extend(node.run_pairing(at(elapsed), &policy).await.unwrap());
                let empty = node.waiting(QueueKind::Quick).await.unwrap().is_empty()
                    && node.waiting(QueueKind::Ranked).await.unwrap().is_empty();
                if done && empty {
                    break;
                }
                if done {
                    elapsed += 50;
                }
                tokio::task::yield_now().await;
            }
            made
        });
    }
    while let Some(result) = joins.join_next().await {
        result.unwrap().unwrap();
    }
    joined.store(true, Ordering::SeqCst);

    let mut decided: HashMap<SeekerId, Decision> = HashMap::new();
    let (mut matches, mut computers) = (0, 0);
    while let Some(made) = pairing.join_next().await {
        for decision in made.unwrap() {
            match decision {
                Decision::Match { .. } => matches += 1,
                Decision::Computer { .. } => computers += 1,
            }
            for seeker in decision.seekers() {
                let before = decided.insert(seeker.clone(), decision.clone());
                assert!(before.is_none(), "{seeker} decided twice: {before:?} and {decision:?}");
            }
        }
    }
    assert_eq!(decided.len(), SEEKERS, "none lost ({matches} matches, {computers} computer)");
    assert!(matches >= 400, "mostly people: {matches} matches, {computers} computer");
    for i in 0..SEEKERS {
        let seeker = SeekerId::new(format!("s{i:04}"));
        let node = if i % 3 == 0 { &a } else { &b };
        let taken = node.take_decision(&seeker).await.unwrap();
        assert_eq!(taken.as_ref(), decided.get(&seeker), "{seeker}'s decision is kept for them");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_in_process() {
    let shared = Arc::new(InProcessQueue::new());
    two_nodes_never_pair_anyone_twice(shared.clone(), shared).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_on_redis() {
    let Some(url) = redis_url() else { return };
    let prefix = unique_prefix();
    let a = RedisQueue::connect(&url, &prefix).await.expect("connect node a");
    let b = RedisQueue::connect(&url, &prefix).await.expect("connect node b");
    two_nodes_never_pair_anyone_twice(a.clone(), b).await;
    a.purge().await.unwrap();
}

/// A private `redis-server` on a free port, killed on drop.
struct PrivateRedis {
    port: u16,
    child: std::process::Child,
}

impl PrivateRedis {
    fn start(port: u16) -> Option<Self> {
        let child = std::process::Command::new("redis-server")
            .args(["--port", &port.to_string(), "--save", "", "--appendonly", "no"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .ok()?;
        let server = Self { port, child };
        for _ in 0..100 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Some(server);
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        None
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for PrivateRedis {
    fn drop(&mut self) {
        self.stop();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// Retries an operation for up to 5 s while the connection comes back.
async fn eventually<T, F, Fut>(mut op: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = outflank_matchmaker::QueueResult<T>>,
{
    let mut last = None;
    for _ in 0..100 {
        match op().await {
            Ok(value) => return value,
            Err(e) => last = Some(e),
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("queue did not recover: {last:?}");
}

/// Redis restarts (empty) while seekers wait: calls fail with errors, never panics; once it is
/// back, heartbeats report the seekers gone, they join again and are paired exactly once.
/// Uses a private `redis-server` when the binary is installed, else wipes the test's keys on
/// `TEST_REDIS_URL`.
#[tokio::test]
async fn the_redis_queue_recovers_from_a_restart() {
    let Some(url) = redis_url() else { return };
    let port = free_port();
    let mut private = PrivateRedis::start(port);
    let url = match &private {
        Some(server) => format!("redis://127.0.0.1:{}", server.port),
        None => url,
    };
    let node = RedisQueue::connect(&url, &unique_prefix()).await.unwrap();
    let other = RedisQueue::connect(&url, node.prefix()).await.unwrap();
    let seekers: Vec<Ticket> = (0..10).map(|i| quick(&format!("r{i}"), 1000 + 300 * i)).collect();
    for t in &seekers {
        node.join(t.clone(), T0).await.unwrap();
    }
    assert_eq!(node.waiting(QueueKind::Quick).await.unwrap().len(), 10);

    match private.as_mut() {
        Some(server) => {
            server.stop();
            assert!(node.waiting(QueueKind::Quick).await.is_err(), "Redis is down: an error");
            assert!(node.run_pairing(at(100), &Policy::default()).await.is_err());
            assert!(node.heartbeat(&"r0".into(), at(100)).await.is_err());
            private = Some(PrivateRedis::start(port).expect("restart redis-server"));
        }
        None => node.purge().await.unwrap(),
    }

    // Back, but empty: every heartbeat says "join again".
    for t in &seekers {
        let present = eventually(|| node.heartbeat(&t.seeker, at(1_000))).await;
        assert!(!present, "{} survived a restart without persistence?", t.seeker);
        let mut again = t.clone();
        again.pools = vec![PoolSeek::new(PoolId::default(), 1500)];
        eventually(|| node.join(again.clone(), at(1_000))).await;
    }
    let mut decided: HashMap<SeekerId, usize> = HashMap::new();
    let policy = Policy::default();
    for step in 0..4 {
        for q in [&node, &other] {
            for d in eventually(|| q.run_pairing(at(1_000 + step), &policy)).await {
                for s in d.seekers() {
                    *decided.entry(s.clone()).or_default() += 1;
                }
            }
        }
    }
    assert_eq!(decided.len(), 10, "everyone paired after re-registering");
    assert!(decided.values().all(|&n| n == 1), "nobody twice: {decided:?}");
    node.purge().await.unwrap();
    drop(private);
}
