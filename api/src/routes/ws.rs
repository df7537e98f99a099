//! `GET /api/games/{id}/ws`: the live connection to one game (docs/protocol.md).
//!
//! The socket forwards; the game judges. Each frame is parsed once into a [`ClientMsg`], turned
//! into a game command carrying the sender's player id, and the game's answer or error comes
//! back. Events reach every socket in version order. Flooding closes the socket.

use std::time::{Duration, Instant};

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use actix_ws::{CloseCode, CloseReason, Message, MessageStream, Session as Socket};
use tokio::sync::broadcast::error::RecvError;

use crate::domain::{GameId, PlayerId, Timestamp};
use crate::live::{Command, Seat};
use crate::metrics::{ErrorKind, Metrics, SocketGuard, SocketKind};
use crate::routes::error::error_response;
use crate::routes::session::current_session;
use crate::service::{
    Broadcast, CatchUp, GameHandle, GameHub, MAX_SOCKETS_PER_PLAYER, Online, OnlineGuard,
    ServiceError, Subscription,
};
use crate::ws::protocol::{
    ClientMsg, MAX_FRAME_BYTES, MAX_MESSAGES_PER_SECOND, ServerMsg, codes, refusal_code,
};

/// A ping goes out this often; a client silent for [`CLIENT_TIMEOUT`] is dropped.
const HEARTBEAT: Duration = Duration::from_secs(15);
const CLIENT_TIMEOUT: Duration = Duration::from_secs(45);
/// A client that does not take a message within this time is dropped.
const SEND_TIMEOUT: Duration = Duration::from_secs(5);

/// A game's stream of broadcasts.
type Events = tokio::sync::broadcast::Receiver<Broadcast>;

pub fn configure(config: &mut web::ServiceConfig) {
    config.route("/api/games/{id}/ws", web::get().to(connect));
}

async fn connect(
    request: HttpRequest,
    body: web::Payload,
    path: web::Path<String>,
    hub: web::Data<GameHub>,
    online: web::Data<Online>,
    metrics: web::Data<Metrics>,
) -> Result<HttpResponse, actix_web::Error> {
    let Ok(id) = path.parse::<GameId>() else {
        return Ok(error_response(
            StatusCode::NOT_FOUND,
            codes::GAME_NOT_FOUND,
            "there is no such game",
        ));
    };
    let game = match hub.handle(&id).await {
        Ok(game) => game,
        Err(ServiceError::NotFound(_)) => {
            return Ok(error_response(
                StatusCode::NOT_FOUND,
                codes::GAME_NOT_FOUND,
                "there is no such game",
            ));
        }
        Err(error) => {
            return Ok(error_response(StatusCode::SERVICE_UNAVAILABLE, "unavailable", error));
        }
    };
    // Spectators need no session; they get an id that plays no seat.
    let player = current_session(&request, Timestamp::now())
        .map_or_else(|_| PlayerId::generate(), |s| s.player);
    let Some(online) = online.try_enter(&player) else {
        return Ok(too_many_sockets());
    };
    let (response, socket, stream) = actix_ws::handle(&request, body)?;
    let stream = stream.max_frame_size(MAX_FRAME_BYTES);
    let open = metrics.socket_opened(SocketKind::Game);
    actix_web::rt::spawn(
        Connection {
            id,
            game,
            player,
            socket,
            last_version: None,
            joined: false,
            present: false,
            _online: online,
            metrics: metrics.get_ref().clone(),
            _open: open,
        }
        .run(stream),
    );
    Ok(response)
}

/// One client's socket on one game.
struct Connection {
    id: GameId,
    game: GameHandle,
    player: PlayerId,
    socket: Socket,
    /// The newest version the client has, if known.
    last_version: Option<u64>,
    /// Whether the client has sent `join` and been caught up.
    joined: bool,
    /// Whether this connection counts towards its player's presence in the game.
    present: bool,
    /// Counts this socket as someone online.
    _online: OnlineGuard,
    metrics: Metrics,
    /// Counts this socket as open in the metrics.
    _open: SocketGuard,
}

