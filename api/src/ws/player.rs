//! `/api/me/ws`: a signed-in player's own socket, open on every page. It says at once how many
//! notifications are unread and which challenges wait (`hello`), then each notification
//! (`notification`, with the unread count) and each change of a challenge the player sent or
//! received (`challenge`) as it happens, on whichever node it happened. The client sends
//! nothing but pings.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::json;

use crate::domain::{PlayerId, Timestamp};
use crate::http::error::error_response;
use crate::json::social::{ChallengeLists, challenge};
use crate::metrics::{Metrics, SocketKind};
use crate::player_feed::{PlayerFeed, Subscription};
use crate::service::Matchmaking;
use crate::social::PlayerEvent;
use crate::storage::Store;

use super::caps::OpenSockets;
use super::protocol::codes;
use super::socket::{self, Conversation, Flow, Socket};

pub fn configure(config: &mut web::ServiceConfig) {
    config.route("/api/me/ws", web::get().to(connect));
}

async fn connect(
    request: HttpRequest,
    body: web::Payload,
    store: web::Data<Store>,
    feed: web::Data<PlayerFeed>,
    matchmaking: web::Data<Matchmaking>,
    sockets: web::Data<OpenSockets>,
    metrics: web::Data<Metrics>,
) -> Result<HttpResponse, actix_web::Error> {
    let Some((session, watch)) =
        socket::session(&request, matchmaking.now()).filter(|(session, _)| session.account)
    else {
        let message = "sign in with Google to hear of challenges and notifications";
        return Ok(error_response(StatusCode::UNAUTHORIZED, "not_signed_in", message));
    };
    // Like the lobby's, this socket counts against its address's cap only: a player's cap is
    // for their games and searches, and this one is open on every page.
    let visitor = socket::visitor(&request, None);
    let admitted = match socket::admit(&request, &visitor, &sockets, &metrics).await {
        Ok(admitted) => admitted,
        Err(response) => return Ok(*response),
    };
    let player = session.player;
    let conversation = PlayerSocket {
        events: feed.subscribe(&player),
        player,
        store: store.get_ref().clone(),
        matchmaking: matchmaking.get_ref().clone(),
        greeted: false,
    };
    socket::serve(&request, body, admitted, Some(watch), SocketKind::Player, &metrics, conversation)
}

struct PlayerSocket {
    player: PlayerId,
    events: Subscription,
    store: Store,
    matchmaking: Matchmaking,
    /// Whether `hello` went out: it is the socket's first event.
    greeted: bool,
}

impl PlayerSocket {
    fn now(&self) -> Timestamp {
        self.matchmaking.now()
    }

    /// Everything the client shows: the unread count and the open challenges.
    async fn hello(&self, socket: &mut Socket) -> Flow {
        let now = self.now();
        let (unread, open) = match tokio::try_join!(
            self.store.unread_notifications(&self.player, now),
            self.store.open_challenges(&self.player, now)
        ) {
            Ok(read) => read,
            Err(error) => {
                tracing::warn!(%error, "a player's socket could not read its lists");
                return socket.refuse(codes::UNAVAILABLE, "try again in a moment").await;
            }
        };
        let challenges = ChallengeLists::of(&self.player, &open, now);
        socket.send(&json!({ "type": "hello", "unread": unread, "challenges": challenges })).await
    }
}

impl Conversation for PlayerSocket {
    /// `None` once at the start (to greet), and when events were missed.
    type Event = Option<PlayerEvent>;

    async fn next_event(&mut self) -> Self::Event {
        if !self.greeted {
            self.greeted = true;
            return None;
        }
        self.events.next().await
    }

    async fn on_text(&mut self, socket: &mut Socket, text: &str) -> Flow {
        if serde_json::from_str::<serde_json::Value>(text).is_ok_and(|msg| msg["type"] == "ping") {
            return socket.send_text(r#"{"type":"pong"}"#.into()).await;
        }
        socket.refuse(codes::BAD_MESSAGE, "this socket takes only {\"type\": \"ping\"}").await
    }

    async fn on_event(&mut self, socket: &mut Socket, event: Self::Event) -> Flow {
        match event {
            // The first event, or some were missed: the lists as they are.
            None => self.hello(socket).await,
            Some(PlayerEvent::Notification { notification }) => {
                let unread = self.store.unread_notifications(&self.player, self.now()).await;
                let unread = unread.unwrap_or(1);
                let msg = json!({ "type": "notification", "notification": notification, "unread": unread });
                socket.send(&msg).await
            }
            Some(PlayerEvent::Challenge { challenge: changed }) => {
                let shown = challenge(&changed, self.now());
                socket.send(&json!({ "type": "challenge", "challenge": shown })).await
            }
        }
    }

    async fn on_close(&mut self) {}
}
