//! Accounts, their ratings and rating history. The rating of a game is applied in
//! [`rate_game`], inside the transaction that finishes it.

use sqlx::any::{AnyArguments, AnyRow};
use sqlx::{Any, Transaction};

use super::{DbError, DbResult, Store, convert, get, parse};
use crate::accounts::PublicName;
use crate::accounts::rating::{self, RatedGame, RatedPlayers, RatingChange, Score, Standing};
use outflank_engine::Color;

use crate::domain::{GameId, PlayerId, Timestamp, Winner};
use crate::live::winner_of;

/// What a deleted account's games show instead of its name.
pub const DELETED_PLAYER: &str = "Deleted player";

/// The columns of `accounts`; [`account_row`] reads them by name.
const ACCOUNT_COLUMNS: &str =
    "player_id, name, rating, rated_games, wins, draws, losses, created_at";

/// A stored, not deleted account.
#[derive(Clone, Debug, PartialEq)]
pub struct AccountRow {
    pub player_id: PlayerId,
    /// `None` until the player has chosen a public name.
    pub name: Option<String>,
    pub rating: f64,
    pub rated_games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub created_at: Timestamp,
}

/// Why a public name could not be set.
#[derive(Debug, thiserror::Error)]
pub enum NameError {
    #[error("that name is taken")]
    Taken,
    #[error("this account already has a public name")]
    AlreadyNamed,
    #[error(transparent)]
    Db(#[from] DbError),
}

impl Store {
    /// The account of `issuer`'s user `subject`, created (unnamed, rated 1,200) on first sign-in
    /// with `nickname` as its player's name until a public name is chosen.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn sign_in(
        &self,
        issuer: &str,
        subject: &str,
        nickname: &str,
        now: Timestamp,
    ) -> DbResult<AccountRow> {
        if let Some(account) = self.account_by_identity(issuer, subject).await? {
            return Ok(account);
        }
        let player = PlayerId::generate();
        let mut db = self.write_connection().await?;
        let mut tx = db.begin().await?;
        sqlx::query(
            "INSERT INTO players (id, nickname, kind, created_at, last_seen_at) \
             VALUES ($1, $2, 'account', $3, $3)",
        )
        .bind(player.as_str())
        .bind(nickname)
        .bind(now.0)
        .execute(&mut *tx)
        .await?;
        let inserted = sqlx::query(
            "INSERT INTO accounts (player_id, issuer, subject, created_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(player.as_str())
        .bind(issuer)
        .bind(subject)
        .bind(now.0)
        .execute(&mut *tx)
        .await;
        match inserted.map_err(DbError::from) {
            Ok(_) => {
                restore_standing(&mut tx, &player, &identity_hash(issuer, subject), now).await?;
                tx.commit().await?;
            }
            // The same person signed in twice at once: the other sign-in created the account.
            Err(DbError::Conflict) => {
                drop(tx);
                drop(db);
                return self.account_by_identity(issuer, subject).await?.ok_or(DbError::Conflict);
            }
            Err(error) => return Err(error),
        }
        drop(db);
        self.account(&player).await
    }

    async fn account_by_identity(
        &self,
        issuer: &str,
        subject: &str,
    ) -> DbResult<Option<AccountRow>> {
        sqlx::query(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts \
             WHERE issuer = $1 AND subject = $2 AND deleted_at IS NULL"
        ))
        .bind(issuer)
        .bind(subject)
        .fetch_optional(&self.pool)
        .await?
        .as_ref()
        .map(account_row)
        .transpose()
    }

