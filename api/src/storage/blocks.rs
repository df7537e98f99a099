//! Blocks: a player never paired with, challenged by or shown to someone they blocked.

use super::{DbResult, Store, get, parse};
use crate::domain::{PlayerId, Timestamp};

/// One player someone blocked.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockRow {
    pub blocked: PlayerId,
    /// Their name when blocked.
    pub name: String,
    pub since: Timestamp,
}

/// The most blocks one player keeps: enough for anyone, small enough to carry in a ticket.
pub const MAX_BLOCKS: i64 = 200;

impl Store {
    /// Blocks `blocked` for `blocker`. Returns `false` when it was blocked already.
    ///
    /// # Errors
    /// [`DbError::Conflict`](super::DbError::Conflict) when `blocker` keeps [`MAX_BLOCKS`].
    pub async fn block(
        &self,
        blocker: &PlayerId,
        blocked: &PlayerId,
        name: &str,
        now: Timestamp,
    ) -> DbResult<bool> {
        let mut db = self.write_connection().await?;
        let row = sqlx::query("SELECT COUNT(*) AS n FROM blocks WHERE blocker_id = $1")
            .bind(blocker.as_str())
            .fetch_one(&mut *db)
            .await?;
        if get::<i64>(&row, "n")? >= MAX_BLOCKS {
            return Err(super::DbError::Conflict);
        }
        let added = sqlx::query(
            "INSERT INTO blocks (blocker_id, blocked_id, blocked_name, created_at) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (blocker_id, blocked_id) DO NOTHING",
        )
        .bind(blocker.as_str())
        .bind(blocked.as_str())
        .bind(name)
        .bind(now.0)
        .execute(&mut *db)
        .await?
        .rows_affected();
        Ok(added > 0)
    }

    /// Lifts `blocker`'s block of `blocked`. Returns `false` when there was none.
    ///
    /// # Errors
    /// [`DbError::Other`](super::DbError::Other) when the database fails.
    pub async fn unblock(&self, blocker: &PlayerId, blocked: &PlayerId) -> DbResult<bool> {
        let mut db = self.write_connection().await?;
        let removed = sqlx::query("DELETE FROM blocks WHERE blocker_id = $1 AND blocked_id = $2")
            .bind(blocker.as_str())
            .bind(blocked.as_str())
            .execute(&mut *db)
            .await?
            .rows_affected();
        Ok(removed > 0)
    }

    /// The players `blocker` blocked, newest first.
    ///
    /// # Errors
    /// [`DbError::Other`](super::DbError::Other) when the database fails.
    pub async fn blocks_by(&self, blocker: &PlayerId) -> DbResult<Vec<BlockRow>> {
        let rows = sqlx::query(
            "SELECT blocked_id, blocked_name, created_at FROM blocks WHERE blocker_id = $1 \
             ORDER BY created_at DESC, blocked_id",
        )
        .bind(blocker.as_str())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(BlockRow {
                    blocked: parse("blocked_id", &get::<String>(row, "blocked_id")?)?,
                    name: get(row, "blocked_name")?,
                    since: Timestamp(get(row, "created_at")?),
                })
            })
            .collect()
    }

    /// Everyone `player` must not meet: those they blocked and those who blocked them.
    ///
    /// # Errors
    /// [`DbError::Other`](super::DbError::Other) when the database fails.
    pub async fn avoided_by(&self, player: &PlayerId) -> DbResult<Vec<PlayerId>> {
        let rows = sqlx::query(
            "SELECT blocked_id AS other FROM blocks WHERE blocker_id = $1 \
             UNION SELECT blocker_id AS other FROM blocks WHERE blocked_id = $1",
        )
        .bind(player.as_str())
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|row| parse("other", &get::<String>(row, "other")?)).collect()
    }

    /// Whether either of `a` and `b` blocked the other.
    ///
    /// # Errors
    /// [`DbError::Other`](super::DbError::Other) when the database fails.
    pub async fn blocked_between(&self, a: &PlayerId, b: &PlayerId) -> DbResult<bool> {
        let row = sqlx::query(
            "SELECT 1 AS one FROM blocks WHERE (blocker_id = $1 AND blocked_id = $2) \
             OR (blocker_id = $2 AND blocked_id = $1)",
        )
        .bind(a.as_str())
        .bind(b.as_str())
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.is_some())
    }
}
