//! `GET /api/lobby`: who is online and waiting, the live games to watch (best rated first) and
//! the latest results; and the counts `GET /api/stats` shares with it.
//!
//! The counts agree with each other by construction: everyone seated in a game in progress and
//! everyone waiting counts as online (with whoever has a game or queue socket open here), and a
//! game in progress is one that is really being played (see [`crate::storage`]'s lobby
//! queries), not one left open weeks ago.

use std::collections::HashSet;

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use serde::Serialize;
use thiserror::Error;

use crate::accounts::rating::{is_provisional, shown};
use crate::domain::{PlayerId, Timestamp};
use crate::http::error::{ApiError, api_error};
use crate::service::{Matchmaking, Online};
use crate::storage::{DbError, GameRow, LobbyGame, SeatRow, SeatStanding, Store};

/// A game without a clock counts as in progress for this long after its last move (or its
/// start): longer than anyone thinks over one move against the computer.
pub const ACTIVE_WITHOUT_CLOCK_MS: i64 = 10 * 60 * 1000;
/// How many live games the lobby lists.
const LIVE_GAMES: u32 = 10;
/// How many results the lobby lists.
const RECENT_RESULTS: u32 = 10;

pub fn configure(config: &mut web::ServiceConfig) {
    config.route("/api/lobby", web::get().to(lobby));
}

/// Why the lobby (or the stats) cannot be given.
#[derive(Debug, Error)]
pub enum LobbyError {
    #[error("the lobby is unavailable right now; try again in a moment")]
    Unavailable(String),
}

impl From<DbError> for LobbyError {
    fn from(error: DbError) -> LobbyError {
        LobbyError::Unavailable(error.to_string())
    }
}

impl ApiError for LobbyError {
    fn status_and_code(&self) -> (StatusCode, &'static str) {
        (StatusCode::SERVICE_UNAVAILABLE, "unavailable")
    }

    fn detail(&self) -> Option<&str> {
        let LobbyError::Unavailable(detail) = self;
        Some(detail)
    }
}

api_error!(LobbyError);

/// Players online, seekers waiting and games in progress, as `/api/stats` and `/api/lobby`
/// give them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// People playing a game in progress, waiting for an opponent, or with a game's page open
    /// (several tabs, and several of these at once, count once).
    pub online: usize,
    /// People waiting in the quick or ranked queue.
    pub waiting: usize,
    /// Games in progress.
    pub games_in_progress: u64,
}

impl Counts {
    /// The counts as of `now`.
    ///
    /// # Errors
    /// [`LobbyError`] when the store cannot be read. An unreachable queue counts nobody
    /// waiting rather than failing the whole answer.
    pub async fn now(
        online: &Online,
        matchmaking: &Matchmaking,
        store: &Store,
        now: Timestamp,
    ) -> Result<Counts, LobbyError> {
        let active_since = Timestamp(now.0 - ACTIVE_WITHOUT_CLOCK_MS);
        let waiting = matchmaking.waiting_players().await.unwrap_or_else(|error| {
            tracing::warn!(%error, "the queue cannot be read for the lobby");
            Vec::new()
        });
        let playing = store.players_in_games_in_progress(active_since).await?;
        let games_in_progress = store.count_games_in_progress(active_since).await?;
        let mut people: HashSet<PlayerId> = online.players().into_iter().collect();
        people.extend(playing);
        let waiting_count = waiting.len();
        people.extend(waiting);
        Ok(Counts { online: people.len(), waiting: waiting_count, games_in_progress })
    }
}

/// `GET /api/lobby`.
#[derive(Debug, Serialize)]
struct Lobby {
    #[serde(flatten)]
    counts: Counts,
    live_games: Vec<LiveGame>,
    recent_results: Vec<RecentResult>,
}

/// One side of a listed game.
#[derive(Debug, Serialize)]
struct Seat {
    name: String,
    computer: bool,
    /// The account's rating as shown; `None` for a guest or the computer.
    rating: Option<i64>,
    provisional: bool,
}

impl Seat {
    fn of(seat: &SeatRow, standing: Option<SeatStanding>) -> Seat {
        Seat {
            name: seat.name.clone(),
            computer: seat.id.is_none(),
            rating: standing.map(|standing| shown(standing.rating)),
            provisional: standing.is_some_and(|standing| is_provisional(standing.rated_games)),
        }
    }
}

/// A live game to watch.
#[derive(Debug, Serialize)]
struct LiveGame {
    id: String,
    mode: &'static str,
    /// How the game is timed (`30s`, `3+2`, `2d`), as the game's page says it.
    control: Option<String>,
    /// Where to watch it: the game's page works for spectators.
    url: String,
    black: Seat,
    white: Seat,
    /// Plies played so far, passes included.
    plies: u32,
    started_at: i64,
}

impl From<LobbyGame> for LiveGame {
    fn from(listed: LobbyGame) -> LiveGame {
        let game = listed.game;
        LiveGame {
            id: game.id.to_string(),
            mode: game.mode.as_str(),
            control: game.time_control.map(|control| control.to_string()),
            url: format!("/game/{}", game.id),
            black: Seat::of(&game.black, listed.black),
            white: Seat::of(&game.white, listed.white),
            plies: listed.plies,
            started_at: game.created_at.0,
        }
    }
}

/// A finished game.
#[derive(Debug, Serialize)]
struct RecentResult {
    id: String,
    mode: &'static str,
    /// How the game was timed.
    control: Option<String>,
    /// The game's replay.
    url: String,
    black: Seat,
    white: Seat,
    /// `black`, `white` or `draw`.
    winner: Option<&'static str>,
    /// `normal`, `resignation`, `timeout` or `agreed_draw`.
    reason: Option<&'static str>,
    counts: Discs,
    finished_at: Option<i64>,
}

/// The final disc counts.
#[derive(Debug, Serialize)]
struct Discs {
    black: Option<u8>,
    white: Option<u8>,
}

impl From<GameRow> for RecentResult {
    fn from(game: GameRow) -> RecentResult {
        RecentResult {
            id: game.id.to_string(),
            mode: game.mode.as_str(),
            control: game.time_control.map(|control| control.to_string()),
            url: format!("/replay/{}", game.id),
            black: Seat::of(&game.black, None),
            white: Seat::of(&game.white, None),
            winner: game.winner.map(|winner| winner.as_str()),
            reason: game.end_reason.map(|reason| reason.as_str()),
            counts: Discs { black: game.black_discs, white: game.white_discs },
            finished_at: game.finished_at.map(|at| at.0),
        }
    }
}

/// `GET /api/lobby`.
async fn lobby(
    online: web::Data<Online>,
    matchmaking: web::Data<Matchmaking>,
    store: web::Data<Store>,
) -> Result<HttpResponse, LobbyError> {
    let counts = Counts::now(&online, &matchmaking, &store, Timestamp::now()).await?;
    let live_games = store.watchable_games(LIVE_GAMES).await?.into_iter().map(LiveGame::from);
    let recent = store.recent_results(RECENT_RESULTS).await?.into_iter().map(RecentResult::from);
    Ok(HttpResponse::Ok().json(Lobby {
        counts,
        live_games: live_games.collect(),
        recent_results: recent.collect(),
    }))
}
