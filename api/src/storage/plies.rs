//! The statements that write a game's plies, shared by the store and both writers: each ply is
//! stored only where its game is live and it is the next one.

use outflank_engine::Move;
use sqlx::{Any, Transaction};

use super::{DbError, DbResult, convert};
use crate::domain::{GameId, Timestamp};

/// [`Store::append_plies`](super::Store::append_plies) of a single ply on PostgreSQL, as one statement: the most common
/// write of a busy server costs one round trip. The ply is stored only if the game is live and
/// the ply is its next one.
pub(super) async fn append_one_postgres(
    pool: &sqlx::AnyPool,
    write: &PlyWrite,
    mv: Move,
) -> DbResult<()> {
    let PlyWrite { game_id, first, at, .. } = write;
    let ply: i32 = convert("moves.ply", *first)?;
    let inserted = sqlx::query(
        "INSERT INTO moves (game_id, ply, mv, played_at) SELECT id, $2, $3, $4 FROM games \
         WHERE id = $1 AND status = 'live' \
             AND COALESCE((SELECT MAX(ply) FROM moves WHERE game_id = $1), -1) + 1 = $2",
    )
    .bind(game_id.as_str())
    .bind(ply)
    .bind(mv.to_string())
    .bind(at.0)
    .execute(pool)
    .await?
    .rows_affected();
    if inserted == 0 {
        return Err(missing_or_over(pool, game_id).await);
    }
    Ok(())
}

/// What [`Store::append_plies`](super::Store::append_plies) writes.
#[derive(Debug)]
pub(super) struct PlyWrite {
    pub game_id: GameId,
    /// The number of the first ply, from 0.
    pub first: u32,
    pub plies: Vec<Move>,
    pub at: Timestamp,
}

/// The body of [`Store::append_plies`](super::Store::append_plies), inside `tx`.
pub(super) async fn append_in(tx: &mut Transaction<'_, Any>, write: &PlyWrite) -> DbResult<()> {
    let PlyWrite { game_id, first, plies, at } = write;
    // Locking the game row first serialises appends to one game on both backends.
    lock_live_game(tx, game_id).await?;
    for (offset, mv) in plies.iter().enumerate() {
        let ply: i32 = convert("moves.ply", u64::from(*first) + offset as u64)?;
        // Each ply is stored only if it is the next one, so a stale or repeated append fails.
        let inserted = sqlx::query(
            "INSERT INTO moves (game_id, ply, mv, played_at) SELECT $1, $2, $3, $4 \
             WHERE COALESCE((SELECT MAX(ply) FROM moves WHERE game_id = $1), -1) + 1 = $2",
        )
        .bind(game_id.as_str())
        .bind(ply)
        .bind(mv.to_string())
        .bind(at.0)
        .execute(&mut **tx)
        .await?
        .rows_affected();
        if inserted == 0 {
            return Err(DbError::Conflict);
        }
    }
    Ok(())
}

/// Touches a live game's row inside `tx`, which takes its write lock until the transaction ends.
pub(super) async fn lock_live_game(
    tx: &mut Transaction<'_, Any>,
    game_id: &GameId,
) -> DbResult<()> {
    let updated =
        sqlx::query("UPDATE games SET updated_at = updated_at WHERE id = $1 AND status = 'live'")
            .bind(game_id.as_str())
            .execute(&mut **tx)
            .await?
            .rows_affected();
    if updated > 0 {
        return Ok(());
    }
    Err(missing_or_over(&mut **tx, game_id).await)
}

/// After a conditional write to a live game changed nothing: was the game missing, or over?
pub(super) async fn missing_or_over<'e, E>(executor: E, game_id: &GameId) -> DbError
where
    E: sqlx::Executor<'e, Database = Any>,
{
    let found = sqlx::query("SELECT status FROM games WHERE id = $1")
        .bind(game_id.as_str())
        .fetch_optional(executor)
        .await;
    match found {
        Ok(Some(_)) => DbError::Conflict,
        Ok(None) => DbError::NotFound,
        Err(error) => error.into(),
    }
}
