//! Why a storage operation failed, the same on both backends.

use sqlx::error::ErrorKind;
use thiserror::Error;

/// Why a storage operation failed.
#[derive(Debug, Error)]
pub enum DbError {
    /// The row asked for, or a row it refers to, does not exist.
    #[error("not found")]
    NotFound,
    /// The write lost to an existing row or state: a duplicate key, a ply already stored, a game
    /// already finished, a room already joined.
    #[error("conflict with stored data")]
    Conflict,
    /// Anything else: the database is unreachable, a migration failed, or a stored value cannot
    /// be read back. The message says which.
    #[error("database error: {0}")]
    Other(String),
}

/// The result of a storage operation.
pub type DbResult<T> = Result<T, DbError>;

impl From<sqlx::Error> for DbError {
    /// Unique and primary-key violations (PostgreSQL 23505, SQLite 1555/2067) become
    /// [`DbError::Conflict`]; foreign-key violations (23503, 787) and missing rows become
    /// [`DbError::NotFound`].
    fn from(error: sqlx::Error) -> DbError {
        match &error {
            sqlx::Error::RowNotFound => DbError::NotFound,
            sqlx::Error::Database(database) => match database.kind() {
                ErrorKind::UniqueViolation => DbError::Conflict,
                ErrorKind::ForeignKeyViolation => DbError::NotFound,
                _ => DbError::Other(error.to_string()),
            },
            _ => DbError::Other(error.to_string()),
        }
    }
}
