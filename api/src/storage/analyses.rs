//! The engine's analyses of finished games: one row per game, claimed by one node at a time.
//!
//! A row is queued once; it is queued again only after a failure or for another engine, so a
//! game is never analysed twice by the same engine. A node takes a row with one conditional
//! `UPDATE` ([`Store::claim_analysis`]): a queued row, or a running one whose claim is older
//! than the caller's staleness bound (its node stopped saying it works on it). Progress, the
//! result and failures are written only by the node holding the claim.
//!
//! An open row asked for by a player keeps the client it was asked from (`requested_from`), so
//! that analyses waiting can be capped per address as well as per player; the address goes
//! when the analysis ends.

use sqlx::any::AnyRow;

use super::{
    AnalysisRequester, AnalysisRow, AnalysisStatus, DbError, DbResult, GameSource, OpenAnalyses,
    QueuedAnalysis, Store, convert, get, parse, parse_opt,
};
use crate::domain::{GameId, Timestamp};

const COLUMNS: &str = "game_id, status, engine, requested_by, progress_done, progress_total, \
    claimed_by, claimed_at, result, error, created_at, finished_at";

impl Store {
    /// Queues the analysis of `game_id` by `engine`, asked for by `requested` (`None` at the
    /// end of a game). A game already queued, running or analysed by this engine is left as it
    /// is ([`QueuedAnalysis::Existing`]); a failed one, or one made by another engine, is queued
    /// again.
    ///
    /// # Errors
    /// [`DbError::NotFound`] for an unknown game.
    pub async fn queue_analysis(
        &self,
        game_id: &GameId,
        engine: &str,
        requested: Option<&AnalysisRequester>,
        at: Timestamp,
    ) -> DbResult<QueuedAnalysis> {
        let requested_by = requested.map(|requester| requester.player.as_str());
        let requested_from = requested.map(|requester| requester.client.to_string());
        let mut db = self.write_connection().await?;
        let inserted = sqlx::query(
            "INSERT INTO analyses (game_id, status, engine, requested_by, requested_from, \
                created_at) \
             VALUES ($1, 'queued', $2, $3, $4, $5) ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(game_id.as_str())
        .bind(engine)
        .bind(requested_by)
        .bind(requested_from.as_deref())
        .bind(at.0)
        .execute(&mut *db)
        .await?
        .rows_affected();
        let queued = inserted > 0 || {
            sqlx::query(
                "UPDATE analyses SET status = 'queued', engine = $2, requested_by = $3, \
                    requested_from = $4, progress_done = 0, progress_total = 0, \
                    claimed_by = NULL, claimed_at = NULL, result = NULL, error = NULL, \
                    created_at = $5, finished_at = NULL \
                 WHERE game_id = $1 AND (status = 'failed' OR (status = 'done' AND engine <> $2))",
            )
            .bind(game_id.as_str())
            .bind(engine)
            .bind(requested_by)
            .bind(requested_from.as_deref())
            .bind(at.0)
            .execute(&mut *db)
            .await?
            .rows_affected()
                > 0
        };
        drop(db);
        let row = self.analysis(game_id).await?.ok_or(DbError::NotFound)?;
        Ok(if queued { QueuedAnalysis::Queued(row) } else { QueuedAnalysis::Existing(row) })
    }

    /// The analysis of `game_id`, if one was ever queued.
    ///
    /// # Errors
    /// [`DbError::Other`] if a stored value is corrupt.
    pub async fn analysis(&self, game_id: &GameId) -> DbResult<Option<AnalysisRow>> {
        sqlx::query(&format!("SELECT {COLUMNS} FROM analyses WHERE game_id = $1"))
            .bind(game_id.as_str())
            .fetch_optional(&self.pool)
            .await?
            .as_ref()
            .map(analysis_row)
            .transpose()
    }

    /// Claims the analysis of `game_id` for `node`: a queued one, or a running one whose claim
    /// was last renewed before `stale_before`. `None` when it is not to be claimed (another
    /// node holds it, or it is done). Exactly one of several racing nodes gets it.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn claim_analysis(
        &self,
        game_id: &GameId,
        node: &str,
        now: Timestamp,
        stale_before: Timestamp,
    ) -> DbResult<Option<AnalysisRow>> {
        let mut db = self.write_connection().await?;
        let claimed = sqlx::query(
            "UPDATE analyses SET status = 'running', claimed_by = $2, claimed_at = $3 \
             WHERE game_id = $1 \
                AND (status = 'queued' OR (status = 'running' AND claimed_at < $4))",
        )
        .bind(game_id.as_str())
        .bind(node)
        .bind(now.0)
        .bind(stale_before.0)
        .execute(&mut *db)
        .await?
        .rows_affected();
        drop(db);
        if claimed == 0 {
            return Ok(None);
        }
        self.analysis(game_id).await
    }

