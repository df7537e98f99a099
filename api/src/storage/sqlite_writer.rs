//! How an SQLite store writes: one writer at a time, and moves in groups.
//!
//! SQLite takes one write transaction at a time and ends each with an `fsync`. Left to
//! themselves, the pool's connections contend for its write lock by sleeping in its busy handler
//! (1 to 100 ms a try), and every move costs a commit of its own, which caps a server near one
//! move per `fsync`. Here writers instead queue in order on an async gate, and moves that arrive
//! while a commit is in progress are written together in the next transaction (group commit),
//! each behind a guard that writes nothing when the move is refused, so that one refused move
//! fails alone. A move is still confirmed only after the commit that holds it.

use std::sync::Arc;

use sqlx::AnyPool;
use tokio::sync::{Mutex, MutexGuard, mpsc, oneshot};

use super::games::{PlyWrite, append_guarded_in};
use super::{DbError, DbResult};

/// The most moves one transaction holds; more wait for the next.
const MAX_GROUP: usize = 256;

/// How many moves may wait for a commit before writers wait to hand theirs over.
const QUEUE: usize = 4_096;

/// The gate every SQLite write passes, and the task that writes moves in groups.
#[derive(Debug)]
pub(super) struct SqliteWriter {
    gate: Arc<Mutex<()>>,
    appends: mpsc::Sender<Append>,
}

/// One call of [`Store::append_plies`](super::Store::append_plies), waiting for its commit.
#[derive(Debug)]
struct Append {
    write: PlyWrite,
    reply: oneshot::Sender<DbResult<()>>,
}

impl SqliteWriter {
    /// Starts the move-writing task on the current runtime; it ends when the writer is dropped.
    pub(super) fn spawn(pool: AnyPool) -> SqliteWriter {
        let gate = Arc::new(Mutex::new(()));
        let (appends, receiver) = mpsc::channel(QUEUE);
        tokio::spawn(write_groups(pool, Arc::clone(&gate), receiver));
        SqliteWriter { gate, appends }
    }

