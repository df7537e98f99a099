//! `GET /api/games/{id}/ws`: the live connection to one game (docs/protocol.md).
//!
//! The socket forwards; the game judges. Each frame is parsed once into a [`ClientMsg`]; a
//! player's action goes to the game with the sender's player id, and the game's refusal comes
//! back as an `error`. Broadcasts reach every socket in version order, rendered here.

use std::time::{Duration, Instant};

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use actix_ws::CloseCode;
use bytestring::ByteString;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};

use crate::domain::{GameId, PlayerId};
use crate::http::error::error_response;
use crate::live::{Action, Announcement, Broadcast, CatchUp, Seat};
use crate::metrics::{ErrorKind, Metrics, SocketKind};
use crate::service::{GameHandle, GameHub, ServiceError, Subscription};

use super::caps::OpenSockets;
use super::protocol::{ClientMsg, ServerMsg, codes};
use super::socket::{self, Close, Conversation, Flow, Socket};

/// A game's stream of broadcasts.
type Events = tokio::sync::broadcast::Receiver<Announcement>;

/// A socket that has not sent `join` within this time is closed.
const JOIN_WITHIN: Duration = Duration::from_secs(10);

pub fn configure(config: &mut web::ServiceConfig) {
    config.route("/api/games/{id}/ws", web::get().to(connect));
}

async fn connect(
    request: HttpRequest,
    body: web::Payload,
    path: web::Path<String>,
    hub: web::Data<GameHub>,
    sockets: web::Data<OpenSockets>,
    metrics: web::Data<Metrics>,
) -> Result<HttpResponse, actix_web::Error> {
    let not_found =
        || error_response(StatusCode::NOT_FOUND, codes::GAME_NOT_FOUND, "there is no such game");
    let Ok(id) = path.parse::<GameId>() else {
        return Ok(not_found());
    };
    // Spectators need no session; they get an id that plays no seat, and do not count as
    // someone online. A player's socket ends when their session does.
    let (session, watch) = match socket::session(&request, hub.clock().now()) {
        Some((session, watch)) => (Some(session.player), Some(watch)),
        None => (None, None),
    };
    let visitor = socket::visitor(&request, session.clone());
    // The handshake and the caps first: a request that will not become a socket starts no game.
    let admitted = match socket::admit(&request, &visitor, &sockets, &metrics).await {
        Ok(admitted) => admitted,
        Err(response) => return Ok(*response),
    };
    let game = match hub.handle(&id).await {
        Ok(game) => game,
        Err(ServiceError::NotFound(_)) => return Ok(not_found()),
        Err(error) => {
            return Ok(error_response(StatusCode::SERVICE_UNAVAILABLE, codes::UNAVAILABLE, error));
        }
    };
    let conversation = GameSocket {
        id,
        game,
        player: session.unwrap_or_else(PlayerId::generate),
        last_version: None,
        joined: false,
        present: false,
        events: None,
        join_by: tokio::time::Instant::now() + JOIN_WITHIN,
    };
    socket::serve(&request, body, admitted, watch, SocketKind::Game, &metrics, conversation)
}

/// One client's conversation with one game.
struct GameSocket {
    id: GameId,
    game: GameHandle,
    player: PlayerId,
    /// The newest version the client has, if known.
    last_version: Option<u64>,
    /// Whether the client has sent `join` and been caught up.
    joined: bool,
    /// Whether this connection counts towards its player's presence in the game.
    present: bool,
    /// The game's stream, once joined.
    events: Option<Events>,
    /// Until the client joins, when it must have.
    join_by: tokio::time::Instant,
}

/// What a game socket waits for besides the client.
enum GameEvent {
    /// The game's next broadcast (or news that the stream was lost).
    Broadcast(Result<Announcement, RecvError>),
    /// The client has not joined in time.
    JoinTimeout,
}

impl Conversation for GameSocket {
    type Event = GameEvent;

    async fn next_event(&mut self) -> GameEvent {
        match &mut self.events {
            Some(events) => GameEvent::Broadcast(events.recv().await),
            None => {
                tokio::time::sleep_until(self.join_by).await;
                GameEvent::JoinTimeout
            }
        }
    }

    async fn on_text(&mut self, socket: &mut Socket, text: &str) -> Flow {
        let msg = match ClientMsg::parse(text) {
            Ok(msg) => msg,
            Err(error) => return socket.refuse(error.code(), &error).await,
        };
        match msg {
            ClientMsg::Join { game_id, since } => {
                if game_id != self.id {
                    let message = format!("this socket is for game {}", self.id);
                    return socket.refuse(codes::WRONG_GAME, message).await;
                }
                self.join(socket, since).await
            }
            ClientMsg::Ping => socket.send(&ServerMsg::Pong).await,
            ClientMsg::Act(_) if !self.joined => {
                socket.refuse(codes::NOT_JOINED, "send a join message first").await
            }
            ClientMsg::Act(action) => self.act(socket, action).await,
        }
    }

