//! How an SQLite store writes: one writer at a time, on one connection, and moves in groups.
//!
//! SQLite takes one write transaction at a time and ends each with an `fsync`. Left to
//! themselves, the pool's connections contend for its write lock by sleeping in its busy handler
//! (1 to 100 ms a try), and every move costs a commit of its own, which caps a server near one
//! move per `fsync`. Here writers instead queue in order on an async gate, and moves that arrive
//! while a commit is in progress are written together in the next transaction (group commit),
//! each stored only if its game is live and its first ply is the game's next, so that one
//! refused move fails alone. A move is still confirmed only after the commit that holds it.
//! Under sustained overload the writer waits a moment before each group, so that each commit
//! holds more moves ([`linger_after`]).
//!
//! Every write of a file database goes through one connection kept for writing
//! ([`WriteConnection`]). A connection's page cache lasts only while nobody else commits: SQLite
//! drops it whole when another connection has written since. With writes spread over the pool,
//! nearly every group began by reading its pages back from the file; with one writing
//! connection its cache stays warm, and only readers start cold.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use outflank_engine::Move;
use serde::Serialize;
use sqlx::{AnyConnection, AnyPool, Connection};
use tokio::sync::{Mutex, MutexGuard, mpsc, oneshot};

use super::plies::{PlyWrite, missing_or_over};
use super::write_connection::WriteConnection;
use super::{DbError, DbResult, convert};

/// The most moves one transaction holds; more wait for the next.
const MAX_GROUP: usize = 256;

/// How long a busy writer waits for more moves before it writes a group (see [`linger_after`]).
const LINGER: Duration = Duration::from_millis(2);

/// The size of a group after which the writer waits [`LINGER`] (see [`linger_after`]).
const CROWDED: usize = 8;

/// How many moves may wait for a commit before writers wait to hand theirs over.
const QUEUE: usize = 4_096;

/// The gate every SQLite write passes, and the task that writes moves in groups.
#[derive(Debug)]
pub(super) struct SqliteWriter {
    turns: Arc<Turns>,
    appends: mpsc::Sender<Append>,
}

/// Where writes take their turn, and the connection they write with.
enum Turns {
    /// A file database: the connection kept for writing (none once closed); holding it is the
    /// turn.
    Own(Mutex<Option<AnyConnection>>),
    /// An in-memory database, whose pool holds its only connection (a second would open another,
    /// empty, database): the turn, then that connection.
    Shared { gate: Mutex<()>, pool: AnyPool },
}

impl std::fmt::Debug for Turns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Turns::Own(_) => "Turns::Own",
            Turns::Shared { .. } => "Turns::Shared",
        })
    }
}

impl Turns {
    /// Waits for the next turn to write and the connection to write with.
    async fn take(&self) -> DbResult<WriteConnection<'_>> {
        match self {
            Turns::Own(connection) => MutexGuard::try_map(connection.lock().await, Option::as_mut)
                .map(WriteConnection::Own)
                .map_err(|_| DbError::Other("the store is closed".into())),
            Turns::Shared { gate, pool } => {
                let turn = gate.lock().await;
                let connection = pool.acquire().await?;
                Ok(WriteConnection::Pooled { connection, _turn: Some(turn) })
            }
        }
    }
}

/// One call of [`Store::append_plies`](super::Store::append_plies), waiting for its commit.
#[derive(Debug)]
struct Append {
    write: PlyWrite,
    reply: oneshot::Sender<DbResult<()>>,
}

impl SqliteWriter {
    /// Starts the move-writing task on the current runtime; it ends when the writer is dropped.
    /// A file database's writes keep one of `pool`'s connections for themselves.
    pub(super) async fn spawn(pool: AnyPool, in_memory: bool) -> DbResult<SqliteWriter> {
        let turns = if in_memory {
            Turns::Shared { gate: Mutex::new(()), pool }
        } else {
            Turns::Own(Mutex::new(Some(pool.acquire().await?.detach())))
        };
        let turns = Arc::new(turns);
        let (appends, receiver) = mpsc::channel(QUEUE);
        tokio::spawn(write_groups(Arc::clone(&turns), receiver));
        Ok(SqliteWriter { turns, appends })
    }

