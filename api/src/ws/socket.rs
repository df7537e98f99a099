//! What every WebSocket of the server shares: the upgrade (with the socket caps),
//! the frame size limit, the message-rate limit, heartbeats, a send timeout, and the loop that
//! reads frames and hands text to a [`Conversation`]. A socket opened with a session ends when
//! that session is revoked (signing out, a new name, a deleted account), on this node or
//! another.

use std::future::Future;
use std::time::{Duration, Instant};

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use actix_ws::{CloseCode, CloseReason, Message, MessageStream, Session};
use bytestring::ByteString;
use serde::Serialize;

use crate::domain::{PlayerId, Timestamp};
use crate::http::client_address::client_key;
use crate::http::error::error_response;
use crate::http::session::current_session_issued;
use crate::identity::revocations::{Revocations, SessionWatch};
use crate::identity::session::Session as PlayerSession;
use crate::metrics::{ErrorKind, Metrics, SocketGuard, SocketKind};
use crate::service::{TooManySockets, Visitor};

use super::caps::{Counted, OpenSockets};

use super::fragments::{FragmentError, Fragments};
use super::protocol::{ErrorMsg, MAX_FRAME_BYTES, MAX_MESSAGES_PER_SECOND, codes};

/// A ping goes out this often; a client silent for [`CLIENT_TIMEOUT`] is dropped.
const HEARTBEAT: Duration = Duration::from_secs(15);
const CLIENT_TIMEOUT: Duration = Duration::from_secs(45);
/// A client that does not take a message within this time is dropped.
const SEND_TIMEOUT: Duration = Duration::from_secs(5);

/// Why a conversation ends.
#[derive(Debug)]
pub enum Close {
    /// The client went away or the socket broke.
    Gone,
    /// We close it, telling the client why.
    With(CloseCode, &'static str),
}

/// What a handler returns: go on, or close.
pub type Flow = Result<(), Close>;

/// One side of a socket's conversation: what it does with the client's text and with its own
/// events (a game's broadcasts, the queue's tick). The loop in [`serve`] does the rest.
pub trait Conversation {
    /// What the conversation waits for besides the client.
    type Event;

    /// The next event; a future that never completes when there is nothing to wait for.
    fn next_event(&mut self) -> impl Future<Output = Self::Event>;

    /// Handles one text frame from the client.
    fn on_text(&mut self, socket: &mut Socket, text: &str) -> impl Future<Output = Flow>;

    /// Handles one event.
    fn on_event(&mut self, socket: &mut Socket, event: Self::Event) -> impl Future<Output = Flow>;

    /// Cleans up once the conversation is over, before the socket closes.
    fn on_close(&mut self) -> impl Future<Output = ()>;
}

/// The server's end of one WebSocket.
pub struct Socket {
    session: Session,
    metrics: Metrics,
    /// When the client was last heard from.
    last_heard: Instant,
    /// The current one-second window and the messages received in it.
    window: (Instant, u32),
    /// The frames of a fragmented message being received.
    fragments: Fragments,
    /// Counts this socket as someone online, and against the caps.
    _counted: Counted,
    /// Counts this socket as open in the metrics.
    _open: SocketGuard,
}

impl std::fmt::Debug for Socket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Socket").field("last_heard", &self.last_heard).finish_non_exhaustive()
    }
}

impl Socket {
    /// Sends one message; a client that stops reading for `SEND_TIMEOUT` counts as gone.
    ///
    /// # Errors
    /// [`Close::Gone`] when the client is gone or does not read.
    pub async fn send(&mut self, msg: &impl Serialize) -> Flow {
        // Plain structs with text keys always serialize.
        let text = serde_json::to_string(msg).unwrap_or_default();
        self.send_text(text.into()).await
    }

    /// Sends one frame of text already written.
    ///
    /// # Errors
    /// [`Close::Gone`] when the client is gone or does not read.
    pub async fn send_text(&mut self, text: ByteString) -> Flow {
        match tokio::time::timeout(SEND_TIMEOUT, self.session.text(text)).await {
            Ok(Ok(())) => Ok(()),
            _ => Err(Close::Gone),
        }
    }

    /// Sends an `error` message and counts it as a protocol error in the metrics.
    ///
    /// # Errors
    /// [`Close::Gone`] when the client is gone or does not read.
    pub async fn refuse(&mut self, code: &'static str, message: impl std::fmt::Display) -> Flow {
        self.metrics.error(ErrorKind::WsProtocol, code);
        self.send(&ErrorMsg::new(code, message)).await
    }

