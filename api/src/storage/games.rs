//! Games and their moves.
//!
//! A ply is stored only if it is the game's next one. A game's plies are numbered from 0 without
//! gaps (appended at the next number, removed from the end), so the next one is the highest
//! stored plus one: `COALESCE((SELECT MAX(ply) …), -1) + 1`, one step down the primary key's
//! index. Counting the game's plies instead read all of them on every move (on PostgreSQL
//! without the commit's flush, about twice the statement's cost at 30 plies a game).
//!
//! A move writes its plies alone, not its game's row: when a game last changed and when the
//! side to move started thinking are read back from its last ply ([`game_columns`],
//! [`last_change`]). Rewriting the row on every move had doubled the pages each move dirtied.

use std::collections::HashMap;
use std::sync::Arc;

use outflank_engine::Move;
use sqlx::any::AnyRow;
use sqlx::{Any, Transaction};

use super::plies::{PlyWrite, append_in, append_one_postgres, lock_live_game, missing_or_over};
use super::ratings::rate_game;
use super::write_latency::WriteLatency;
use super::{
    DbError, DbResult, FinishedGame, GameRecord, GameRow, GameSource, MoveRow, NewGame, RoomGame,
    SeatRow, Store, convert, get, parse, parse_opt,
};
use crate::accounts::rating::RatedGame;
use crate::domain::{GameId, GameStatus, PlayerId, RoomCode, Timestamp};

/// The columns of `games` that are read as they are stored.
const STORED_COLUMNS: [&str; 22] = [
    "id",
    "mode",
    "level",
    "black_id",
    "black_name",
    "white_id",
    "white_name",
    "status",
    "winner",
    "end_reason",
    "black_discs",
    "white_discs",
    "start_position",
    "move_time_ms",
    "room_code",
    "rated",
    "created_at",
    "finished_at",
    "origin",
    "stand_in",
    "time_control",
    "opening",
];

/// The select list of a game row, `games` being named `table` in the query; [`game_row`]
/// reads it by name. `updated_at` and a running clock's `turn_started_at` are the row's own or
/// the game's last ply's time, whichever is later (a stopped clock's stays `NULL`).
pub(super) fn game_columns(table: &str) -> String {
    let mut columns: Vec<String> =
        STORED_COLUMNS.iter().map(|column| format!("{table}.{column}")).collect();
    columns.push(format!("{} AS updated_at", last_change(table)));
    columns.push(format!("{} AS turn_started_at", later_than_last_ply(table, "turn_started_at")));
    columns.join(", ")
}

/// When the game `table` last changed: its row's `updated_at` or its last ply's time, whichever
/// is later.
pub(super) fn last_change(table: &str) -> String {
    later_than_last_ply(table, "updated_at")
}

/// `column` of the game `table`, or its last ply's time when that is later; `NULL` when the
/// column is (a comparison with `NULL` is never true).
fn later_than_last_ply(table: &str, column: &str) -> String {
    let last = last_ply_time(table);
    format!("CASE WHEN {last} > {table}.{column} THEN {last} ELSE {table}.{column} END")
}

/// When the last ply of the game `table` was played (`NULL` before the first): one step down
/// the primary key's index.
fn last_ply_time(table: &str) -> String {
    format!(
        "(SELECT lp.played_at FROM moves lp WHERE lp.game_id = {table}.id \
          ORDER BY lp.ply DESC LIMIT 1)"
    )
}

/// The SQL condition "the game `table` is timed": a mode that always is
/// ([`crate::domain::Mode::has_clock`]), or a game against the computer stored with a control.
pub(super) fn timed(table: &str) -> String {
    format!("({table}.mode IN ('friend', 'quick', 'ranked') OR {table}.time_control IS NOT NULL)")
}

impl Store {
    /// Stores a new live game.
    ///
    /// # Errors
    /// [`DbError::Conflict`] if the id is taken.
    pub async fn create_game(&self, game: &NewGame) -> DbResult<()> {
        let mut db = self.write_connection().await?;
        insert_game(&mut *db, game).await
    }

