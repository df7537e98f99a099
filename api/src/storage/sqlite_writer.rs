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
async fn write_group(pool: &AnyPool, group: &[Append]) -> DbResult<Vec<DbResult<()>>> {
    let mut tx = pool.begin().await?;
    let mut outcomes = Vec::with_capacity(group.len());
    for append in group {
        outcomes.push(append_guarded_in(&mut tx, &append.write).await?);
    }
    tx.commit().await?;
    Ok(outcomes)
}