    async fn on_event(&mut self, socket: &mut Socket, event: GameEvent) -> Flow {
        let event = match event {
            GameEvent::Broadcast(event) => event,
            GameEvent::JoinTimeout => {
                let _ = socket.refuse(codes::NOT_JOINED, "send a join message first").await;
                return Err(Close::With(CloseCode::Policy, "no join"));
            }
        };
        match event {
            Ok(heard) if matches!(heard.broadcast(), Broadcast::Shutdown) => {
                let msg = ServerMsg::error(
                    codes::SHUTTING_DOWN,
                    "the server is restarting; reconnect in a moment",
                );
                let _ = socket.send(&msg).await;
                Err(Close::With(CloseCode::Restart, "server restarting"))
            }
            Ok(heard) => self.forward(socket, &heard).await,
            Err(RecvError::Lagged(_) | RecvError::Closed) => {
                // Fell behind, or the game's task stopped or moved to another node: subscribe
                // again from where we are (counting this connection again wherever the game
                // now runs).
                self.present = false;
                self.join(socket, self.last_version).await
            }
        }
    }

    async fn on_close(&mut self) {
        if self.present {
            self.game.presence(self.player.clone(), false).await;
        }
    }
}

impl GameSocket {
    /// Subscribes from `since` and sends what the client missed; the stream continues from
    /// there.
    async fn join(&mut self, socket: &mut Socket, since: Option<u64>) -> Flow {
        self.last_version = since;
        if !self.present {
            // Counted before subscribing, so the presence sent below includes this connection.
            self.game.presence(self.player.clone(), true).await;
            self.present = true;
        }
        let Subscription { seat, catch_up, presence, events } =
            self.game.subscribe(self.player.clone(), since).await.map_err(|_| {
                Close::With(CloseCode::Restart, "the game is restarting; reconnect")
            })?;
        self.events = Some(events);
        self.catch_up(socket, seat, catch_up).await?;
        let (black, white) = presence;
        socket.send(&ServerMsg::Presence { black, white }).await
    }

    /// Sends what the client missed, so that the live stream continues without a gap.
    async fn catch_up(&mut self, socket: &mut Socket, seat: Seat, catch_up: CatchUp) -> Flow {
        self.joined = true;
        match catch_up {
            CatchUp::Snapshot(snapshot) => {
                self.last_version = Some(snapshot.version);
                socket.send(&ServerMsg::snapshot(&snapshot, seat)).await
            }
            CatchUp::Replay(events) => {
                for event in events {
                    if let Some(msg) = ServerMsg::from_event(&event) {
                        self.last_version = event.version().or(self.last_version);
                        socket.send(&msg).await?;
                    }
                }
                Ok(())
            }
            CatchUp::UpToDate => Ok(()),
        }
    }

    /// Forwards a player's action to the game; a refusal goes back to this client only.
    async fn act(&mut self, socket: &mut Socket, action: Action) -> Flow {
        let received = Instant::now();
        let outcome = self.game.act(self.player.clone(), action).await;
        if matches!(action, Action::Move { .. }) {
            socket.metrics().move_acknowledged(received.elapsed());
        }
        match outcome {
            Ok(()) => Ok(()),
            Err(error) => {
                // What the game broadcast before refusing (say, the end that made this move
                // too late) reaches the client before the refusal.
                self.forward_pending(socket).await?;
                let (code, msg) = refusal(&error);
                socket.metrics().error(ErrorKind::CommandRefused, code);
                socket.send(&msg).await
            }
        }
    }

    /// Forwards the broadcasts already waiting for this socket, in order.
    async fn forward_pending(&mut self, socket: &mut Socket) -> Flow {
        loop {
            let Some(events) = &mut self.events else { return Ok(()) };
            match events.try_recv() {
                Ok(broadcast) => self.on_event(socket, GameEvent::Broadcast(Ok(broadcast))).await?,
                Err(TryRecvError::Lagged(_)) => {
                    let lost = GameEvent::Broadcast(Err(RecvError::Lagged(0)));
                    self.on_event(socket, lost).await?;
                }
                Err(TryRecvError::Empty | TryRecvError::Closed) => return Ok(()),
            }
        }
    }

    /// Passes on a game message, skipping one the client already has (a catch-up and the live
    /// stream may overlap by a message). The frame is rendered once for all of this node's
    /// sockets.
    async fn forward(&mut self, socket: &mut Socket, heard: &Announcement) -> Flow {
        let Some(frame) = heard.frame(render) else { return Ok(()) };
        if let Broadcast::Event(event) = heard.broadcast()
            && let Some(version) = event.version()
        {
            if self.last_version.is_some_and(|seen| version <= seen) {
                return Ok(());
            }
            self.last_version = Some(version);
        }
        socket.send_text(frame).await
    }
}

/// The frame of a broadcast, if it has one for clients.
fn render(broadcast: &Broadcast) -> Option<ByteString> {
    ServerMsg::from_broadcast(broadcast).map(|msg| ByteString::from(msg.to_json()))
}

/// The code and `error` message a refused action gets.
fn refusal(error: &ServiceError) -> (&'static str, ServerMsg) {
    let code = match error {
        ServiceError::Command(error) => return (error.code(), ServerMsg::from(*error)),
        ServiceError::NotFound(_) => codes::GAME_NOT_FOUND,
        ServiceError::OverBudget(_) => codes::TOO_MANY_GAMES,
        ServiceError::Storage(_) | ServiceError::Unavailable | ServiceError::Corrupt(_) => {
            codes::UNAVAILABLE
        }
    };
    (code, ServerMsg::error(code, error))
}
