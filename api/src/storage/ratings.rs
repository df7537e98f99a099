//! Ratings, one standing per account and pool, and their history. The rating of a game is
//! applied in [`rate_game`], inside the transaction that finishes it; a deleted account's
//! standings are kept for a cool-down by [`keep_standings`] and given back by
//! [`restore_standings`].

use sqlx::any::AnyRow;
use sqlx::{Any, Transaction};

use super::{DbError, DbResult, Store, convert, get, parse};
use crate::accounts::rating::{self, RatedGame, RatingChange, Score, Standing};
use crate::domain::{GameId, PlayerId, Timestamp, Winner};
use crate::live::{Pool, RatedPlayers, winner_of};
use outflank_engine::Color;

/// An account's standing in one pool: its rating and results there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PoolStanding {
    pub pool: Pool,
    pub rating: f64,
    pub rated_games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl PoolStanding {
    /// Where every account starts in `pool`: 1,200, no games.
    pub fn new(pool: Pool) -> PoolStanding {
        PoolStanding { pool, rating: rating::START, rated_games: 0, wins: 0, draws: 0, losses: 0 }
    }
}

/// One line of a pool's leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct LeaderboardRow {
    pub player_id: PlayerId,
    pub name: String,
    pub standing: PoolStanding,
}

/// One rated game of a player: its pool and the player's change.
#[derive(Clone, Debug, PartialEq)]
pub struct PooledChange {
    pub pool: Pool,
    pub change: RatingChange,
}

/// The columns of `ratings` read by [`standing_row`].
const STANDING_COLUMNS: &str = "r.pool, r.rating, r.rated_games, r.wins, r.draws, r.losses";

/// Who the leaderboards rank: named accounts that are not deleted, with a rated game in the
/// pool, not sanctioned for engine assistance nor closed.
const RANKED: &str = "a.deleted_at IS NULL AND a.name IS NOT NULL AND r.rated_games > 0 \
    AND NOT EXISTS (SELECT 1 FROM sanctions s WHERE s.player_id = a.player_id \
    AND s.lifted_at IS NULL AND s.kind IN ('engine', 'closed'))";

impl Store {
    /// Player `id`'s standing in every pool, in [`Pool::ALL`]'s order; a pool it has not
    /// played in stands at [`PoolStanding::new`].
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn standings(&self, id: &PlayerId) -> DbResult<Vec<PoolStanding>> {
        let rows = sqlx::query(&format!(
            "SELECT {STANDING_COLUMNS} FROM ratings r WHERE r.player_id = $1"
        ))
        .bind(id.as_str())
        .fetch_all(&self.pool)
        .await?;
        let stored = rows.iter().map(standing_row).collect::<DbResult<Vec<_>>>()?;
        Ok(Pool::ALL
            .into_iter()
            .map(|pool| {
                stored
                    .iter()
                    .find(|standing| standing.pool == pool)
                    .copied()
                    .unwrap_or_else(|| PoolStanding::new(pool))
            })
            .collect())
    }

