//! `GET /api/lobby`: who is online and waiting, the open seeks, the live games to watch (best
//! rated first, each with its board) and the latest results; and the counts `GET /api/stats`
//! shares with it. The same lobby is pushed over `/api/lobby/ws` as it changes
//! ([`LobbyFeed`](crate::lobby_feed::LobbyFeed)).
//!
//! The counts agree with each other by construction: everyone seated in a game in progress and
//! everyone waiting counts as online (with whoever has a game or queue socket open here), and a
//! game in progress is one that is really being played (see [`crate::storage`]'s lobby
//! queries), not one left open weeks ago.

use std::collections::HashSet;

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use outflank_engine::Game;
use outflank_matchmaker::QueueKind;
use serde::Serialize;
use thiserror::Error;

use crate::accounts::rating::{is_provisional, shown};
use crate::domain::{GameId, PlayerId, Timestamp};
use crate::http::error::{ApiError, api_error};
use crate::json::board_text;
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

/// Who is online as of one moment: everyone seated in a game in progress, everyone waiting,
/// and whoever has a socket open on this node.
#[derive(Debug)]
pub struct Presence {
    playing: HashSet<PlayerId>,
    waiting: Vec<PlayerId>,
    here: HashSet<PlayerId>,
    games_in_progress: u64,
}

impl Presence {
    /// Who is online at `now`.
    ///
    /// # Errors
    /// [`LobbyError`] when the store cannot be read; an unreachable queue counts nobody waiting.
    pub async fn now(
        online: &Online,
        matchmaking: &Matchmaking,
        store: &Store,
        now: Timestamp,
    ) -> Result<Presence, LobbyError> {
        let active_since = Timestamp(now.0 - ACTIVE_WITHOUT_CLOCK_MS);
        let waiting = matchmaking.waiting_players().await.unwrap_or_else(|error| {
            tracing::warn!(%error, "the queue cannot be read for the lobby");
            Vec::new()
        });
        let playing = store.players_in_games_in_progress(active_since).await?.into_iter().collect();
        let games_in_progress = store.count_games_in_progress(active_since).await?;
        Ok(Presence {
            playing,
            waiting,
            here: online.players().into_iter().collect(),
            games_in_progress,
        })
    }

    /// Whether `player` is online.
    pub fn includes(&self, player: &PlayerId) -> bool {
        self.playing.contains(player) || self.here.contains(player) || self.waiting.contains(player)
    }

    /// Everyone online, each once.
    fn people(&self) -> HashSet<&PlayerId> {
        self.playing.iter().chain(&self.waiting).chain(&self.here).collect()
    }

    fn counts(&self) -> Counts {
        Counts {
            online: self.people().len(),
            waiting: self.waiting.len(),
            games_in_progress: self.games_in_progress,
        }
    }
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
        Ok(Presence::now(online, matchmaking, store, now).await?.counts())
    }
}

/// `GET /api/lobby`, and each push of `/api/lobby/ws`.
#[derive(Debug, Serialize)]
pub struct Lobby {
    #[serde(flatten)]
    counts: Counts,
    online_players: Vec<OnlinePlayer>,
    seeks: Vec<OpenSeek>,
    live_games: Vec<LiveGame>,
    recent_results: Vec<RecentResult>,
}

/// How many of the people online the lobby names.
const ONLINE_NAMED: usize = 30;

/// Someone online whose presence is public already, as the lobby names them.
#[derive(Debug, Serialize)]
struct OnlinePlayer {
    name: String,
    /// Whether the name is an account's public name (with a profile), not a guest's nickname.
    account: bool,
    /// `playing` (seated in a quick or ranked game in progress) or `waiting` (in a queue).
    status: &'static str,
}

