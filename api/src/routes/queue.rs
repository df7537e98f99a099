//! `GET /api/queue/ws`: waiting for a quick game (docs/protocol.md, "Finding an opponent"),
//! and `GET /api/stats`: players online, waiting, and games in progress.

use std::time::{Duration, Instant};

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use actix_ws::{CloseCode, CloseReason, Message, MessageStream, Session as Socket};
use outflank_matchmaker::QueueKind;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::accounts::rating::shown;
use crate::domain::Timestamp;
use crate::live::Human;
use crate::metrics::{ErrorKind, Metrics, SocketGuard, SocketKind};
use crate::routes::error::error_response;
use crate::routes::session::current_session;
use crate::service::{GUEST_RATING, MAX_SOCKETS_PER_PLAYER, Matchmaking, Online, OnlineGuard};
use crate::storage::{DbError, Store};
use crate::ws::protocol::MAX_FRAME_BYTES;

/// How often a waiting seeker hears how long they have waited (and the queue hears from them).
const TICK: Duration = Duration::from_secs(1);

pub fn configure(config: &mut web::ServiceConfig) {
    config.route("/api/queue/ws", web::get().to(connect)).route("/api/stats", web::get().to(stats));
}

/// `GET /api/stats`.
async fn stats(
    online: web::Data<Online>,
    matchmaking: web::Data<Matchmaking>,
    store: web::Data<Store>,
) -> HttpResponse {
    let waiting = matchmaking.waiting().await.unwrap_or(0);
    match store.count_live_games().await {
        Ok(games) => HttpResponse::Ok().json(json!({
            "online": online.count(),
            "waiting": waiting,
            "games_in_progress": games,
        })),
        Err(error) => error_response(StatusCode::SERVICE_UNAVAILABLE, "unavailable", error),
    }
}

/// A message from a seeker.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum SeekerMsg {
    Seek { queue: String },
    Cancel,
    Ping,
}

/// The opponent found.
#[derive(Debug, Serialize)]
struct OpponentMsg {
    name: String,
    computer: bool,
    level: Option<&'static str>,
}