    /// Waits for this process's turn to write; held until the write's transaction ends.
    pub(super) async fn permit(&self) -> MutexGuard<'_, ()> {
        self.gate.lock().await
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

/// Takes whatever moves are waiting, up to [`MAX_GROUP`], writes them in one transaction and
/// answers each; again until every sender is gone.
async fn write_groups(pool: AnyPool, gate: Arc<Mutex<()>>, mut receiver: mpsc::Receiver<Append>) {
    let mut group = Vec::with_capacity(MAX_GROUP);
    while receiver.recv_many(&mut group, MAX_GROUP).await > 0 {
        let outcomes = {
            let _permit = gate.lock().await;
            write_group(&pool, &group).await
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

/// Writes the appends in one transaction: the outcome of each, or the error that lost them all.
///
/// The group goes to SQLite's thread as one script ([`group_script`]), so a move costs no round
/// trip of its own between this task and that thread. When the script changed fewer rows than
/// it would with every append landing, some append was refused: the script is undone and the
/// group written again append by append, to find out which.
async fn write_group(pool: &AnyPool, group: &[Append]) -> DbResult<Vec<DbResult<()>>> {
    let mut tx = pool.begin().await?;
    if let Some((script, expected)) = group_script(group) {
        // Not kept as a prepared statement: no two scripts are the same.
        let changed =
            sqlx::query(&script).persistent(false).execute(&mut *tx).await?.rows_affected();
        if changed == expected {
            tx.commit().await?;
            return Ok(group.iter().map(|_| Ok(())).collect());
        }
        tx.rollback().await?;
        tx = pool.begin().await?;
    }
    let mut outcomes = Vec::with_capacity(group.len());
    for append in group {
        outcomes.push(append_guarded_in(&mut tx, &append.write).await?);
    }
    tx.commit().await?;
    Ok(outcomes)
}

/// The appends of `group` as one SQL script, and the rows it changes when every one lands: for
/// each, the guarded `UPDATE` of [`append_guarded_in`], then its inserts, each made only if the
/// statement before it changed a row (`changes()`), so a refused append inserts nothing.
/// Values are written into the text, which is safe only because each is an integer, a move
/// (`d3`, `pass`) or a game id of letters and digits; `None` if an id were anything else.
fn group_script(group: &[Append]) -> Option<(String, u64)> {
    use std::fmt::Write as _;
    let mut script = String::with_capacity(group.len() * 400);
    let mut expected = 0;
    for Append { write, .. } in group {
        let id = write.game_id.as_str();
        if !id.bytes().all(|byte| byte.is_ascii_alphanumeric()) {
            return None;
        }
        let turn = write.turn_started_at.map_or_else(|| "NULL".to_owned(), |at| at.0.to_string());
        let _ = write!(
            script,
            "UPDATE games SET updated_at = {at}, turn_started_at = COALESCE({turn}, turn_started_at) \
             WHERE id = '{id}' AND status = 'live' \
                AND COALESCE((SELECT MAX(ply) FROM moves WHERE game_id = '{id}'), -1) + 1 = {first};",
            at = write.at.0,
            first = write.first,
        );
        for (offset, mv) in write.plies.iter().enumerate() {
            let ply = u64::from(write.first) + offset as u64;
            let _ = write!(
                script,
                "INSERT INTO moves (game_id, ply, mv, played_at) \
                 SELECT '{id}', {ply}, '{mv}', {at} WHERE changes() = 1;",
                at = write.at.0,
            );
        }
        expected += 1 + write.plies.len() as u64;
    }
    Some((script, expected))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{GameId, Mode, Timestamp};
    use crate::storage::{NewGame, SeatRow, Store};
    use outflank_engine::{Board, Move, Square};

    async fn live_game(store: &Store) -> GameId {
        let game = NewGame {
            id: GameId::generate(),
            mode: Mode::SameDevice,
            level: None,
            black: SeatRow { id: None, name: "Black".into() },
            white: SeatRow { id: None, name: "White".into() },
            start_position: Board::start(),
            move_time_ms: None,
            room_code: None,
            rated: false,
            created_at: Timestamp(1),
            turn_started_at: None,
        };
        store.create_game(&game).await.unwrap();
        game.id
    }

    fn append(game_id: &GameId, first: u32, plies: &[Square]) -> Append {
        let write = PlyWrite {
            game_id: game_id.clone(),
            first,
            plies: plies.iter().copied().map(Move::Place).collect(),
            at: Timestamp(2),
            turn_started_at: Some(Timestamp(2)),
        };
        Append { write, reply: oneshot::channel().0 }
    }

    /// Runs `group`'s script in a transaction of its own: the rows it changed, and what it expected.
    async fn run_script(store: &Store, group: &[Append]) -> (u64, u64) {
        let (script, expected) = group_script(group).unwrap();
        let mut tx = store.pool.begin().await.unwrap();
        let result = sqlx::query(&script).persistent(false).execute(&mut *tx).await.unwrap();
        tx.commit().await.unwrap();
        (result.rows_affected(), expected)
    }

    #[tokio::test]
    async fn a_groups_script_lands_every_move_of_every_game_in_one_call() {
        let store = Store::connect("sqlite::memory:").await.unwrap();
        let (first, second) = (live_game(&store).await, live_game(&store).await);
        let group =
            [append(&first, 0, &[Square::D3]), append(&second, 0, &[Square::F5, Square::D6])];
        assert_eq!(run_script(&store, &group).await, (5, 5));
        assert_eq!(store.load_game(&first).await.unwrap().moves.len(), 1);
        assert_eq!(store.load_game(&second).await.unwrap().moves.len(), 2);
    }

    #[tokio::test]
    async fn a_refused_append_in_a_script_writes_nothing_and_the_others_land() {
        let store = Store::connect("sqlite::memory:").await.unwrap();
        let (first, second) = (live_game(&store).await, live_game(&store).await);
        // Ply 1 is not the next ply of a game without moves.
        let group =
            [append(&first, 1, &[Square::D3, Square::C3]), append(&second, 0, &[Square::F5])];
        assert_eq!(run_script(&store, &group).await, (2, 5));
        assert!(store.load_game(&first).await.unwrap().moves.is_empty());
        assert_eq!(store.load_game(&second).await.unwrap().moves.len(), 1);
    }

    #[tokio::test]
    async fn the_writer_tells_each_append_its_own_outcome() {
        let store = Store::connect("sqlite::memory:").await.unwrap();
        let (first, second) = (live_game(&store).await, live_game(&store).await);
        let group = [append(&first, 1, &[Square::D3]), append(&second, 0, &[Square::F5])];
        let outcomes = write_group(&store.pool, &group).await.unwrap();
        assert!(matches!(outcomes[..], [Err(DbError::Conflict), Ok(())]), "{outcomes:?}");
        assert_eq!(store.load_game(&second).await.unwrap().moves.len(), 1);
        assert!(store.load_game(&first).await.unwrap().moves.is_empty());
    }
}
