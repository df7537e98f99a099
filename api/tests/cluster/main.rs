//! Several nodes sharing PostgreSQL and Redis: players on different nodes play one game, and
//! a game survives its node going away (stopped, or killed outright).

#[allow(dead_code)]
#[path = "../api/helpers.rs"]
mod helpers;
#[allow(dead_code)]
#[path = "../api/oidc_support.rs"]
mod oidc_support;
#[path = "../api/stacks.rs"]
mod stacks;
#[allow(dead_code)]
#[path = "../storage_support/mod.rs"]
mod storage_support;

mod analysis;
mod challenges;
mod failover;
mod faults;
mod leases;
mod play;
mod sockets;
mod two_nodes;

/// Keys of a test of its own in a shared Redis, under `outflank-test-<name>-…`.
fn redis_prefix(name: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("a clock after 1970")
        .as_nanos();
    format!("outflank-test-{name}-{}-{nanos}", std::process::id())
}
