//! Who a request is: sign-in with an OpenID Connect provider (`oidc`), the signed session
//! cookie that remembers the player (`session`), and the sessions ended early
//! (`revocations`).
//!
//! The rules of accounts themselves (public names, Elo) are plain values in
//! [`crate::accounts`], beneath every layer that needs them; accounts are stored by
//! [`crate::storage`].

pub mod oidc;
pub mod revocations;
pub mod session;
