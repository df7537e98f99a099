//! Migrations keep what a database already holds: a database filled under an earlier schema is
//! migrated by `Store::connect` and reads back the same, on SQLite and on PostgreSQL.

#[macro_use]
mod storage_support;

use std::path::{Path, PathBuf};

use outflank_api::accounts::PublicName;
use outflank_api::domain::{PlayerId, Timestamp};
use outflank_api::live::Pool;
use outflank_api::storage::{NameError, PoolStanding, Store};
use sqlx::AnyPool;
use sqlx::migrate::Migrator;
use storage_support::TempDatabase;

const T0: Timestamp = Timestamp(1_764_000_000_000);
const ISSUER: &str = "https://issuer.example";

/// The schema version before rating pools.
const BEFORE_POOLS: i64 = 20_261_207_000_013;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ratings_from_before_pools_move_into_the_thirty_second_pool_unchanged_on_sqlite() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("outflank.db").display());
    ratings_from_before_pools_move_into_the_thirty_second_pool_unchanged(&url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ratings_from_before_pools_move_into_the_thirty_second_pool_unchanged_on_postgres() {
    let Some(admin_url) = storage_support::admin_url() else { return };
    let database = TempDatabase::create(&admin_url).await;
    ratings_from_before_pools_move_into_the_thirty_second_pool_unchanged(&database.url).await;
}

/// Fills a database migrated to [`BEFORE_POOLS`] as the server of then did, migrates it to
/// today's schema, and reads the ratings back through the store.
async fn ratings_from_before_pools_move_into_the_thirty_second_pool_unchanged(url: &str) {
    let scratch = tempfile::tempdir().expect("a temporary directory");
    migrate_up_to(url, BEFORE_POOLS, scratch.path()).await;
    let (ann, bob) = (PlayerId::generate(), PlayerId::generate());
    let old = AnyPool::connect(url).await.expect("the old database");
    for (id, name, subject) in [(&ann, "Ann", "sub-ann"), (&bob, "Bob", "sub-bob")] {
        sqlx::query(
            "INSERT INTO players (id, nickname, kind, created_at, last_seen_at) \
             VALUES ($1, $2, 'account', $3, $3)",
        )
        .bind(id.as_str())
        .bind(name)
        .bind(T0.0)
        .execute(&old)
        .await
        .expect("a player");
        sqlx::query(
            "INSERT INTO accounts (player_id, issuer, subject, name, name_key, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(id.as_str())
        .bind(ISSUER)
        .bind(subject)
        .bind(name)
        .bind(name.to_lowercase())
        .bind(T0.0)
        .execute(&old)
        .await
        .expect("an account");
    }
    sqlx::query(
        "UPDATE accounts SET rating = 1312.5, rated_games = 14, wins = 8, draws = 1, losses = 5 \
         WHERE player_id = $1",
    )
    .bind(ann.as_str())
    .execute(&old)
    .await
    .expect("Ann's old rating");
    sqlx::query(
        "INSERT INTO games (id, mode, black_id, black_name, white_id, white_name, status, \
            winner, start_position, rated, created_at, updated_at, finished_at) \
         VALUES ('gameaaaaaa', 'ranked', $1, 'Ann', $2, 'Bob', 'finished', 'black', $3, 1, $4, $4, $4)",
    )
    .bind(ann.as_str())
    .bind(bob.as_str())
    .bind("-".repeat(64))
    .bind(T0.0)
    .execute(&old)
    .await
    .expect("a rated game");
    sqlx::query(
        "INSERT INTO rating_changes \
            (game_id, player_id, color, game_number, rating_before, rating_after, at, person) \
         VALUES ('gameaaaaaa', $1, 'black', 14, 1292.5, 1312.5, $2, 'someone')",
    )
    .bind(ann.as_str())
    .bind(T0.0)
    .execute(&old)
    .await
    .expect("Ann's rating change");
    // A deleted account whose standing is kept for the cool-down.
    sqlx::query(
        "INSERT INTO deleted_identities \
            (identity_hash, rating, rated_games, wins, draws, losses, deleted_at) \
         VALUES ($1, 1250.0, 11, 6, 0, 5, $2)",
    )
    .bind(identity_hash(ISSUER, "sub-gone"))
    .bind(T0.0)
    .execute(&old)
    .await
    .expect("a kept standing");
    old.close().await;

    let store = Store::connect(url).await.expect("migrating to today's schema");
    let ann_30s = store.standing_in(&ann, Pool::Move30).await.unwrap();
    assert_eq!(
        ann_30s,
        PoolStanding {
            pool: Pool::Move30,
            rating: 1312.5,
            rated_games: 14,
            wins: 8,
            draws: 1,
            losses: 5
        }
    );
    assert_eq!(store.standing_in(&ann, Pool::Blitz).await.unwrap(), PoolStanding::new(Pool::Blitz));
    assert_eq!(store.standings(&bob).await.unwrap(), Pool::ALL.map(PoolStanding::new));
    let board = store.leaderboard(Pool::Move30, 0, 10).await.unwrap();
    assert_eq!(board.iter().map(|row| row.name.as_str()).collect::<Vec<_>>(), ["Ann"]);
    assert_eq!(store.rank(Some("Ann"), &ann_30s).await.unwrap(), Some(1));
    let history = store.rating_history(&ann).await.unwrap();
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].pool, Pool::Move30);
    assert_eq!((history[0].change.game_number, history[0].change.after), (14, 1312.5));
    // The kept standing comes back in the 30-s pool on signing in again.
    let again = store.sign_in(ISSUER, "sub-gone", "Guest", T0.plus(1_000)).await.unwrap();
    let kept = store.standing_in(&again.player_id, Pool::Move30).await.unwrap();
    assert_eq!((kept.rating, kept.rated_games, kept.wins, kept.losses), (1250.0, 11, 6, 5));
    store.close().await;
}

