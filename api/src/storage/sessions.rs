//! Session revocations: the time before which a player's sessions no longer count, kept until
//! the last session it ends has expired.

use crate::domain::{PlayerId, Timestamp};

use super::{DbResult, Store, get, parse};

/// One player's revocation: their sessions issued before `valid_after` no longer count, and
/// from `expires_at` on none of those is valid anyway.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Revocation {
    pub player: PlayerId,
    pub valid_after: Timestamp,
    pub expires_at: Timestamp,
}

impl Store {
    /// Stores `revocation` (a later one wins) made at `revocation.valid_after`, and deletes the
    /// revocations expired by then: each write clears what is no longer needed.
    ///
    /// # Errors
    /// [`DbError::Other`](super::DbError::Other) when the database fails.
    pub async fn revoke_sessions(&self, revocation: &Revocation) -> DbResult<()> {
        let mut db = self.write_connection().await?;
        sqlx::query(
            "INSERT INTO session_revocations (player_id, valid_after, expires_at) \
             VALUES ($1, $2, $3) \
             ON CONFLICT (player_id) DO UPDATE SET valid_after = excluded.valid_after, \
             expires_at = excluded.expires_at \
             WHERE session_revocations.valid_after < excluded.valid_after",
        )
        .bind(revocation.player.as_str())
        .bind(revocation.valid_after.0)
        .bind(revocation.expires_at.0)
        .execute(&mut *db)
        .await?;
        sqlx::query("DELETE FROM session_revocations WHERE expires_at <= $1")
            .bind(revocation.valid_after.0)
            .execute(&mut *db)
            .await?;
        Ok(())
    }

    /// Deletes the revocations expired at `now`; returns how many.
    ///
    /// # Errors
    /// [`DbError::Other`](super::DbError::Other) when the database fails.
    pub async fn delete_expired_revocations(&self, now: Timestamp) -> DbResult<u64> {
        let mut db = self.write_connection().await?;
        let deleted = sqlx::query("DELETE FROM session_revocations WHERE expires_at <= $1")
            .bind(now.0)
            .execute(&mut *db)
            .await?;
        Ok(deleted.rows_affected())
    }

    /// The revocations made after `since`: each player with the time before which their
    /// sessions no longer count.
    ///
    /// # Errors
    /// [`DbError::Other`](super::DbError::Other) when the database fails.
    pub async fn session_revocations_since(
        &self,
        since: Timestamp,
    ) -> DbResult<Vec<(PlayerId, Timestamp)>> {
        let rows = sqlx::query(
            "SELECT player_id, valid_after FROM session_revocations WHERE valid_after > $1",
        )
        .bind(since.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let player: String = get(row, "player_id")?;
                Ok((parse("player_id", &player)?, Timestamp(get(row, "valid_after")?)))
            })
            .collect()
    }
}