/// Why a connection ends.
enum Close {
    /// The client went away or the socket broke.
    Gone,
    /// We close it, telling the client why.
    With(CloseCode, &'static str),
}

impl Connection {
    async fn run(mut self, mut stream: MessageStream) {
        let mut heartbeat = tokio::time::interval(HEARTBEAT);
        let mut last_heard = Instant::now();
        let mut window = (Instant::now(), 0u32);
        let mut events: Option<Events> = None;
        let close = loop {
            tokio::select! {
                frame = stream.recv() => {
                    last_heard = Instant::now();
                    let frame = match frame {
                        Some(Ok(frame)) => frame,
                        Some(Err(actix_ws::ProtocolError::Overflow)) => {
                            self.metrics.error(ErrorKind::WsProtocol, "too_large");
                            let msg = ServerMsg::error("too_large", format!("frames are limited to {MAX_FRAME_BYTES} bytes"));
                            let _ = self.send(&msg).await;
                            break Close::With(CloseCode::Size, "frame too large");
                        }
                        Some(Err(_)) | None => break Close::Gone,
                    };
                    if let Err(close) = self.flood_check(&mut window).await {
                        break close;
                    }
                    match self.on_frame(frame).await {
                        Ok(Some(subscribed)) => events = Some(subscribed),
                        Ok(None) => {}
                        Err(close) => break close,
                    }
                }
                event = recv(&mut events) => match event {
                    Ok(Broadcast::Shutdown) => {
                        let msg = ServerMsg::error(codes::SHUTTING_DOWN, "the server is restarting; reconnect in a moment");
                        let _ = self.send(&msg).await;
                        break Close::With(CloseCode::Restart, "server restarting");
                    }
                    Ok(broadcast) => {
                        if let Some(msg) = broadcast.to_message() {
                            if self.forward(&msg).await.is_err() { break Close::Gone }
                        }
                    }
                    Err(RecvError::Lagged(_)) | Err(RecvError::Closed) => {
                        // Fell behind, or the game's task stopped or moved to another node:
                        // subscribe again from where we are (counting this connection again
                        // wherever the game now runs).
                        self.present = false;
                        match self.join(self.last_version).await {
                            Ok(subscribed) => events = Some(subscribed),
                            Err(close) => break close,
                        }
                    }
                },
                _ = heartbeat.tick() => {
                    if last_heard.elapsed() > CLIENT_TIMEOUT {
                        break Close::With(CloseCode::Away, "no answer to pings");
                    }
                    if self.socket.ping(b"").await.is_err() { break Close::Gone }
                }
            }
        };
        if self.present {
            self.game.presence(self.player.clone(), false).await;
        }
        if let Close::With(code, description) = close {
            let reason = CloseReason { code, description: Some(description.to_owned()) };
            let _ = self.socket.close(Some(reason)).await;
        }
    }

    /// Counts messages per second; past the limit the client is told why and disconnected.
    async fn flood_check(&mut self, window: &mut (Instant, u32)) -> Result<(), Close> {
        if window.0.elapsed() >= Duration::from_secs(1) {
            *window = (Instant::now(), 0);
        }
        window.1 += 1;
        if window.1 > MAX_MESSAGES_PER_SECOND {
            self.metrics.error(ErrorKind::WsProtocol, codes::RATE_LIMITED);
            let msg = ServerMsg::error(codes::RATE_LIMITED, "too many messages; slow down");
            let _ = self.send(&msg).await;
            return Err(Close::With(CloseCode::Policy, "too many messages"));
        }
        Ok(())
    }

    /// Handles one frame; a `join` answers with the event stream to follow from now on.
    async fn on_frame(&mut self, frame: Message) -> Result<Option<Events>, Close> {
        match frame {
            Message::Text(text) => self.on_text(&text).await,
            Message::Binary(_) => {
                self.metrics.error(ErrorKind::WsProtocol, "bad_json");
                let msg = ServerMsg::error("bad_json", "send JSON text frames");
                self.send(&msg).await.map_err(|_| Close::Gone).map(|()| None)
            }
            Message::Ping(bytes) => {
                self.socket.pong(&bytes).await.map_err(|_| Close::Gone).map(|()| None)
            }
            Message::Close(_) => Err(Close::Gone),
            _ => Ok(None),
        }
    }

    /// Subscribes from `since` and sends what the client missed; the stream continues from there.
    async fn join(&mut self, since: Option<u64>) -> Result<Events, Close> {
        self.last_version = since;
        if !self.present {
            // Counted before subscribing, so the presence sent below includes this connection.
            self.game.presence(self.player.clone(), true).await;
            self.present = true;
        }
        let subscription = self.subscribe(since).await?;
        self.catch_up(subscription.seat, subscription.catch_up).await?;
        let (black, white) = subscription.presence;
        self.send(&ServerMsg::Presence { black, white }).await.map_err(|_| Close::Gone)?;
        Ok(subscription.events)
    }