    /// The account of player `id`.
    ///
    /// # Errors
    /// [`DbError::NotFound`] when the player has no account, or deleted it.
    pub async fn account(&self, id: &PlayerId) -> DbResult<AccountRow> {
        let row = sqlx::query(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE player_id = $1 AND deleted_at IS NULL"
        ))
        .bind(id.as_str())
        .fetch_optional(&self.pool)
        .await?
        .ok_or(DbError::NotFound)?;
        account_row(&row)
    }

    /// The account publicly called `name`, in any case.
    ///
    /// # Errors
    /// [`DbError::NotFound`] when nobody is.
    pub async fn account_by_name(&self, name: &PublicName) -> DbResult<AccountRow> {
        let row = sqlx::query(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key = $1 AND deleted_at IS NULL"
        ))
        .bind(name.key())
        .fetch_optional(&self.pool)
        .await?
        .ok_or(DbError::NotFound)?;
        account_row(&row)
    }

    /// Whether an account (not deleted) is publicly called by the name whose
    /// [`PublicName::key`] is `key`: guests may not go by it.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn is_account_name(&self, key: &str) -> DbResult<bool> {
        let row =
            sqlx::query("SELECT 1 AS one FROM accounts WHERE name_key = $1 AND deleted_at IS NULL")
                .bind(key)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.is_some())
    }

    /// Gives account `id` its public name, once.
    ///
    /// # Errors
    /// [`NameError::Taken`] when another account has it (in any case),
    /// [`NameError::AlreadyNamed`] when this one has a name, `NotFound` without an account.
    pub async fn set_account_name(
        &self,
        id: &PlayerId,
        name: &PublicName,
    ) -> Result<(), NameError> {
        let mut db = self.write_connection().await?;
        let mut tx = db.begin().await?;
        let updated = sqlx::query(
            "UPDATE accounts SET name = $2, name_key = $3 \
             WHERE player_id = $1 AND deleted_at IS NULL AND name IS NULL",
        )
        .bind(id.as_str())
        .bind(name.as_str())
        .bind(name.key())
        .execute(&mut *tx)
        .await
        .map_err(|error| match DbError::from(error) {
            DbError::Conflict => NameError::Taken,
            other => NameError::Db(other),
        })?
        .rows_affected();
        if updated == 0 {
            drop(tx);
            drop(db);
            self.account(id).await?;
            return Err(NameError::AlreadyNamed);
        }
        sqlx::query("UPDATE players SET nickname = $2 WHERE id = $1")
            .bind(id.as_str())
            .bind(name.as_str())
            .execute(&mut *tx)
            .await
            .map_err(DbError::from)?;
        tx.commit().await.map_err(DbError::from)?;
        Ok(())
    }

    /// Deletes account `id`: its identity and name are forgotten (so signing in again starts a
    /// new account), it leaves the leaderboard, and its games stay, showing a deleted player.
    ///
    /// # Errors
    /// [`DbError::NotFound`] without an account.
    pub async fn delete_account(&self, id: &PlayerId, now: Timestamp) -> DbResult<()> {
        let mut db = self.write_connection().await?;
        let mut tx = db.begin().await?;
        keep_standing(&mut tx, id, now).await?;
        let updated = sqlx::query(
            "UPDATE accounts SET issuer = NULL, subject = NULL, name = NULL, name_key = NULL, \
                deleted_at = $2 \
             WHERE player_id = $1 AND deleted_at IS NULL",
        )
        .bind(id.as_str())
        .bind(now.0)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if updated == 0 {
            return Err(DbError::NotFound);
        }
        for statement in [
            "UPDATE players SET nickname = $2, kind = 'deleted' WHERE id = $1",
            "UPDATE games SET black_name = $2 WHERE black_id = $1",
            "UPDATE games SET white_name = $2 WHERE white_id = $1",
            "UPDATE rooms SET host_name = $2 WHERE host_id = $1",
            "UPDATE rooms SET guest_name = $2 WHERE guest_id = $1",
        ] {
            sqlx::query(statement).bind(id.as_str()).bind(DELETED_PLAYER).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The leaderboard from `offset`: named accounts with at least one rated game, best first
    /// (ties: more rated games first, then by name).
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn leaderboard(&self, offset: u32, limit: u32) -> DbResult<Vec<AccountRow>> {
        sqlx::query(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts \
             WHERE deleted_at IS NULL AND name IS NOT NULL AND rated_games > 0 \
             ORDER BY rating DESC, rated_games DESC, name_key ASC LIMIT $1 OFFSET $2"
        ))
        .bind(i64::from(limit))
        .bind(i64::from(offset))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(account_row)
        .collect()
    }

    /// How many accounts the leaderboard ranks.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn ranked_accounts(&self) -> DbResult<u32> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM accounts \
             WHERE deleted_at IS NULL AND name IS NOT NULL AND rated_games > 0",
        )
        .fetch_one(&self.pool)
        .await?;
        convert("n", get::<i64>(&row, "n")?)
    }

    /// Where `account` stands on the leaderboard, from 1; `None` when it is not on it.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn rank(&self, account: &AccountRow) -> DbResult<Option<u32>> {
        let Some(name) = account.name.as_deref() else { return Ok(None) };
        if account.rated_games == 0 {
            return Ok(None);
        }
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM accounts \
             WHERE deleted_at IS NULL AND name IS NOT NULL AND rated_games > 0 AND ( \
                rating > $1 OR (rating = $1 AND rated_games > $2) \
                OR (rating = $1 AND rated_games = $2 AND name_key < $3))",
        )
        .bind(account.rating)
        .bind(i64::from(account.rated_games))
        .bind(name.to_ascii_lowercase())
        .fetch_one(&self.pool)
        .await?;
        let ahead: u32 = convert("n", get::<i64>(&row, "n")?)?;
        Ok(Some(ahead + 1))
    }

    /// Player `id`'s rated games, oldest first: with those of the same person under an earlier
    /// account (deleted, then signed in again with its standing kept), as the standing is theirs.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn rating_history(&self, id: &PlayerId) -> DbResult<Vec<RatingChange>> {
        let identity = sqlx::query("SELECT issuer, subject FROM accounts WHERE player_id = $1")
            .bind(id.as_str())
            .fetch_optional(&self.pool)
            .await?;
        let person = match identity {
            Some(row) => person(&get(&row, "issuer")?, &get(&row, "subject")?, id.as_str()),
            None => person(&None, &None, id.as_str()),
        };
        sqlx::query(
            "SELECT game_id, player_id, color, game_number, rating_before, rating_after, at \
             FROM rating_changes WHERE player_id = $1 OR person = $2 ORDER BY game_number, at",
        )
        .bind(id.as_str())
        .bind(person)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(rating_change_row)
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

