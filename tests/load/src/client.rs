//! Talking to a node: guest sessions, friend rooms and game sockets, each from the source
//! address its player was given. Every call is bounded by the run's timeout and every failure
//! becomes an error kind for the report.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use futures_util::SinkExt;
use reqwest::StatusCode;
use reqwest::header::{COOKIE, HeaderValue, ORIGIN, RETRY_AFTER, SET_COOKIE};
use serde_json::{Value, json};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::handshake::client::Request;
use tokio_tungstenite::tungstenite::{self, Message};

pub type Socket = WebSocketStream<TcpStream>;

/// The name of the server's session cookie.
pub const SESSION_COOKIE: &str = "outflank_session";

/// A failure, named the way the report counts it (e.g. `http 429 POST /api/session`), and,
/// when the server refused a new game because it is saturated (`503 server_busy`), the
/// `Retry-After` it asked for: a refusal to honour, not an error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure(pub String, pub Option<Duration>);

impl Failure {
    pub fn new(kind: impl Into<String>) -> Failure {
        Failure(kind.into(), None)
    }

    /// The server's answer to `what`, with its status, body and `Retry-After` header.
    pub fn from_answer(
        what: &str,
        status: StatusCode,
        body: &[u8],
        retry_after: Option<&str>,
    ) -> Failure {
        let busy = status == StatusCode::SERVICE_UNAVAILABLE
            && error_code(body).as_deref() == Some("server_busy");
        let wait = retry_after.and_then(|value| value.trim().parse::<u64>().ok());
        match wait.filter(|_| busy) {
            Some(seconds) => {
                Failure(format!("busy {what}"), Some(Duration::from_secs(seconds.max(1))))
            }
            None => Failure::new(format!("http {} {what}", status.as_u16())),
        }
    }
}

/// One server: its HTTP base (also the `Origin` its pages have) and its WebSocket base.
#[derive(Debug, Clone)]
pub struct Node {
    pub base: String,
    /// `host:port`, what a socket connects to.
    authority: String,
    ws_base: String,
}

impl Node {
    pub fn new(base: &str) -> Node {
        let base = base.trim_end_matches('/').to_owned();
        let authority = base.trim_start_matches("http://").split('/').next().unwrap_or("");
        let authority = authority.to_owned();
        let ws_base = format!("ws://{}", base.trim_start_matches("http://"));
        Node { base, authority, ws_base }
    }

    /// The WebSocket address of `path` (which starts with `/`).
    pub fn ws_url(&self, path: &str) -> String {
        format!("{}{path}", self.ws_base)
    }
}

/// A guest player's session on a node.
#[derive(Debug, Clone)]
pub struct Player {
    pub node: Node,
    /// `outflank_session=…`, as sent back in `Cookie`.
    pub cookie: String,
    /// Which of [`Http`]'s sources the player's connections come from.
    pub source: usize,
    /// That source's address; `None` when the system chooses.
    pub local_address: Option<IpAddr>,
}

/// HTTP clients, one per source address, so each player's requests come from its own source.
#[derive(Debug, Clone)]
pub struct Http {
    clients: Vec<(Option<IpAddr>, reqwest::Client)>,
    timeout: Duration,
}

