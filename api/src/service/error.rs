//! Why a request to a game failed.

use thiserror::Error;

use crate::domain::GameId;
use crate::live::CommandError;
use crate::storage::DbError;

use super::games::CorruptGame;
use super::games::OverBudget;

/// Why a request to a game failed. Domain errors only: the socket edge decides what a client
/// is told.
#[derive(Debug, Error)]
pub enum ServiceError {
    #[error("there is no game {0}")]
    NotFound(GameId),
    #[error(transparent)]
    Command(#[from] CommandError),
    #[error("the game could not be saved; nothing changed, please try again")]
    Storage(#[source] DbError),
    #[error("the game is restarting; please try again")]
    Unavailable,
    #[error(transparent)]
    Corrupt(#[from] CorruptGame),
    #[error(transparent)]
    OverBudget(#[from] OverBudget),
}

impl From<DbError> for ServiceError {
    fn from(error: DbError) -> ServiceError {
        ServiceError::Storage(error)
    }
}
