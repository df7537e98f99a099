//! What the moderators read about a player's rated games: their reviews with the moves' times,
//! the same for players of a rating band, how their games ended, and lopsided pairs.

use std::collections::HashMap;

use outflank_engine::Color;
use sqlx::any::AnyRow;

use super::{DbResult, Store, convert, get, parse};
use crate::domain::{GameId, PlayerId, Timestamp, Winner};

/// One side of a rated game with a done review.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewedGame {
    pub game_id: GameId,
    pub player: PlayerId,
    pub color: Color,
    /// The player's rating when the game started.
    pub rating: f64,
    /// The stored review, as JSON.
    pub review: String,
    /// When the game started, then when each ply was played, in order.
    pub started_at: Timestamp,
    pub played_at: Vec<Timestamp>,
}

/// How a player's rated games ended, in a period.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Endings {
    /// Ranked games finished.
    pub rated_games: u32,
    /// Resignations before [`EARLY_PLIES`] plies.
    pub early_resignations: u32,
    /// Games lost on time.
    pub timeouts: u32,
    /// Games aborted because the player never made a first move.
    pub aborts: u32,
}

/// A resignation before this many plies is early.
pub const EARLY_PLIES: i64 = 20;

/// The rated games of a player against one opponent, in a period.
#[derive(Clone, Debug, PartialEq)]
pub struct PairRecord {
    pub opponent: PlayerId,
    pub opponent_name: String,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

const REVIEWED_COLUMNS: &str = "rc.game_id, rc.player_id, rc.color, rc.rating_before, a.result, \
    g.created_at, g.turn_started_at";
/// Rated sides (`rc`) with their game (`g`) and its done review (`a`).
const REVIEWED_SIDES: &str = "rating_changes rc \
    JOIN analyses a ON a.game_id = rc.game_id AND a.status = 'done' \
    JOIN games g ON g.id = rc.game_id";

impl Store {
    /// `player`'s last `limit` rated games with a done review, newest first.
    ///
    /// # Errors
    /// [`DbError::Other`](super::DbError::Other) when the database fails.
    pub async fn reviewed_rated_games(
        &self,
        player: &PlayerId,
        limit: u32,
    ) -> DbResult<Vec<ReviewedGame>> {
        let rows = sqlx::query(&format!(
            "SELECT {REVIEWED_COLUMNS} FROM {REVIEWED_SIDES} \
             WHERE rc.player_id = $1 ORDER BY rc.at DESC, rc.game_id LIMIT $2"
        ))
        .bind(player.as_str())
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        self.with_times(&rows).await
    }

    /// Up to `limit` sides of rated games since `since`, with a done review, whose player was
    /// rated in `[low, high)` when the game started, newest first: what players of that band
    /// play like.
    ///
    /// # Errors
    /// [`DbError::Other`](super::DbError::Other) when the database fails.
    pub async fn reviewed_band_games(
        &self,
        (low, high): (i32, i32),
        since: Timestamp,
        limit: u32,
    ) -> DbResult<Vec<ReviewedGame>> {
        let rows = sqlx::query(&format!(
            "SELECT {REVIEWED_COLUMNS} FROM {REVIEWED_SIDES} \
             WHERE rc.rating_before >= $1 AND rc.rating_before < $2 AND rc.at >= $3 \
             ORDER BY rc.at DESC, rc.game_id, rc.player_id LIMIT $4"
        ))
        .bind(f64::from(low))
        .bind(f64::from(high))
        .bind(since.0)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        self.with_times(&rows).await
    }

    /// Reads [`REVIEWED_COLUMNS`] rows, with each game's ply times, read in one query.
    async fn with_times(&self, rows: &[AnyRow]) -> DbResult<Vec<ReviewedGame>> {
        let mut ids: Vec<String> =
            rows.iter().map(|row| get(row, "game_id")).collect::<DbResult<_>>()?;
        ids.sort_unstable();
        ids.dedup();
        let mut times: HashMap<String, Vec<Timestamp>> = HashMap::new();
        if !ids.is_empty() {
            let placeholders: Vec<String> = (1..=ids.len()).map(|n| format!("${n}")).collect();
            let sql = format!(
                "SELECT game_id, played_at FROM moves WHERE game_id IN ({}) ORDER BY game_id, ply",
                placeholders.join(", ")
            );
            let mut query = sqlx::query(&sql);
            for id in &ids {
                query = query.bind(id);
            }
            for ply in query.fetch_all(&self.pool).await? {
                let game_id: String = get(&ply, "game_id")?;
                times.entry(game_id).or_default().push(Timestamp(get(&ply, "played_at")?));
            }
        }
        let mut games = Vec::with_capacity(rows.len());
        for row in rows {
            let game_id: String = get(row, "game_id")?;
            let started: Option<i64> = get(row, "turn_started_at")?;
            games.push(ReviewedGame {
                game_id: parse("game_id", &game_id)?,
                player: parse("player_id", &get::<String>(row, "player_id")?)?,
                color: color_column(row)?,
                rating: get(row, "rating_before")?,
                review: get::<Option<String>>(row, "result")?.unwrap_or_default(),
                started_at: Timestamp(started.unwrap_or(get(row, "created_at")?)),
                played_at: times.get(&game_id).cloned().unwrap_or_default(),
            });
        }
        Ok(games)
    }