/// Rates a finished game's result between `players`, inside `tx`, the transaction finishing
/// it. Both accounts' rows are locked in a fixed order first, so games finishing at the same
/// moment for the same player are applied one after the other, each from the other's result.
/// `None` when the game has no winner or draw recorded, an account is gone, or the two have
/// already played [`rating::PAIR_GAMES_PER_DAY`] rated games within a day.
pub(super) async fn rate_game(
    tx: &mut Transaction<'_, Any>,
    game_id: &GameId,
    players: &RatedPlayers,
    winner: Option<Winner>,
    now: Timestamp,
) -> DbResult<Option<RatedGame>> {
    let Some(winner) = winner else { return Ok(None) };
    let (black, white) = (players.black.as_str(), players.white.as_str());
    let mut ids = [black, white];
    ids.sort_unstable();
    for id in ids {
        sqlx::query("UPDATE accounts SET rated_games = rated_games WHERE player_id = $1")
            .bind(id)
            .execute(&mut **tx)
            .await?;
    }
    let (Some((black_before, black_person)), Some((white_before, white_person))) =
        (standing(tx, black).await?, standing(tx, white).await?)
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
    let black = (black, black_person.as_str());
    let black =
        record(tx, game_id, black, Color::Black, black_before, black_after, score, now).await?;
    let white = (white, white_person.as_str());
    let white =
        record(tx, game_id, white, Color::White, white_before, white_after, score.reversed(), now)
            .await?;
    Ok(Some(RatedGame { black, white }))
}

/// How a deleted account's identity is remembered for the cool-down: a one-way hash, never the
/// identity itself.
fn identity_hash(issuer: &str, subject: &str) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(format!("{issuer}\n{subject}").as_bytes());
    digest.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// Keeps the standing of account `id`, about to be deleted, under its identity's hash.
