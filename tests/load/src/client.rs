//! Talking to a node: guest sessions, friend rooms and game sockets. Every call is bounded by
//! the run's timeout and every failure becomes an error kind for the report.

use std::time::Duration;

use futures_util::SinkExt;
use reqwest::StatusCode;
use reqwest::header::{COOKIE, HeaderValue, ORIGIN, SET_COOKIE};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A failure, named the way the report counts it (e.g. `http 429 POST /api/session`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure(pub String);

impl Failure {
    pub fn new(kind: impl Into<String>) -> Failure {
        Failure(kind.into())
    }
}

/// One server: its HTTP base, its WebSocket base and the `Origin` its pages have.
#[derive(Debug, Clone)]
pub struct Node {
    pub base: String,
    ws_base: String,
}

impl Node {
    pub fn new(base: &str) -> Node {
        let base = base.trim_end_matches('/').to_owned();
        let ws_base = format!("ws://{}", base.trim_start_matches("http://"));
        Node { base, ws_base }
    }
}

/// A guest player's session on a node.
#[derive(Debug, Clone)]
pub struct Player {
    pub node: Node,
    /// `outflank_session=…`, as sent back in `Cookie`.
    pub cookie: String,
}

#[derive(Debug, Clone)]
pub struct Http {
    client: reqwest::Client,
    timeout: Duration,
}

fn request_failure(what: &str, error: &reqwest::Error) -> Failure {
    if error.is_timeout() {
        Failure::new(format!("timeout {what}"))
    } else if error.is_connect() {
        Failure::new(format!("connect error {what}"))
    } else {
        Failure::new(format!("request error {what}"))
    }
}

impl Http {
    pub fn new(timeout: Duration) -> Result<Http, Failure> {
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout)
            .tcp_nodelay(true)
            .build()
            .map_err(|error| Failure::new(format!("http client: {error}")))?;
        Ok(Http { client, timeout })
    }

    /// POSTs `body` as JSON and returns the answer's headers and JSON body.
    async fn post(
        &self,
        node: &Node,
        path: &str,
        what: &str,
        cookie: Option<&str>,
        body: Option<Value>,
        expect: StatusCode,
    ) -> Result<(reqwest::header::HeaderMap, Value), Failure> {
        let mut request =
            self.client.post(format!("{}{path}", node.base)).header(ORIGIN, node.base.as_str());
        if let Some(cookie) = cookie {
            request = request.header(COOKIE, cookie);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.map_err(|e| request_failure(what, &e))?;
        let status = response.status();
        if status != expect {
            return Err(Failure::new(format!("http {} {what}", status.as_u16())));
        }
        let headers = response.headers().clone();
        let body = tokio::time::timeout(self.timeout, response.json::<Value>())
            .await
            .map_err(|_| Failure::new(format!("timeout {what}")))?
            .map_err(|_| Failure::new(format!("bad response {what}")))?;
        Ok((headers, body))
    }

    /// `POST /api/session {nickname}`: a new guest and its session cookie.
    pub async fn guest(&self, node: &Node, nickname: &str) -> Result<Player, Failure> {
        let what = "POST /api/session";
        let body = json!({ "nickname": nickname });
        let (headers, _) =
            self.post(node, "/api/session", what, None, Some(body), StatusCode::OK).await?;
        let cookie = headers
            .get_all(SET_COOKIE)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .filter_map(|value| value.split(';').next())
            .find(|pair| pair.trim_start().starts_with("outflank_session="))
            .ok_or_else(|| Failure::new(format!("no session cookie {what}")))?;
        Ok(Player { node: node.clone(), cookie: cookie.trim().to_owned() })
    }

    /// `POST /api/rooms`: the host's new room; returns its code.
    pub async fn create_room(&self, host: &Player) -> Result<String, Failure> {
        let what = "POST /api/rooms";
        let (_, body) = self
            .post(&host.node, "/api/rooms", what, Some(&host.cookie), None, StatusCode::CREATED)
            .await?;
        body["code"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| Failure::new(format!("bad response {what}")))
    }

    /// `POST /api/rooms/{code}/join`: the friend joins; returns the first game's id.
    pub async fn join_room(&self, guest: &Player, code: &str) -> Result<String, Failure> {
        let what = "POST /api/rooms/{code}/join";
        let path = format!("/api/rooms/{code}/join");
        let (_, body) =
            self.post(&guest.node, &path, what, Some(&guest.cookie), None, StatusCode::OK).await?;
        body["game_id"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| Failure::new(format!("bad response {what}")))
    }
}

/// Opens `/api/games/{id}/ws` as `player` and sends `join`.
pub async fn open_game(
    player: &Player,
    game_id: &str,
    timeout: Duration,
) -> Result<Socket, Failure> {
    let url = format!("{}/api/games/{game_id}/ws", player.node.ws_base);
    let mut request =
        url.into_client_request().map_err(|_| Failure::new("bad game socket address"))?;
    let headers = request.headers_mut();
    let value = |text: &str| HeaderValue::from_str(text).map_err(|_| Failure::new("bad header"));
    headers.insert(COOKIE, value(&player.cookie)?);
    headers.insert(ORIGIN, value(&player.node.base)?);
    // Nagle's algorithm would hold small frames back and distort the latency measured.
    let connect = tokio_tungstenite::connect_async_with_config(request, None, true);
    let (mut socket, _) = match tokio::time::timeout(timeout, connect).await {
        Err(_) => return Err(Failure::new("timeout socket connect")),
        Ok(Err(tungstenite::Error::Http(response))) => {
            return Err(Failure::new(format!(
                "socket upgrade http {}",
                response.status().as_u16()
            )));
        }
        Ok(Err(tungstenite::Error::Io(error))) => {
            return Err(Failure::new(format!("socket connect io: {}", error.kind())));
        }
        Ok(Err(_)) => return Err(Failure::new("socket connect error")),
        Ok(Ok(connected)) => connected,
    };
    send(&mut socket, &json!({"type": "join", "game_id": game_id}), timeout).await?;
    Ok(socket)
}

/// Sends one JSON message.
pub async fn send(socket: &mut Socket, message: &Value, timeout: Duration) -> Result<(), Failure> {
    let text = Message::text(message.to_string());
    match tokio::time::timeout(timeout, socket.send(text)).await {
        Err(_) => Err(Failure::new("timeout socket send")),
        Ok(Err(_)) => Err(Failure::new("socket closed (send)")),
        Ok(Ok(())) => Ok(()),
    }
}

/// Closes the socket politely, without waiting long for the server's answer.
pub async fn close(mut socket: Socket) {
    let _ = tokio::time::timeout(Duration::from_secs(1), socket.close(None)).await;
}
