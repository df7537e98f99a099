//! Follows: an account following others, to see them online and hear of their games.

use super::lobby::in_progress;
use super::{DELETED_PLAYER, DbError, DbResult, Store, get, parse};
use crate::domain::{GameId, PlayerId, Timestamp};

/// The most players one account follows.
pub const MAX_FOLLOWS: i64 = 500;

/// One player someone follows.
#[derive(Clone, Debug, PartialEq)]
pub struct FollowRow {
    pub followed: PlayerId,
    /// Their public name now.
    pub name: String,
    pub since: Timestamp,
}

impl Store {
    /// `follower` follows `followed` from `now`. Returns `false` when they did already.
    ///
    /// # Errors
    /// [`DbError::Conflict`] when `follower` follows [`MAX_FOLLOWS`] players already.
    pub async fn follow(
        &self,
        follower: &PlayerId,
        followed: &PlayerId,
        now: Timestamp,
    ) -> DbResult<bool> {
        let mut db = self.write_connection().await?;
        let row = sqlx::query(
            "SELECT COUNT(*) AS n, \
                SUM(CASE WHEN followed_id = $2 THEN 1 ELSE 0 END) AS already \
             FROM follows WHERE follower_id = $1",
        )
        .bind(follower.as_str())
        .bind(followed.as_str())
        .fetch_one(&mut *db)
        .await?;
        if get::<Option<i64>>(&row, "already")?.unwrap_or(0) > 0 {
            return Ok(false);
        }
        if get::<i64>(&row, "n")? >= MAX_FOLLOWS {
            return Err(DbError::Conflict);
        }
        let added = sqlx::query(
            "INSERT INTO follows (follower_id, followed_id, created_at) VALUES ($1, $2, $3) \
             ON CONFLICT (follower_id, followed_id) DO NOTHING",
        )
        .bind(follower.as_str())
        .bind(followed.as_str())
        .bind(now.0)
        .execute(&mut *db)
        .await?
        .rows_affected();
        Ok(added > 0)
    }

    /// `follower` stops following `followed`. Returns `false` when they did not.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn unfollow(&self, follower: &PlayerId, followed: &PlayerId) -> DbResult<bool> {
        let mut db = self.write_connection().await?;
        let removed =
            sqlx::query("DELETE FROM follows WHERE follower_id = $1 AND followed_id = $2")
                .bind(follower.as_str())
                .bind(followed.as_str())
                .execute(&mut *db)
                .await?
                .rows_affected();
        Ok(removed > 0)
    }

    /// The players `follower` follows, by name.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn following(&self, follower: &PlayerId) -> DbResult<Vec<FollowRow>> {
        let rows = sqlx::query(
            "SELECT f.followed_id, f.created_at, a.name FROM follows f \
             LEFT JOIN accounts a ON a.player_id = f.followed_id AND a.deleted_at IS NULL \
             WHERE f.follower_id = $1 ORDER BY a.name_key, f.followed_id",
        )
        .bind(follower.as_str())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(FollowRow {
                    followed: parse("follows.followed_id", &get::<String>(row, "followed_id")?)?,
                    name: get::<Option<String>>(row, "name")?
                        .unwrap_or_else(|| DELETED_PLAYER.to_owned()),
                    since: Timestamp(get(row, "created_at")?),
                })
            })
            .collect()
    }

    /// Whether `follower` follows `followed`.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn follows(&self, follower: &PlayerId, followed: &PlayerId) -> DbResult<bool> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM follows WHERE follower_id = $1 AND followed_id = $2",
        )
        .bind(follower.as_str())
        .bind(followed.as_str())
        .fetch_one(&self.pool)
        .await?;
        Ok(get::<i64>(&row, "n")? > 0)
    }

    /// How many follow `player`, and how many `player` follows.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn follow_counts(&self, player: &PlayerId) -> DbResult<(u64, u64)> {
        let row = sqlx::query(
            "SELECT (SELECT COUNT(*) FROM follows WHERE followed_id = $1) AS followers, \
                    (SELECT COUNT(*) FROM follows WHERE follower_id = $1) AS following",
        )
        .bind(player.as_str())
        .fetch_one(&self.pool)
        .await?;
        let count = |column: &str| -> DbResult<u64> {
            Ok(u64::try_from(get::<i64>(&row, column)?).unwrap_or(0))
        };
        Ok((count("followers")?, count("following")?))
    }

    /// Everyone who follows `player`.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn followers_of(&self, player: &PlayerId) -> DbResult<Vec<PlayerId>> {
        let rows = sqlx::query("SELECT follower_id FROM follows WHERE followed_id = $1")
            .bind(player.as_str())
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|row| parse("follows.follower_id", &get::<String>(row, "follower_id")?))
            .collect()
    }

    /// The game in progress against another person of each player `follower` follows who is
    /// playing one (the newest, when several), with games idle since before `active_since`
    /// left out as the lobby does. Games against the computer or on one device are their own.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn games_of_followed(
        &self,
        follower: &PlayerId,
        active_since: Timestamp,
    ) -> DbResult<Vec<(PlayerId, GameId)>> {
        let rows = sqlx::query(&format!(
            "SELECT f.followed_id, g.id FROM follows f \
             JOIN games g ON g.black_id = f.followed_id OR g.white_id = f.followed_id \
             WHERE f.follower_id = $2 AND g.mode IN ('friend', 'quick', 'ranked') AND {} \
             ORDER BY g.created_at DESC, g.id",
            in_progress()
        ))
        .bind(active_since.0)
        .bind(follower.as_str())
        .fetch_all(&self.pool)
        .await?;
        let mut games: Vec<(PlayerId, GameId)> = Vec::new();
        for row in &rows {
            let player: PlayerId =
                parse("follows.followed_id", &get::<String>(row, "followed_id")?)?;
            if games.iter().all(|(seen, _)| seen != &player) {
                games.push((player, parse("games.id", &get::<String>(row, "id")?)?));
            }
        }
        Ok(games)
    }
}