    /// How `player`'s ranked games since `since` ended.
    ///
    /// # Errors
    /// [`DbError::Other`](super::DbError::Other) when the database fails.
    pub async fn endings(&self, player: &PlayerId, since: Timestamp) -> DbResult<Endings> {
        let row = sqlx::query(
            "SELECT \
                SUM(CASE WHEN g.status = 'finished' THEN 1 ELSE 0 END) AS rated, \
                SUM(CASE WHEN g.end_reason = 'resignation' AND g.winner <> s.color \
                    AND (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) < $3 \
                    THEN 1 ELSE 0 END) AS early, \
                SUM(CASE WHEN g.end_reason = 'timeout' AND g.winner <> s.color \
                    THEN 1 ELSE 0 END) AS timeouts, \
                SUM(CASE WHEN g.status = 'aborted' AND ( \
                    (s.color = 'black' AND NOT EXISTS \
                        (SELECT 1 FROM moves m WHERE m.game_id = g.id)) OR \
                    (s.color = 'white' AND (SELECT COUNT(*) FROM moves m \
                        WHERE m.game_id = g.id) = 1)) THEN 1 ELSE 0 END) AS aborts \
             FROM games g JOIN ( \
                SELECT id, 'black' AS color FROM games WHERE black_id = $1 \
                UNION ALL SELECT id, 'white' AS color FROM games WHERE white_id = $1 \
             ) s ON s.id = g.id \
             WHERE g.mode = 'ranked' AND g.created_at >= $2",
        )
        .bind(player.as_str())
        .bind(since.0)
        .bind(EARLY_PLIES)
        .fetch_one(&self.pool)
        .await?;
        let count = |column: &str| -> DbResult<u32> {
            convert(column, get::<Option<i64>>(&row, column)?.unwrap_or(0))
        };
        Ok(Endings {
            rated_games: count("rated")?,
            early_resignations: count("early")?,
            timeouts: count("timeouts")?,
            aborts: count("aborts")?,
        })
    }

    /// `player`'s record against each opponent met in `min_games` or more rated games since
    /// `since`, most games first.
    ///
    /// # Errors
    /// [`DbError::Other`](super::DbError::Other) when the database fails.
    pub async fn pair_records(
        &self,
        player: &PlayerId,
        since: Timestamp,
        min_games: u32,
    ) -> DbResult<Vec<PairRecord>> {
        let rows = sqlx::query(
            "SELECT theirs.player_id AS opponent, p.nickname, mine.color, g.winner \
             FROM rating_changes mine \
             JOIN rating_changes theirs \
                ON theirs.game_id = mine.game_id AND theirs.player_id <> mine.player_id \
             JOIN games g ON g.id = mine.game_id \
             JOIN players p ON p.id = theirs.player_id \
             WHERE mine.player_id = $1 AND mine.at >= $2",
        )
        .bind(player.as_str())
        .bind(since.0)
        .fetch_all(&self.pool)
        .await?;
        let mut pairs: Vec<PairRecord> = Vec::new();
        for row in &rows {
            let opponent: PlayerId = parse("opponent", &get::<String>(row, "opponent")?)?;
            let index = match pairs.iter().position(|pair| pair.opponent == opponent) {
                Some(index) => index,
                None => {
                    pairs.push(PairRecord {
                        opponent,
                        opponent_name: get(row, "nickname")?,
                        games: 0,
                        wins: 0,
                        draws: 0,
                        losses: 0,
                    });
                    pairs.len() - 1
                }
            };
            let pair = &mut pairs[index];
            pair.games += 1;
            let winner: Option<Winner> =
                get::<Option<String>>(row, "winner")?.map(|w| parse("winner", &w)).transpose()?;
            let mine: String = get(row, "color")?;
            match winner {
                Some(Winner::Draw) => pair.draws += 1,
                Some(winner) if winner.as_str() == mine => pair.wins += 1,
                Some(_) => pair.losses += 1,
                None => {}
            }
        }
        pairs.retain(|pair| pair.games >= min_games);
        pairs.sort_by(|a, b| {
            b.games.cmp(&a.games).then_with(|| a.opponent_name.cmp(&b.opponent_name))
        });
        Ok(pairs)
    }
}

fn color_column(row: &AnyRow) -> DbResult<Color> {
    match get::<String>(row, "color")?.as_str() {
        "black" => Ok(Color::Black),
        "white" => Ok(Color::White),
        other => Err(super::DbError::Other(format!("rating_changes.color: {other:?}"))),
    }
}
