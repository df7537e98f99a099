//! What the lobby shows: how many games are in progress and who plays them, the live games
//! anyone may watch (best rated first) and the latest results.
//!
//! A game is *in progress* when it is live and someone is plausibly at the board: a timed game
//! always (its clock ends it within a move's time of being left), a game without a clock only
//! when something happened in it since `active_since` (such games stay live for weeks after
//! their player went away). Only games that matchmaking paired (quick and ranked) are listed
//! for watching and in the results: friend, computer and same-device games are watched through
//! their link alone.

use std::collections::HashMap;

use sqlx::any::AnyRow;

use super::games::{game_columns, game_row, last_change, timed};
use super::{DbResult, GameRow, Store, convert, get, parse};
use crate::accounts::rating;
use crate::domain::{PlayerId, Timestamp};
use crate::live::Pool;

/// The modes whose games are public: listed in the lobby.
const LISTED_MODES: &str = "('quick', 'ranked')";

/// A seat's account standing in the pool of the game's control, for an account that is not
/// deleted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatStanding {
    pub rating: f64,
    pub rated_games: u32,
}

/// How the lobby names a player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShownName {
    pub name: String,
    /// Whether `name` is an account's public name (it has a profile).
    pub account: bool,
}

/// A live game as the lobby lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct LobbyGame {
    pub game: GameRow,
    /// Plies played so far, passes included.
    pub plies: u32,
    /// `None` for a guest or the computer.
    pub black: Option<SeatStanding>,
    pub white: Option<SeatStanding>,
}

/// The SQL condition "live and in progress", with `$1` the time since which a game without a
/// clock must have changed; `g` is the `games` table.
pub(super) fn in_progress() -> String {
    format!("g.status = 'live' AND ({} OR {} >= $1)", timed("g"), last_change("g"))
}

impl Store {
    /// How many games are in progress (see the module's documentation).
    ///
    /// # Errors
    /// [`super::DbError::Other`] when the database fails.
    pub async fn count_games_in_progress(&self, active_since: Timestamp) -> DbResult<u64> {
        let row =
            sqlx::query(&format!("SELECT COUNT(*) AS n FROM games g WHERE {}", in_progress()))
                .bind(active_since.0)
                .fetch_one(&self.pool)
                .await?;
        convert("games.count", get::<i64>(&row, "n")?)
    }

    /// Every person seated in a game in progress, each once (the computer is nobody).
    ///
    /// # Errors
    /// [`super::DbError::Other`] when the database fails or a stored id is corrupt.
    pub async fn players_in_games_in_progress(
        &self,
        active_since: Timestamp,
    ) -> DbResult<Vec<PlayerId>> {
        self.seated(active_since, &in_progress()).await
    }

    /// Every person seated in a public game in progress (quick or ranked, the games the lobby
    /// lists), each once: those the lobby may name as playing.
    ///
    /// # Errors
    /// [`super::DbError::Other`] when the database fails or a stored id is corrupt.
    pub async fn players_in_public_games(
        &self,
        active_since: Timestamp,
    ) -> DbResult<Vec<PlayerId>> {
        self.seated(active_since, &format!("{} AND g.mode IN {LISTED_MODES}", in_progress())).await
    }

    /// The people seated in the games `condition` picks (it reads `active_since` as `$1`).
    async fn seated(&self, active_since: Timestamp, condition: &str) -> DbResult<Vec<PlayerId>> {
        let rows = sqlx::query(&format!(
            "SELECT g.black_id AS player_id FROM games g \
                 WHERE {condition} AND g.black_id IS NOT NULL \
             UNION SELECT g.white_id AS player_id FROM games g \
                 WHERE {condition} AND g.white_id IS NOT NULL"
        ))
        .bind(active_since.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|row| parse("games.player_id", &get::<String>(row, "player_id")?)).collect()
    }