    /// How long ago the client was last heard from.
    pub fn silent_for(&self) -> Duration {
        self.last_heard.elapsed()
    }

    /// The node's metrics.
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// Counts one message in its second; past the limit the client is told why and dropped.
    async fn flood_check(&mut self) -> Flow {
        if self.window.0.elapsed() >= Duration::from_secs(1) {
            self.window = (Instant::now(), 0);
        }
        self.window.1 += 1;
        if self.window.1 > MAX_MESSAGES_PER_SECOND {
            let _ = self.refuse(codes::RATE_LIMITED, "too many messages; slow down").await;
            return Err(Close::With(CloseCode::Policy, "too many messages"));
        }
        Ok(())
    }

    /// Handles a frame that is not text; `Some(text)` for text, or for the last frame of a
    /// fragmented text. Only data frames (text, binary and each frame of a fragmented message)
    /// count towards the message rate: a WebSocket library answers the server's pings by
    /// itself, and those answers are no messages of the client's.
    async fn read(&mut self, frame: Message) -> Result<Option<String>, Close> {
        match frame {
            Message::Text(text) => {
                self.flood_check().await?;
                Ok(Some(text.to_string()))
            }
            Message::Binary(_) => {
                self.flood_check().await?;
                self.refuse(codes::BAD_JSON, "send JSON text frames").await.map(|()| None)
            }
            Message::Continuation(item) => {
                self.flood_check().await?;
                match self.fragments.push(item) {
                    Ok(text) => Ok(text),
                    Err(FragmentError::TooLarge) => {
                        let message = format!("messages are limited to {MAX_FRAME_BYTES} bytes");
                        let _ = self.refuse(codes::TOO_LARGE, message).await;
                        Err(Close::With(CloseCode::Size, "message too large"))
                    }
                    Err(FragmentError::NotText | FragmentError::OutOfOrder) => {
                        self.refuse(codes::BAD_JSON, "send JSON text frames").await.map(|()| None)
                    }
                }
            }
            Message::Ping(bytes) => {
                self.session.pong(&bytes).await.map_err(|_| Close::Gone).map(|()| None)
            }
            Message::Close(_) => Err(Close::Gone),
            _ => Ok(None),
        }
    }
}

/// The visitor opening a socket with `request`: the session's `player` (`None` without a
/// session) and the client address.
pub fn visitor(request: &HttpRequest, player: Option<PlayerId>) -> Visitor {
    Visitor { player, client: client_key(request) }
}

/// The valid session of `request` at `now`, if any, with a watch that ends the socket when the
/// session is revoked.
pub fn session(request: &HttpRequest, now: Timestamp) -> Option<(PlayerSession, SessionWatch)> {
    let (session, issued) = current_session_issued(request, now).ok()?;
    let watch = match request.app_data::<web::Data<Revocations>>() {
        Some(revocations) => revocations.watch(session.player.clone(), issued),
        // A server without revocations revokes nothing.
        None => Revocations::default().watch(session.player.clone(), issued),
    };
    Some((session, watch))
}

/// A socket that may open: its handshake is valid and it is counted against its caps.
#[derive(Debug)]
pub struct Admitted(Counted);

/// Checks, before anything else is done for it, that `request` is a WebSocket handshake
/// (`400 bad_handshake` otherwise: a plain `GET` loads no game) and that `visitor` is within
/// the socket caps of its player and client address (`429 too_many_sockets`).
///
/// # Errors
/// The response to send instead of upgrading (boxed: a response is large, a refusal rare).
pub async fn admit(
    request: &HttpRequest,
    visitor: &Visitor,
    sockets: &OpenSockets,
    metrics: &Metrics,
) -> Result<Admitted, Box<HttpResponse>> {
    if let Err(error) = actix_http::ws::verify_handshake(request.head()) {
        metrics.error(ErrorKind::WsProtocol, codes::BAD_HANDSHAKE);
        return Err(Box::new(error_response(
            StatusCode::BAD_REQUEST,
            codes::BAD_HANDSHAKE,
            format!("this address takes WebSocket connections only: {error}"),
        )));
    }
    sockets.enter(visitor).await.map(Admitted).map_err(|refused| {
        let cap = match refused {
            TooManySockets::Player => "player",
            TooManySockets::Client(_) => "address",
        };
        metrics.error(ErrorKind::Refused, codes::TOO_MANY_SOCKETS);
        tracing::info!(client = %visitor.client, cap, "a socket over the cap was refused");
        Box::new(error_response(StatusCode::TOO_MANY_REQUESTS, codes::TOO_MANY_SOCKETS, refused))
    })
}

