//! Players: who has a session, under which nickname, and since when.

use super::{DbError, DbResult, Store, get};
use crate::domain::{PlayerId, Timestamp};

/// A stored player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    pub id: PlayerId,
    pub nickname: String,
    pub created_at: Timestamp,
    pub last_seen_at: Timestamp,
}

impl Store {
    /// Records that guest `id` goes by `nickname` as of `now`: creates the player, or renames it
    /// and updates when it was last seen.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn upsert_guest(
        &self,
        id: &PlayerId,
        nickname: &str,
        now: Timestamp,
    ) -> DbResult<()> {
        let mut db = self.write_connection().await?;
        sqlx::query(
            "INSERT INTO players (id, nickname, kind, created_at, last_seen_at) \
             VALUES ($1, $2, 'guest', $3, $3) \
             ON CONFLICT (id) DO UPDATE SET nickname = $2, last_seen_at = $3",
        )
        .bind(id.as_str())
        .bind(nickname)
        .bind(now.0)
        .execute(&mut *db)
        .await?;
        Ok(())
    }

    /// How many games are being played.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn count_live_games(&self) -> DbResult<u64> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM games WHERE status = 'live'")
            .fetch_one(&self.pool)
            .await?;
        let n: i64 = get(&row, "n")?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// The player `id`.
    ///
    /// # Errors
    /// [`DbError::NotFound`] for an unknown id.
    pub async fn player(&self, id: &PlayerId) -> DbResult<PlayerRow> {
        let row =
            sqlx::query("SELECT id, nickname, created_at, last_seen_at FROM players WHERE id = $1")
                .bind(id.as_str())
                .fetch_optional(&self.pool)
                .await?
                .ok_or(DbError::NotFound)?;
        let id: String = get(&row, "id")?;
        Ok(PlayerRow {
            id: id.parse().map_err(|error| DbError::Other(format!("players.id: {error}")))?,
            nickname: get(&row, "nickname")?,
            created_at: Timestamp(get(&row, "created_at")?),
            last_seen_at: Timestamp(get(&row, "last_seen_at")?),
        })
    }
}
