//! Players reaching each other: challenges from one account to another, and the notifications
//! an account keeps. Pure values and rules; the store keeps them and the edge delivers them.

mod challenge;
mod notification;

pub use challenge::{
    Challenge, ChallengeAnswer, ChallengeError, DAILY_CHALLENGE_MS, LIVE_CHALLENGE_MS,
    MAX_OPEN_CHALLENGES, Party,
};
pub use notification::{NOTIFICATIONS_KEPT_MS, Notification};

use serde::{Deserialize, Serialize};

/// What one player is told as it happens, on whichever node their sockets are.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum PlayerEvent {
    /// A notification was stored for the player.
    Notification { notification: Notification },
    /// A challenge the player sent or received changed: made, accepted, declined, cancelled.
    Challenge { challenge: Challenge },
}