    /// Handles one text frame.
    async fn on_text(&mut self, text: &str) -> Result<Option<Events>, Close> {
        let msg = match ClientMsg::parse(text) {
            Ok(msg) => msg,
            Err(error) => {
                self.metrics.error(ErrorKind::WsProtocol, error.code());
                self.send(&ServerMsg::from(&error)).await.map_err(|_| Close::Gone)?;
                return Ok(None);
            }
        };
        match msg {
            ClientMsg::Join { game_id, since } => {
                if game_id != self.id {
                    self.metrics.error(ErrorKind::WsProtocol, codes::WRONG_GAME);
                    let msg = ServerMsg::error(
                        codes::WRONG_GAME,
                        format!("this socket is for game {}", self.id),
                    );
                    self.send(&msg).await.map_err(|_| Close::Gone)?;
                    return Ok(None);
                }
                self.join(since).await.map(Some)
            }
            ClientMsg::Ping => {
                self.send(&ServerMsg::Pong).await.map_err(|_| Close::Gone)?;
                Ok(None)
            }
            _ if !self.joined => {
                self.metrics.error(ErrorKind::WsProtocol, codes::NOT_JOINED);
                let msg = ServerMsg::error(codes::NOT_JOINED, "send a join message first");
                self.send(&msg).await.map_err(|_| Close::Gone)?;
                Ok(None)
            }
            command => {
                let Some(command) = command.into_command(self.player.clone(), GameId::generate)
                else {
                    return Ok(None);
                };
                let is_move = matches!(command, Command::Move { .. });
                let received = Instant::now();
                let outcome = self.game.command(command).await;
                if is_move {
                    self.metrics.move_acknowledged(received.elapsed());
                }
                if let Err(error) = outcome {
                    self.metrics.error(ErrorKind::CommandRefused, refusal_code(&error));
                    self.send(&ServerMsg::from(&error)).await.map_err(|_| Close::Gone)?;
                }
                Ok(None)
            }
        }
    }

    async fn subscribe(&mut self, since: Option<u64>) -> Result<Subscription, Close> {
        self.game
            .subscribe(self.player.clone(), since)
            .await
            .map_err(|_| Close::With(CloseCode::Restart, "the game is restarting; reconnect"))
    }

    /// Sends what the client missed, so that the live stream continues without a gap.
    async fn catch_up(&mut self, seat: Seat, catch_up: CatchUp) -> Result<(), Close> {
        self.joined = true;
        match catch_up {
            CatchUp::Snapshot(snapshot) => {
                self.last_version = Some(snapshot.version);
                self.send(&ServerMsg::snapshot(&snapshot, seat)).await.map_err(|_| Close::Gone)
            }
            CatchUp::Replay(events) => {
                for event in events {
                    if let Some(msg) = ServerMsg::from_event(&event) {
                        self.last_version = event.version().or(self.last_version);
                        self.send(&msg).await.map_err(|_| Close::Gone)?;
                    }
                }
                Ok(())
            }
            CatchUp::UpToDate => Ok(()),
            CatchUp::Messages(messages) => {
                for msg in messages {
                    self.last_version = msg.version().or(self.last_version);
                    self.send(&msg).await.map_err(|_| Close::Gone)?;
                }
                Ok(())
            }
        }
    }

    /// Passes on a game message, skipping one the client already has (a catch-up and the live
    /// stream may overlap by a message).
    async fn forward(&mut self, msg: &ServerMsg) -> Result<(), actix_ws::Closed> {
        if let Some(version) = msg.version() {
            if self.last_version.is_some_and(|seen| version <= seen) {
                return Ok(());
            }
            self.last_version = Some(version);
        }
        self.send(msg).await
    }

    /// Sends one message; a client that stops reading for [`SEND_TIMEOUT`] counts as gone.
    async fn send(&mut self, msg: &ServerMsg) -> Result<(), actix_ws::Closed> {
        match tokio::time::timeout(SEND_TIMEOUT, self.socket.text(msg.to_json())).await {
            Ok(sent) => sent,
            Err(_) => Err(actix_ws::Closed),
        }
    }
}

/// The next broadcast, or never before the client has joined.
async fn recv(events: &mut Option<Events>) -> Result<Broadcast, RecvError> {
    match events {
        Some(events) => events.recv().await,
        None => std::future::pending().await,
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
