//! Runs one storage story on a fresh database: an SQLite file in a temporary directory, or a
//! PostgreSQL database created for the test (from `TEST_DATABASE_URL`) and dropped after it.

use std::future::Future;

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
#[derive(Clone, Debug)]
pub struct Db {
    pub store: Store,
    pub url: String,
}

/// Runs `story` on a new SQLite file, in a directory that does not exist yet.
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

/// `TEST_DATABASE_URL`, or `None` (after a note) when `OUTFLANK_SKIP_POSTGRES=1`.
pub fn admin_url() -> Option<String> {
    if let Ok(url) = std::env::var("TEST_DATABASE_URL") {
        if !url.is_empty() {
            return Some(url);
        }
    }
    if std::env::var("OUTFLANK_SKIP_POSTGRES").is_ok_and(|skip| skip == "1") {
        eprintln!("note: OUTFLANK_SKIP_POSTGRES=1, so this PostgreSQL test was skipped");
        return None;
    }
    panic!(
        "TEST_DATABASE_URL is not set. Run tests/run.sh (it starts PostgreSQL and sets it), or set \
         it yourself, e.g. TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres, or set \
         OUTFLANK_SKIP_POSTGRES=1 to skip the PostgreSQL variants of the storage tests"
    );
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
