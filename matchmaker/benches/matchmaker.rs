//! The policy's cost with 10,000 waiting, and seekers paired per second through Redis.
//!
//! `cargo bench -p outflank-matchmaker` (the Redis part needs `TEST_REDIS_URL`, e.g.
//! `redis://127.0.0.1:6379`, and is skipped without it).

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use outflank_matchmaker::{Millis, Policy, PoolSeek, Queue, QueueKind, RedisQueue, Ticket, pair};

const T0: Millis = Millis(1_700_000_000_000);

/// `n` seekers: 4 in 5 quick, ratings roughly bell-shaped around 1500 (±600), joined over the
/// last 15 s. Deterministic.
fn seekers(n: usize, joined_over_ms: i64) -> Vec<Ticket> {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move |below: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        i64::try_from(state % below).unwrap_or(0)
    };
    (0..n)
        .map(|i| {
            let queue = if i % 5 == 0 { QueueKind::Ranked } else { QueueKind::Quick };
            let rating = 900 + next(400) + next(400) + next(400);
            let joined = T0.plus(-next(joined_over_ms.max(1) as u64));
            Ticket::new(format!("seeker-{i}"), queue, i32::try_from(rating).unwrap_or(1500), joined)
        })
        .collect()
}

fn policy(c: &mut Criterion) {
    let mut group = c.benchmark_group("policy");
    let spread = seekers(10_000, 15_000);
    group.throughput(Throughput::Elements(10_000));
    group.bench_function("pair_10000_spread", |b| {
        b.iter(|| pair(black_box(&spread), T0, &Policy::default()))
    });
    let same: Vec<Ticket> =
        spread.iter().map(|t| Ticket::new(t.seeker.clone(), t.queue, 1500, t.joined_at)).collect();
    group.bench_function("pair_10000_one_rating", |b| {
        b.iter(|| pair(black_box(&same), T0, &Policy::default()))
    });
    // The same seekers, each in one to three of three pools (the rating shifted per pool).
    let pooled: Vec<Ticket> = spread
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let rating = t.first_pool().map_or(1500, |seek| seek.rating);
            let pools = ["blitz", "rapid", "daily"]
                .iter()
                .enumerate()
                .take(1 + i % 3)
                .map(|(k, &pool)| PoolSeek::new(pool, rating + 40 * i32::try_from(k).unwrap_or(0)))
                .collect();
            Ticket::seeking(t.seeker.clone(), t.queue, pools, t.joined_at)
        })
        .collect();
    group.bench_function("pair_10000_three_pools", |b| {
        b.iter(|| pair(black_box(&pooled), T0, &Policy::default()))
    });
    group.finish();
}

fn redis(c: &mut Criterion) {
    let Ok(url) = std::env::var("TEST_REDIS_URL") else {
        eprintln!("TEST_REDIS_URL is not set: skipping the Redis benchmarks");
        return;
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let prefix = format!("outflank-bench:{}", std::process::id());
    let queue = rt.block_on(RedisQueue::connect(&url, &prefix)).expect("connect to Redis");
    // 20 s after the last join everyone fits within ±400 or is handed to the computer, so one
    // run empties the queue.
    let now = T0.plus(20_000);
    // Nobody heartbeats here: keep them all in the queue.
    let policy = Policy { heartbeat_ttl_ms: 60_000, ..Policy::default() };
    let batch = seekers(1_000, 15_000);
    let join_all = |queue: &RedisQueue| {
        let mut joins = tokio::task::JoinSet::new();
        for t in &batch {
            let (queue, t) = (queue.clone(), t.clone());
            joins.spawn(async move { queue.join(t, T0).await });
        }
        async move {
            while let Some(joined) = joins.join_next().await {
                joined.expect("join task").expect("join");
            }
        }
    };

    let mut group = c.benchmark_group("redis");
    group.sample_size(10).measurement_time(Duration::from_secs(5));
    group.throughput(Throughput::Elements(1_000));
    group.bench_function("run_pairing_1000_waiting", |b| {
        b.iter_batched(
            || rt.block_on(async { join_all(&queue).await }),
            |()| {
                let decided = rt.block_on(queue.run_pairing(now, &policy));
                assert!(!decided.expect("pairing").is_empty());
            },
            BatchSize::PerIteration,
        )
    });
    group.bench_function("join_and_pair_1000", |b| {
        b.iter(|| {
            rt.block_on(async {
                join_all(&queue).await;
                queue.run_pairing(now, &policy).await.expect("pairing")
            })
        })
    });
    group.finish();
    rt.block_on(queue.purge()).expect("purge the benchmark's keys");
}

criterion_group!(benches, policy, redis);
criterion_main!(benches);