/// The people the lobby may name: those seated in a public game (quick or ranked) in progress,
/// then those waiting, each group by name (then accounts after guests, then by id, so that
/// the list reads the same from one build to the next); at most [`ONLINE_NAMED`]. Players of
/// games watched by link alone, and visitors merely on the site, are counted, never named.
async fn online_players(
    presence: &Presence,
    store: &Store,
    now: Timestamp,
) -> Result<Vec<OnlinePlayer>, LobbyError> {
    let active_since = Timestamp(now.0 - ACTIVE_WITHOUT_CLOCK_MS);
    let public: Vec<PlayerId> = store.players_in_public_games(active_since).await?;
    let mut people: Vec<(&'static str, PlayerId)> =
        public.into_iter().map(|player| ("playing", player)).collect();
    for player in &presence.waiting {
        if !people.iter().any(|(_, listed)| listed == player) {
            people.push(("waiting", player.clone()));
        }
    }
    let ids: Vec<PlayerId> = people.iter().map(|(_, player)| player.clone()).collect();
    let names = store.shown_names(&ids).await?;
    let mut listed: Vec<(OnlinePlayer, String)> = people
        .into_iter()
        .filter_map(|(status, player)| {
            let shown = names.get(&player)?;
            let online = OnlinePlayer { name: shown.name.clone(), account: shown.account, status };
            Some((online, player.as_str().to_owned()))
        })
        .collect();
    let rank = |status: &str| usize::from(status != "playing");
    listed.sort_by(|(a, a_id), (b, b_id)| {
        rank(a.status)
            .cmp(&rank(b.status))
            .then_with(|| a.name.cmp(&b.name))
            .then(a.account.cmp(&b.account))
            .then_with(|| a_id.cmp(b_id))
    });
    Ok(listed.into_iter().take(ONLINE_NAMED).map(|(online, _)| online).collect())
}

/// Someone waiting in the quick or ranked queue, whom a seek in one of their pools meets.
#[derive(Debug, Serialize)]
struct OpenSeek {
    /// `quick` or `ranked`.
    queue: &'static str,
    /// The pools they wait in, the one they prefer first.
    pools: Vec<String>,
    name: String,
    /// Their rating in their first pool, for a ranked seek; `None` for a quick one.
    rating: Option<i64>,
    /// When they started waiting.
    since: i64,
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
    /// The board now (as in a game's snapshot), for a small picture of it; `None` if its moves
    /// could not be read.
    board: Option<String>,
    started_at: i64,
}

impl LiveGame {
    fn of(listed: LobbyGame, board: Option<String>) -> LiveGame {
        let game = listed.game;
        LiveGame {
            id: game.id.to_string(),
            mode: game.mode.as_str(),
            control: game.time_control.map(|control| control.to_string()),
            url: format!("/game/{}", game.id),
            black: Seat::of(&game.black, listed.black),
            white: Seat::of(&game.white, listed.white),
            plies: listed.plies,
            board,
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

impl Lobby {
    /// The lobby as of `now`.
    ///
    /// # Errors
    /// [`LobbyError`] when the store cannot be read; an unreachable queue shows no seeks.
    pub async fn now(
        online: &Online,
        matchmaking: &Matchmaking,
        store: &Store,
        now: Timestamp,
    ) -> Result<Lobby, LobbyError> {
        let presence = Presence::now(online, matchmaking, store, now).await?;
        let counts = presence.counts();
        let online_players = online_players(&presence, store, now).await?;
        let seeks = open_seeks(matchmaking, store).await?;
        let listed = store.watchable_games(LIVE_GAMES).await?;
        let ids: Vec<GameId> = listed.iter().map(|listed| listed.game.id.clone()).collect();
        let mut moves = store.first_moves(&ids, MAX_PLIES).await?;
        let live_games = listed
            .into_iter()
            .map(|listed| {
                let board = Game::from_moves(
                    listed.game.start_position,
                    moves.remove(&listed.game.id).unwrap_or_default(),
                )
                .ok()
                .map(|game| board_text(&game.board()));
                LiveGame::of(listed, board)
            })
            .collect();
        let recent =
            store.recent_results(RECENT_RESULTS).await?.into_iter().map(RecentResult::from);
        Ok(Lobby { counts, online_players, seeks, live_games, recent_results: recent.collect() })
    }
}

/// More plies than any game has (60 discs and the passes between them).
const MAX_PLIES: u32 = 128;

/// The seeks waiting now, the longest waiting first, named as the lobby names players.
async fn open_seeks(matchmaking: &Matchmaking, store: &Store) -> Result<Vec<OpenSeek>, LobbyError> {
    let mut tickets = matchmaking.open_seeks().await.unwrap_or_else(|error| {
        tracing::warn!(%error, "the queue cannot be read for the lobby's seeks");
        Vec::new()
    });
    tickets.sort_by_key(|ticket| ticket.joined_at);
    let players: Vec<PlayerId> =
        tickets.iter().filter_map(|ticket| ticket.seeker.as_str().parse().ok()).collect();
    let names = store.shown_names(&players).await?;
    Ok(tickets
        .iter()
        .filter_map(|ticket| {
            let player: PlayerId = ticket.seeker.as_str().parse().ok()?;
            let name = names.get(&player)?.name.clone();
            let ranked = ticket.queue == QueueKind::Ranked;
            Some(OpenSeek {
                queue: ticket.queue.as_str(),
                pools: ticket.pools.iter().map(|seek| seek.pool.as_str().to_owned()).collect(),
                name,
                rating: ranked
                    .then(|| ticket.pools.first().map(|seek| i64::from(seek.rating)))
                    .flatten(),
                since: ticket.joined_at.0,
            })
        })
        .collect())
}

/// `GET /api/lobby`.
async fn lobby(
    online: web::Data<Online>,
    matchmaking: web::Data<Matchmaking>,
    store: web::Data<Store>,
) -> Result<HttpResponse, LobbyError> {
    Ok(HttpResponse::Ok().json(Lobby::now(&online, &matchmaking, &store, Timestamp::now()).await?))
}