    /// Player `id`'s standing in `pool`.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn standing_in(&self, id: &PlayerId, pool: Pool) -> DbResult<PoolStanding> {
        let row = sqlx::query(&format!(
            "SELECT {STANDING_COLUMNS} FROM ratings r WHERE r.player_id = $1 AND r.pool = $2"
        ))
        .bind(id.as_str())
        .bind(pool.key())
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map_or(Ok(PoolStanding::new(pool)), standing_row)
    }

    /// Player `id`'s standing in `pool` if the player has an account (not deleted): the
    /// rating shown beside a name. `None` for a guest, whose games are never rated.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn account_standing(
        &self,
        id: &PlayerId,
        pool: Pool,
    ) -> DbResult<Option<PoolStanding>> {
        let account =
            sqlx::query("SELECT 1 FROM accounts WHERE player_id = $1 AND deleted_at IS NULL")
                .bind(id.as_str())
                .fetch_optional(&self.pool)
                .await?;
        match account {
            Some(_) => self.standing_in(id, pool).await.map(Some),
            None => Ok(None),
        }
    }

    /// `pool`'s leaderboard from `offset`: named accounts with at least one rated game there,
    /// best first (ties: more rated games first, then by name).
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn leaderboard(
        &self,
        pool: Pool,
        offset: u32,
        limit: u32,
    ) -> DbResult<Vec<LeaderboardRow>> {
        sqlx::query(&format!(
            "SELECT a.player_id, a.name, {STANDING_COLUMNS} \
             FROM ratings r JOIN accounts a ON a.player_id = r.player_id \
             WHERE r.pool = $1 AND {RANKED} \
             ORDER BY r.rating DESC, r.rated_games DESC, a.name_key ASC LIMIT $2 OFFSET $3"
        ))
        .bind(pool.key())
        .bind(i64::from(limit))
        .bind(i64::from(offset))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|row| {
            Ok(LeaderboardRow {
                player_id: parse("player_id", &get::<String>(row, "player_id")?)?,
                name: get(row, "name")?,
                standing: standing_row(row)?,
            })
        })
        .collect()
    }

    /// How many accounts `pool`'s leaderboard ranks.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn ranked_accounts(&self, pool: Pool) -> DbResult<u32> {
        let row = sqlx::query(&format!(
            "SELECT COUNT(*) AS n FROM ratings r JOIN accounts a ON a.player_id = r.player_id \
             WHERE r.pool = $1 AND {RANKED}"
        ))
        .bind(pool.key())
        .fetch_one(&self.pool)
        .await?;
        convert("n", get::<i64>(&row, "n")?)
    }

    /// Where the account publicly called `name` stands on the leaderboard of `standing`'s pool,
    /// from 1; `None` when it is not on it.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn rank(&self, name: Option<&str>, standing: &PoolStanding) -> DbResult<Option<u32>> {
        let Some(name) = name else { return Ok(None) };
        if standing.rated_games == 0 {
            return Ok(None);
        }
        let row = sqlx::query(&format!(
            "SELECT COUNT(*) AS n FROM ratings r JOIN accounts a ON a.player_id = r.player_id \
             WHERE r.pool = $1 AND {RANKED} AND ( \
                r.rating > $2 OR (r.rating = $2 AND r.rated_games > $3) \
                OR (r.rating = $2 AND r.rated_games = $3 AND a.name_key < ( \
                    SELECT k.name_key FROM accounts k \
                    WHERE k.name = $4 AND k.deleted_at IS NULL)))"
        ))
        .bind(standing.pool.key())
        .bind(standing.rating)
        .bind(i64::from(standing.rated_games))
        .bind(name)
        .fetch_one(&self.pool)
        .await?;
        let ahead: u32 = convert("n", get::<i64>(&row, "n")?)?;
        Ok(Some(ahead + 1))
    }

    /// Player `id`'s rated games in every pool, oldest first within each: with those of the
    /// same person under an earlier account (deleted, then signed in again with its standing
    /// kept), as the standing is theirs.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn rating_history(&self, id: &PlayerId) -> DbResult<Vec<PooledChange>> {
        let identity = sqlx::query("SELECT issuer, subject FROM accounts WHERE player_id = $1")
            .bind(id.as_str())
            .fetch_optional(&self.pool)
            .await?;
        let person = match identity {
            Some(row) => person(&get(&row, "issuer")?, &get(&row, "subject")?, id.as_str()),
            None => person(&None, &None, id.as_str()),
        };
        sqlx::query(
            "SELECT game_id, player_id, color, game_number, rating_before, rating_after, at, pool \
             FROM rating_changes WHERE player_id = $1 OR person = $2 \
             ORDER BY pool, game_number, at",
        )
        .bind(id.as_str())
        .bind(person)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|row| Ok(PooledChange { pool: pool_column(row)?, change: rating_change_row(row)? }))
        .collect()
    }

    /// The rating changes of game `id`, if it was rated.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn game_rating(&self, id: &GameId) -> DbResult<Option<RatedGame>> {
        let rows = sqlx::query(
            "SELECT game_id, player_id, color, game_number, rating_before, rating_after, at \
             FROM rating_changes WHERE game_id = $1",
        )
        .bind(id.as_str())
        .fetch_all(&self.pool)
        .await?;
        let changes = rows.iter().map(rating_change_row).collect::<DbResult<Vec<_>>>()?;
        let side = |color| changes.iter().find(|change| change.color == color).cloned();
        Ok(side(Color::Black)
            .zip(side(Color::White))
            .map(|(black, white)| RatedGame { black, white }))
    }
}

