//! Accounts: public names and Elo ratings. Sign-in itself lives in [`crate::oidc`].

pub mod name;
pub mod rating;

pub use name::{PublicName, PublicNameError};
