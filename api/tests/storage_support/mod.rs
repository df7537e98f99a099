//! Runs one storage story on a fresh database: an SQLite file in a temporary directory, or a
//! PostgreSQL database created for the test (from `TEST_DATABASE_URL`) and dropped after it.
//!
//! Also the one rule, for every test binary of the server, about tests that need a service
//! `cargo test` does not start (PostgreSQL, Redis, the local OpenID provider): without it they
//! are skipped with a line saying what to start, and `OUTFLANK_REQUIRE_SERVICES=1` (set by
//! `tests/run.sh`) makes that a failure instead. `OUTFLANK_SKIP_POSTGRES=1`,
//! `OUTFLANK_SKIP_REDIS=1` and `OUTFLANK_SKIP_OIDC=1` skip a service's tests even then.

use std::future::Future;
use std::io::Write;

use outflank_api::storage::Store;
use rand::Rng;
use sqlx::{Connection, Executor, PgConnection};

/// Declares each story as a test on both backends: `sqlite::story` and `postgres::story`.
#[allow(unused_macros)]
macro_rules! on_both_backends {
    ($($story:ident),+ $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $story() {
                    crate::storage_support::run_sqlite(super::$story).await;
                }
            )+
        }

        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $story() {
                    crate::storage_support::run_postgres(super::$story).await;
                }
            )+
        }
    };
}

/// What a story gets: the store, and the URL to connect to the same database again.
#[allow(dead_code)] // Each test binary uses part of this.
#[derive(Clone, Debug)]
pub struct Db {
    pub store: Store,
    pub url: String,
}

/// Runs `story` on a new SQLite file, in a directory that does not exist yet.
#[allow(dead_code)]
pub async fn run_sqlite<F, Fut>(story: F)
where
    F: FnOnce(Db) -> Fut,
    Fut: Future<Output = ()>,
{
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("data").join("outflank.db").display());
    let store = Store::connect(&url).await.expect("connecting to a new SQLite file");
    story(Db { store: store.clone(), url }).await;
    store.close().await;
}

/// Runs `story` on a new PostgreSQL database, dropped afterwards even if the story panics.
#[allow(dead_code)]
pub async fn run_postgres<F, Fut>(story: F)
where
    F: FnOnce(Db) -> Fut,
    Fut: Future<Output = ()>,
{
    let Some(admin_url) = admin_url() else { return };
    let database = TempDatabase::create(&admin_url).await;
    let store = Store::connect(&database.url).await.expect("connecting to the test database");
    story(Db { store: store.clone(), url: database.url.clone() }).await;
    store.close().await;
}

/// A service some tests need that `cargo test` does not start.
#[allow(dead_code)] // The storage tests need only PostgreSQL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Service {
    Postgres,
    Redis,
    OpenIdProvider,
}

impl Service {
    /// What the test needs and how to start it, e.g. `needs PostgreSQL — run tests/run.sh, …`.
    pub fn needed(self) -> String {
        let (name, how) = match self {
            Service::Postgres => (
                "PostgreSQL",
                "run tests/run.sh, or start it and set \
                 TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres",
            ),
            Service::Redis => (
                "Redis",
                "run tests/run.sh, or start it and set TEST_REDIS_URL=redis://127.0.0.1:6379",
            ),
            Service::OpenIdProvider => (
                "the local OpenID provider",
                "run tests/oidc/start.sh (it installs tests/oidc/node_modules; tests/run.sh runs it)",
            ),
        };
        format!("needs {name} — {how}")
    }

    /// The variable that skips this service's tests even when services are required.
    pub fn skip_variable(self) -> &'static str {
        match self {
            Service::Postgres => "OUTFLANK_SKIP_POSTGRES",
            Service::Redis => "OUTFLANK_SKIP_REDIS",
            Service::OpenIdProvider => "OUTFLANK_SKIP_OIDC",
        }
    }
}

fn is_set(variable: &str) -> bool {
    std::env::var(variable).is_ok_and(|value| value == "1")
}

/// The one rule for a test whose `service` is not there: `None` after a line saying what to
/// start, or, with `OUTFLANK_REQUIRE_SERVICES=1`, a failure with that same message.
/// `OUTFLANK_SKIP_…=1` (e.g. `OUTFLANK_SKIP_POSTGRES=1`) skips it in either case.
pub fn unavailable<T>(service: Service) -> Option<T> {
    let variable = service.skip_variable();
    if is_set(variable) {
        say(&format!("skipped {}: {variable}=1 ({})", test_name(), service.needed()));
        return None;
    }
    if is_set("OUTFLANK_REQUIRE_SERVICES") {
        panic!(
            "{} (OUTFLANK_REQUIRE_SERVICES=1 makes this a failure, not a skip)",
            service.needed()
        );
    }
    say(&format!("skipped {}: {}", test_name(), service.needed()));
    None
}