/// Rates a finished game's result between `players`, in their pool, inside `tx`, the
/// transaction finishing it. Both accounts' standings in the pool are locked in a fixed order
/// first, so games finishing at the same moment for the same player are applied one after the
/// other, each from the other's result. `None` when the game has no winner or draw recorded, an
/// account is gone, or the two have already played [`rating::PAIR_GAMES_PER_DAY`] rated games
/// within a day (in any pool).
pub(super) async fn rate_game(
    tx: &mut Transaction<'_, Any>,
    game_id: &GameId,
    players: &RatedPlayers,
    winner: Option<Winner>,
    now: Timestamp,
) -> DbResult<Option<RatedGame>> {
    let Some(winner) = winner else { return Ok(None) };
    let pool = players.pool;
    let (black, white) = (players.black.as_str(), players.white.as_str());
    let mut ids = [black, white];
    ids.sort_unstable();
    for id in ids {
        lock_standing(tx, id, pool).await?;
    }
    let (Some((black_before, black_person)), Some((white_before, white_person))) =
        (standing(tx, black, pool).await?, standing(tx, white, pool).await?)
    else {
        return Ok(None);
    };
    // Counted after both accounts are locked, so two results finishing at once count each other;
    // by person, so a deleted account signed in again is still the same player.
    let pair = [(black, black_person.as_str()), (white, white_person.as_str())];
    if games_between(tx, pair, now).await? >= rating::PAIR_GAMES_PER_DAY {
        return Ok(None);
    }
    let score = match winner {
        Winner::Black => Score::Win,
        Winner::White => Score::Loss,
        Winner::Draw => Score::Draw,
    };
    let (black_after, white_after) = rating::rate(black_before, white_before, score);
    let black = Side { player: black, person: &black_person, color: Color::Black };
    let black = record(tx, game_id, pool, black, black_before, black_after, score, now).await?;
    let white = Side { player: white, person: &white_person, color: Color::White };
    let white =
        record(tx, game_id, pool, white, white_before, white_after, score.reversed(), now).await?;
    Ok(Some(RatedGame { black, white }))
}

