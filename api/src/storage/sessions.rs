//! Session revocations: the time before which a player's sessions no longer count.

use crate::domain::{PlayerId, Timestamp};

use super::{DbResult, Store, get, parse};

impl Store {
    /// Ends every session of `player` issued before `at` (a later revocation wins).
    ///
    /// # Errors
    /// [`DbError::Other`](super::DbError::Other) when the database fails.
    pub async fn revoke_sessions(&self, player: &PlayerId, at: Timestamp) -> DbResult<()> {
        let mut db = self.write_connection().await?;
        sqlx::query(
            "INSERT INTO session_revocations (player_id, valid_after) VALUES ($1, $2) \
             ON CONFLICT (player_id) DO UPDATE SET valid_after = excluded.valid_after \
             WHERE session_revocations.valid_after < excluded.valid_after",
        )
        .bind(player.as_str())
        .bind(at.0)
        .execute(&mut *db)
        .await?;
        Ok(())
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