/// A client whose connections come from `local_address` (the system's choice when `None`). It
/// keeps no cookies: each request carries the one it is given.
pub fn http_client(
    local_address: Option<IpAddr>,
    timeout: Duration,
) -> Result<reqwest::Client, Failure> {
    reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout)
        .tcp_nodelay(true)
        .local_address(local_address)
        .build()
        .map_err(|error| Failure::new(format!("http client: {error}")))
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
    /// Clients for `sources`, or a single one with the system's choice when there are none.
    pub fn new(timeout: Duration, sources: &[IpAddr]) -> Result<Http, Failure> {
        let locals: Vec<Option<IpAddr>> = if sources.is_empty() {
            vec![None]
        } else {
            sources.iter().copied().map(Some).collect()
        };
        let clients = locals
            .into_iter()
            .map(|local| Ok((local, http_client(local, timeout)?)))
            .collect::<Result<_, Failure>>()?;
        Ok(Http { clients, timeout })
    }

    /// How many source addresses the players share, round-robin.
    pub fn sources(&self) -> usize {
        self.clients.len()
    }

    /// POSTs `body` as JSON from source `source` and returns the answer's headers and JSON body.
    #[allow(clippy::too_many_arguments)]
    async fn post(
        &self,
        source: usize,
        node: &Node,
        path: &str,
        what: &str,
        cookie: Option<&str>,
        body: Option<Value>,
        expect: StatusCode,
    ) -> Result<(reqwest::header::HeaderMap, Value), Failure> {
        let client = &self.clients[source % self.clients.len()].1;
        let mut request =
            client.post(format!("{}{path}", node.base)).header(ORIGIN, node.base.as_str());
        if let Some(cookie) = cookie {
            request = request.header(COOKIE, cookie);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.map_err(|e| request_failure(what, &e))?;
        let status = response.status();
        if status != expect {
            let retry_after = response
                .headers()
                .get(RETRY_AFTER)
                .and_then(|value| value.to_str().ok())
                .map(str::to_owned);
            let body = tokio::time::timeout(self.timeout, response.bytes()).await;
            let body = body.ok().and_then(Result::ok).unwrap_or_default();
            return Err(Failure::from_answer(what, status, &body, retry_after.as_deref()));
        }
        let headers = response.headers().clone();
        let body = tokio::time::timeout(self.timeout, response.json::<Value>())
            .await
            .map_err(|_| Failure::new(format!("timeout {what}")))?
            .map_err(|_| Failure::new(format!("bad response {what}")))?;
        Ok((headers, body))
    }

    /// `POST /api/session {nickname}`: a new guest, whose connections come from source
    /// `source` (round-robin over the sources), and its session cookie.
    pub async fn guest(
        &self,
        node: &Node,
        nickname: &str,
        source: usize,
    ) -> Result<Player, Failure> {
        let what = "POST /api/session";
        let source = source % self.clients.len();
        let body = json!({ "nickname": nickname });
        let (headers, _) =
            self.post(source, node, "/api/session", what, None, Some(body), StatusCode::OK).await?;
        let cookie = session_cookie(&headers)
            .ok_or_else(|| Failure::new(format!("no session cookie {what}")))?;
        Ok(Player { node: node.clone(), cookie, source, local_address: self.clients[source].0 })
    }

    /// `POST /api/rooms`: the host's new room, timed by `control` if given; returns its code.
    pub async fn create_room(
        &self,
        host: &Player,
        control: Option<&str>,
    ) -> Result<String, Failure> {
        let what = "POST /api/rooms";
        let (_, body) = self
            .post(
                host.source,
                &host.node,
                "/api/rooms",
                what,
                Some(&host.cookie),
                control.map(|control| serde_json::json!({ "control": control })),
                StatusCode::CREATED,
            )
            .await?;
        body["code"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| Failure::new(format!("bad response {what}")))
    }

    /// `POST /api/games {"mode": "computer", …}`: a game against the computer at `level`, the
    /// player taking Black (so it moves first); returns its id.
    pub async fn create_computer_game(
        &self,
        player: &Player,
        level: &str,
    ) -> Result<String, Failure> {
        let what = "POST /api/games";
        let (_, body) = self
            .post(
                player.source,
                &player.node,
                "/api/games",
                what,
                Some(&player.cookie),
                Some(computer_game(level)),
                StatusCode::CREATED,
            )
            .await?;
        body["id"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| Failure::new(format!("bad response {what}")))
    }

    /// `POST /api/rooms/{code}/join`: the friend joins; returns the first game's id.
    pub async fn join_room(&self, guest: &Player, code: &str) -> Result<String, Failure> {
        let what = "POST /api/rooms/{code}/join";
        let path = format!("/api/rooms/{code}/join");
        let (_, body) = self
            .post(guest.source, &guest.node, &path, what, Some(&guest.cookie), None, StatusCode::OK)
            .await?;
        body["game_id"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| Failure::new(format!("bad response {what}")))
    }
}

/// The body of `POST /api/games` for a game against the computer at `level` (a number or a
/// name, as text), the player taking Black.
pub fn computer_game(level: &str) -> Value {
    json!({ "mode": "computer", "level": level, "color": "black" })
}

/// The `name=value` pair of the session cookie a response sets.
pub fn session_cookie(headers: &reqwest::header::HeaderMap) -> Option<String> {
    let prefix = format!("{SESSION_COOKIE}=");
    headers
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .filter_map(|value| value.split(';').next())
        .map(str::trim)
        .find(|pair| pair.starts_with(&prefix))
        .map(str::to_owned)
}

/// The `code` of the server's JSON error body, `{"error": {"code": …}}`, if it has one.
pub fn error_code(body: &[u8]) -> Option<String> {
    let body: Value = serde_json::from_slice(body).ok()?;
    body["error"]["code"].as_str().map(str::to_owned)
}

/// A request for the socket at `url` with `Origin` set to the node's address, as browsers send
/// it, and `cookie` if given.
pub fn socket_request(node: &Node, url: &str, cookie: Option<&str>) -> Result<Request, Failure> {
    let mut request = url.into_client_request().map_err(|_| Failure::new("bad socket address"))?;
    let headers = request.headers_mut();
    let value = |text: &str| HeaderValue::from_str(text).map_err(|_| Failure::new("bad header"));
    if let Some(cookie) = cookie {
        headers.insert(COOKIE, value(cookie)?);
    }
    headers.insert(ORIGIN, value(&node.base)?);
    Ok(request)
}