    /// Up to `limit` analyses of games from `source` that could be claimed now, oldest first:
    /// queued ones, and running ones whose claim was last renewed before `stale_before`.
    ///
    /// # Errors
    /// [`DbError::Other`] if a stored value is corrupt.
    pub async fn claimable_analyses(
        &self,
        stale_before: Timestamp,
        source: GameSource,
        limit: u32,
    ) -> DbResult<Vec<GameId>> {
        let imported = i32::from(source == GameSource::Imported);
        sqlx::query(
            "SELECT a.game_id FROM analyses a JOIN games g ON g.id = a.game_id \
             WHERE (a.status = 'queued' OR (a.status = 'running' AND a.claimed_at < $1)) \
                AND g.imported = $2 \
             ORDER BY a.created_at, a.game_id LIMIT $3",
        )
        .bind(stale_before.0)
        .bind(imported)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|row| parse("analyses.game_id", &get::<String>(row, "game_id")?))
        .collect()
    }

    /// Records how far `node`'s analysis of `game_id` has come, renewing its claim.
    ///
    /// # Errors
    /// [`DbError::Conflict`] when `node` no longer holds the claim.
    pub async fn analysis_progress(
        &self,
        game_id: &GameId,
        node: &str,
        (done, total): (u32, u32),
        now: Timestamp,
    ) -> DbResult<()> {
        let done: i32 = convert("analyses.progress_done", done)?;
        let total: i32 = convert("analyses.progress_total", total)?;
        let mut db = self.write_connection().await?;
        let updated = sqlx::query(
            "UPDATE analyses SET progress_done = $3, progress_total = $4, claimed_at = $5 \
             WHERE game_id = $1 AND claimed_by = $2 AND status = 'running'",
        )
        .bind(game_id.as_str())
        .bind(node)
        .bind(done)
        .bind(total)
        .bind(now.0)
        .execute(&mut *db)
        .await?
        .rows_affected();
        if updated == 0 { Err(DbError::Conflict) } else { Ok(()) }
    }

    /// Stores the result of `node`'s analysis of `game_id`: it is done.
    ///
    /// # Errors
    /// [`DbError::Conflict`] when `node` no longer holds the claim.
    pub async fn finish_analysis(
        &self,
        game_id: &GameId,
        node: &str,
        result: &str,
        now: Timestamp,
    ) -> DbResult<()> {
        self.end_analysis(game_id, node, (AnalysisStatus::Done, Some(result), None), now).await
    }

    /// Records that `node`'s analysis of `game_id` failed, and why.
    ///
    /// # Errors
    /// [`DbError::Conflict`] when `node` no longer holds the claim.
    pub async fn fail_analysis(
        &self,
        game_id: &GameId,
        node: &str,
        error: &str,
        now: Timestamp,
    ) -> DbResult<()> {
        self.end_analysis(game_id, node, (AnalysisStatus::Failed, None, Some(error)), now).await
    }

    async fn end_analysis(
        &self,
        game_id: &GameId,
        node: &str,
        (status, result, error): (AnalysisStatus, Option<&str>, Option<&str>),
        now: Timestamp,
    ) -> DbResult<()> {
        let mut db = self.write_connection().await?;
        let updated = sqlx::query(
            "UPDATE analyses SET status = $3, result = $4, error = $5, finished_at = $6, \
                requested_from = NULL, \
                progress_done = CASE WHEN $3 = 'done' THEN progress_total ELSE progress_done END \
             WHERE game_id = $1 AND claimed_by = $2 AND status = 'running'",
        )
        .bind(game_id.as_str())
        .bind(node)
        .bind(status.as_str())
        .bind(result)
        .bind(error)
        .bind(now.0)
        .execute(&mut *db)
        .await?
        .rows_affected();
        if updated == 0 { Err(DbError::Conflict) } else { Ok(()) }
    }

    /// How many analyses `requester` has queued or running: asked for by its player, and
    /// asked for from its client address (by anyone), in one read.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn open_analyses_of(&self, requester: &AnalysisRequester) -> DbResult<OpenAnalyses> {
        let row = sqlx::query(
            "SELECT \
                COALESCE(SUM(CASE WHEN requested_by = $1 THEN 1 ELSE 0 END), 0) AS by_player, \
                COALESCE(SUM(CASE WHEN requested_from = $2 THEN 1 ELSE 0 END), 0) AS from_client \
             FROM analyses \
             WHERE (requested_by = $1 OR requested_from = $2) AND status IN ('queued', 'running')",
        )
        .bind(requester.player.as_str())
        .bind(requester.client.to_string())
        .fetch_one(&self.pool)
        .await?;
        Ok(OpenAnalyses {
            by_player: convert("by_player", get::<i64>(&row, "by_player")?)?,
            from_client: convert("from_client", get::<i64>(&row, "from_client")?)?,
        })
    }
}

fn analysis_row(row: &AnyRow) -> DbResult<AnalysisRow> {
    let count = |column: &str| -> DbResult<u32> { convert(column, get::<i32>(row, column)?) };
    Ok(AnalysisRow {
        game_id: parse("analyses.game_id", &get::<String>(row, "game_id")?)?,
        status: parse("analyses.status", &get::<String>(row, "status")?)?,
        engine: get(row, "engine")?,
        requested_by: parse_opt("analyses.requested_by", get(row, "requested_by")?)?,
        progress_done: count("progress_done")?,
        progress_total: count("progress_total")?,
        claimed_by: get(row, "claimed_by")?,
        claimed_at: get::<Option<i64>>(row, "claimed_at")?.map(Timestamp),
        result: get(row, "result")?,
        error: get(row, "error")?,
        created_at: Timestamp(get(row, "created_at")?),
        finished_at: get::<Option<i64>>(row, "finished_at")?.map(Timestamp),
    })
}
