//! Puzzles from players' own games. A puzzle's id is its game and ply, so adding the puzzles of
//! a game analysed again adds none twice. Only the puzzle's player's answers are counted.

use sqlx::any::AnyRow;

use super::{DbError, DbResult, PuzzleRow, Store, convert, get, parse};
use crate::domain::{PlayerId, PuzzleId, Timestamp};

const COLUMNS: &str = "id, player_id, game_id, ply, position, played, loss, solution, \
    move_values, attempts, solved_at, created_at";

/// How many puzzles a player has, and how many of them they solved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PuzzleCounts {
    pub total: u32,
    pub solved: u32,
}

impl Store {
    /// Stores `puzzles`, leaving any whose id is stored already as it is; answers how many
    /// were new.
    ///
    /// # Errors
    /// [`DbError::NotFound`] when a puzzle's game does not exist.
    pub async fn add_puzzles(&self, puzzles: &[PuzzleRow]) -> DbResult<u32> {
        let mut db = self.write_connection().await?;
        let mut transaction = db.begin().await?;
        let mut added = 0;
        for puzzle in puzzles {
            let ply: i32 = convert("puzzles.ply", puzzle.id.ply)?;
            let attempts: i32 = convert("puzzles.attempts", puzzle.attempts)?;
            added += sqlx::query(&format!(
                "INSERT INTO puzzles ({COLUMNS}) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) \
                 ON CONFLICT (id) DO NOTHING"
            ))
            .bind(puzzle.id.to_string())
            .bind(puzzle.player_id.as_str())
            .bind(puzzle.id.game_id.as_str())
            .bind(ply)
            .bind(puzzle.position.to_string())
            .bind(puzzle.played.to_string())
            .bind(puzzle.loss)
            .bind(puzzle.solution.to_string())
            .bind(&puzzle.move_values)
            .bind(attempts)
            .bind(puzzle.solved_at.map(|at| at.0))
            .bind(puzzle.created_at.0)
            .execute(&mut *transaction)
            .await?
            .rows_affected();
        }
        transaction.commit().await?;
        u32::try_from(added).map_err(|_| DbError::Other("too many puzzles added".into()))
    }

    /// Up to `limit` puzzles of every player, in id order after `after` (from the first when
    /// `None`): a sweep over all of them, a page at a time.
    ///
    /// # Errors
    /// [`DbError::Other`] if a stored value is corrupt.
    pub async fn puzzles_after(
        &self,
        after: Option<&PuzzleId>,
        limit: u32,
    ) -> DbResult<Vec<PuzzleRow>> {
        let after = after.map(ToString::to_string).unwrap_or_default();
        sqlx::query(&format!("SELECT {COLUMNS} FROM puzzles WHERE id > $1 ORDER BY id LIMIT $2"))
            .bind(after)
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(puzzle_row)
            .collect()
    }

    /// Removes the puzzles `ids`; answers how many there were.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn remove_puzzles(&self, ids: &[PuzzleId]) -> DbResult<u64> {
        let mut db = self.write_connection().await?;
        let mut transaction = db.begin().await?;
        let mut removed = 0;
        for id in ids {
            removed += sqlx::query("DELETE FROM puzzles WHERE id = $1")
                .bind(id.to_string())
                .execute(&mut *transaction)
                .await?
                .rows_affected();
        }
        transaction.commit().await?;
        Ok(removed)
    }

    /// The puzzle `id`, if there is one.
    ///
    /// # Errors
    /// [`DbError::Other`] if a stored value is corrupt.
    pub async fn puzzle(&self, id: &PuzzleId) -> DbResult<Option<PuzzleRow>> {
        sqlx::query(&format!("SELECT {COLUMNS} FROM puzzles WHERE id = $1"))
            .bind(id.to_string())
            .fetch_optional(&self.pool)
            .await?
            .as_ref()
            .map(puzzle_row)
            .transpose()
    }

    /// Up to `limit` of `player`'s puzzles: the unsolved ones first, then those that teach most
    /// (the biggest loss the move played cost), then the newest.
    ///
    /// # Errors
    /// [`DbError::Other`] if a stored value is corrupt.
    pub async fn player_puzzles(&self, player: &PlayerId, limit: u32) -> DbResult<Vec<PuzzleRow>> {
        sqlx::query(&format!(
            "SELECT {COLUMNS} FROM puzzles WHERE player_id = $1 \
             ORDER BY CASE WHEN solved_at IS NULL THEN 0 ELSE 1 END, loss DESC, created_at DESC, id \
             LIMIT $2"
        ))
        .bind(player.as_str())
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(puzzle_row)
        .collect()
    }

    /// How many puzzles `player` has, and has solved.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn puzzle_counts(&self, player: &PlayerId) -> DbResult<PuzzleCounts> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS total, COUNT(solved_at) AS solved FROM puzzles \
             WHERE player_id = $1",
        )
        .bind(player.as_str())
        .fetch_one(&self.pool)
        .await?;
        Ok(PuzzleCounts {
            total: convert("puzzles.total", get::<i64>(&row, "total")?)?,
            solved: convert("puzzles.solved", get::<i64>(&row, "solved")?)?,
        })
    }

    /// Counts an answer of `player`'s to their puzzle `id`; a right one (`solved`) marks it
    /// solved at `at`, unless it was solved before. Answers the puzzle as it now stands.
    ///
    /// # Errors
    /// [`DbError::NotFound`] when there is no such puzzle of `player`'s.
    pub async fn record_attempt(
        &self,
        id: &PuzzleId,
        player: &PlayerId,
        solved: bool,
        at: Timestamp,
    ) -> DbResult<PuzzleRow> {
        let mut db = self.write_connection().await?;
        let query = if solved {
            sqlx::query(
                "UPDATE puzzles SET attempts = attempts + 1, solved_at = COALESCE(solved_at, $3) \
                 WHERE id = $1 AND player_id = $2",
            )
        } else {
            sqlx::query(
                "UPDATE puzzles SET attempts = attempts + 1 WHERE id = $1 AND player_id = $2",
            )
        };
        let id_text = id.to_string();
        let query = query.bind(id_text.as_str()).bind(player.as_str());
        let query = if solved { query.bind(at.0) } else { query };
        let updated = query.execute(&mut *db).await?.rows_affected();
        drop(db);
        if updated == 0 {
            return Err(DbError::NotFound);
        }
        self.puzzle(id).await?.ok_or(DbError::NotFound)
    }
}

fn puzzle_row(row: &AnyRow) -> DbResult<PuzzleRow> {
    let game_id = parse("puzzles.game_id", &get::<String>(row, "game_id")?)?;
    let ply: u32 = convert("puzzles.ply", get::<i32>(row, "ply")?)?;
    let id: PuzzleId = parse("puzzles.id", &get::<String>(row, "id")?)?;
    if id.game_id != game_id || id.ply != ply {
        return Err(DbError::Other(format!("puzzle {id} is stored with game {game_id} ply {ply}")));
    }
    Ok(PuzzleRow {
        id,
        player_id: parse("puzzles.player_id", &get::<String>(row, "player_id")?)?,
        position: parse("puzzles.position", &get::<String>(row, "position")?)?,
        played: parse("puzzles.played", &get::<String>(row, "played")?)?,
        loss: get(row, "loss")?,
        solution: parse("puzzles.solution", &get::<String>(row, "solution")?)?,
        move_values: get(row, "move_values")?,
        attempts: convert("puzzles.attempts", get::<i32>(row, "attempts")?)?,
        solved_at: get::<Option<i64>>(row, "solved_at")?.map(Timestamp),
        created_at: Timestamp(get(row, "created_at")?),
    })
}