    /// Waits for this process's turn to write, and the connection to write with; the turn
    /// lasts while it lives.
    pub(super) async fn turn(&self) -> DbResult<WriteConnection<'_>> {
        self.turns.take().await
    }

    /// Closes the writing connection once the write in progress ends; later writes fail.
    pub(super) async fn close(&self) {
        if let Turns::Own(connection) = &*self.turns
            && let Some(connection) = connection.lock().await.take()
            && let Err(error) = connection.close().await
        {
            tracing::warn!(%error, "closing the writing connection failed");
        }
    }

    /// Whether the writing connection is still open: a write turn is held while closing waits.
    pub(super) fn is_open(&self) -> bool {
        match &*self.turns {
            Turns::Own(connection) => {
                connection.try_lock().map_or(true, |connection| connection.is_some())
            }
            Turns::Shared { .. } => false,
        }
    }

    /// Stores plies as [`Store::append_plies`](super::Store::append_plies) does, in the next
    /// group, and returns once that group is committed.
    pub(super) async fn append(&self, write: PlyWrite) -> DbResult<()> {
        let (reply, outcome) = oneshot::channel();
        self.appends.send(Append { write, reply }).await.map_err(|_| stopped())?;
        outcome.await.map_err(|_| stopped())?
    }
}

fn stopped() -> DbError {
    DbError::Other("the store's writer has stopped".into())
}

/// Takes whatever moves are waiting, up to [`MAX_GROUP`] (first waiting as long as
/// [`linger_after`] the last group says), writes them in one transaction and answers each;
/// again until every sender is gone.
async fn write_groups(turns: Arc<Turns>, mut receiver: mpsc::Receiver<Append>) {
    let mut group = Vec::with_capacity(MAX_GROUP);
    let mut last_group = 0;
    while receiver.recv_many(&mut group, MAX_GROUP).await > 0 {
        if let Some(linger) = linger_after(last_group) {
            tokio::time::sleep(linger).await;
            while group.len() < MAX_GROUP {
                let Ok(append) = receiver.try_recv() else { break };
                group.push(append);
            }
        }
        last_group = group.len();
        let outcomes = match turns.take().await {
            Ok(mut connection) => write_group(&mut connection, &group).await,
            Err(error) => Err(error),
        };
        match outcomes {
            Ok(outcomes) => {
                for (append, outcome) in group.drain(..).zip(outcomes) {
                    // A writer that stopped waiting has nobody to tell.
                    let _ = append.reply.send(outcome);
                }
            }
            Err(error) => {
                let message = error.to_string();
                for append in group.drain(..) {
                    let _ = append.reply.send(Err(DbError::Other(message.clone())));
                }
            }
        }
    }
}

/// How long the writer waits for more moves before it writes the next group, given how many the
/// last one held.
///
/// Each group costs SQLite a commit and its `fsync`, and each group's round trip wakes two
/// threads, whatever its size. A group of [`CROWDED`] or more means moves are arriving much
/// faster than commits end: waiting [`LINGER`] gathers more of them into the next commit, which
/// at saturation took the server's CPU per move from about 150 to about 120 µs
/// (docs/performance-history.md, "A crowded writer gathers moves for 2 ms"); the groups that
/// follow stay crowded while the overload lasts. Smaller groups mean a server with time to
/// spare, at a human pace or at a few hundred games at play speed: the next group is written at
/// once, so a move there is not kept waiting.
fn linger_after(last_group: usize) -> Option<Duration> {
    (last_group >= CROWDED).then_some(LINGER)
}