/// Upgrades `request`, admitted by [`admit`], and runs `conversation` on it until either side
/// ends it, or until the session `watch` watches is revoked (`None`: opened without one).
///
/// # Errors
/// The request is not a valid WebSocket upgrade.
pub fn serve<C: Conversation + 'static>(
    request: &HttpRequest,
    body: web::Payload,
    admitted: Admitted,
    watch: Option<SessionWatch>,
    kind: SocketKind,
    metrics: &Metrics,
    conversation: C,
) -> Result<HttpResponse, actix_web::Error> {
    let (response, session, stream) = actix_ws::handle(request, body)?;
    let socket = Socket {
        session,
        metrics: metrics.clone(),
        last_heard: Instant::now(),
        window: (Instant::now(), 0),
        fragments: Fragments::default(),
        _counted: admitted.0,
        _open: metrics.socket_opened(kind),
    };
    let stream = stream.max_frame_size(MAX_FRAME_BYTES);
    actix_web::rt::spawn(run(socket, stream, watch, conversation));
    Ok(response)
}

/// Resolves once the session `watch` watches is revoked; never without one.
async fn revoked(watch: &mut Option<SessionWatch>) {
    match watch {
        Some(watch) => watch.revoked().await,
        None => std::future::pending().await,
    }
}

/// Tells the client its session was revoked, and closes the socket: it may connect again as
/// who it is now (a spectator, on a game).
async fn signed_out(socket: &mut Socket) -> Flow {
    let message = "you were signed out: sign in or choose a nickname again";
    let _ = socket.send(&ErrorMsg::new(codes::SESSION_REVOKED, message)).await;
    Err(Close::With(CloseCode::Policy, "signed out"))
}

/// Reads frames and events until one side ends the conversation or the session is revoked. A
/// text frame is checked against the revocations first, so that nothing a client sends after
/// its session ended on this node is acted on, whichever of the two the loop sees first.
async fn run<C: Conversation>(
    mut socket: Socket,
    mut stream: MessageStream,
    mut watch: Option<SessionWatch>,
    mut conversation: C,
) {
    // The first ping goes out one period after the socket opens, not at once.
    let mut heartbeat =
        tokio::time::interval_at(tokio::time::Instant::now() + HEARTBEAT, HEARTBEAT);
    let close = loop {
        let flow = tokio::select! {
            frame = stream.recv() => {
                socket.last_heard = Instant::now();
                match frame {
                    Some(Ok(frame)) => match socket.read(frame).await {
                        Ok(Some(_)) if watch.as_ref().is_some_and(SessionWatch::is_revoked) => {
                            signed_out(&mut socket).await
                        }
                        Ok(Some(text)) => conversation.on_text(&mut socket, &text).await,
                        Ok(None) => Ok(()),
                        Err(close) => Err(close),
                    },
                    Some(Err(actix_ws::ProtocolError::Overflow)) => {
                        let message = format!("frames are limited to {MAX_FRAME_BYTES} bytes");
                        let _ = socket.refuse(codes::TOO_LARGE, message).await;
                        Err(Close::With(CloseCode::Size, "frame too large"))
                    }
                    Some(Err(_)) | None => Err(Close::Gone),
                }
            }
            event = conversation.next_event() => conversation.on_event(&mut socket, event).await,
            () = revoked(&mut watch) => signed_out(&mut socket).await,
            _ = heartbeat.tick() => {
                if socket.silent_for() > CLIENT_TIMEOUT {
                    Err(Close::With(CloseCode::Away, "no answer to pings"))
                } else {
                    socket.session.ping(b"").await.map_err(|_| Close::Gone)
                }
            }
        };
        if let Err(close) = flow {
            break close;
        }
    };
    conversation.on_close().await;
    if let Close::With(code, description) = close {
        let reason = CloseReason { code, description: Some(description.to_owned()) };
        let _ = socket.session.close(Some(reason)).await;
    }
}
