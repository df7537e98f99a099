//! A notification kept for an account: what happened, when, and whether it was read.

use serde::{Deserialize, Serialize};

use crate::domain::{NotificationId, NotificationKind, Timestamp};

/// How long notifications are kept.
pub const NOTIFICATIONS_KEPT_MS: i64 = 30 * 24 * 3600 * 1000;

/// One notification.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Notification {
    pub id: NotificationId,
    pub kind: NotificationKind,
    pub created_at: Timestamp,
    pub read: bool,
    /// What it is about, by kind: the challenge as it was, or the report acted on.
    pub data: serde_json::Value,
}