/// Writes the appends: the outcome of each (a refused one fails alone), or the error that lost
/// them all.
///
/// A group goes to SQLite's thread as one statement that reads every append from one JSON
/// parameter ([`INSERT_GROUP`]), and, being one statement, is its own transaction: a group
/// costs one round trip between this task and that thread, and, since its text never changes,
/// no statement to compile. A group that names a game twice, which the game tasks never send,
/// is written append by append in one transaction instead.
async fn write_group(
    connection: &mut AnyConnection,
    group: &[Append],
) -> DbResult<Vec<DbResult<()>>> {
    if let Ok(rows) = group_rows(group) {
        return write_rows(connection, group, &rows).await;
    }
    let mut tx = connection.begin().await?;
    let mut outcomes = Vec::with_capacity(group.len());
    for append in group {
        let one = std::slice::from_ref(append);
        outcomes.push(match group_rows(one) {
            Ok(rows) => write_rows(&mut tx, one, &rows).await?.remove(0),
            Err(error) => Err(error),
        });
    }
    tx.commit().await?;
    Ok(outcomes)
}

/// [`INSERT_GROUP`] for `rows` (the appends of `group`, in order) on `connection`: the
/// outcome of each append.
///
/// The statement returns no rows: each would cross from SQLite's thread to this task on its
/// own, waking it, which at saturation cost more than the rest of the write. When it stored as
/// many plies as the group holds, every append landed; otherwise the games of the rows it
/// inserted tell which did ([`LANDED`]), and the refused appends are told why.
async fn write_rows(
    connection: &mut AnyConnection,
    group: &[Append],
    rows: &[GroupRow<'_>],
) -> DbResult<Vec<DbResult<()>>> {
    let stored = sqlx::query(INSERT_GROUP)
        .bind(json(&rows)?)
        .execute(&mut *connection)
        .await?
        .rows_affected();
    let plies: usize = rows.iter().map(|row| row.plies.len()).sum();
    if u64::try_from(plies).is_ok_and(|plies| plies == stored) {
        return Ok(group.iter().map(|_| Ok(())).collect());
    }
    let landed: Vec<String> = match i64::try_from(stored) {
        Ok(0) => Vec::new(),
        Ok(stored) => sqlx::query_scalar(LANDED).bind(stored).fetch_all(&mut *connection).await?,
        Err(_) => return Err(DbError::Other("a group stored more rows than it held".into())),
    };
    let landed: HashSet<&str> = landed.iter().map(String::as_str).collect();
    let mut outcomes = Vec::with_capacity(group.len());
    for Append { write, .. } in group {
        outcomes.push(if landed.contains(write.game_id.as_str()) {
            Ok(())
        } else {
            // Refused: say why, as a single append would.
            Err(missing_or_over(&mut *connection, &write.game_id).await)
        });
    }
    Ok(outcomes)
}

/// The games of the last `$1` rows this connection inserted into `moves`: SQLite gives each
/// new row of a table the next rowid after the largest, so one statement's rows are the
/// newest, and the last one's rowid is the connection's `last_insert_rowid()`.
const LANDED: &str = "SELECT DISTINCT game_id FROM moves WHERE rowid > last_insert_rowid() - $1";

/// `value` as the text of a JSON parameter.
fn json(value: &impl Serialize) -> DbResult<String> {
    serde_json::to_string(value).map_err(|error| DbError::Other(error.to_string()))
}

/// Stores the plies of every append whose game is live and whose first ply is the game's next
/// one, numbered from that first. SQLite computes
/// the whole selection before it inserts (it reads the table it writes), so an append's later
/// plies are not refused by its earlier ones; and since an `INSERT` takes the write lock before
/// it reads, the check and the write see the same moves.
const INSERT_GROUP: &str = "INSERT INTO moves (game_id, ply, mv, played_at) \
     SELECT games.id, (input.value ->> 'first') + plies.key, plies.value, input.value ->> 'at' \
     FROM json_each($1) AS input \
     JOIN games ON games.id = input.value ->> 'id' \
     JOIN json_each(input.value -> 'plies') AS plies \
     WHERE games.status = 'live' \
        AND COALESCE((SELECT MAX(moves.ply) FROM moves WHERE moves.game_id = games.id), -1) + 1 \
            = input.value ->> 'first'";

/// One append as [`INSERT_GROUP`] reads it.
#[derive(Debug, Serialize)]
struct GroupRow<'a> {
    id: &'a str,
    first: u32,
    at: i64,
    plies: Vec<String>,
}

