//! Ratings in public: `GET /api/leaderboard?pool=P&page=N` (a pool's top 100, 25 a page; the
//! 30-s pool by default), `GET /api/players?q=PREFIX` (finding a player by the start of their
//! name) and `GET /api/players/{name}` (a profile: rating, rank, results and rating history in
//! each pool, recent games, puzzles from their games).

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use actix_web::web::{self, ServiceConfig};
use outflank_engine::{Board, Color, openings};
use serde::Deserialize;
use serde_json::{Value, json};
use thiserror::Error;

use crate::accounts::PublicName;
use crate::accounts::rating::{RatedGame, RatingChange};
use crate::accounts::rating::{is_provisional, shown};
use crate::domain::{GameId, GameStatus, PlayerId, SanctionKind, Timestamp, Winner};
use crate::http::error::{ApiError, api_error};
use crate::identity::session::Session;
use crate::json::RatingSide;
use crate::live::{Pool, UnknownPool, winner_of};
use crate::player_feed::PlayerFeed;
use crate::routes::lobby::Presence;
use crate::service::{Matchmaking, Online};
use crate::storage::{DbError, GameRow, PoolStanding, Store};

/// Players on one leaderboard page.
pub const PER_PAGE: u32 = 25;
/// How far down the leaderboard goes.
pub const TOP: u32 = 100;
/// Games listed on a profile.
const RECENT_GAMES: u32 = 20;
/// Players a search finds at most.
const SEARCH_RESULTS: u32 = 10;

pub fn configure(config: &mut ServiceConfig) {
    config
        .route("/api/leaderboard", web::get().to(leaderboard))
        .route("/api/players", web::get().to(search))
        .route("/api/players/{name}", web::get().to(profile));
}

/// Errors of the player routes.
#[derive(Debug, Error)]
pub enum PlayerRouteError {
    #[error("there is no player called that")]
    NotFound,
    #[error("page must be a number from 1")]
    BadPage,
    #[error("search with 1 to 20 characters of a name")]
    BadSearch,
    #[error(transparent)]
    UnknownPool(#[from] UnknownPool),
    #[error("the server could not read that; please try again")]
    Unavailable(String),
}

impl From<DbError> for PlayerRouteError {
    fn from(error: DbError) -> PlayerRouteError {
        match error {
            DbError::NotFound => PlayerRouteError::NotFound,
            other => PlayerRouteError::Unavailable(other.to_string()),
        }
    }
}

impl ApiError for PlayerRouteError {
    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            PlayerRouteError::NotFound => (StatusCode::NOT_FOUND, "not_found"),
            PlayerRouteError::BadSearch => (StatusCode::BAD_REQUEST, "bad_search"),
            PlayerRouteError::BadPage => (StatusCode::BAD_REQUEST, "bad_request"),
            PlayerRouteError::UnknownPool(_) => (StatusCode::UNPROCESSABLE_ENTITY, "unknown_pool"),
            PlayerRouteError::Unavailable(_) => (StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
        }
    }

    fn detail(&self) -> Option<&str> {
        match self {
            PlayerRouteError::Unavailable(detail) => Some(detail),
            _ => None,
        }
    }
}

api_error!(PlayerRouteError);

#[derive(Debug, Deserialize)]
struct PageQuery {
    page: Option<String>,
    pool: Option<String>,
}

async fn leaderboard(
    query: web::Query<PageQuery>,
    store: web::Data<Store>,
) -> Result<HttpResponse, PlayerRouteError> {
    let page: u32 = match &query.page {
        None => 1,
        Some(text) => {
            text.parse().ok().filter(|page| *page >= 1).ok_or(PlayerRouteError::BadPage)?
        }
    };
    let pool = match &query.pool {
        None => Pool::DEFAULT,
        Some(key) => key.parse()?,
    };
    let total = store.ranked_accounts(pool).await?.min(TOP);
    let pages = total.div_ceil(PER_PAGE).max(1);
    let offset = (page - 1).saturating_mul(PER_PAGE);
    let rows = if offset < total {
        store.leaderboard(pool, offset, PER_PAGE.min(total - offset)).await?
    } else {
        Vec::new()
    };
    let players: Vec<Value> = rows
        .iter()
        .zip(offset + 1..)
        .map(|(row, rank)| {
            let mut entry = standing_json(&row.standing);
            entry["name"] = json!(row.name);
            entry["rank"] = json!(rank);
            entry
        })
        .collect();
    Ok(HttpResponse::Ok().json(json!({
        "pool": pool.key(),
        "pools": Pool::ALL.map(pool_json),
        "page": page,
        "pages": pages,
        "per_page": PER_PAGE,
        "total": total,
        "players": players,
    })))
}