/// `value` when the service is there (and not skipped on purpose), else [`unavailable`]'s
/// answer.
pub fn available<T>(service: Service, value: Option<T>) -> Option<T> {
    match value {
        Some(value) if !is_set(service.skip_variable()) => Some(value),
        _ => unavailable(service),
    }
}

/// The test running on this thread, as `cargo test` names it.
fn test_name() -> String {
    std::thread::current().name().unwrap_or("a test").to_owned()
}

/// Writes `line` to stderr past the test harness's capture, so a passing run shows it too.
fn say(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

fn variable(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|value| !value.is_empty())
}

/// `TEST_DATABASE_URL` (the server where each test creates its own database), or `None` after
/// the test is skipped: see [`unavailable`].
pub fn admin_url() -> Option<String> {
    available(Service::Postgres, variable("TEST_DATABASE_URL"))
}

/// `TEST_DATABASE_URL`, for a test that cannot run without it (asked for by name, e.g.
/// `OUTFLANK_TEST_BACKEND=postgres`): panics with what to start.
#[allow(dead_code)] // Each test binary uses part of this.
pub fn admin_url_required(why: &str) -> String {
    variable("TEST_DATABASE_URL").unwrap_or_else(|| panic!("{why} {}", Service::Postgres.needed()))
}

/// `TEST_REDIS_URL`, or `None` after the test is skipped: see [`unavailable`].
#[allow(dead_code)]
pub fn redis_url() -> Option<String> {
    available(Service::Redis, variable("TEST_REDIS_URL"))
}

/// `TEST_REDIS_URL` when set (and `OUTFLANK_SKIP_REDIS` is not), with no skip and no failure
/// when not: for tests that use Redis only if it is there.
#[allow(dead_code)]
pub fn redis_url_if_set() -> Option<String> {
    variable("TEST_REDIS_URL").filter(|_| !is_set(Service::Redis.skip_variable()))
}

/// A database with a random name; dropping the guard drops the database.
pub struct TempDatabase {
    admin_url: String,
    name: String,
    pub url: String,
}

impl TempDatabase {
    pub async fn create(admin_url: &str) -> TempDatabase {
        let suffix: String = rand::rng()
            .sample_iter(rand::distr::Alphanumeric)
            .take(16)
            .map(|c| char::from(c).to_ascii_lowercase())
            .collect();
        let name = format!("outflank_test_{suffix}");
        let mut admin = PgConnection::connect(admin_url)
            .await
            .unwrap_or_else(|error| panic!("cannot connect to TEST_DATABASE_URL: {error}"));
        admin
            .execute(format!("CREATE DATABASE {name}").as_str())
            .await
            .unwrap_or_else(|error| panic!("cannot create database {name}: {error}"));
        let _ = admin.close().await;
        let url = with_database(admin_url, &name);
        TempDatabase { admin_url: admin_url.to_owned(), name, url }
    }
}

impl Drop for TempDatabase {
    fn drop(&mut self) {
        let (admin_url, name) = (self.admin_url.clone(), self.name.clone());
        // Drop cannot await, and may run inside the test's runtime: use a runtime of its own.
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
            runtime.block_on(async {
                let mut admin = PgConnection::connect(&admin_url).await?;
                admin
                    .execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str())
                    .await?;
                admin.close().await?;
                Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
            })
        })
        .join();
        if !matches!(dropped, Ok(Ok(()))) {
            eprintln!("warning: test database {} was not dropped", self.name);
        }
    }
}

/// `url` with its database name replaced by `name`.
fn with_database(url: &str, name: &str) -> String {
    let (main, query) =
        url.split_once('?').map_or((url, None), |(main, query)| (main, Some(query)));
    let authority_start = main.find("://").map_or(0, |i| i + 3);
    let path_start = main[authority_start..].find('/').map_or(main.len(), |i| authority_start + i);
    let mut result = format!("{}/{name}", &main[..path_start]);
    if let Some(query) = query {
        result.push('?');
        result.push_str(query);
    }
    result
}
