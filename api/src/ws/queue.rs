//! `GET /api/queue/ws`: waiting for a quick or ranked game (docs/protocol.md, "Finding an
//! opponent"). The seeker's session says who they are; the matchmaking service decides who
//! may wait where and pairs them.

use std::time::Duration;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use actix_ws::CloseCode;
use outflank_matchmaker::{Decision, QueueKind};

use crate::domain::{ClientKey, Timestamp};
use crate::http::error::error_response;
use crate::live::{Human, Pool};
use crate::metrics::{ErrorKind, Metrics, SocketKind};
use crate::service::{Matchmaking, SeekRefusal, ServiceError};

use super::caps::OpenSockets;
use super::protocol::{OpponentMsg, QueueMsg, QueueName, SeekerError, SeekerMsg, codes};
use super::socket::{self, Close, Conversation, Flow, Socket};

/// How often a waiting seeker hears how long they have waited (and the queue hears from them).
const TICK: Duration = Duration::from_secs(1);
/// A socket that is not searching and has heard nothing for this long is closed.
const IDLE: Duration = Duration::from_secs(6);

pub fn configure(config: &mut web::ServiceConfig) {
    config.route("/api/queue/ws", web::get().to(connect));
}

async fn connect(
    request: HttpRequest,
    body: web::Payload,
    matchmaking: web::Data<Matchmaking>,
    sockets: web::Data<OpenSockets>,
    metrics: web::Data<Metrics>,
) -> Result<HttpResponse, actix_web::Error> {
    let Some((session, watch)) = socket::session(&request, matchmaking.now()) else {
        return Ok(error_response(
            StatusCode::UNAUTHORIZED,
            "no_session",
            "choose a nickname before looking for an opponent",
        ));
    };
    let visitor = socket::visitor(&request, Some(session.player.clone()));
    let admitted = match socket::admit(&request, &visitor, &sockets, &metrics).await {
        Ok(admitted) => admitted,
        Err(response) => return Ok(*response),
    };
    let conversation = QueueSocket {
        me: Human { id: session.player, name: session.nickname },
        signed_in: session.account,
        client: visitor.client,
        matchmaking: matchmaking.get_ref().clone(),
        search: None,
        tick: tokio::time::interval(TICK),
    };
    socket::serve(&request, body, admitted, Some(watch), SocketKind::Queue, &metrics, conversation)
}

/// A search in progress.
#[derive(Clone, Debug)]
struct Search {
    since: Timestamp,
    queue: QueueKind,
    /// The pools sought, each with the rating the seeker is paired by there.
    pools: Vec<(Pool, i32)>,
}

impl Search {
    fn pools(&self) -> Vec<Pool> {
        self.pools.iter().map(|&(pool, _)| pool).collect()
    }
}

/// One seeker's conversation with the queue.
struct QueueSocket {
    me: Human,
    /// Whether the session is signed in with an account.
    signed_in: bool,
    /// Where the seeker connects from.
    client: ClientKey,
    matchmaking: Matchmaking,
    /// The current search; `None` when not searching.
    search: Option<Search>,
    tick: tokio::time::Interval,
}

impl Conversation for QueueSocket {
    type Event = ();

    async fn next_event(&mut self) {
        self.tick.tick().await;
    }

    async fn on_text(&mut self, socket: &mut Socket, text: &str) -> Flow {
        let msg = match SeekerMsg::parse(text) {
            Ok(msg) => msg,
            Err(SeekerError { code, message }) => {
                socket.metrics().error(ErrorKind::WsProtocol, code);
                return socket.send(&QueueMsg::error(code, message)).await;
            }
        };
        match msg {
            SeekerMsg::Ping => socket.send(&QueueMsg::Pong).await,
            SeekerMsg::Cancel => {
                if self.search.take().is_some() {
                    let _ = self.matchmaking.cancel(&self.me.id).await;
                }
                socket.send(&QueueMsg::Cancelled).await
            }
            SeekerMsg::Seek { queue, pools } => self.seek(socket, queue.into(), &pools).await,
        }
    }

