//! Durable storage: games, moves, their analyses, friend rooms and server settings, in
//! PostgreSQL or SQLite.
//!
//! One implementation serves both backends through sqlx's `Any` driver: the SQL is portable
//! (`$1` placeholders, TEXT ids, BIGINT epoch-millisecond times, INTEGER counts and flags) and
//! the schema lives in one `migrations/` directory, applied by [`Store::connect`]. The backend is
//! picked by the URL scheme: `postgres://…` / `postgresql://…` or `sqlite://path` (the file and
//! its directory are created when missing; `sqlite::memory:` gives a private in-memory database).
//!
//! Writes that decide something (a ply, the end of a game, a room's guest) are conditional
//! statements, so racing writers get [`DbError::Conflict`] instead of overwriting each other.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use sqlx::any::AnyPoolOptions;
use sqlx::{AnyPool, Executor};

use columns::{convert, get, parse, parse_opt};
use postgres_writer::PostgresWriter;
use sqlite_writer::SqliteWriter;
use write_connection::WriteConnection;

mod accounts;
mod adoption;
mod analyses;
mod blocks;
mod challenges;
mod columns;
mod conduct;
mod error;
mod follows;
mod games;
mod in_progress;
mod lobby;
mod models;
mod moderation;
mod notifications;
mod players;
mod plies;
mod postgres_writer;
mod push;
mod puzzles;
mod ratings;
mod rooms;
mod sessions;
mod settings;
mod sqlite_writer;
mod write_connection;
mod write_latency;

pub use accounts::{AccountRow, DELETED_PLAYER, NameError};
pub use adoption::Adopted;
pub use blocks::{BlockRow, MAX_BLOCKS};
pub use challenges::ChallengeRow;
pub use conduct::{EARLY_PLIES, Endings, PairRecord, ReviewedGame};
pub use error::{DbError, DbResult};
pub use follows::{FollowRow, MAX_FOLLOWS};
pub use in_progress::InProgress;
pub use lobby::{LobbyGame, SeatStanding, ShownName};
pub use models::{
    AnalysisRequester, AnalysisRow, AnalysisStatus, FinishedGame, GameRecord, GameRow, GameSource,
    MoveRow, NewGame, NewRoom, OpenAnalyses, PuzzleRow, QueuedAnalysis, RoomGame, RoomMember,
    RoomRow, SeatRow,
};
pub use moderation::{
    CLOSED_ACCOUNT, LogRow, ModeratorRow, NameSpan, NewReport, REFUND_WINDOW_MS, RENAMED_PLAYER,
    REPORTS_PER_DAY, RefundRow, ReportError, ReportRow, SanctionError, SanctionRow,
};
pub use notifications::NOTIFICATIONS_LISTED;
pub use players::PlayerRow;
pub use push::{MAX_PUSH_SUBSCRIPTIONS, PushSubscriptionRow};
pub use puzzles::PuzzleCounts;
pub use ratings::{LeaderboardRow, PoolStanding, PooledChange};
pub use sessions::Revocation;
pub use write_latency::WriteLatency;

/// The migrations in `migrations/` at the workspace root, compiled into the binary.
static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations");

/// How long an SQLite connection waits for another connection's write lock before failing.
const SQLITE_BUSY_TIMEOUT_MS: u32 = 5_000;

/// The database engine behind a [`Store`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Postgres,
    Sqlite,
}

impl Backend {
    /// The backend a database URL names, by its scheme.
    pub fn from_url(url: &str) -> Option<Backend> {
        let scheme = url.split_once(':')?.0.to_ascii_lowercase();
        match scheme.as_str() {
            "postgres" | "postgresql" => Some(Backend::Postgres),
            "sqlite" => Some(Backend::Sqlite),
            _ => None,
        }
    }
}

/// A pool of connections to a migrated database. Cheap to clone; clones share the pool.
#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    /// The URL with any password masked, for logs and errors.
    url: Arc<str>,
    /// For SQLite: the queue its writes take turns in.
    sqlite_writer: Option<Arc<SqliteWriter>>,
    /// For PostgreSQL: the task that writes single moves in groups.
    postgres_writer: Option<Arc<PostgresWriter>>,
    /// How long moves take to become durable, lately.
    write_latency: Arc<WriteLatency>,
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Store").field("backend", &self.backend).field("url", &self.url).finish()
    }
}

