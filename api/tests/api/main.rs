//! Black-box tests of the server: each starts the real application on a free port with a fresh
//! database and talks to it over HTTP and WebSocket. The database is a new SQLite file, or a new
//! PostgreSQL database (from `TEST_DATABASE_URL`) when `OUTFLANK_TEST_BACKEND=postgres`, with the
//! matchmaking queue on Redis (`TEST_REDIS_URL`, under a key prefix of the test's own).

// Shared with the cluster tests; each test binary uses part of it.
#[allow(dead_code)]
mod helpers;
mod stacks;
// Shared with the storage tests: fresh PostgreSQL databases. Each test binary uses part of it.
#[allow(dead_code)]
#[path = "../storage_support/mod.rs"]
mod storage_support;

mod analysis;
mod analysis_board;
mod challenges;
mod computer;
mod follows;
mod friends;
mod health;
mod hostile_provider;
mod limits;
mod lobby;
mod metrics;
mod moderation;
mod oidc_support;
mod openapi;
mod openings;
mod pages;
mod push;
mod puzzles;
mod quick;
mod ranked;
mod records;
mod search;
mod session;
mod sign_in;
mod signed_out;
mod socket;
