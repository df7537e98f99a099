//! The games a player, and a client address, have in progress, counted in the store so that
//! every node of a site sees the same numbers: what the budgets of games against the computer
//! and on one device count beyond the games running on one node.

use super::lobby::in_progress;
use super::{DbResult, Store, convert, get};
use crate::domain::{ClientKey, Mode, PlayerId, Timestamp};

/// Games of one mode in progress: live, and with a clock or changed lately.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InProgress {
    /// Those with the player in a seat.
    pub of_player: u32,
    /// Those started from the client address.
    pub from_client: u32,
}

impl Store {
    /// The live games of `mode` that `player` plays or `client` started, and that changed
    /// since `active_since` (or have a clock).
    ///
    /// # Errors
    /// [`super::DbError::Other`] when the database fails.
    pub async fn games_in_progress_of(
        &self,
        mode: Mode,
        player: &PlayerId,
        client: ClientKey,
        active_since: Timestamp,
    ) -> DbResult<InProgress> {
        let row = sqlx::query(&format!(
            "SELECT \
                COALESCE(SUM(CASE WHEN g.black_id = $3 OR g.white_id = $3 THEN 1 ELSE 0 END), 0) \
                    AS of_player, \
                COALESCE(SUM(CASE WHEN g.origin = $4 THEN 1 ELSE 0 END), 0) AS from_client \
             FROM games g \
             WHERE g.mode = $2 AND (g.black_id = $3 OR g.white_id = $3 OR g.origin = $4) \
                AND {}",
            in_progress()
        ))
        .bind(active_since.0)
        .bind(mode.as_str())
        .bind(player.as_str())
        .bind(client.to_string())
        .fetch_one(&self.pool)
        .await?;
        Ok(InProgress {
            of_player: convert("of_player", get::<i64>(&row, "of_player")?)?,
            from_client: convert("from_client", get::<i64>(&row, "from_client")?)?,
        })
    }
}