    /// Stores a new live game together with plies already played (an imported record, counted
    /// as [`Store::recorded_plies`]), and makes it its friend room's current game when
    /// `room_game` says which one it is: all of it or nothing.
    ///
    /// # Errors
    /// [`DbError::Conflict`] if the id is taken, or if the room's current game is not the one
    /// `room_game` expects (another request started the room's game first);
    /// [`DbError::NotFound`] if `room_game` is set and the game's room does not exist.
    pub async fn create_game_with(
        &self,
        game: &NewGame,
        plies: &[Move],
        at: Timestamp,
        room_game: Option<RoomGame<'_>>,
    ) -> DbResult<()> {
        let mut db = self.write_connection().await?;
        let mut tx = db.begin().await?;
        insert_game(&mut *tx, game).await?;
        insert_plies(&mut tx, &game.id, plies, at).await?;
        if !plies.is_empty() {
            let recorded: i32 = convert("games.recorded_plies", plies.len())?;
            sqlx::query("UPDATE games SET recorded_plies = $2 WHERE id = $1")
                .bind(game.id.as_str())
                .bind(recorded)
                .execute(&mut *tx)
                .await?;
        }
        if let Some(room_game) = room_game {
            let code = game.room_code.as_ref().ok_or(DbError::NotFound)?;
            make_room_game(&mut tx, code, &game.id, room_game).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Stores a game that is already over (an imported finished record): the game, its plies
    /// and how it ended, all of it or nothing. Such a game is never rated, and is marked
    /// [`GameSource::Imported`].
    ///
    /// # Errors
    /// [`DbError::Conflict`] if the id is taken; [`DbError::Other`] if `finished` says live or
    /// rated.
    pub async fn create_finished_game(
        &self,
        game: &NewGame,
        plies: &[Move],
        finished: &FinishedGame,
    ) -> DbResult<()> {
        if finished.status == GameStatus::Live || finished.rated.is_some() || game.rated {
            return Err(DbError::Other("an imported game must be over and unrated".into()));
        }
        if finished.review.is_some() {
            return Err(DbError::Other("an imported game's review is asked for on its own".into()));
        }
        let mut db = self.write_connection().await?;
        let mut tx = db.begin().await?;
        insert_game(&mut *tx, game).await?;
        insert_plies(&mut tx, &game.id, plies, game.created_at).await?;
        sqlx::query(
            "UPDATE games SET status = $2, winner = $3, end_reason = $4, black_discs = $5, \
                white_discs = $6, finished_at = $7, updated_at = $7, turn_started_at = NULL, \
                origin = NULL, imported = 1 \
             WHERE id = $1",
        )
        .bind(game.id.as_str())
        .bind(finished.status.as_str())
        .bind(finished.winner.map(|winner| winner.as_str()))
        .bind(finished.end_reason.as_str())
        .bind(i32::from(finished.black_discs))
        .bind(i32::from(finished.white_discs))
        .bind(finished.finished_at.0)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Stores ply `ply` (numbered from 0) of a live game. It must be the next ply: this is the
    /// write that makes a move durable before anyone is told, and a second write of the same ply
    /// (a double submission, or another node) fails.
    ///
    /// # Errors
    /// [`DbError::NotFound`] for an unknown game; [`DbError::Conflict`] if the game is not live,
    /// that ply is already stored, or earlier plies are missing.
    pub async fn append_move(
        &self,
        game_id: &GameId,
        ply: u32,
        mv: Move,
        at: Timestamp,
    ) -> DbResult<()> {
        self.append_plies(game_id, ply, &[mv], at).await
    }

    /// Stores `plies` of a live game from ply `first` (numbered from 0), all played `at`: one
    /// transaction for a move and the passes it forces, so a move costs one write. The game's
    /// row is not written: from now on it reads as changed `at`, and a running clock as started
    /// `at`.
    ///
    /// # Errors
    /// As [`Store::append_move`].
    pub async fn append_plies(
        &self,
        game_id: &GameId,
        first: u32,
        plies: &[Move],
        at: Timestamp,
    ) -> DbResult<()> {
        let started = std::time::Instant::now();
        let outcome = self.append_plies_now(game_id, first, plies, at).await;
        let finished = std::time::Instant::now();
        self.write_latency.record(finished.saturating_duration_since(started), finished);
        outcome
    }

    /// How long moves have lately taken to become durable.
    pub fn write_latency(&self) -> Arc<WriteLatency> {
        Arc::clone(&self.write_latency)
    }

    async fn append_plies_now(
        &self,
        game_id: &GameId,
        first: u32,
        plies: &[Move],
        at: Timestamp,
    ) -> DbResult<()> {
        let write = PlyWrite { game_id: game_id.clone(), first, plies: plies.to_vec(), at };
        if let Some(writer) = &self.sqlite_writer {
            return writer.append(write).await;
        }
        if let [mv] = write.plies[..] {
            return match &self.postgres_writer {
                Some(writer) => writer.append(write, mv).await,
                None => append_one_postgres(&self.pool, &write, mv).await,
            };
        }
        let mut tx = self.pool.begin().await?;
        append_in(&mut tx, &write).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Deletes the plies from `from_ply` on of a live game (undo); returns how many went. Plies
    /// of a record taken back and played again are the player's own: they no longer count as
    /// recorded.
    ///
    /// # Errors
    /// [`DbError::NotFound`] for an unknown game, [`DbError::Conflict`] if it is not live.
    pub async fn truncate_moves(&self, game_id: &GameId, from_ply: u32) -> DbResult<u64> {
        let from_ply: i32 = convert("moves.ply", from_ply)?;
        let mut db = self.write_connection().await?;
        let mut tx = db.begin().await?;
        lock_live_game(&mut tx, game_id).await?;
        let deleted = sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
            .bind(game_id.as_str())
            .bind(from_ply)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        sqlx::query("UPDATE games SET recorded_plies = $2 WHERE id = $1 AND recorded_plies > $2")
            .bind(game_id.as_str())
            .bind(from_ply)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(deleted)
    }

    /// Records the end of a live game and stops its clock; for a rated game with a result, moves
    /// both players' ratings in the same transaction. Only a live game can end, so a game ends,
    /// and is rated, exactly once even when a timeout and a move race.
    ///
    /// # Errors
    /// [`DbError::NotFound`] for an unknown game; [`DbError::Conflict`] if it already ended;
    /// [`DbError::Other`] if `finished.status` is [`GameStatus::Live`].
    pub async fn finish_game(
        &self,
        game_id: &GameId,
        finished: &FinishedGame,
    ) -> DbResult<Option<RatedGame>> {
        if finished.status == GameStatus::Live {
            return Err(DbError::Other("a game cannot finish with status live".into()));
        }
        let mut db = self.write_connection().await?;
        let mut tx = db.begin().await?;
        // The first statement writes, so SQLite takes its write lock before anything is read.
        let updated = sqlx::query(
            "UPDATE games SET status = $2, winner = $3, end_reason = $4, black_discs = $5, \
                white_discs = $6, finished_at = $7, updated_at = $7, turn_started_at = NULL, \
                origin = NULL \
             WHERE id = $1 AND status = 'live'",
        )
        .bind(game_id.as_str())
        .bind(finished.status.as_str())
        .bind(finished.winner.map(|winner| winner.as_str()))
        .bind(finished.end_reason.as_str())
        .bind(i32::from(finished.black_discs))
        .bind(i32::from(finished.white_discs))
        .bind(finished.finished_at.0)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if updated == 0 {
            drop(tx);
            drop(db);
            return Err(missing_or_over(&self.pool, game_id).await);
        }
        let rated = match &finished.rated {
            Some(players) if finished.status == GameStatus::Finished => {
                rate_game(&mut tx, game_id, players, finished.winner, finished.finished_at).await?
            }
            _ => None,
        };
        if let Some(engine) = finished.review.as_deref()
            && finished.status == GameStatus::Finished
        {
            queue_review(&mut tx, game_id, engine, finished.finished_at).await?;
        }
        tx.commit().await?;
        Ok(rated)
    }

    /// The other player of `player`'s most recent quick or ranked game, if any: the matchmaking
    /// queue pairs them again only when nobody else fits.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn last_opponent(&self, player: &PlayerId) -> DbResult<Option<PlayerId>> {
        let row = sqlx::query(
            "SELECT black_id, white_id FROM games \
             WHERE (black_id = $1 OR white_id = $1) AND mode IN ('quick', 'ranked') \
             ORDER BY created_at DESC LIMIT 1",
        )
        .bind(player.as_str())
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let black: Option<String> = get(&row, "black_id")?;
        let white: Option<String> = get(&row, "white_id")?;
        let other = if black.as_deref() == Some(player.as_str()) { white } else { black };
        other.map(|id| parse("black_id", &id)).transpose()
    }

    /// A game without its moves: what checking its status or room needs, in one row rather
    /// than one per ply.
    ///
    /// # Errors
    /// [`DbError::NotFound`] for an unknown game; [`DbError::Other`] if a stored value is corrupt.
    pub async fn game(&self, game_id: &GameId) -> DbResult<GameRow> {
        let row =
            sqlx::query(&format!("SELECT {} FROM games WHERE id = $1", game_columns("games")))
                .bind(game_id.as_str())
                .fetch_optional(&self.pool)
                .await?
                .ok_or(DbError::NotFound)?;
        game_row(&row)
    }

    /// Whether a game with this id is stored: one indexed lookup, reading none of its columns,
    /// so that a corrupt row elsewhere cannot fail the question.
    ///
    /// # Errors
    /// [`DbError::Other`] if the database cannot answer.
    pub async fn game_exists(&self, game_id: &GameId) -> DbResult<bool> {
        let row = sqlx::query("SELECT 1 FROM games WHERE id = $1")
            .bind(game_id.as_str())
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some())
    }

    /// Where the moves of the game `game_id` come from: played here, or an imported record.
    ///
    /// # Errors
    /// [`DbError::NotFound`] for an unknown game.
    pub async fn game_source(&self, game_id: &GameId) -> DbResult<GameSource> {
        let row = sqlx::query("SELECT imported FROM games WHERE id = $1")
            .bind(game_id.as_str())
            .fetch_optional(&self.pool)
            .await?
            .ok_or(DbError::NotFound)?;
        Ok(if get::<i32>(&row, "imported")? == 0 {
            GameSource::Played
        } else {
            GameSource::Imported
        })
    }

    /// How many of the first plies of game `game_id` came from an imported record it continues
    /// (0 for a game played from its start): they are not its seated players' own.
    ///
    /// # Errors
    /// [`DbError::NotFound`] for an unknown game.
    pub async fn recorded_plies(&self, game_id: &GameId) -> DbResult<u32> {
        let row = sqlx::query("SELECT recorded_plies FROM games WHERE id = $1")
            .bind(game_id.as_str())
            .fetch_optional(&self.pool)
            .await?
            .ok_or(DbError::NotFound)?;
        convert("games.recorded_plies", get::<i32>(&row, "recorded_plies")?)
    }

    /// A game with its moves in ply order.
    ///
    /// # Errors
    /// [`DbError::NotFound`] for an unknown game; [`DbError::Other`] if a stored value is corrupt.
    pub async fn load_game(&self, game_id: &GameId) -> DbResult<GameRecord> {
        let game = self.game(game_id).await?;
        let moves = sqlx::query(
            "SELECT game_id, ply, mv, played_at FROM moves WHERE game_id = $1 ORDER BY ply",
        )
        .bind(game_id.as_str())
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(move_row)
        .map(|result| result.map(|(_, mv)| mv))
        .collect::<DbResult<_>>()?;
        Ok(GameRecord { game, moves })
    }

    /// The first `plies` moves of each of `games` (fewer for a shorter game, none for an
    /// unknown one): enough to name their openings in a list without loading whole games.
    ///
    /// # Errors
    /// [`DbError::Other`] if a stored value is corrupt.
    pub async fn first_moves(
        &self,
        games: &[GameId],
        plies: u32,
    ) -> DbResult<HashMap<GameId, Vec<Move>>> {
        let mut moves: HashMap<GameId, Vec<Move>> = HashMap::new();
        if games.is_empty() {
            return Ok(moves);
        }
        let ids = (2..games.len() + 2).map(|n| format!("${n}")).collect::<Vec<_>>().join(", ");
        let sql = format!(
            "SELECT game_id, ply, mv, played_at FROM moves \
             WHERE ply < $1 AND game_id IN ({ids}) ORDER BY game_id, ply"
        );
        let mut query = sqlx::query(&sql).bind(i64::from(plies));
        for id in games {
            query = query.bind(id.as_str());
        }
        for row in &query.fetch_all(&self.pool).await? {
            let (game_id, mv) = move_row(row)?;
            moves.entry(game_id).or_default().push(mv.mv);
        }
        Ok(moves)
    }

    /// Every live game with a clock (between two people at a distance, or against the computer
    /// under a chosen control) with its moves, oldest first: what a restarted server resumes,
    /// since their clocks run. Games without a clock (against the computer, on one device)
    /// wait in the store until someone opens them.
    ///
    /// # Errors
    /// [`DbError::Other`] if a stored value is corrupt.
    pub async fn live_timed_games(&self) -> DbResult<Vec<GameRecord>> {
        let games = sqlx::query(&format!(
            "SELECT {columns} FROM games WHERE status = 'live' AND {timed} \
             ORDER BY created_at, id",
            columns = game_columns("games"),
            timed = timed("games"),
        ))
        .fetch_all(&self.pool)
        .await?;
        let mut moves: HashMap<GameId, Vec<MoveRow>> = HashMap::new();
        let rows = sqlx::query(&format!(
            "SELECT m.game_id, m.ply, m.mv, m.played_at FROM moves m \
             JOIN games g ON g.id = m.game_id \
             WHERE g.status = 'live' AND {timed} ORDER BY m.game_id, m.ply",
            timed = timed("g"),
        ))
        .fetch_all(&self.pool)
        .await?;
        for row in &rows {
            let (game_id, mv) = move_row(row)?;
            moves.entry(game_id).or_default().push(mv);
        }
        games
            .iter()
            .map(|row| {
                let game = game_row(row)?;
                let moves = moves.remove(&game.id).unwrap_or_default();
                Ok(GameRecord { game, moves })
            })
            .collect()
    }

    /// Ends as aborted every live game without a clock (against the computer untimed, on one
    /// device) in which nothing happened since `idle_since`: left games stop counting against
    /// their players' limits and are not kept live for ever. Returns how many ended.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn abort_abandoned_games(
        &self,
        idle_since: Timestamp,
        now: Timestamp,
    ) -> DbResult<u64> {
        let mut db = self.write_connection().await?;
        let ended = sqlx::query(&format!(
            "UPDATE games SET status = 'aborted', end_reason = 'aborted', finished_at = $2, \
                updated_at = $2, turn_started_at = NULL, origin = NULL \
             WHERE status = 'live' AND NOT {timed} AND {changed} < $1",
            changed = last_change("games"),
            timed = timed("games"),
        ))
        .bind(idle_since.0)
        .bind(now.0)
        .execute(&mut *db)
        .await?
        .rows_affected();
        Ok(ended)
    }

    /// A player's ended games (finished or aborted), most recent first, without moves. Imported
    /// games are left out: the importer sits in both seats of one, but its moves are whoever's
    /// the record says.
    ///
    /// # Errors
    /// [`DbError::Other`] if a stored value is corrupt.
    pub async fn recent_games(&self, player_id: &PlayerId, limit: u32) -> DbResult<Vec<GameRow>> {
        sqlx::query(&format!(
            "SELECT {columns} FROM games \
             WHERE (black_id = $1 OR white_id = $1) AND status <> 'live' AND imported = 0 \
             ORDER BY finished_at DESC, id DESC LIMIT $2",
            columns = game_columns("games"),
        ))
        .bind(player_id.as_str())
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(game_row)
        .collect()
    }
}

impl Store {
    /// A player's live games against people (friend, quick, ranked) or the computer, each with
    /// how many plies it has (passes included, so its parity says whose turn it is), the most
    /// recently changed first.
    ///
    /// # Errors
    /// [`DbError::Other`] if a stored value is corrupt.
    pub async fn live_games_of(
        &self,
        player_id: &PlayerId,
        limit: u32,
    ) -> DbResult<Vec<(GameRow, u32)>> {
        sqlx::query(&format!(
            "SELECT {columns}, \
                 (SELECT COUNT(*) FROM moves m WHERE m.game_id = games.id) AS ply_count \
             FROM games \
             WHERE (black_id = $1 OR white_id = $1) AND status = 'live' \
               AND mode IN ('friend', 'quick', 'ranked', 'computer') \
             ORDER BY updated_at DESC, id DESC LIMIT $2",
            columns = game_columns("games"),
        ))
        .bind(player_id.as_str())
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|row| Ok((game_row(row)?, convert("ply_count", get::<i64>(row, "ply_count")?)?)))
        .collect()
    }
}

