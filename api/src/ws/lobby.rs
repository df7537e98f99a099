//! `/api/lobby/ws`: the lobby pushed as it changes. The first message is the lobby as it is,
//! then one each time it changes, each `{"type": "lobby", "lobby": …}` with the body of
//! `GET /api/lobby`. Anyone may open it, with a session or without; the client sends nothing
//! but pings (anything else is refused).

use std::sync::Arc;

use actix_web::{HttpRequest, HttpResponse, web};
use tokio::sync::watch;

use crate::lobby_feed::LobbyFeed;
use crate::metrics::{Metrics, SocketKind};
use crate::service::Matchmaking;

use super::caps::OpenSockets;
use super::protocol::codes;
use super::socket::{self, Conversation, Flow, Socket};

pub fn configure(config: &mut web::ServiceConfig) {
    config.route("/api/lobby/ws", web::get().to(connect));
}

async fn connect(
    request: HttpRequest,
    body: web::Payload,
    feed: web::Data<LobbyFeed>,
    matchmaking: web::Data<Matchmaking>,
    sockets: web::Data<OpenSockets>,
    metrics: web::Data<Metrics>,
) -> Result<HttpResponse, actix_web::Error> {
    let session = socket::session(&request, matchmaking.now());
    // Watching the lobby is not being online as a player: the socket counts against its
    // address's cap only, never a player's (whose sockets are their games and searches).
    let visitor = socket::visitor(&request, None);
    let admitted = match socket::admit(&request, &visitor, &sockets, &metrics).await {
        Ok(admitted) => admitted,
        Err(response) => return Ok(*response),
    };
    let mut lobby = feed.subscribe();
    // The lobby as it is goes out at once, if it was built already.
    lobby.mark_changed();
    let watch = session.map(|(_, watch)| watch);
    socket::serve(
        &request,
        body,
        admitted,
        watch,
        SocketKind::Lobby,
        &metrics,
        LobbySocket { lobby },
    )
}

struct LobbySocket {
    lobby: watch::Receiver<Option<Arc<str>>>,
}

impl Conversation for LobbySocket {
    type Event = Option<Arc<str>>;

    async fn next_event(&mut self) -> Self::Event {
        if self.lobby.changed().await.is_err() {
            // The feed is gone with the server: nothing more to say.
            std::future::pending::<()>().await;
        }
        self.lobby.borrow_and_update().clone()
    }

    async fn on_text(&mut self, socket: &mut Socket, text: &str) -> Flow {
        if serde_json::from_str::<serde_json::Value>(text).is_ok_and(|msg| msg["type"] == "ping") {
            return socket.send_text(r#"{"type":"pong"}"#.into()).await;
        }
        socket.refuse(codes::BAD_MESSAGE, "the lobby socket takes only {\"type\": \"ping\"}").await
    }

    async fn on_event(&mut self, socket: &mut Socket, lobby: Self::Event) -> Flow {
        match lobby {
            Some(text) => socket.send_text((&*text).into()).await,
            None => Ok(()),
        }
    }

    async fn on_close(&mut self) {}
}