/// Makes account `id`'s row in `pool` if it has none (an account that is not deleted only) and
/// locks it for the rest of `tx`. The write comes first, so SQLite takes its write lock before
/// anything is read.
async fn lock_standing(tx: &mut Transaction<'_, Any>, id: &str, pool: Pool) -> DbResult<()> {
    sqlx::query(
        "INSERT INTO ratings (player_id, pool, rating) \
         SELECT player_id, $2, $3 FROM accounts WHERE player_id = $1 AND deleted_at IS NULL \
         ON CONFLICT (player_id, pool) DO NOTHING",
    )
    .bind(id)
    .bind(pool.key())
    .bind(rating::START)
    .execute(&mut **tx)
    .await?;
    sqlx::query("UPDATE ratings SET rated_games = rated_games WHERE player_id = $1 AND pool = $2")
        .bind(id)
        .bind(pool.key())
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// How a deleted account's identity is remembered for the cool-down: a one-way hash, never the
/// identity itself.
pub(super) fn identity_hash(issuer: &str, subject: &str) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(format!("{issuer}\n{subject}").as_bytes());
    digest.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// Keeps the standings of account `id`, about to be deleted, under its identity's hash: every
/// pool it has a row in.
pub(super) async fn keep_standings(
    tx: &mut Transaction<'_, Any>,
    id: &PlayerId,
    now: Timestamp,
) -> DbResult<()> {
    // A write first, so SQLite takes its write lock before anything is read.
    sqlx::query("UPDATE accounts SET deleted_at = deleted_at WHERE player_id = $1")
        .bind(id.as_str())
        .execute(&mut **tx)
        .await?;
    let Some(row) = sqlx::query(
        "SELECT issuer, subject FROM accounts WHERE player_id = $1 AND deleted_at IS NULL",
    )
    .bind(id.as_str())
    .fetch_optional(&mut **tx)
    .await?
    else {
        return Ok(());
    };
    let issuer: Option<String> = get(&row, "issuer")?;
    let subject: Option<String> = get(&row, "subject")?;
    let (Some(issuer), Some(subject)) = (issuer, subject) else { return Ok(()) };
    let kept = sqlx::query(
        "INSERT INTO deleted_standings \
            (identity_hash, pool, rating, rated_games, wins, draws, losses, deleted_at) \
         SELECT $1, pool, rating, rated_games, wins, draws, losses, $3 \
         FROM ratings WHERE player_id = $2 \
         ON CONFLICT (identity_hash, pool) DO UPDATE SET rating = excluded.rating, \
            rated_games = excluded.rated_games, wins = excluded.wins, draws = excluded.draws, \
            losses = excluded.losses, deleted_at = excluded.deleted_at",
    );
    kept.bind(identity_hash(&issuer, &subject))
        .bind(id.as_str())
        .bind(now.0)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Gives the new account `player` the standings its identity had when its previous account was
/// deleted, if that was within the cool-down.
pub(super) async fn restore_standings(
    tx: &mut Transaction<'_, Any>,
    player: &PlayerId,
    identity: &str,
    now: Timestamp,
) -> DbResult<()> {
    sqlx::query(
        "INSERT INTO ratings (player_id, pool, rating, rated_games, wins, draws, losses) \
         SELECT $1, pool, rating, rated_games, wins, draws, losses FROM deleted_standings \
         WHERE identity_hash = $2 AND deleted_at > $3",
    )
    .bind(player.as_str())
    .bind(identity)
    .bind(now.0 - rating::STANDING_KEPT_MS)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// How many rated games the two players of `pair` (each an account's player id and person)
/// have played together in the day up to `now`, read inside `tx`: a game counts when each side
/// was either that person (under any account) or that account.
async fn games_between(
    tx: &mut Transaction<'_, Any>,
    [(black, black_person), (white, white_person)]: [(&str, &str); 2],
    now: Timestamp,
) -> DbResult<i64> {
    let row = sqlx::query(
        "SELECT COUNT(*) AS n FROM rating_changes a \
         JOIN rating_changes b ON a.game_id = b.game_id AND a.color <> b.color \
         WHERE (a.person = $1 OR a.player_id = $2) AND (b.person = $3 OR b.player_id = $4) \
             AND a.at > $5 AND a.at <= $6",
    )
    .bind(black_person)
    .bind(black)
    .bind(white_person)
    .bind(white)
    .bind(now.0 - rating::DAY_MS)
    .bind(now.0)
    .fetch_one(&mut **tx)
    .await?;
    get(&row, "n")
}

/// The standing in `pool` of a not deleted account and its person (the hash of its identity),
/// read inside `tx` after [`lock_standing`].
async fn standing(
    tx: &mut Transaction<'_, Any>,
    id: &str,
    pool: Pool,
) -> DbResult<Option<(Standing, String)>> {
    let Some(row) = sqlx::query(
        "SELECT r.rating, r.rated_games, a.issuer, a.subject \
         FROM accounts a JOIN ratings r ON r.player_id = a.player_id AND r.pool = $2 \
         WHERE a.player_id = $1 AND a.deleted_at IS NULL",
    )
    .bind(id)
    .bind(pool.key())
    .fetch_optional(&mut **tx)
    .await?
    else {
        return Ok(None);
    };
    let standing = Standing {
        rating: get(&row, "rating")?,
        rated_games: convert("rated_games", get::<i32>(&row, "rated_games")?)?,
    };
    let person = person(&get(&row, "issuer")?, &get(&row, "subject")?, id);
    Ok(Some((standing, person)))
}

/// Who account `id` is across accounts, as its rating changes record it: the hash of its
/// identity (issuer and subject).
fn person(issuer: &Option<String>, subject: &Option<String>, id: &str) -> String {
    match (issuer, subject) {
        (Some(issuer), Some(subject)) => identity_hash(issuer, subject),
        // Every account that is not deleted has its identity; should one not, it is its own.
        _ => format!("player:{id}"),
    }
}

/// One side of a rated game: the account's player id, its person and its colour.
struct Side<'a> {
    player: &'a str,
    person: &'a str,
    color: Color,
}

/// Moves one account's rating and counts in `pool`, and records the change.
#[allow(clippy::too_many_arguments)]
async fn record(
    tx: &mut Transaction<'_, Any>,
    game_id: &GameId,
    pool: Pool,
    side: Side<'_>,
    before: Standing,
    after: f64,
    score: Score,
    now: Timestamp,
) -> DbResult<RatingChange> {
    let column = match score {
        Score::Win => "wins",
        Score::Draw => "draws",
        Score::Loss => "losses",
    };
    sqlx::query(&format!(
        "UPDATE ratings SET rating = $3, rated_games = rated_games + 1, {column} = {column} + 1 \
         WHERE player_id = $1 AND pool = $2"
    ))
    .bind(side.player)
    .bind(pool.key())
    .bind(after)
    .execute(&mut **tx)
    .await?;
    let game_number = before.rated_games + 1;
    sqlx::query(
        "INSERT INTO rating_changes \
            (game_id, player_id, color, game_number, rating_before, rating_after, at, person, \
             pool) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(game_id.as_str())
    .bind(side.player)
    .bind(winner_of(side.color).as_str())
    .bind(i64::from(game_number))
    .bind(before.rating)
    .bind(after)
    .bind(now.0)
    .bind(side.person)
    .bind(pool.key())
    .execute(&mut **tx)
    .await?;
    Ok(RatingChange {
        game_id: game_id.clone(),
        player_id: parse("player_id", side.player)?,
        color: side.color,
        game_number,
        before: before.rating,
        after,
        at: now,
    })
}

/// Reads a standing from the columns [`STANDING_COLUMNS`] names.
fn standing_row(row: &AnyRow) -> DbResult<PoolStanding> {
    let count = |column: &str| -> DbResult<u32> { convert(column, get::<i32>(row, column)?) };
    Ok(PoolStanding {
        pool: pool_column(row)?,
        rating: get(row, "rating")?,
        rated_games: count("rated_games")?,
        wins: count("wins")?,
        draws: count("draws")?,
        losses: count("losses")?,
    })
}

fn pool_column(row: &AnyRow) -> DbResult<Pool> {
    parse("pool", &get::<String>(row, "pool")?)
}

fn rating_change_row(row: &AnyRow) -> DbResult<RatingChange> {
    Ok(RatingChange {
        game_id: parse("game_id", &get::<String>(row, "game_id")?)?,
        player_id: parse("player_id", &get::<String>(row, "player_id")?)?,
        color: match get::<String>(row, "color")?.as_str() {
            "black" => Color::Black,
            "white" => Color::White,
            other => return Err(DbError::Other(format!("rating_changes.color: {other:?}"))),
        },
        game_number: convert("game_number", get::<i32>(row, "game_number")?)?,
        before: get(row, "rating_before")?,
        after: get(row, "rating_after")?,
        at: Timestamp(get(row, "at")?),
    })
}