/// The colour `player` had in finished `game` and how it ended for them: `win`, `loss`,
/// `draw`, or `aborted`.
pub(crate) fn result_for(game: &GameRow, player: &PlayerId) -> (Color, &'static str) {
    let color = if game.black.id.as_ref() == Some(player) { Color::Black } else { Color::White };
    let result = match (game.status, game.winner) {
        (GameStatus::Finished, Some(Winner::Draw)) => "draw",
        (GameStatus::Finished, Some(winner)) if winner == winner_of(color) => "win",
        (GameStatus::Finished, Some(_)) => "loss",
        _ => "aborted",
    };
    (color, result)
}

async fn profile(
    path: web::Path<String>,
    session: Option<Session>,
    store: web::Data<Store>,
) -> Result<HttpResponse, PlayerRouteError> {
    let name = PublicName::parse(&path).map_err(|_| PlayerRouteError::NotFound)?;
    let account = store.account_by_name(&name).await?;
    let standings = store.standings(&account.player_id).await?;
    let history = store.rating_history(&account.player_id).await?;
    let games = store.recent_games(&account.player_id, RECENT_GAMES).await?;
    let puzzles = store.puzzle_counts(&account.player_id).await?;
    let ids: Vec<GameId> = games.iter().map(|game| game.id.clone()).collect();
    let plies = u32::try_from(openings::deciding_plies()).unwrap_or(u32::MAX);
    let first_moves = store.first_moves(&ids, plies).await?;
    let recent: Vec<Value> = games
        .iter()
        .map(|game| {
            let (color, result) = result_for(game, &account.player_id);
            let opponent = if color == Color::Black { &game.white } else { &game.black };
            let mine = winner_of(color);
            let rated = history.iter().find(|rated| rated.change.game_id == game.id);
            let opening = (game.start_position == Board::start())
                .then(|| first_moves.get(&game.id))
                .flatten()
                .and_then(|moves| openings::opening_of(moves));
            json!({
                "id": game.id.to_string(),
                "mode": game.mode.as_str(),
                "rated": game.rated,
                "control": game.control().map(|control| control.to_string()),
                "pool": rated.map(|rated| rated.pool.key()),
                "color": mine.as_str(),
                "opponent": opponent.name,
                "opponent_computer": opponent.id.is_none(),
                "result": result,
                "rating_change": rated
                    .map(|rated| shown(rated.change.after) - shown(rated.change.before)),
                "finished_at": game.finished_at.map(|at| at.0),
                "opening_name": opening.map(|opening| opening.name()),
            })
        })
        .collect();
    let mut pools = Vec::with_capacity(standings.len());
    for standing in &standings {
        let mut entry = standing_json(standing);
        entry["pool"] = json!(standing.pool.key());
        entry["pool_name"] = json!(standing.pool.name());
        entry["rank"] = json!(ranked(&store, account.name.as_deref(), standing).await?);
        entry["history"] = history
            .iter()
            .filter(|rated| rated.pool == standing.pool)
            .map(|rated| {
                let change = &rated.change;
                json!({ "game_id": change.game_id.to_string(), "at": change.at.0, "rating": shown(change.after) })
            })
            .collect();
        pools.push(entry);
    }
    // The default pool's standing at the top, as before pools existed.
    let mut body = pools
        .iter()
        .find(|entry| entry["pool"] == Pool::DEFAULT.key())
        .cloned()
        .unwrap_or_else(|| json!({}));
    body["name"] = json!(account.name);
    body["id"] = json!(account.player_id);
    body["joined_at"] = json!(account.created_at.0);
    // What moderators found, in public: engine assistance, or a closed account.
    let sanctions = store.active_sanctions(&account.player_id).await?;
    body["label"] = json!(
        [SanctionKind::Closed, SanctionKind::Engine]
            .into_iter()
            .find(|kind| sanctions.contains(kind))
            .map(|kind| match kind {
                SanctionKind::Engine => "engine_assistance",
                _ => "closed",
            })
    );
    body["pools"] = Value::Array(pools);
    body["recent_games"] = Value::Array(recent);
    body["puzzles"] = json!({ "total": puzzles.total, "solved": puzzles.solved });
    let (followers, following) = store.follow_counts(&account.player_id).await?;
    body["followers"] = json!(followers);
    body["following"] = json!(following);
    // Whether the signed-in viewer follows the player (`null` for guests and visitors).
    body["you_follow"] = match session.filter(|session| session.account) {
        Some(viewer) => json!(store.follows(&viewer.player, &account.player_id).await?),
        None => Value::Null,
    };
    Ok(HttpResponse::Ok().json(body))
}

