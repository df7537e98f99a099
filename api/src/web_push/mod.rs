//! Web Push as the standards define it, pure: a message encrypted for one browser's
//! subscription (RFC 8291, `aes128gcm` of RFC 8188) and the server's VAPID identification
//! (RFC 8292). Randomness and time come from the caller; sending is the edge's.

mod encrypt;
mod vapid;

pub use encrypt::{BadSubscriptionKey, SubscriptionKeys, encrypt};
pub use vapid::{BadVapidKey, VapidKey};