impl Store {
    /// Connects to `url`, creating an SQLite file if needed, and applies pending migrations.
    /// Running it again on a migrated database changes nothing.
    ///
    /// # Errors
    /// [`DbError::Other`] when the scheme is unsupported, the database cannot be reached, or a
    /// migration fails. Messages show the URL with its password masked.
    pub async fn connect(url: &str) -> DbResult<Store> {
        sqlx::any::install_default_drivers();
        let redacted = redact_url(url);
        let backend = Backend::from_url(url).ok_or_else(|| {
            DbError::Other(format!(
                "unsupported database URL {redacted}: expected postgres://… or sqlite://…"
            ))
        })?;
        let in_memory = backend == Backend::Sqlite && sqlite_in_memory(url);
        let pool = match backend {
            Backend::Postgres => {
                AnyPoolOptions::new()
                    .max_connections(10)
                    // While the database is away, a player waits at most this long for the error.
                    .acquire_timeout(Duration::from_secs(5))
                    .connect(url)
                    .await
            }
            Backend::Sqlite => connect_sqlite(url, in_memory).await,
        }
        .map_err(|error| DbError::Other(format!("cannot connect to {redacted}: {error}")))?;
        MIGRATOR
            .run(&pool)
            .await
            .map_err(|error| DbError::Other(format!("cannot migrate {redacted}: {error}")))?;
        let sqlite_writer = match backend {
            Backend::Sqlite => Some(Arc::new(SqliteWriter::spawn(pool.clone(), in_memory).await?)),
            Backend::Postgres => None,
        };
        let postgres_writer =
            (backend == Backend::Postgres).then(|| Arc::new(PostgresWriter::spawn(pool.clone())));
        let write_latency = Arc::default();
        Ok(Store {
            pool,
            backend,
            url: redacted.into(),
            sqlite_writer,
            postgres_writer,
            write_latency,
        })
    }

    /// Which database engine this is.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Checks that the database answers, for `/readyz`.
    ///
    /// # Errors
    /// [`DbError::Other`] when it does not.
    pub async fn ping(&self) -> DbResult<()> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// The connection to write with: on SQLite, once it is this writer's turn, which lasts
    /// while the connection is held; PostgreSQL takes concurrent writers on any connection.
    ///
    /// # Errors
    /// [`DbError::Other`] when no connection can be had.
    async fn write_connection(&self) -> DbResult<WriteConnection<'_>> {
        match &self.sqlite_writer {
            Some(writer) => writer.turn().await,
            None => WriteConnection::pooled(&self.pool).await,
        }
    }

    /// Closes as [`Store::close_within`] does, waiting at most [`CLOSE_LIMIT`].
    pub async fn close(&self) -> Closed {
        self.close_within(CLOSE_LIMIT).await
    }

    /// Waits for the write in progress, then closes the writing connection and the pool's idle
    /// ones (a connection checked out closes when it is given back); later calls fail. Waits
    /// at most `limit`: a write turn never given back is left to the process's exit, with a
    /// log line saying what was held. That loses nothing acknowledged, since a move is
    /// confirmed only once committed.
    pub async fn close_within(&self, limit: Duration) -> Closed {
        let closing = async {
            if let Some(writer) = &self.sqlite_writer {
                writer.close().await;
            }
            self.pool.close().await;
        };
        if tokio::time::timeout(limit, closing).await.is_ok() {
            return Closed::Cleanly;
        }
        let idle = u32::try_from(self.pool.num_idle()).unwrap_or(u32::MAX);
        let writing_connection_open = self.sqlite_writer.as_ref().is_some_and(|w| w.is_open());
        tracing::warn!(
            backend = ?self.backend,
            connections_in_use = self.pool.size().saturating_sub(idle),
            writing_connection_open,
            "the store was still in use {} s after closing began; left to the exit",
            limit.as_secs_f32()
        );
        Closed::LeftInUse
    }
}

/// How long [`Store::close`] waits for the write in progress.
pub const CLOSE_LIMIT: Duration = Duration::from_secs(10);

/// How [`Store::close_within`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closed {
    /// Every connection was closed.
    Cleanly,
    /// Some connection was still in use when the time ran out.
    LeftInUse,
}

/// Makes sure the database file at `path` is readable by this user alone: its directory, when
/// created here, is `0700`, and the file `0600` (it holds the session key and every account).
/// SQLite gives its `-wal` and `-shm` files the database file's permissions.
fn private_file(path: &std::path::Path) -> std::io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
    if let Some(directory) = path.parent().filter(|dir| !dir.as_os_str().is_empty()) {
        std::fs::DirBuilder::new().recursive(true).mode(0o700).create(directory)?;
    }
    std::fs::OpenOptions::new().create(true).append(true).mode(0o600).open(path)?;
    if let Err(error) = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)) {
        tracing::warn!(path = %path.display(), %error, "cannot make the database file private");
    }
    Ok(())
}

