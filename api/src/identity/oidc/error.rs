//! Why sign-in failed.

use thiserror::Error;

/// Why sign-in failed. Details go to the log; the user is told only that it failed.
#[derive(Debug, Error)]
pub enum OidcError {
    #[error("the identity provider could not be used: {0}")]
    Provider(String),
    #[error("the code could not be exchanged: {0}")]
    Exchange(String),
    #[error("the ID token was refused: {0}")]
    BadToken(String),
    #[error("the ID token is signed with a key the provider does not publish")]
    UnknownKey,
}