/// A message to a seeker.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum QueueMsg {
    Searching { queue: &'static str, waited_ms: i64 },
    Paired { game_id: String, opponent: OpponentMsg },
    Cancelled,
    Error { code: &'static str, message: String },
    Pong,
}

async fn connect(
    request: HttpRequest,
    body: web::Payload,
    matchmaking: web::Data<Matchmaking>,
    online: web::Data<Online>,
    metrics: web::Data<Metrics>,
    store: web::Data<Store>,
) -> Result<HttpResponse, actix_web::Error> {
    let Ok(session) = current_session(&request, Timestamp::now()) else {
        return Ok(error_response(
            StatusCode::UNAUTHORIZED,
            "no_session",
            "choose a nickname before looking for an opponent",
        ));
    };
    let Some(online) = online.try_enter(&session.player) else {
        return Ok(too_many_sockets());
    };
    let (response, socket, stream) = actix_ws::handle(&request, body)?;
    let seeker = Seeker {
        me: Human { id: session.player, name: session.nickname },
        matchmaking: matchmaking.get_ref().clone(),
        socket,
        account: session.account,
        store: store.get_ref().clone(),
        search: None,
        _online: online,
        metrics: metrics.get_ref().clone(),
        _open: metrics.socket_opened(SocketKind::Queue),
    };
    actix_web::rt::spawn(seeker.run(stream.max_frame_size(MAX_FRAME_BYTES)));
    Ok(response)
}

/// A search in progress.
#[derive(Clone, Copy, Debug)]
struct Search {
    since: Timestamp,
    queue: QueueKind,
    /// The rating the seeker is paired by.
    rating: i32,
}

/// One seeker's socket.
struct Seeker {
    me: Human,
    matchmaking: Matchmaking,
    socket: Socket,
    /// Whether the session is signed in with an account.
    account: bool,
    store: Store,
    /// The current search; `None` when not searching.
    search: Option<Search>,
    _online: OnlineGuard,
    metrics: Metrics,
    /// Counts this socket as open in the metrics.
    _open: SocketGuard,
}

impl Seeker {
    async fn run(mut self, mut stream: MessageStream) {
        let mut tick = tokio::time::interval(TICK);
        let mut last_heard = Instant::now();
        let close = loop {
            tokio::select! {
                frame = stream.recv() => {
                    last_heard = Instant::now();
                    match frame {
                        Some(Ok(Message::Text(text))) => {
                            if let Err(close) = self.on_text(&text).await {
                                break close;
                            }
                        }
                        Some(Ok(Message::Ping(bytes))) => {
                            if self.socket.pong(&bytes).await.is_err() { break None }
                        }
                        Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break None,
                        Some(Ok(_)) => {}
                    }
                }
                _ = tick.tick() => {
                    if last_heard.elapsed() > 6 * TICK && self.search.is_none() {
                        // Idle and silent: nothing to keep the socket for.
                        break Some((CloseCode::Away, "idle"));
                    }
                    match self.on_tick().await {
                        Ok(true) => break Some((CloseCode::Normal, "paired")),
                        Ok(false) => {}
                        Err(close) => break close,
                    }
                }
            }
        };
        if self.search.is_some() {
            let _ = self.matchmaking.cancel(&self.me.id).await;
        }
        if let Some((code, description)) = close {
            let reason = CloseReason { code, description: Some(description.to_owned()) };
            let _ = self.socket.close(Some(reason)).await;
        }
    }

    /// Handles one message; `Err` closes the socket (`None`: the client is gone).
    async fn on_text(&mut self, text: &str) -> Result<(), Option<(CloseCode, &'static str)>> {
        let msg = match serde_json::from_str::<SeekerMsg>(text) {
            Ok(msg) => msg,
            Err(error) => {
                let code = if serde_json::from_str::<serde_json::Value>(text).is_ok() {
                    "bad_message"
                } else {
                    "bad_json"
                };
                self.metrics.error(ErrorKind::WsProtocol, code);
                return self.send(&QueueMsg::Error { code, message: error.to_string() }).await;
            }
        };
        match msg {
            SeekerMsg::Ping => self.send(&QueueMsg::Pong).await,
            SeekerMsg::Cancel => {
                if self.search.take().is_some() {
                    let _ = self.matchmaking.cancel(&self.me.id).await;
                }
                self.send(&QueueMsg::Cancelled).await
            }
            SeekerMsg::Seek { queue } => {
                if self.search.is_some() {
                    let message = "you are already looking for an opponent".to_owned();
                    return self.send(&QueueMsg::Error { code: "already_seeking", message }).await;
                }
                let kind = match queue.as_str() {
                    "quick" => QueueKind::Quick,
                    "ranked" => QueueKind::Ranked,
                    other => {
                        let message =
                            format!("\"{other}\" is not a queue; expected quick or ranked");
                        return self.send(&QueueMsg::Error { code: "bad_queue", message }).await;
                    }
                };
                let rating = match self.rating(kind).await {
                    Ok(rating) => rating,
                    Err((code, message)) => {
                        return self.send(&QueueMsg::Error { code, message: message.into() }).await;
                    }
                };
                let now = Timestamp::now();
                if let Err(error) = self.matchmaking.seek(&self.me.id, kind, rating, now).await {
                    tracing::warn!(%error, "joining the queue failed");
                    let message =
                        "matchmaking is unavailable right now; try again in a moment".to_owned();
                    return self.send(&QueueMsg::Error { code: "unavailable", message }).await;
                }
                self.search = Some(Search { since: now, queue: kind, rating });
                self.send(&QueueMsg::Searching { queue: kind.as_str(), waited_ms: 0 }).await
            }
        }
    }

    /// The rating to pair by in `queue`: the account's (ranked needs a named account), or the
    /// starting rating for a guest.
    async fn rating(&self, queue: QueueKind) -> Result<i32, (&'static str, &'static str)> {
        const ACCOUNT_REQUIRED: (&str, &str) =
            ("account_required", "ranked games need an account: sign in with Google first");
        let account = if self.account {
            match self.store.account(&self.me.id).await {
                Ok(account) => Some(account),
                Err(DbError::NotFound) => None,
                Err(error) => {
                    tracing::warn!(%error, "reading an account failed");
                    return Err(("unavailable", "matchmaking is unavailable right now"));
                }
            }
        } else {
            None
        };
        match (queue, account) {
            (QueueKind::Ranked, None) => Err(ACCOUNT_REQUIRED),
            (QueueKind::Ranked, Some(account)) if account.name.is_none() => {
                Err(("name_required", "choose your public name before playing ranked games"))
            }
            (_, Some(account)) => Ok(i32::try_from(shown(account.rating)).unwrap_or(GUEST_RATING)),
            (QueueKind::Quick, None) => Ok(GUEST_RATING),
        }
    }

    /// While searching: keeps the seeker in the queue and reports the wait; `Ok(true)` once a
    /// game has been found and announced.
    async fn on_tick(&mut self) -> Result<bool, Option<(CloseCode, &'static str)>> {
        let Some(search) = self.search else { return Ok(false) };
        let still_waiting = match self.matchmaking.heartbeat(&self.me.id).await {
            Ok(waiting) => waiting,
            Err(error) => {
                tracing::warn!(%error, "queue heartbeat failed");
                true
            }
        };
        if !still_waiting {
            match self.matchmaking.take_decision(&self.me.id).await {
                Ok(Some(decision)) => return self.announce(&decision).await.map(|()| true),
                // Dropped from the queue (e.g. it restarted): wait again from the same start.
                Ok(None) => {
                    let _ = self
                        .matchmaking
                        .seek(&self.me.id, search.queue, search.rating, search.since)
                        .await;
                }
                Err(error) => tracing::warn!(%error, "reading a pairing failed"),
            }
        }
        let waited_ms = Timestamp::now().since(search.since);
        let queue = search.queue.as_str();
        self.send(&QueueMsg::Searching { queue, waited_ms }).await.map(|()| false)
    }

    async fn announce(
        &mut self,
        decision: &outflank_matchmaker::Decision,
    ) -> Result<(), Option<(CloseCode, &'static str)>> {
        self.search = None;
        match self.matchmaking.start_game(decision, &self.me).await {
            Ok(paired) => {
                let opponent = OpponentMsg {
                    name: paired.opponent,
                    computer: paired.computer.is_some(),
                    level: paired.computer.map(outflank_engine::ai::Level::name),
                };
                self.send(&QueueMsg::Paired { game_id: paired.game_id.to_string(), opponent }).await
            }
            Err(error) => {
                tracing::error!(%error, "starting a paired game failed");
                let message =
                    "the game could not be started; please look for an opponent again".to_owned();
                self.send(&QueueMsg::Error { code: "unavailable", message }).await
            }
        }
    }

    async fn send(&mut self, msg: &QueueMsg) -> Result<(), Option<(CloseCode, &'static str)>> {
        let text = serde_json::to_string(msg).unwrap_or_default();
        match tokio::time::timeout(Duration::from_secs(5), self.socket.text(text)).await {
            Ok(Ok(())) => Ok(()),
            _ => Err(None),
        }
    }
}

/// The answer to a player over the socket cap.
fn too_many_sockets() -> HttpResponse {
    error_response(
        StatusCode::TOO_MANY_REQUESTS,
        "too_many_sockets",
        format!("you already have {MAX_SOCKETS_PER_PLAYER} connections open; close some tabs"),
    )
}