/// An SQLite pool: file (and directory) created when missing, private to this user, WAL
/// journal, foreign keys enforced, and a busy timeout so concurrent writers wait rather than
/// fail; for an `in_memory` database, its one connection.
async fn connect_sqlite(url: &str, in_memory: bool) -> Result<AnyPool, sqlx::Error> {
    let (path, query) = sqlite_path(url);

    // A connection to a file in this process cannot drop as a network one can: no ping (a
    // round trip to the connection's thread) before each use.
    let options =
        AnyPoolOptions::new().test_before_acquire(false).after_connect(|connection, _| {
            Box::pin(async move {
                sqlx::query("PRAGMA foreign_keys = ON").execute(&mut *connection).await?;
                let busy_timeout = format!("PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}");
                sqlx::query(&busy_timeout).execute(&mut *connection).await?;
                Ok(())
            })
        });
    if in_memory {
        // Every connection to `:memory:` would be a new, empty database: keep exactly one.
        return options
            .max_connections(1)
            .min_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect(url)
            .await;
    }

    private_file(std::path::Path::new(&percent_decode(path)))?;
    let has_mode = query.split('&').any(|pair| pair.starts_with("mode="));
    let url = match (has_mode, query.is_empty()) {
        (true, _) => url.to_owned(),
        (false, true) => format!("{}?mode=rwc", url.trim_end_matches('?')),
        (false, false) => format!("{url}&mode=rwc"),
    };
    let pool = options.max_connections(8).connect(&url).await?;
    // The journal mode is stored in the file, so setting it once per start is enough.
    pool.execute("PRAGMA journal_mode = WAL").await?;
    Ok(pool)
}

/// The path and the query of an SQLite URL.
fn sqlite_path(url: &str) -> (&str, &str) {
    let rest = url.split_once(':').map_or("", |(_, rest)| rest);
    let rest = rest.strip_prefix("//").unwrap_or(rest);
    rest.split_once('?').unwrap_or((rest, ""))
}

/// Whether an SQLite URL names a private in-memory database rather than a file.
fn sqlite_in_memory(url: &str) -> bool {
    let (path, query) = sqlite_path(url);
    path.is_empty()
        || path == ":memory:"
        || query.split('&').any(|pair| pair.eq_ignore_ascii_case("mode=memory"))
}

/// Decodes `%XX` escapes in an SQLite path the way sqlx does before opening the file.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .filter(|pair| pair.iter().all(u8::is_ascii_hexdigit))
            .and_then(|pair| std::str::from_utf8(pair).ok());
        match (bytes[i], hex.and_then(|hex| u8::from_str_radix(hex, 16).ok())) {
            (b'%', Some(byte)) => {
                decoded.push(byte);
                i += 3;
            }
            (byte, _) => {
                decoded.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&decoded).into_owned()
}

/// `url` with the password of its user info and any `password=` query value replaced by `***`.
pub fn redact_url(url: &str) -> String {
    let (main, query) = match url.split_once('?') {
        Some((main, query)) => (main, Some(query)),
        None => (url, None),
    };
    let mut redacted = match main.split_once("://") {
        Some((scheme, rest)) => {
            let authority_end = rest.find('/').unwrap_or(rest.len());
            let (authority, path) = rest.split_at(authority_end);
            match authority.rsplit_once('@') {
                Some((user_info, host)) => {
                    let user = user_info.split_once(':').map_or(user_info, |(user, _)| user);
                    let masked = if user == user_info { "" } else { ":***" };
                    format!("{scheme}://{user}{masked}@{host}{path}")
                }
                None => main.to_owned(),
            }
        }
        None => main.to_owned(),
    };
    if let Some(query) = query {
        let pairs: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((key, _)) if key.eq_ignore_ascii_case("password") => format!("{key}=***"),
                _ => pair.to_owned(),
            })
            .collect();
        redacted.push('?');
        redacted.push_str(&pairs.join("&"));
    }
    redacted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_masked() {
        assert_eq!(
            redact_url("postgres://app:s3cr@t@db.example:5432/outflank?sslmode=disable"),
            "postgres://app:***@db.example:5432/outflank?sslmode=disable"
        );
        assert_eq!(
            redact_url("postgres://app@db/outflank?password=hunter2&x=1"),
            "postgres://app@db/outflank?password=***&x=1"
        );
        assert_eq!(redact_url("sqlite://data/outflank.db"), "sqlite://data/outflank.db");
    }

    #[test]
    fn the_scheme_picks_the_backend() {
        assert_eq!(Backend::from_url("postgresql://x/y"), Some(Backend::Postgres));
        assert_eq!(Backend::from_url("SQLITE:data.db"), Some(Backend::Sqlite));
        assert_eq!(Backend::from_url("mysql://x/y"), None);
        assert_eq!(Backend::from_url("no scheme"), None);
    }

    #[test]
    fn escapes_in_sqlite_paths_are_decoded() {
        assert_eq!(percent_decode("my%20data/a.db"), "my data/a.db");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz%4%+1"), "%zz%4%+1");
    }
}