/// The appends of `group` as rows for [`INSERT_GROUP`]; an error when a game appears twice
/// (one check could not tell its appends apart) or when a ply number would not fit the
/// column (an error of that append alone).
fn group_rows(group: &[Append]) -> DbResult<Vec<GroupRow<'_>>> {
    let mut games = HashSet::with_capacity(group.len());
    let mut rows = Vec::with_capacity(group.len());
    for Append { write, .. } in group {
        if !games.insert(write.game_id.as_str()) {
            return Err(DbError::Other("a group names a game twice".into()));
        }
        let last = u64::from(write.first) + write.plies.len() as u64;
        convert::<u64, i32>("moves.ply", last)?;
        rows.push(GroupRow {
            id: write.game_id.as_str(),
            first: write.first,
            at: write.at.0,
            plies: write.plies.iter().map(Move::to_string).collect(),
        });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{GameId, Timestamp};
    use crate::storage::{Closed, NewGame, Store};
    use outflank_engine::{Move, Square};

    async fn live_game(store: &Store) -> GameId {
        let game = NewGame::on_one_device(GameId::generate(), Timestamp(1));
        store.create_game(&game).await.unwrap();
        game.id
    }

    fn append(game_id: &GameId, first: u32, plies: &[Square]) -> Append {
        let write = PlyWrite {
            game_id: game_id.clone(),
            first,
            plies: plies.iter().copied().map(Move::Place).collect(),
            at: Timestamp(2),
        };
        Append { write, reply: oneshot::channel().0 }
    }

    #[test]
    fn a_writer_writes_at_once_after_a_small_group() {
        assert_eq!(linger_after(0), None);
        assert_eq!(linger_after(1), None);
        assert_eq!(linger_after(7), None);
    }

    #[test]
    fn a_writer_gathers_moves_after_a_crowded_group() {
        assert_eq!(linger_after(8), Some(LINGER));
        assert_eq!(linger_after(MAX_GROUP), Some(LINGER));
    }

    #[tokio::test]
    async fn a_group_lands_every_move_of_every_game() {
        let store = Store::connect("sqlite::memory:").await.unwrap();
        let (first, second) = (live_game(&store).await, live_game(&store).await);
        let group =
            [append(&first, 0, &[Square::D3]), append(&second, 0, &[Square::F5, Square::D6])];
        let outcomes =
            write_group(&mut store.write_connection().await.unwrap(), &group).await.unwrap();
        assert!(matches!(outcomes[..], [Ok(()), Ok(())]), "{outcomes:?}");
        let moves = store.load_game(&second).await.unwrap().moves;
        let plies: Vec<_> = moves.iter().map(|row| (row.ply, row.mv, row.played_at)).collect();
        let (f5, d6) = (Move::Place(Square::F5), Move::Place(Square::D6));
        assert_eq!(plies, [(0, f5, Timestamp(2)), (1, d6, Timestamp(2))]);
        assert_eq!(store.load_game(&first).await.unwrap().moves.len(), 1);
    }

    #[tokio::test]
    async fn an_append_to_an_unknown_game_is_not_found_and_the_others_land() {
        let store = Store::connect("sqlite::memory:").await.unwrap();
        let known = live_game(&store).await;
        let unknown = GameId::generate();
        let group = [append(&unknown, 0, &[Square::D3]), append(&known, 0, &[Square::F5])];
        let outcomes =
            write_group(&mut store.write_connection().await.unwrap(), &group).await.unwrap();
        assert!(matches!(outcomes[..], [Err(DbError::NotFound), Ok(())]), "{outcomes:?}");
        assert_eq!(store.load_game(&known).await.unwrap().moves.len(), 1);
    }

    #[tokio::test]
    async fn a_group_naming_one_game_twice_lands_both_appends_in_order() {
        let store = Store::connect("sqlite::memory:").await.unwrap();
        let game = live_game(&store).await;
        let group = [append(&game, 0, &[Square::F5]), append(&game, 1, &[Square::D6])];
        let outcomes =
            write_group(&mut store.write_connection().await.unwrap(), &group).await.unwrap();
        assert!(matches!(outcomes[..], [Ok(()), Ok(())]), "{outcomes:?}");
        assert_eq!(store.load_game(&game).await.unwrap().moves.len(), 2);
    }

    async fn file_store(directory: &tempfile::TempDir) -> Store {
        let path = directory.path().join("outflank.sqlite");
        Store::connect(&format!("sqlite://{}", path.display())).await.unwrap()
    }

    #[tokio::test]
    async fn every_write_to_a_file_database_uses_the_same_connection() {
        let directory = tempfile::tempdir().unwrap();
        let store = file_store(&directory).await;
        // A temporary table lives in the connection that created it, and nowhere else.
        let mut first = store.write_connection().await.unwrap();
        sqlx::query("CREATE TEMP TABLE mine (x INTEGER)").execute(&mut *first).await.unwrap();
        drop(first);
        let mut second = store.write_connection().await.unwrap();
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM temp.mine")
            .fetch_one(&mut *second)
            .await
            .unwrap();
        assert_eq!(count, 0);
    }

    #[tokio::test]
    async fn moves_written_by_the_writing_connection_are_read_by_the_others() {
        let directory = tempfile::tempdir().unwrap();
        let store = file_store(&directory).await;
        let game = live_game(&store).await;
        store.append_plies(&game, 0, &[Move::Place(Square::F5)], Timestamp(3)).await.unwrap();
        let moves = store.load_game(&game).await.unwrap().moves;
        assert_eq!(moves.len(), 1);
    }

    #[tokio::test]
    async fn a_closed_file_store_refuses_writes() {
        let directory = tempfile::tempdir().unwrap();
        let store = file_store(&directory).await;
        store.close().await;
        assert!(matches!(store.write_connection().await, Err(DbError::Other(_))));
    }

    #[tokio::test]
    async fn closing_gives_up_on_a_write_turn_never_given_back() {
        let directory = tempfile::tempdir().unwrap();
        let store = file_store(&directory).await;
        let _held = store.write_connection().await.unwrap();
        let closed = store.close_within(Duration::from_millis(50)).await;
        assert_eq!(closed, Closed::LeftInUse);
    }

    #[tokio::test]
    async fn a_store_nobody_uses_closes_cleanly() {
        let directory = tempfile::tempdir().unwrap();
        let store = file_store(&directory).await;
        let game = live_game(&store).await;
        store.append_plies(&game, 0, &[Move::Place(Square::F5)], Timestamp(3)).await.unwrap();
        assert_eq!(store.close_within(Duration::from_secs(5)).await, Closed::Cleanly);
    }

    #[tokio::test]
    async fn beside_a_refused_append_one_of_several_plies_is_told_it_landed() {
        let store = Store::connect("sqlite::memory:").await.unwrap();
        let (first, second) = (live_game(&store).await, live_game(&store).await);
        let group =
            [append(&first, 0, &[Square::F5, Square::D6]), append(&second, 2, &[Square::C3])];
        let outcomes = write_group(&mut store.write_connection().await.unwrap(), &group).await;
        let outcomes = outcomes.unwrap();
        assert!(matches!(outcomes[..], [Ok(()), Err(DbError::Conflict)]), "{outcomes:?}");
        assert_eq!(store.load_game(&first).await.unwrap().moves.len(), 2);
        assert!(store.load_game(&second).await.unwrap().moves.is_empty());
    }

    #[tokio::test]
    async fn the_writer_tells_each_append_its_own_outcome() {
        let store = Store::connect("sqlite::memory:").await.unwrap();
        let (first, second) = (live_game(&store).await, live_game(&store).await);
        let group = [append(&first, 1, &[Square::D3]), append(&second, 0, &[Square::F5])];
        let outcomes =
            write_group(&mut store.write_connection().await.unwrap(), &group).await.unwrap();
        assert!(matches!(outcomes[..], [Err(DbError::Conflict), Ok(())]), "{outcomes:?}");
        assert_eq!(store.load_game(&second).await.unwrap().moves.len(), 1);
        assert!(store.load_game(&first).await.unwrap().moves.is_empty());
    }
}