/// A TCP connection to `node`, from `local_address` when given.
async fn connect_tcp(node: &Node, local_address: Option<IpAddr>) -> std::io::Result<TcpStream> {
    let stream = match local_address {
        None => TcpStream::connect(node.authority.as_str()).await?,
        Some(local) => {
            let target: SocketAddr = tokio::net::lookup_host(node.authority.as_str())
                .await?
                .find(|address| address.is_ipv4() == local.is_ipv4())
                .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::AddrNotAvailable))?;
            let socket = if local.is_ipv4() { TcpSocket::new_v4()? } else { TcpSocket::new_v6()? };
            socket.bind(SocketAddr::new(local, 0))?;
            socket.connect(target).await?
        }
    };
    // Nagle's algorithm would hold small frames back and distort the latency measured.
    stream.set_nodelay(true)?;
    Ok(stream)
}

/// Why a socket did not open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConnectError {
    /// The server answered the upgrade with this status and the code of its JSON body.
    Refused { status: u16, code: Option<String> },
    /// No answer to the upgrade: a timeout or a network error, named for the report.
    Failed(Failure),
}

impl From<ConnectError> for Failure {
    /// `socket upgrade http 429 too_many_sockets`, or the failure as it is.
    fn from(error: ConnectError) -> Failure {
        match error {
            ConnectError::Refused { status, code: Some(code) } => {
                Failure::new(format!("socket upgrade http {status} {code}"))
            }
            ConnectError::Refused { status, code: None } => {
                Failure::new(format!("socket upgrade http {status}"))
            }
            ConnectError::Failed(failure) => failure,
        }
    }
}

/// How much a socket reads at once. The library zeroes its whole read buffer before every read,
/// ready or not; at its default (128 KiB) that took half of this tool's CPU. The server's
/// messages are a few hundred bytes, and a larger frame still arrives whole: the buffer grows to
/// hold it.
const READ_BUFFER: usize = 4 * 1024;

fn socket_config() -> tungstenite::protocol::WebSocketConfig {
    tungstenite::protocol::WebSocketConfig::default().read_buffer_size(READ_BUFFER)
}

/// Opens a WebSocket to `node` from `local_address` (the system's choice when `None`) and
/// completes the upgrade, within `timeout`.
pub async fn connect(
    node: &Node,
    request: Request,
    local_address: Option<IpAddr>,
    timeout: Duration,
) -> Result<Socket, ConnectError> {
    let failed = |kind: String| Err(ConnectError::Failed(Failure::new(kind)));
    let upgrade = async {
        let stream = connect_tcp(node, local_address).await.map_err(tungstenite::Error::Io)?;
        tokio_tungstenite::client_async_with_config(request, stream, Some(socket_config())).await
    };
    match tokio::time::timeout(timeout, upgrade).await {
        Err(_) => failed("timeout socket connect".to_owned()),
        Ok(Err(tungstenite::Error::Http(response))) => Err(ConnectError::Refused {
            status: response.status().as_u16(),
            code: response.body().as_deref().and_then(error_code),
        }),
        Ok(Err(tungstenite::Error::Io(error))) => {
            failed(format!("socket connect io: {}", error.kind()))
        }
        Ok(Err(_)) => failed("socket connect error".to_owned()),
        Ok(Ok((socket, _))) => Ok(socket),
    }
}

/// Opens `/api/games/{id}/ws` as `player` and sends `join`.
pub async fn open_game(
    player: &Player,
    game_id: &str,
    timeout: Duration,
) -> Result<Socket, Failure> {
    let node = &player.node;
    let url = node.ws_url(&format!("/api/games/{game_id}/ws"));
    let request = socket_request(node, &url, Some(&player.cookie))?;
    let mut socket = connect(node, request, player.local_address, timeout).await?;
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

#[cfg(test)]
mod tests {
    use super::*;

    const BUSY: &[u8] = br#"{"error":{"code":"server_busy","message":"busy"}}"#;

    #[test]
    fn a_busy_server_refusal_carries_its_retry_after() {
        let failure = Failure::from_answer(
            "POST /api/rooms",
            StatusCode::SERVICE_UNAVAILABLE,
            BUSY,
            Some("3"),
        );
        assert_eq!(failure, Failure("busy POST /api/rooms".into(), Some(Duration::from_secs(3))));
    }

    #[test]
    fn other_refusals_are_errors_named_by_status() {
        let unavailable = br#"{"error":{"code":"unavailable","message":"x"}}"#;
        let what = "POST /api/rooms";
        assert_eq!(
            Failure::from_answer(what, StatusCode::SERVICE_UNAVAILABLE, unavailable, Some("3")),
            Failure::new("http 503 POST /api/rooms")
        );
        assert_eq!(
            Failure::from_answer(what, StatusCode::SERVICE_UNAVAILABLE, BUSY, None),
            Failure::new("http 503 POST /api/rooms")
        );
        assert_eq!(
            Failure::from_answer(what, StatusCode::TOO_MANY_REQUESTS, b"", Some("1")),
            Failure::new("http 429 POST /api/rooms")
        );
    }
}
