//! Why a request to a game failed.

use thiserror::Error;

use crate::cluster::wire::Refusal;
use crate::domain::GameId;
use crate::live::CommandError;
use crate::storage::DbError;

use super::computer_budget::OverBudget;
use super::convert::CorruptGame;

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

impl ServiceError {
    /// How the node running a game tells another node that it refused a command.
    pub(super) fn refusal(&self) -> Refusal {
        match self {
            ServiceError::Command(error) => Refusal::Command(*error),
            ServiceError::NotFound(_) => Refusal::NotFound,
            ServiceError::Storage(_)
            | ServiceError::Unavailable
            | ServiceError::Corrupt(_)
            | ServiceError::OverBudget(_) => Refusal::Unavailable,
        }
    }

    /// The error of a command that the node running game `id` refused.
    pub(super) fn refused(id: &GameId, refusal: Refusal) -> ServiceError {
        match refusal {
            Refusal::Command(error) => ServiceError::Command(error),
            Refusal::NotFound => ServiceError::NotFound(id.clone()),
            Refusal::Unavailable => ServiceError::Unavailable,
        }
    }
}
