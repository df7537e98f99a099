//! Several nodes sharing PostgreSQL and Redis: players on different nodes play one game, and
//! a game survives its node going away (stopped, or killed outright).

#[allow(dead_code)]
#[path = "../api/helpers.rs"]
mod helpers;
#[path = "../api/stacks.rs"]
mod stacks;
#[allow(dead_code)]
#[path = "../storage_support/mod.rs"]
mod storage_support;

mod analysis;
mod failover;
mod faults;
mod leases;
mod play;
mod two_nodes;
