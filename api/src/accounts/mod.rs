//! Accounts: public names and Elo ratings, as plain rules beneath every layer that uses them.
//! Sign-in itself is the `identity` module's; accounts are stored by `storage`.

pub mod name;
pub mod rating;

pub use name::{PublicName, PublicNameError};