async fn keep_standing(
    tx: &mut Transaction<'_, Any>,
    id: &PlayerId,
    now: Timestamp,
) -> DbResult<()> {
    // A write first, so SQLite takes its write lock before anything is read.
    sqlx::query("UPDATE accounts SET rated_games = rated_games WHERE player_id = $1")
        .bind(id.as_str())
        .execute(&mut **tx)
        .await?;
    let Some(row) = sqlx::query(
        "SELECT issuer, subject, rating, rated_games, wins, draws, losses FROM accounts \
         WHERE player_id = $1 AND deleted_at IS NULL",
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
    let standing = KeptStanding::read(&row)?;
    let insert = sqlx::query(
        "INSERT INTO deleted_identities \
            (identity_hash, rating, rated_games, wins, draws, losses, deleted_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) \
         ON CONFLICT (identity_hash) DO UPDATE SET rating = excluded.rating, \
            rated_games = excluded.rated_games, wins = excluded.wins, draws = excluded.draws, \
            losses = excluded.losses, deleted_at = excluded.deleted_at",
    )
    .bind(identity_hash(&issuer, &subject));
    standing.bind(insert).bind(now.0).execute(&mut **tx).await?;
    Ok(())
}

/// The standing a deleted account's identity keeps for the cool-down: its rating and results.
struct KeptStanding {
    rating: f64,
    /// Rated games, wins, draws, losses.
    counts: [i32; 4],
}

impl KeptStanding {
    /// Reads the columns `rating`, `rated_games`, `wins`, `draws` and `losses` of `row`.
    fn read(row: &AnyRow) -> DbResult<KeptStanding> {
        let counts =
            [get(row, "rated_games")?, get(row, "wins")?, get(row, "draws")?, get(row, "losses")?];
        Ok(KeptStanding { rating: get(row, "rating")?, counts })
    }

    /// Binds the rating and the four counts, in that order, as the next five parameters.
    fn bind<'q>(
        &self,
        query: sqlx::query::Query<'q, Any, AnyArguments<'q>>,
    ) -> sqlx::query::Query<'q, Any, AnyArguments<'q>> {
        let [rated_games, wins, draws, losses] = self.counts;
        query.bind(self.rating).bind(rated_games).bind(wins).bind(draws).bind(losses)
    }
}

/// Gives the new account `player` the standing its identity had when its previous account was
/// deleted, if that was within the cool-down.
async fn restore_standing(
    tx: &mut Transaction<'_, Any>,
    player: &PlayerId,
    identity: &str,
    now: Timestamp,
) -> DbResult<()> {
    let Some(row) = sqlx::query(
        "SELECT rating, rated_games, wins, draws, losses FROM deleted_identities \
         WHERE identity_hash = $1 AND deleted_at > $2",
    )
    .bind(identity)
    .bind(now.0 - rating::STANDING_KEPT_MS)
    .fetch_optional(&mut **tx)
    .await?
    else {
        return Ok(());
    };
    let update = sqlx::query(
        "UPDATE accounts SET rating = $2, rated_games = $3, wins = $4, draws = $5, losses = $6 \
         WHERE player_id = $1",
    )
    .bind(player.as_str());
    KeptStanding::read(&row)?.bind(update).execute(&mut **tx).await?;
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

/// The standing of a not deleted account and its person (the hash of its identity), read inside
/// `tx`.
async fn standing(tx: &mut Transaction<'_, Any>, id: &str) -> DbResult<Option<(Standing, String)>> {
    let Some(row) = sqlx::query(
        "SELECT rating, rated_games, issuer, subject FROM accounts \
         WHERE player_id = $1 AND deleted_at IS NULL",
    )
    .bind(id)
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

/// Moves one account's rating and counts, and records the change.
#[allow(clippy::too_many_arguments)]
async fn record(
    tx: &mut Transaction<'_, Any>,
    game_id: &GameId,
    (player, person): (&str, &str),
    color: Color,
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
        "UPDATE accounts SET rating = $2, rated_games = rated_games + 1, {column} = {column} + 1 \
         WHERE player_id = $1"
    ))
    .bind(player)
    .bind(after)
    .execute(&mut **tx)
    .await?;
    let game_number = before.rated_games + 1;
    sqlx::query(
        "INSERT INTO rating_changes \
            (game_id, player_id, color, game_number, rating_before, rating_after, at, person) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(game_id.as_str())
    .bind(player)
    .bind(winner_of(color).as_str())
    .bind(i64::from(game_number))
    .bind(before.rating)
    .bind(after)
    .bind(now.0)
    .bind(person)
    .execute(&mut **tx)
    .await?;
    Ok(RatingChange {
        game_id: game_id.clone(),
        player_id: parse("player_id", player)?,
        color,
        game_number,
        before: before.rating,
        after,
        at: now,
    })
}

fn account_row(row: &AnyRow) -> DbResult<AccountRow> {
    let count = |column: &str| -> DbResult<u32> { convert(column, get::<i32>(row, column)?) };
    Ok(AccountRow {
        player_id: parse("player_id", &get::<String>(row, "player_id")?)?,
        name: get(row, "name")?,
        rating: get(row, "rating")?,
        rated_games: count("rated_games")?,
        wins: count("wins")?,
        draws: count("draws")?,
        losses: count("losses")?,
        created_at: Timestamp(get(row, "created_at")?),
    })
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