    /// While searching: keeps the seeker in the queue and reports the wait; closes the socket
    /// once a game has been found and announced, or when it idles.
    async fn on_event(&mut self, socket: &mut Socket, (): ()) -> Flow {
        let Some(search) = self.search.clone() else {
            if socket.silent_for() > IDLE {
                return Err(Close::With(CloseCode::Away, "idle"));
            }
            return Ok(());
        };
        let still_waiting = match self.matchmaking.heartbeat(&self.me.id).await {
            Ok(waiting) => waiting,
            Err(error) => {
                tracing::warn!(%error, "queue heartbeat failed");
                true
            }
        };
        if !still_waiting {
            match self.matchmaking.take_decision(&self.me.id).await {
                Ok(Some(decision)) => {
                    self.announce(socket, &decision).await?;
                    return Err(Close::With(CloseCode::Normal, "paired"));
                }
                // Dropped from the queue (e.g. it restarted): wait again from the same start.
                Ok(None) => {
                    let _ = self
                        .matchmaking
                        .seek(&self.me.id, search.queue, &search.pools, search.since)
                        .await;
                }
                Err(error) => tracing::warn!(%error, "reading a pairing failed"),
            }
        }
        let waited_ms = self.matchmaking.now().since(search.since);
        let searching =
            QueueMsg::Searching { queue: search.queue.into(), pools: search.pools(), waited_ms };
        socket.send(&searching).await
    }

    async fn on_close(&mut self) {
        if self.search.is_some() {
            let _ = self.matchmaking.cancel(&self.me.id).await;
        }
    }
}

impl QueueSocket {
    async fn seek(&mut self, socket: &mut Socket, kind: QueueKind, pools: &[Pool]) -> Flow {
        if self.search.is_some() {
            let message = "you are already looking for an opponent";
            return socket.send(&QueueMsg::error(codes::ALREADY_SEEKING, message)).await;
        }
        let rated = self.matchmaking.ratings_for(&self.me.id, self.signed_in, kind, pools).await;
        let pools = match rated {
            Ok(pools) => pools,
            Err(refusal) => {
                let code = match refusal {
                    SeekRefusal::AccountRequired => codes::ACCOUNT_REQUIRED,
                    SeekRefusal::NameRequired => codes::NAME_REQUIRED,
                    SeekRefusal::Sanctioned => codes::RANKED_CLOSED,
                    SeekRefusal::Unavailable => codes::UNAVAILABLE,
                };
                return socket.send(&QueueMsg::error(code, refusal)).await;
            }
        };
        let now = self.matchmaking.now();
        if let Err(error) = self.matchmaking.seek(&self.me.id, kind, &pools, now).await {
            tracing::warn!(%error, "joining the queue failed");
            let unavailable = QueueMsg::error(codes::UNAVAILABLE, SeekRefusal::Unavailable);
            return socket.send(&unavailable).await;
        }
        let search = Search { since: now, queue: kind, pools };
        let searching = QueueMsg::Searching {
            queue: QueueName::from(kind),
            pools: search.pools(),
            waited_ms: 0,
        };
        self.search = Some(search);
        socket.send(&searching).await
    }

    async fn announce(&mut self, socket: &mut Socket, decision: &Decision) -> Flow {
        self.search = None;
        match self.matchmaking.start_game(decision, &self.me, self.client).await {
            Ok(paired) => {
                let opponent = OpponentMsg {
                    name: paired.opponent,
                    computer: paired.computer.is_some(),
                    level: paired.computer.map(|level| level.number()),
                };
                let paired =
                    QueueMsg::Paired { game_id: paired.game_id, pool: paired.pool, opponent };
                socket.send(&paired).await
            }
            Err(ServiceError::OverBudget(over)) => {
                // The computer would have stood in, but this player or address has as many
                // games against it in progress as it may.
                socket.send(&QueueMsg::error(codes::TOO_MANY_GAMES, over)).await?;
                Err(Close::With(CloseCode::Normal, "not paired"))
            }
            Err(error) => {
                tracing::error!(%error, "starting a paired game failed");
                let message = "the game could not be started; please look for an opponent again";
                socket.send(&QueueMsg::error(codes::UNAVAILABLE, message)).await?;
                Err(Close::With(CloseCode::Normal, "not paired"))
            }
        }
    }
}