/// Queues, inside the transaction that finishes it, the review of `game_id` by `engine`,
/// unless the game has an analysis already.
async fn queue_review(
    tx: &mut Transaction<'_, Any>,
    game_id: &GameId,
    engine: &str,
    at: Timestamp,
) -> DbResult<()> {
    sqlx::query(
        "INSERT INTO analyses (game_id, status, engine, requested_by, created_at) \
         VALUES ($1, 'queued', $2, NULL, $3) ON CONFLICT (game_id) DO NOTHING",
    )
    .bind(game_id.as_str())
    .bind(engine)
    .bind(at.0)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Inserts a new game's first `plies`, numbered from 0, all played `at`.
async fn insert_plies(
    tx: &mut Transaction<'_, Any>,
    game_id: &GameId,
    plies: &[Move],
    at: Timestamp,
) -> DbResult<()> {
    for (ply, mv) in plies.iter().enumerate() {
        let ply: i32 = convert("moves.ply", ply)?;
        sqlx::query("INSERT INTO moves (game_id, ply, mv, played_at) VALUES ($1, $2, $3, $4)")
            .bind(game_id.as_str())
            .bind(ply)
            .bind(mv.to_string())
            .bind(at.0)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// Makes `game_id` the current game of room `code`, and counts it, if the room's current game
/// is still the one `room_game` expects. The check is in the `UPDATE` itself, so of two racing
/// transactions the second finds the row changed and updates nothing.
async fn make_room_game(
    tx: &mut Transaction<'_, Any>,
    code: &RoomCode,
    game_id: &GameId,
    room_game: RoomGame<'_>,
) -> DbResult<()> {
    let query = match room_game {
        RoomGame::First => sqlx::query(
            "UPDATE rooms SET game_id = $2, games_played = games_played + 1 \
             WHERE code = $1 AND game_id IS NULL",
        )
        .bind(code.as_str())
        .bind(game_id.as_str()),
        RoomGame::Rematch { of } => sqlx::query(
            "UPDATE rooms SET game_id = $2, games_played = games_played + 1 \
             WHERE code = $1 AND game_id = $3",
        )
        .bind(code.as_str())
        .bind(game_id.as_str())
        .bind(of.as_str()),
    };
    let updated = query.execute(&mut **tx).await?.rows_affected();
    if updated == 1 {
        return Ok(());
    }
    let room = sqlx::query("SELECT code FROM rooms WHERE code = $1")
        .bind(code.as_str())
        .fetch_optional(&mut **tx)
        .await?;
    Err(if room.is_some() { DbError::Conflict } else { DbError::NotFound })
}

/// Inserts a `games` row, on the pool or inside a transaction.
async fn insert_game<'e, E>(executor: E, game: &NewGame) -> DbResult<()>
where
    E: sqlx::Executor<'e, Database = Any>,
{
    sqlx::query(
        "INSERT INTO games (id, mode, level, black_id, black_name, white_id, white_name, \
            status, start_position, move_time_ms, room_code, rated, created_at, updated_at, \
            turn_started_at, origin, stand_in, time_control, opening) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'live', $8, $9, $10, $11, $12, $12, $13, $14, $15, \
            $16, $17)",
    )
    .bind(game.id.as_str())
    .bind(game.mode.as_str())
    .bind(game.level.map(|level| level.to_string()))
    .bind(game.black.id.as_ref().map(PlayerId::as_str))
    .bind(game.black.name.as_str())
    .bind(game.white.id.as_ref().map(PlayerId::as_str))
    .bind(game.white.name.as_str())
    .bind(game.start_position.to_string())
    .bind(game.move_time_ms)
    .bind(game.room_code.as_ref().map(|code| code.as_str()))
    .bind(i32::from(game.rated))
    .bind(game.created_at.0)
    .bind(game.turn_started_at.map(|at| at.0))
    .bind(game.origin.map(|origin| origin.to_string()))
    .bind(i32::from(game.stand_in))
    .bind(game.time_control.map(|control| control.to_string()))
    .bind(game.opening.map(|opening| opening.to_string()))
    .execute(executor)
    .await?;
    Ok(())
}

/// Reads a `games` row.
pub(super) fn game_row(row: &AnyRow) -> DbResult<GameRow> {
    let text = |column: &str| get::<String>(row, column);
    let opt_text = |column: &str| get::<Option<String>>(row, column);
    let time = |column: &str| get::<i64>(row, column).map(Timestamp);
    let opt_time = |column: &str| get::<Option<i64>>(row, column).map(|at| at.map(Timestamp));
    let discs = |column: &str| -> DbResult<Option<u8>> {
        get::<Option<i32>>(row, column)?.map(|n| convert(column, n)).transpose()
    };
    Ok(GameRow {
        id: parse("games.id", &text("id")?)?,
        mode: parse("games.mode", &text("mode")?)?,
        level: parse_opt("games.level", opt_text("level")?)?,
        black: SeatRow {
            id: parse_opt("games.black_id", opt_text("black_id")?)?,
            name: text("black_name")?,
        },
        white: SeatRow {
            id: parse_opt("games.white_id", opt_text("white_id")?)?,
            name: text("white_name")?,
        },
        status: parse("games.status", &text("status")?)?,
        winner: parse_opt("games.winner", opt_text("winner")?)?,
        end_reason: parse_opt("games.end_reason", opt_text("end_reason")?)?,
        black_discs: discs("black_discs")?,
        white_discs: discs("white_discs")?,
        start_position: parse("games.start_position", &text("start_position")?)?,
        move_time_ms: get(row, "move_time_ms")?,
        room_code: parse_opt("games.room_code", opt_text("room_code")?)?,
        rated: get::<i32>(row, "rated")? != 0,
        created_at: time("created_at")?,
        updated_at: time("updated_at")?,
        finished_at: opt_time("finished_at")?,
        turn_started_at: opt_time("turn_started_at")?,
        origin: parse_opt("games.origin", opt_text("origin")?)?,
        stand_in: get::<i32>(row, "stand_in")? != 0,
        time_control: parse_opt("games.time_control", opt_text("time_control")?)?,
        opening: parse_opt("games.opening", opt_text("opening")?)?,
    })
}

/// Reads a `moves` row with the game it belongs to.
fn move_row(row: &AnyRow) -> DbResult<(GameId, MoveRow)> {
    let game_id = parse("moves.game_id", &get::<String>(row, "game_id")?)?;
    let text: String = get(row, "mv")?;
    let mv = parse("moves.mv", &text)?;
    let ply = convert("moves.ply", get::<i32>(row, "ply")?)?;
    Ok((game_id, MoveRow { ply, mv, played_at: Timestamp(get(row, "played_at")?) }))
}
