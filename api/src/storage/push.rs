//! Web Push subscriptions: each browser endpoint belongs to one account at a time.

use super::{DbError, DbResult, Store, get, parse};
use crate::domain::{NotificationKind, PlayerId, Timestamp};

/// The most browsers one account keeps subscribed.
pub const MAX_PUSH_SUBSCRIPTIONS: i64 = 10;

/// One browser's subscription.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PushSubscriptionRow {
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
    /// What it asked to be pushed.
    pub kinds: Vec<NotificationKind>,
}

impl Store {
    /// Keeps `subscription` for `player` from `now`: a new endpoint, or one already known
    /// (which then becomes the player's, with these keys and kinds). Returns whether it is new.
    ///
    /// # Errors
    /// [`DbError::Conflict`] when the player keeps [`MAX_PUSH_SUBSCRIPTIONS`] others already.
    pub async fn save_push_subscription(
        &self,
        player: &PlayerId,
        subscription: &PushSubscriptionRow,
        now: Timestamp,
    ) -> DbResult<bool> {
        let mut db = self.write_connection().await?;
        let row = sqlx::query(
            "SELECT COUNT(*) AS n, SUM(CASE WHEN endpoint = $2 THEN 1 ELSE 0 END) AS known \
             FROM push_subscriptions WHERE player_id = $1",
        )
        .bind(player.as_str())
        .bind(subscription.endpoint.as_str())
        .fetch_one(&mut *db)
        .await?;
        let known_here = get::<Option<i64>>(&row, "known")?.unwrap_or(0) > 0;
        if !known_here && get::<i64>(&row, "n")? >= MAX_PUSH_SUBSCRIPTIONS {
            return Err(DbError::Conflict);
        }
        let kinds: Vec<&str> = subscription.kinds.iter().map(|kind| kind.as_str()).collect();
        let updated = sqlx::query(
            "UPDATE push_subscriptions SET player_id = $2, p256dh = $3, auth = $4, kinds = $5 \
             WHERE endpoint = $1",
        )
        .bind(subscription.endpoint.as_str())
        .bind(player.as_str())
        .bind(subscription.p256dh.as_str())
        .bind(subscription.auth.as_str())
        .bind(kinds.join(","))
        .execute(&mut *db)
        .await?
        .rows_affected();
        if updated > 0 {
            return Ok(false);
        }
        sqlx::query(
            "INSERT INTO push_subscriptions (endpoint, player_id, p256dh, auth, kinds, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(subscription.endpoint.as_str())
        .bind(player.as_str())
        .bind(subscription.p256dh.as_str())
        .bind(subscription.auth.as_str())
        .bind(kinds.join(","))
        .bind(now.0)
        .execute(&mut *db)
        .await?;
        Ok(true)
    }

    /// Forgets `player`'s subscription at `endpoint`; `false` when there was none.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn remove_push_subscription(
        &self,
        player: &PlayerId,
        endpoint: &str,
    ) -> DbResult<bool> {
        let mut db = self.write_connection().await?;
        let removed =
            sqlx::query("DELETE FROM push_subscriptions WHERE player_id = $1 AND endpoint = $2")
                .bind(player.as_str())
                .bind(endpoint)
                .execute(&mut *db)
                .await?
                .rows_affected();
        Ok(removed > 0)
    }

    /// Forgets the subscription at `endpoint`, whoever's: its push service says it is gone.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn drop_push_subscription(&self, endpoint: &str) -> DbResult<()> {
        let mut db = self.write_connection().await?;
        sqlx::query("DELETE FROM push_subscriptions WHERE endpoint = $1")
            .bind(endpoint)
            .execute(&mut *db)
            .await?;
        Ok(())
    }

    /// `player`'s subscriptions, oldest first.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails or a stored kind is corrupt.
    pub async fn push_subscriptions(
        &self,
        player: &PlayerId,
    ) -> DbResult<Vec<PushSubscriptionRow>> {
        let rows = sqlx::query(
            "SELECT endpoint, p256dh, auth, kinds FROM push_subscriptions WHERE player_id = $1 \
             ORDER BY created_at, endpoint",
        )
        .bind(player.as_str())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let kinds: String = get(row, "kinds")?;
                Ok(PushSubscriptionRow {
                    endpoint: get(row, "endpoint")?,
                    p256dh: get(row, "p256dh")?,
                    auth: get(row, "auth")?,
                    kinds: kinds
                        .split(',')
                        .filter(|kind| !kind.is_empty())
                        .map(|kind| parse("push_subscriptions.kinds", kind))
                        .collect::<DbResult<_>>()?,
                })
            })
            .collect()
    }
}
