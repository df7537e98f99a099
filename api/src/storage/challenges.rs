//! Challenges between accounts: made, listed, answered once.

use sqlx::any::AnyRow;

use super::{DELETED_PLAYER, DbError, DbResult, Store, get, parse, parse_opt};
use crate::domain::{ChallengeId, ChallengeStatus, GameId, PlayerId, Timestamp};
use crate::social::{Challenge, MAX_OPEN_CHALLENGES};

/// A challenge with the accounts it is between.
#[derive(Clone, Debug, PartialEq)]
pub struct ChallengeRow {
    pub challenge: Challenge,
    pub challenger: PlayerId,
    pub challenged: PlayerId,
}

const CHALLENGE_SELECT: &str = "SELECT c.id, c.challenger_id, c.challenged_id, c.time_control, \
     c.colour, c.rated, c.xot, c.status, c.created_at, c.expires_at, c.game_id, \
     f.name AS from_name, t.name AS to_name \
     FROM challenges c \
     LEFT JOIN accounts f ON f.player_id = c.challenger_id AND f.deleted_at IS NULL \
     LEFT JOIN accounts t ON t.player_id = c.challenged_id AND t.deleted_at IS NULL";

impl Store {
    /// Stores a new challenge, unless its challenger already has [`MAX_OPEN_CHALLENGES`] open
    /// at its creation time (then `false`). A challenge stored already answered (one a block
    /// refuses) does not count.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn create_challenge(&self, row: &ChallengeRow) -> DbResult<bool> {
        let challenge = &row.challenge;
        let mut db = self.write_connection().await?;
        if challenge.status == ChallengeStatus::Open {
            let open = sqlx::query(
                "SELECT COUNT(*) AS n FROM challenges \
                 WHERE challenger_id = $1 AND status = 'open' AND expires_at > $2",
            )
            .bind(row.challenger.as_str())
            .bind(challenge.created_at.0)
            .fetch_one(&mut *db)
            .await?;
            if get::<i64>(&open, "n")? >= i64::from(MAX_OPEN_CHALLENGES) {
                return Ok(false);
            }
        }
        sqlx::query(
            "INSERT INTO challenges (id, challenger_id, challenged_id, time_control, colour, \
                rated, xot, status, created_at, expires_at, closed_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )
        .bind(challenge.id.as_str())
        .bind(row.challenger.as_str())
        .bind(row.challenged.as_str())
        .bind(challenge.control.map(|control| control.to_string()))
        .bind(challenge.colour.as_str())
        .bind(i32::from(challenge.rated))
        .bind(i32::from(challenge.xot))
        .bind(challenge.status.as_str())
        .bind(challenge.created_at.0)
        .bind(challenge.expires_at.0)
        .bind((challenge.status != ChallengeStatus::Open).then_some(challenge.created_at.0))
        .execute(&mut *db)
        .await?;
        Ok(true)
    }

    /// A challenge by its id, as stored (open ones past their expiry included).
    ///
    /// # Errors
    /// [`DbError::NotFound`] for an unknown id.
    pub async fn challenge(&self, id: &ChallengeId) -> DbResult<ChallengeRow> {
        let row = sqlx::query(&format!("{CHALLENGE_SELECT} WHERE c.id = $1"))
            .bind(id.as_str())
            .fetch_optional(&self.pool)
            .await?
            .ok_or(DbError::NotFound)?;
        challenge_row(&row)
    }

    /// The challenges `player` sent or received that still wait for an answer at `now`, newest
    /// first.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn open_challenges(
        &self,
        player: &PlayerId,
        now: Timestamp,
    ) -> DbResult<Vec<ChallengeRow>> {
        let rows = sqlx::query(&format!(
            "{CHALLENGE_SELECT} WHERE (c.challenger_id = $1 OR c.challenged_id = $1) \
             AND c.status = 'open' AND c.expires_at > $2 ORDER BY c.created_at DESC, c.id"
        ))
        .bind(player.as_str())
        .bind(now.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(challenge_row).collect()
    }

    /// Answers challenge `id` with `status` at `now`, with the game an acceptance starts, if it
    /// is still open and not expired: `false` when another answer came first.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn answer_challenge(
        &self,
        id: &ChallengeId,
        status: ChallengeStatus,
        now: Timestamp,
        game: Option<&GameId>,
    ) -> DbResult<bool> {
        let mut db = self.write_connection().await?;
        let updated = sqlx::query(
            "UPDATE challenges SET status = $2, closed_at = $3, game_id = $4 \
             WHERE id = $1 AND status = 'open' AND expires_at > $3",
        )
        .bind(id.as_str())
        .bind(status.as_str())
        .bind(now.0)
        .bind(game.map(GameId::as_str))
        .execute(&mut *db)
        .await?
        .rows_affected();
        Ok(updated > 0)
    }

    /// Opens an accepted challenge again when its game could not be created.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn reopen_challenge(&self, id: &ChallengeId) -> DbResult<()> {
        let mut db = self.write_connection().await?;
        sqlx::query(
            "UPDATE challenges SET status = 'open', closed_at = NULL, game_id = NULL \
             WHERE id = $1 AND status = 'accepted'",
        )
        .bind(id.as_str())
        .execute(&mut *db)
        .await?;
        Ok(())
    }
}

/// Reads a challenge joined with its players' names.
fn challenge_row(row: &AnyRow) -> DbResult<ChallengeRow> {
    let name = |column: &str| -> DbResult<String> {
        Ok(get::<Option<String>>(row, column)?.unwrap_or_else(|| DELETED_PLAYER.to_owned()))
    };
    Ok(ChallengeRow {
        challenge: Challenge {
            id: parse("challenges.id", &get::<String>(row, "id")?)?,
            from: name("from_name")?,
            to: name("to_name")?,
            control: parse_opt("challenges.time_control", get(row, "time_control")?)?,
            colour: parse("challenges.colour", &get::<String>(row, "colour")?)?,
            rated: get::<i32>(row, "rated")? != 0,
            xot: get::<i32>(row, "xot")? != 0,
            status: parse("challenges.status", &get::<String>(row, "status")?)?,
            created_at: Timestamp(get(row, "created_at")?),
            expires_at: Timestamp(get(row, "expires_at")?),
            game_id: parse_opt("challenges.game_id", get(row, "game_id")?)?,
        },
        challenger: parse("challenges.challenger_id", &get::<String>(row, "challenger_id")?)?,
        challenged: parse("challenges.challenged_id", &get::<String>(row, "challenged_id")?)?,
    })
}