#[derive(Debug, Deserialize)]
struct SearchQuery {
    q: Option<String>,
}

/// `GET /api/players?q=an`: the accounts whose public name starts with `q` (look-alikes
/// folded: `ann0` finds Anno), in name order, each with its rating in every pool it has
/// played and whether it is online.
async fn search(
    query: web::Query<SearchQuery>,
    store: web::Data<Store>,
    online: web::Data<Online>,
    matchmaking: web::Data<Matchmaking>,
    feed: web::Data<PlayerFeed>,
) -> Result<HttpResponse, PlayerRouteError> {
    let prefix = query.q.as_deref().map(str::trim).unwrap_or_default();
    if !(1..=PublicName::MAX).contains(&prefix.chars().count()) {
        return Err(PlayerRouteError::BadSearch);
    }
    let accounts = store.search_accounts(prefix, SEARCH_RESULTS).await?;
    let presence = Presence::now(&online, &matchmaking, &store, Timestamp::now())
        .await
        .map_err(|error| PlayerRouteError::Unavailable(error.to_string()))?;
    let mut players = Vec::with_capacity(accounts.len());
    for account in &accounts {
        let ratings: serde_json::Map<String, Value> = store
            .standings(&account.player_id)
            .await?
            .iter()
            .filter(|standing| standing.rated_games > 0)
            .map(|standing| {
                let rating = json!({
                    "rating": shown(standing.rating),
                    "provisional": is_provisional(standing.rated_games),
                    "rated_games": standing.rated_games,
                });
                (standing.pool.key().to_owned(), rating)
            })
            .collect();
        players.push(json!({
            "name": account.name,
            "online": presence.includes(&account.player_id) || feed.is_connected(&account.player_id),
            "ratings": ratings,
        }));
    }
    Ok(HttpResponse::Ok().json(json!({ "players": players })))
}

/// Where an account stands on `standing`'s pool's leaderboard, if within the top [`TOP`].
async fn ranked(
    store: &Store,
    name: Option<&str>,
    standing: &PoolStanding,
) -> Result<Option<u32>, PlayerRouteError> {
    Ok(store.rank(name, standing).await?.filter(|rank| *rank <= TOP))
}

/// A pool as a chooser lists it: its key and its name.
fn pool_json(pool: Pool) -> Value {
    json!({ "key": pool.key(), "name": pool.name() })
}

/// A standing in one pool: rating and record.
fn standing_json(standing: &PoolStanding) -> Value {
    json!({
        "rating": shown(standing.rating),
        "provisional": is_provisional(standing.rated_games),
        "rated_games": standing.rated_games,
        "wins": standing.wins,
        "draws": standing.draws,
        "losses": standing.losses,
    })
}

/// One side's change in a rated game, as the API and the game socket send it.
pub fn change_json(change: &RatingChange) -> Value {
    json!(RatingSide::from(change))
}

/// Both sides' changes in a rated game.
pub fn rated_game_json(rated: &RatedGame) -> Value {
    json!({ "black": change_json(&rated.black), "white": change_json(&rated.white) })
}
