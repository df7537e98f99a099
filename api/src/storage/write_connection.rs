//! The connection a write goes through, for both backends.

use std::ops::{Deref, DerefMut};

use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyConnection, AnyPool, Connection, Transaction};
use tokio::sync::{MappedMutexGuard, MutexGuard};

use super::DbResult;

/// A connection to write with, for one write: on SQLite, held with the write's turn, which ends
/// when it is dropped.
pub(super) enum WriteConnection<'a> {
    /// A file database's one writing connection.
    Own(MappedMutexGuard<'a, AnyConnection>),
    /// A connection from the pool (PostgreSQL's, or an in-memory database's only one, with the
    /// turn).
    Pooled { connection: PoolConnection<Any>, _turn: Option<MutexGuard<'a, ()>> },
}

impl WriteConnection<'_> {
    /// Any of `pool`'s connections: PostgreSQL takes concurrent writers and needs no turn.
    pub(super) async fn pooled(pool: &AnyPool) -> DbResult<WriteConnection<'static>> {
        Ok(WriteConnection::Pooled { connection: pool.acquire().await?, _turn: None })
    }

    /// Begins a transaction on this connection.
    ///
    /// # Errors
    /// [`DbError::Other`](super::DbError::Other) when the database cannot begin one.
    pub(super) async fn begin(&mut self) -> DbResult<Transaction<'_, Any>> {
        Ok(Connection::begin(&mut **self).await?)
    }
}

impl Deref for WriteConnection<'_> {
    type Target = AnyConnection;

    fn deref(&self) -> &AnyConnection {
        match self {
            WriteConnection::Own(connection) => connection,
            WriteConnection::Pooled { connection, .. } => connection,
        }
    }
}

impl DerefMut for WriteConnection<'_> {
    fn deref_mut(&mut self) -> &mut AnyConnection {
        match self {
            WriteConnection::Own(connection) => connection,
            WriteConnection::Pooled { connection, .. } => connection,
        }
    }
}