    /// At most `limit` live quick and ranked games, the one with the best rated player first
    /// (a guest counts as 1,200, the computer as nobody), then the newest.
    ///
    /// # Errors
    /// [`super::DbError::Other`] when the database fails or a stored value is corrupt.
    pub async fn watchable_games(&self, limit: u32) -> DbResult<Vec<LobbyGame>> {
        // A seat's rating is its account's in the pool of the game's control and start.
        let seat_rating = |seat: &str, account: &str, rating: &str| {
            format!(
                "CASE WHEN {account}.player_id IS NOT NULL THEN COALESCE({rating}.rating, 1200) \
                 WHEN g.{seat}_id IS NULL THEN 0 ELSE 1200 END"
            )
        };
        let (black, white) = (seat_rating("black", "ba", "br"), seat_rating("white", "wa", "wr"));
        let pool = pool_of_control("g");
        sqlx::query(&format!(
            "SELECT {columns}, \
                 ba.player_id AS black_account, br.rating AS black_rating, \
                 br.rated_games AS black_rated_games, \
                 wa.player_id AS white_account, wr.rating AS white_rating, \
                 wr.rated_games AS white_rated_games, \
                 (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS plies, \
                 CASE WHEN {black} >= {white} THEN {black} ELSE {white} END AS best_rating \
             FROM games g \
             LEFT JOIN accounts ba ON ba.player_id = g.black_id AND ba.deleted_at IS NULL \
             LEFT JOIN ratings br ON br.player_id = ba.player_id AND br.pool = {pool} \
             LEFT JOIN accounts wa ON wa.player_id = g.white_id AND wa.deleted_at IS NULL \
             LEFT JOIN ratings wr ON wr.player_id = wa.player_id AND wr.pool = {pool} \
             WHERE g.status = 'live' AND g.mode IN {LISTED_MODES} \
             ORDER BY best_rating DESC, g.created_at DESC, g.id LIMIT $1",
            columns = game_columns("g"),
        ))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(lobby_game)
        .collect()
    }

    /// The names the lobby shows for `players`: an account's public name, else the nickname;
    /// a player unknown to the store is left out.
    ///
    /// # Errors
    /// [`super::DbError::Other`] when the database fails or a stored value is corrupt.
    pub async fn shown_names(
        &self,
        players: &[PlayerId],
    ) -> DbResult<HashMap<PlayerId, ShownName>> {
        let mut names = HashMap::new();
        if players.is_empty() {
            return Ok(names);
        }
        let ids = (1..=players.len()).map(|n| format!("${n}")).collect::<Vec<_>>().join(", ");
        let sql = format!(
            "SELECT p.id, COALESCE(a.name, p.nickname) AS shown, \
             CASE WHEN a.name IS NULL THEN 0 ELSE 1 END AS named FROM players p \
             LEFT JOIN accounts a ON a.player_id = p.id AND a.deleted_at IS NULL \
             WHERE p.id IN ({ids})"
        );
        let mut query = sqlx::query(&sql);
        for player in players {
            query = query.bind(player.as_str());
        }
        for row in &query.fetch_all(&self.pool).await? {
            let id: PlayerId = parse("players.id", &get::<String>(row, "id")?)?;
            let account = get::<i32>(row, "named")? == 1;
            names.insert(id, ShownName { name: get(row, "shown")?, account });
        }
        Ok(names)
    }

    /// The `limit` quick and ranked games that finished last (not the aborted ones), newest
    /// first.
    ///
    /// # Errors
    /// [`super::DbError::Other`] when the database fails or a stored value is corrupt.
    pub async fn recent_results(&self, limit: u32) -> DbResult<Vec<GameRow>> {
        sqlx::query(&format!(
            "SELECT {columns} FROM games \
             WHERE status = 'finished' AND mode IN {LISTED_MODES} \
             ORDER BY finished_at DESC, id DESC LIMIT $1",
            columns = game_columns("games"),
        ))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(game_row)
        .collect()
    }
}

/// The SQL expression for the key of the pool game `games` (an alias of `games`) is played in,
/// by its control and whether it started from an XOT opening: the default pool's for a game
/// outside the pools, or without a control.
fn pool_of_control(games: &str) -> String {
    let cases: String = Pool::ALL
        .iter()
        .map(|pool| {
            let start = if pool.is_xot() { "IS NOT NULL" } else { "IS NULL" };
            format!(
                "WHEN {games}.time_control = '{}' AND {games}.opening {start} THEN '{}' ",
                pool.control(),
                pool.key()
            )
        })
        .collect();
    format!("(CASE {cases}ELSE '{}' END)", Pool::DEFAULT.key())
}

/// Reads a row of [`Store::watchable_games`].
fn lobby_game(row: &AnyRow) -> DbResult<LobbyGame> {
    let standing = |side: &str| -> DbResult<Option<SeatStanding>> {
        let account: Option<String> = get(row, &format!("{side}_account"))?;
        if account.is_none() {
            return Ok(None);
        }
        let rating: Option<f64> = get(row, &format!("{side}_rating"))?;
        let games: Option<i32> = get(row, &format!("{side}_rated_games"))?;
        Ok(Some(SeatStanding {
            rating: rating.unwrap_or(rating::START),
            rated_games: convert("ratings.rated_games", games.unwrap_or(0))?,
        }))
    };
    Ok(LobbyGame {
        game: game_row(row)?,
        plies: convert("moves.count", get::<i64>(row, "plies")?)?,
        black: standing("black")?,
        white: standing("white")?,
    })
}
