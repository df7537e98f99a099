//! What the routes and the player's socket send about challenges and notifications.

use serde::Serialize;

use crate::domain::{PlayerId, Timestamp};
use crate::social::{Challenge, Notification};
use crate::storage::ChallengeRow;

/// A challenge as it stands at `now` (an open one past its expiry shows as expired).
pub fn challenge(challenge: &Challenge, now: Timestamp) -> Challenge {
    Challenge { status: challenge.status_at(now), ..challenge.clone() }
}

/// A player's open challenges, split into those received and those sent.
#[derive(Debug, Serialize)]
pub struct ChallengeLists {
    pub incoming: Vec<Challenge>,
    pub outgoing: Vec<Challenge>,
}

impl ChallengeLists {
    /// `rows` (from [`Store::open_challenges`](crate::storage::Store::open_challenges)) as
    /// `player` sees them at `now`.
    pub fn of(player: &PlayerId, rows: &[ChallengeRow], now: Timestamp) -> ChallengeLists {
        let (incoming, outgoing): (Vec<_>, Vec<_>) =
            rows.iter().partition(|row| &row.challenged == player);
        let shown = |rows: Vec<&ChallengeRow>| {
            rows.into_iter().map(|row| challenge(&row.challenge, now)).collect()
        };
        ChallengeLists { incoming: shown(incoming), outgoing: shown(outgoing) }
    }
}

/// A player's notifications with how many are unread.
#[derive(Debug, Serialize)]
pub struct NotificationList {
    pub unread: u32,
    pub notifications: Vec<Notification>,
}