/// The schema version before public names' keys were folded.
const BEFORE_FOLDED_KEYS: i64 = 20_261_207_000_017;

/// Accounts from before keys were folded, as `(id letter, name, milliseconds after T0)`: some
/// names look alike once folded; the last account is deleted, so it has no name.
const NAMED_BEFORE_FOLDING: [(char, Option<&str>, i64); 10] = [
    ('a', Some("Anno"), 0),
    ('b', Some("Ann0"), 1),
    ('c', Some("Bi1l"), 0),
    ('d', Some("BILL"), 1),
    ('e', Some("K1m"), 0),
    ('f', Some("Klm"), 1),
    ('g', Some("Tim0"), 0),
    ('h', Some("T1mo"), 0),
    ('j', Some("Zoi"), 0),
    ('k', None, 0),
];

/// The player whose id is `letter` sixteen times.
fn lettered(letter: char) -> PlayerId {
    letter.to_string().repeat(PlayerId::LEN).parse().expect("a valid player id")
}

/// A database at [`BEFORE_FOLDED_KEYS`] holding [`NAMED_BEFORE_FOLDING`] (keys lower case, as
/// then), migrated to today's schema by `Store::connect`.
async fn named_before_folding_then_migrated(url: &str) -> Store {
    let scratch = tempfile::tempdir().expect("a temporary directory");
    migrate_up_to(url, BEFORE_FOLDED_KEYS, scratch.path()).await;
    let old = AnyPool::connect(url).await.expect("the old database");
    for (letter, name, after) in NAMED_BEFORE_FOLDING {
        let id = lettered(letter);
        sqlx::query(
            "INSERT INTO players (id, nickname, kind, created_at, last_seen_at) \
             VALUES ($1, $2, 'account', $3, $3)",
        )
        .bind(id.as_str())
        .bind(name.unwrap_or("Deleted player"))
        .bind(T0.plus(after).0)
        .execute(&old)
        .await
        .expect("a player");
        sqlx::query(
            "INSERT INTO accounts (player_id, issuer, subject, name, name_key, created_at, \
                deleted_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(id.as_str())
        .bind(name.map(|_| ISSUER))
        .bind(name.map(|_| format!("sub-{letter}")))
        .bind(name)
        .bind(name.map(str::to_lowercase))
        .bind(T0.plus(after).0)
        .bind(name.is_none().then_some(T0.plus(after).0))
        .execute(&old)
        .await
        .expect("an account");
    }
    old.close().await;
    Store::connect(url).await.expect("migrating to today's schema")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn name_keys_are_folded_and_look_alikes_named_before_keep_theirs_on_sqlite() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("outflank.db").display());
    name_keys_are_folded_and_look_alikes_named_before_keep_theirs(&url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn name_keys_are_folded_and_look_alikes_named_before_keep_theirs_on_postgres() {
    let Some(admin_url) = storage_support::admin_url() else { return };
    let database = TempDatabase::create(&admin_url).await;
    name_keys_are_folded_and_look_alikes_named_before_keep_theirs(&database.url).await;
}

/// In each group of names that fold alike, the account that already has the folded key keeps
/// it, or else the oldest (by creation, then id) takes it; the others keep their lower-case key.
async fn name_keys_are_folded_and_look_alikes_named_before_keep_theirs(url: &str) {
    let store = named_before_folding_then_migrated(url).await;
    let pool = AnyPool::connect(url).await.expect("the migrated database");
    let keys: Vec<(String, Option<String>)> =
        sqlx::query_as("SELECT player_id, name_key FROM accounts ORDER BY player_id")
            .fetch_all(&pool)
            .await
            .expect("the keys");
    let keys: Vec<(char, Option<&str>)> =
        keys.iter().map(|(id, key)| (id.chars().next().unwrap(), key.as_deref())).collect();
    assert_eq!(
        keys,
        [
            ('a', Some("anno")),
            ('b', Some("ann0")),
            ('c', Some("blll")),
            ('d', Some("bill")),
            ('e', Some("k1m")),
            ('f', Some("klm")),
            ('g', Some("tlmo")),
            ('h', Some("t1mo")),
            ('j', Some("zol")),
            ('k', None),
        ]
    );
    pool.close().await;
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_left_with_its_old_key_is_found_by_its_name_on_sqlite() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("outflank.db").display());
    an_account_left_with_its_old_key_is_found_by_its_name(&url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_left_with_its_old_key_is_found_by_its_name_on_postgres() {
    let Some(admin_url) = storage_support::admin_url() else { return };
    let database = TempDatabase::create(&admin_url).await;
    an_account_left_with_its_old_key_is_found_by_its_name(&database.url).await;
}

/// `Ann0`, named after `Anno`, keeps its profile; a look-alike finds the account with the
/// folded key.
async fn an_account_left_with_its_old_key_is_found_by_its_name(url: &str) {
    let store = named_before_folding_then_migrated(url).await;
    let found = |name: &'static str| {
        let store = store.clone();
        async move {
            let name = PublicName::parse(name).unwrap();
            store.account_by_name(&name).await.expect("an account").player_id
        }
    };
    assert_eq!(found("Ann0").await, lettered('b'));
    assert_eq!(found("ANN0").await, lettered('b'));
    assert_eq!(found("Anno").await, lettered('a'));
    assert_eq!(found("AnnO").await, lettered('a'));
    assert_eq!(found("B1ll").await, lettered('c'));
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_newly_chosen_like_one_named_before_folding_is_taken_on_sqlite() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("outflank.db").display());
    a_name_newly_chosen_like_one_named_before_folding_is_taken(&url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_newly_chosen_like_one_named_before_folding_is_taken_on_postgres() {
    let Some(admin_url) = storage_support::admin_url() else { return };
    let database = TempDatabase::create(&admin_url).await;
    a_name_newly_chosen_like_one_named_before_folding_is_taken(&database.url).await;
}

/// After the migration, a new account cannot take a look-alike of any name chosen before.
async fn a_name_newly_chosen_like_one_named_before_folding_is_taken(url: &str) {
    let store = named_before_folding_then_migrated(url).await;
    let new = store.sign_in(ISSUER, "sub-new", "Guest", T0.plus(10)).await.unwrap();
    for name in ["ANNO", "bi1l", "KLM", "TIMO", "Z01"] {
        let taken = store.set_account_name(&new.player_id, &PublicName::parse(name).unwrap()).await;
        assert!(matches!(taken, Err(NameError::Taken)), "{name}: {taken:?}");
    }
    store.close().await;
}

/// Applies the migrations of the workspace up to `version`, from a copy in `scratch`.
async fn migrate_up_to(url: &str, version: i64, scratch: &Path) {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations");
    let mut copied = 0;
    for entry in std::fs::read_dir(&source).expect("the migrations directory") {
        let path: PathBuf = entry.expect("a migration").path();
        let name = path.file_name().and_then(|name| name.to_str()).unwrap_or_default().to_owned();
        let number: i64 = name.split('_').next().and_then(|n| n.parse().ok()).unwrap_or(i64::MAX);
        if number <= version {
            std::fs::copy(&path, scratch.join(&name)).expect("a copied migration");
            copied += 1;
        }
    }
    assert!(copied > 0, "no migration up to {version}");
    sqlx::any::install_default_drivers();
    let pool = AnyPool::connect(url).await.expect("a new database");
    let migrator = Migrator::new(scratch).await.expect("the earlier migrations");
    migrator.run(&pool).await.expect("the earlier schema");
    pool.close().await;
}

/// How the store names a person by their identity: SHA-256 of issuer and subject, in hex.
fn identity_hash(issuer: &str, subject: &str) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(format!("{issuer}\n{subject}").as_bytes());
    digest.iter().map(|byte| format!("{byte:02x}")).collect()
}
