//! A guest's history moving to the account the guest signed in with.

use super::{DbResult, Store};
use crate::domain::PlayerId;

/// What moved from a guest to an account.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adopted {
    pub games: u64,
    pub puzzles: u64,
}

impl Store {
    /// Moves guest `guest`'s finished games (imports included) and puzzles to `account`, once:
    /// the guest is marked as merged, and a second call moves nothing (`None`). Games in
    /// progress stay the guest's, as do games the two played against each other; a game keeps
    /// the name its seat was played under, and an unrated game stays unrated.
    ///
    /// # Errors
    /// [`DbError::Other`](super::DbError::Other) when the database fails.
    pub async fn adopt_guest(
        &self,
        guest: &PlayerId,
        account: &PlayerId,
    ) -> DbResult<Option<Adopted>> {
        if guest == account {
            return Ok(None);
        }
        let mut db = self.write_connection().await?;
        let mut tx = sqlx::Connection::begin(&mut *db).await?;
        let marked = sqlx::query(
            "UPDATE players SET merged_into = $2 WHERE id = $1 AND kind = 'guest' \
             AND merged_into IS NULL \
             AND NOT EXISTS (SELECT 1 FROM accounts WHERE player_id = $1)",
        )
        .bind(guest.as_str())
        .bind(account.as_str())
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if marked == 0 {
            return Ok(None);
        }
        let games = sqlx::query(
            "UPDATE games SET \
                black_id = CASE WHEN black_id = $1 THEN $2 ELSE black_id END, \
                white_id = CASE WHEN white_id = $1 THEN $2 ELSE white_id END \
             WHERE (black_id = $1 OR white_id = $1) AND status <> 'live' \
             AND COALESCE(black_id, '') <> $2 AND COALESCE(white_id, '') <> $2",
        )
        .bind(guest.as_str())
        .bind(account.as_str())
        .execute(&mut *tx)
        .await?
        .rows_affected();
        let puzzles = sqlx::query(
            "UPDATE puzzles SET player_id = $2 WHERE player_id = $1 \
             AND game_id IN (SELECT id FROM games WHERE (black_id = $2 OR white_id = $2) \
                AND COALESCE(black_id, '') <> $1 AND COALESCE(white_id, '') <> $1)",
        )
        .bind(guest.as_str())
        .bind(account.as_str())
        .execute(&mut *tx)
        .await?
        .rows_affected();
        tx.commit().await?;
        Ok(Some(Adopted { games, puzzles }))
    }
}
