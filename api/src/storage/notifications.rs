//! Notifications kept for an account, 30 days at most.

use sqlx::any::AnyRow;

use super::{DbResult, Store, get, parse};
use crate::domain::{NotificationId, NotificationKind, PlayerId, Timestamp};
use crate::social::{NOTIFICATIONS_KEPT_MS, Notification};

/// How many notifications a list shows at most, newest first.
pub const NOTIFICATIONS_LISTED: u32 = 50;

impl Store {
    /// Keeps a new notification of `kind` for `player`, and forgets theirs older than
    /// [`NOTIFICATIONS_KEPT_MS`].
    ///
    /// # Errors
    /// [`DbError::Other`](super::DbError::Other) when the database fails.
    pub async fn notify(
        &self,
        player: &PlayerId,
        kind: NotificationKind,
        data: serde_json::Value,
        now: Timestamp,
    ) -> DbResult<Notification> {
        let notification = Notification {
            id: NotificationId::generate(),
            kind,
            created_at: now,
            read: false,
            data,
        };
        let mut db = self.write_connection().await?;
        sqlx::query("DELETE FROM notifications WHERE player_id = $1 AND created_at < $2")
            .bind(player.as_str())
            .bind(now.0 - NOTIFICATIONS_KEPT_MS)
            .execute(&mut *db)
            .await?;
        sqlx::query(
            "INSERT INTO notifications (id, player_id, kind, data, created_at) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(notification.id.as_str())
        .bind(player.as_str())
        .bind(kind.as_str())
        .bind(notification.data.to_string())
        .bind(now.0)
        .execute(&mut *db)
        .await?;
        Ok(notification)
    }

    /// `player`'s notifications of the last 30 days before `now`, newest first, at most
    /// [`NOTIFICATIONS_LISTED`].
    ///
    /// # Errors
    /// [`DbError::Other`](super::DbError::Other) when the database fails.
    pub async fn notifications(
        &self,
        player: &PlayerId,
        now: Timestamp,
    ) -> DbResult<Vec<Notification>> {
        let rows = sqlx::query(
            "SELECT id, kind, data, created_at, read_at FROM notifications \
             WHERE player_id = $1 AND created_at >= $2 ORDER BY created_at DESC, id LIMIT $3",
        )
        .bind(player.as_str())
        .bind(now.0 - NOTIFICATIONS_KEPT_MS)
        .bind(i64::from(NOTIFICATIONS_LISTED))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(notification_row).collect()
    }

    /// How many of `player`'s notifications of the last 30 days before `now` are unread.
    ///
    /// # Errors
    /// [`DbError::Other`](super::DbError::Other) when the database fails.
    pub async fn unread_notifications(&self, player: &PlayerId, now: Timestamp) -> DbResult<u32> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM notifications \
             WHERE player_id = $1 AND read_at IS NULL AND created_at >= $2",
        )
        .bind(player.as_str())
        .bind(now.0 - NOTIFICATIONS_KEPT_MS)
        .fetch_one(&self.pool)
        .await?;
        Ok(u32::try_from(get::<i64>(&row, "n")?).unwrap_or(u32::MAX))
    }

    /// Marks `player`'s notifications `ids` read at `now` (all of them with `None`); others'
    /// ids are ignored. Returns how many were marked.
    ///
    /// # Errors
    /// [`DbError::Other`](super::DbError::Other) when the database fails.
    pub async fn mark_notifications_read(
        &self,
        player: &PlayerId,
        ids: Option<&[NotificationId]>,
        now: Timestamp,
    ) -> DbResult<u64> {
        let mut db = self.write_connection().await?;
        let marked = match ids {
            None => sqlx::query(
                "UPDATE notifications SET read_at = $2 \
                     WHERE player_id = $1 AND read_at IS NULL",
            )
            .bind(player.as_str())
            .bind(now.0)
            .execute(&mut *db)
            .await?
            .rows_affected(),
            Some([]) => 0,
            Some(ids) => {
                let placeholders: Vec<String> =
                    (3..ids.len() + 3).map(|n| format!("${n}")).collect();
                let sql = format!(
                    "UPDATE notifications SET read_at = $2 WHERE player_id = $1 \
                     AND read_at IS NULL AND id IN ({})",
                    placeholders.join(", ")
                );
                let mut query = sqlx::query(&sql).bind(player.as_str()).bind(now.0);
                for id in ids {
                    query = query.bind(id.as_str());
                }
                query.execute(&mut *db).await?.rows_affected()
            }
        };
        Ok(marked)
    }
}

/// Reads a `notifications` row.
fn notification_row(row: &AnyRow) -> DbResult<Notification> {
    let data: String = get(row, "data")?;
    Ok(Notification {
        id: parse("notifications.id", &get::<String>(row, "id")?)?,
        kind: parse("notifications.kind", &get::<String>(row, "kind")?)?,
        created_at: Timestamp(get(row, "created_at")?),
        read: get::<Option<i64>>(row, "read_at")?.is_some(),
        data: serde_json::from_str(&data).map_err(|error| {
            super::DbError::Other(format!("column notifications.data holds bad JSON: {error}"))
        })?,
    })
}
