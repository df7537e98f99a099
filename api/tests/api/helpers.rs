//! `spawn_app`: the real server on port 0 with a fresh SQLite file; users with their own
//! cookies; WebSocket clients speaking the game protocol.

use std::path::PathBuf;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use outflank_api::configuration::{Secret, Settings};
use outflank_api::domain::Timestamp;
use outflank_api::service::{Clock, LiveSearch, LiveSearches, ManualClock};
use outflank_api::startup::{Application, Stopper};
use outflank_api::ws::protocol::ServerMsg;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use crate::stacks::thread_stacks;
use crate::storage_support::{
    Service, TempDatabase, admin_url, admin_url_required, available, redis_url_if_set,
};

/// How long a test waits for a message before failing.
const TIMEOUT: Duration = Duration::from_secs(20);

/// How long a server may take to start, or to stop, before the test fails saying which: a
/// stop waits up to 5 s for open requests and up to 10 s for the store.
const SERVER_LIMIT: Duration = Duration::from_secs(60);

/// `future`, or a failure naming `step` if it takes longer than [`SERVER_LIMIT`]: a test that
/// hangs would hold the whole run until its time limit, and say nothing.
async fn within<T>(step: &str, future: impl std::future::Future<Output = T>) -> T {
    match tokio::time::timeout(SERVER_LIMIT, future).await {
        Ok(output) => output,
        Err(_) => {
            let stacks = thread_stacks();
            panic!("{step} took more than {} s\n{stacks}", SERVER_LIMIT.as_secs())
        }
    }
}

/// A client for the test's requests, each limited to [`TIMEOUT`] so a request the server never
/// answers fails the test.
fn client() -> reqwest::ClientBuilder {
    reqwest::Client::builder().timeout(TIMEOUT)
}

/// A running server.
pub struct TestApp {
    pub url: String,
    /// The internal listener of `/metrics` and `/readyz`, when the settings ask for one.
    pub metrics_url: Option<String>,
    /// A browser: keeps the cookies the server sets.
    pub client: reqwest::Client,
    settings: Settings,
    /// The clock live games are played by, when the test moves it by hand.
    clock: Option<ManualClock>,
    stopper: Stopper,
    /// The live computer searches background work gives way to.
    live_searches: LiveSearches,
    _data: TempDir,
    _postgres: Option<TempDatabase>,
}

impl Drop for TestApp {
    /// A test that ended stops its server, which would otherwise keep its threads and sockets
    /// until the whole test binary exits.
    fn drop(&mut self) {
        self.stopper.stop_now();
    }
}

/// A directory removed when dropped.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Starts the server with a fresh embedded database and the default 30-s move time.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await
}

/// Starts the server with a fresh embedded database, after `adjust` changes the settings.
pub async fn spawn_app_with(adjust: impl FnOnce(&mut Settings)) -> TestApp {
    spawn(adjust, None).await
}

/// Starts the server with a fresh embedded database and live games played by a clock that
/// stands still until [`TestApp::advance`] moves it.
pub async fn spawn_app_with_clock() -> TestApp {
    spawn(|_| {}, Some(ManualClock::new(Timestamp::now()))).await
}

/// [`spawn_app_with_clock`] after `adjust` changes the settings.
pub async fn spawn_app_with_clock_and(adjust: impl FnOnce(&mut Settings)) -> TestApp {
    spawn(adjust, Some(ManualClock::new(Timestamp::now()))).await
}

async fn spawn(adjust: impl FnOnce(&mut Settings), clock: Option<ManualClock>) -> TestApp {
    let dir = std::env::temp_dir().join(format!("outflank-test-{}", unique()));
    let postgres = match std::env::var("OUTFLANK_TEST_BACKEND").as_deref() {
        Ok("postgres") => {
            let admin = admin_url_required("OUTFLANK_TEST_BACKEND=postgres");
            Some(TempDatabase::create(&admin).await)
        }
        _ => None,
    };
    let database_url = match &postgres {
        Some(database) => database.url.clone(),
        None => format!("sqlite://{}?mode=rwc", dir.join("outflank.sqlite").display()),
    };
    // On PostgreSQL the matchmaking queue is Redis too (TEST_REDIS_URL), under a prefix of
    // this test's own.
    let redis_url = postgres.as_ref().and_then(|_| redis_url_if_set());
    let mut settings = Settings {
        address: "127.0.0.1:0".parse().unwrap(),
        database_url: Secret::new(database_url),
        redis_url: redis_url.map(Secret::new),
        redis_prefix: format!("outflank-test-{}", unique()),
        // A busy test machine is not a saturated server: tests never get `server_busy`.
        admission_lag_ms: None,
        ..Settings::from_lookup(|_| None).unwrap()
    };
    adjust(&mut settings);
    let (url, metrics_url, stopper, live_searches) = start(&settings, clock.as_ref()).await;
    TestApp {
        url,
        metrics_url,
        client: browser(),
        settings,
        clock,
        stopper,
        live_searches,
        _data: TempDir(dir),
        _postgres: postgres,
    }
}

/// Starts `n` nodes sharing one new PostgreSQL database and one Redis (`TEST_DATABASE_URL`,
/// `TEST_REDIS_URL`), under a key prefix of their own: a cluster. `None` when the test is
/// skipped for want of either (see `storage_support::unavailable`).
pub async fn spawn_nodes(n: usize) -> Option<Vec<TestApp>> {
    let admin = admin_url()?;
    let redis = available(Service::Redis, redis_url_if_set())?;
    Some(spawn_nodes_with(n, &admin, &redis, |_| ()).await)
}

/// [`spawn_nodes`] with settings changed by `configure`.
pub async fn spawn_nodes_configured(
    n: usize,
    configure: impl FnOnce(&mut Settings),
) -> Option<Vec<TestApp>> {
    let admin = admin_url()?;
    let redis = available(Service::Redis, redis_url_if_set())?;
    Some(spawn_nodes_with(n, &admin, &redis, configure).await)
}

/// Starts `n` nodes sharing one new PostgreSQL database (`TEST_DATABASE_URL`) and the Redis at
/// `redis`; `None` when the test is skipped for want of PostgreSQL.
pub async fn spawn_nodes_on(n: usize, redis: &str) -> Option<Vec<TestApp>> {
    let admin = admin_url()?;
    Some(spawn_nodes_with(n, &admin, redis, |_| ()).await)
}

async fn spawn_nodes_with(
    n: usize,
    admin: &str,
    redis: &str,
    configure: impl FnOnce(&mut Settings),
) -> Vec<TestApp> {
    let redis = redis.to_owned();
    let mut database = Some(TempDatabase::create(admin).await);
    let mut settings = Settings {
        address: "127.0.0.1:0".parse().unwrap(),
        database_url: Secret::new(database.as_ref().unwrap().url.clone()),
        redis_url: Some(Secret::new(redis)),
        redis_prefix: format!("outflank-test-{}", unique()),
        // A busy test machine is not a saturated server: tests never get `server_busy`.
        admission_lag_ms: None,
        ..Settings::from_lookup(|_| None).unwrap()
    };
    configure(&mut settings);
    let mut nodes = Vec::new();
    for i in 0..n {
        let (url, metrics_url, stopper, live_searches) = start(&settings, None).await;
        let dir = std::env::temp_dir().join(format!("outflank-test-{}", unique()));
        // The last node to be dropped drops the database.
        let postgres = if i + 1 == n { database.take() } else { None };
        nodes.push(TestApp {
            url,
            metrics_url,
            client: browser(),
            settings: settings.clone(),
            clock: None,
            stopper,
            live_searches,
            _data: TempDir(dir),
            _postgres: postgres,
        });
    }
    nodes
}

/// Starts a server: its URL, that of its internal listener of `/metrics` and `/readyz` if
/// any, what stops it, and its live searches (to hold background work).
async fn start(
    settings: &Settings,
    clock: Option<&ManualClock>,
) -> (String, Option<String>, Stopper, LiveSearches) {
    install_logs();
    let clock = clock.map_or(Clock::System, |clock| Clock::Manual(clock.clone()));
    let built = within("the server's start", Application::build_with_clock(settings, clock));
    let app = built.await.expect("server starts");
    let url = format!("http://{}", app.address());
    let metrics_url = app.metrics_address().map(|address| format!("http://{address}"));
    let stopper = app.stopper();
    let live_searches = app.live_searches();
    // The server runs on a thread of its own rather than on the test's runtime, so that it
    // outlives the test's end to stop: dropping the `TestApp` stops it (and its threads).
    std::thread::Builder::new()
        .name("test-server".to_owned())
        .spawn(move || actix_web::rt::System::new().block_on(app.run_until_stopped()))
        .expect("a thread for the server");
    (url, metrics_url, stopper, live_searches)
}

/// The test servers' logs. With `OUTFLANK_TEST_TRACE=<filter>`, those it selects, to stderr as
/// they happen. Without it, actix-server's own (its workers and accept thread starting and
/// stopping), kept with the output of the test whose server wrote them: a test failing on a
/// server's stop shows how far each of its threads got.
fn install_logs() {
    let logs = tracing_subscriber::fmt().with_thread_names(true).with_ansi(false);
    let _ = match std::env::var("OUTFLANK_TEST_TRACE") {
        Ok(filter) => logs
            .with_env_filter(tracing_subscriber::EnvFilter::new(filter))
            .with_writer(std::io::stderr)
            .try_init(),
        Err(_) => logs
            .with_env_filter(tracing_subscriber::EnvFilter::new("off,actix_server=info"))
            .with_test_writer()
            .try_init(),
    };
}

fn unique() -> String {
    use std::time::{SystemTime, UNIX_EPOCH};
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_nanos();
    format!("{}-{nanos}", std::process::id())
}

/// A client that keeps cookies, like a browser.
pub fn browser() -> reqwest::Client {
    client().cookie_store(true).build().unwrap()
}

impl TestApp {
    /// Stops the server gracefully and starts a new one on the same database (another port).
    pub async fn restart(&mut self) {
        within("the server's graceful stop", self.stopper.stop()).await;
        let (url, metrics_url, stopper, live_searches) =
            start(&self.settings, self.clock.as_ref()).await;
        self.url = url;
        self.metrics_url = metrics_url;
        self.stopper = stopper;
        self.live_searches = live_searches;
    }

    /// Moves the live games' clock forward by `millis` (only for [`spawn_app_with_clock`]).
    /// The database this server stores in, for the server binary's commands.
    pub fn database_url(&self) -> &str {
        self.settings.database_url.expose()
    }

    pub fn advance(&self, millis: i64) {
        self.clock.as_ref().expect("a server started with spawn_app_with_clock").advance(millis);
    }

    /// Stops the server gracefully, as a rolling restart does.
    pub async fn stop(&self) {
        within("the server's graceful stop", self.stopper.stop()).await;
    }

    /// A person with a guest session named `nickname`.
    pub async fn user(&self, nickname: &str) -> User {
        TestApp::user_at(&self.url, nickname).await
    }

    /// A person with a guest session named `nickname`, made on the server at `base`.
    pub async fn user_at(base: &str, nickname: &str) -> User {
        let client = client().build().unwrap();
        let response = client
            .post(format!("{base}/api/session"))
            .json(&json!({ "nickname": nickname }))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        let cookie = response.headers()["set-cookie"].to_str().unwrap();
        let cookie = cookie.split(';').next().unwrap().to_owned();
        User { base: base.to_owned(), client, cookie }
    }

    /// A person whose session is the cookie `cookie` (`name=value`).
    pub fn user_with_cookie(&self, cookie: String) -> User {
        User { base: self.url.clone(), client: client().build().unwrap(), cookie }
    }

    /// How many accounts the database holds, deleted ones included.
    pub async fn count_accounts(&self) -> i64 {
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(self.settings.database_url.expose()).await.unwrap();
        let row = sqlx::query("SELECT COUNT(*) AS n FROM accounts").fetch_one(&pool).await.unwrap();
        let n: i64 = sqlx::Row::get(&row, "n");
        pool.close().await;
        n
    }

    /// Someone without a session (a spectator).
    pub fn stranger(&self) -> User {
        User { base: self.url.clone(), client: client().build().unwrap(), cookie: String::new() }
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(format!("{}{path}", self.url)).send().await.unwrap()
    }

    pub async fn post_json(&self, path: &str, body: &Value) -> reqwest::Response {
        self.client.post(format!("{}{path}", self.url)).json(body).send().await.unwrap()
    }

    /// The value of the metric `series` (its name with labels, as `GET /metrics` renders it),
    /// `None` when it is not there.
    pub async fn metric(&self, series: &str) -> Option<f64> {
        let text = self.get("/metrics").await.text().await.unwrap();
        text.lines().find_map(|line| line.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
    }

    /// Sends `head` (an HTTP/1.1 request without its final blank line) over a fresh
    /// connection and returns the response's status code: for requests no HTTP client would
    /// send as they are.
    pub async fn raw_status(&self, head: &str) -> u16 {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let address = self.url.trim_start_matches("http://");
        let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
        let request = format!("{}\r\nHost: {address}\r\n\r\n", head.replace('\n', "\r\n"));
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut response = vec![0; 1024];
        let read =
            tokio::time::timeout(TIMEOUT, stream.read(&mut response)).await.unwrap().unwrap();
        let text = String::from_utf8_lossy(&response[..read]);
        let status = text.split(' ').nth(1).unwrap_or_else(|| panic!("no status in {text:?}"));
        status.parse().unwrap()
    }

    /// Holds the server's background work (reviews, the analysis board's values) where it is,
    /// as a live computer search would, until the guard is dropped.
    pub fn hold_background_work(&self) -> LiveSearch {
        self.live_searches.start()
    }

    /// Background jobs stopped by [`TestApp::hold_background_work`] now.
    pub fn background_work_held(&self) -> usize {
        self.live_searches.waiting()
    }

    /// Starts a guest session in [`TestApp::client`], asserting it succeeds.
    pub async fn sign_in_as(&self, nickname: &str) -> Value {
        let response = self.post_json("/api/session", &json!({ "nickname": nickname })).await;
        assert_eq!(response.status(), 200);
        response.json().await.unwrap()
    }
}

/// One person: an HTTP client carrying their session cookie.
pub struct User {
    base: String,
    client: reqwest::Client,
    cookie: String,
}

impl User {
    /// Keeps the session cookie `response` set, if it set one.
    pub fn take_cookie(&mut self, response: &reqwest::Response) {
        let set = response
            .headers()
            .get_all("set-cookie")
            .iter()
            .filter_map(|value| value.to_str().ok())
            .find(|value| value.starts_with("outflank_session="));
        if let Some(value) = set {
            self.cookie = value.split(';').next().unwrap().to_owned();
        }
    }

    /// The server this person talks to.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// The session cookie, `name=value`.
    pub fn cookie(&self) -> &str {
        &self.cookie
    }

    pub async fn delete(&self, path: &str) -> reqwest::Response {
        self.client
            .delete(format!("{}{path}", self.base))
            .header("cookie", &self.cookie)
            .send()
            .await
            .unwrap()
    }

    /// Follows the server to another address (after a restart).
    pub fn reconnect_to(&mut self, app: &TestApp) {
        self.base = app.url.clone();
    }

    /// Talks to the server at `base` from now on (another node of the same site).
    pub fn set_base(&mut self, base: &str) {
        base.clone_into(&mut self.base);
    }

    /// Like [`User::join`], but `None` when the game cannot be reached or answers with an
    /// error instead of a snapshot.
    pub async fn try_join(&self, id: &str) -> Option<(Socket, Value)> {
        let ws_url = format!("{}/api/games/{id}/ws", self.base.replacen("http", "ws", 1));
        let mut request = ws_url.into_client_request().ok()?;
        if !self.cookie.is_empty() {
            request.headers_mut().insert("cookie", self.cookie.parse().ok()?);
        }
        let connected = tokio::time::timeout(TIMEOUT, tokio_tungstenite::connect_async(request));
        let (stream, _) = connected.await.ok()?.ok()?;
        let mut socket = Socket { stream };
        socket.send(json!({ "type": "join", "game_id": id })).await;
        let first = socket.next().await?;
        (first["type"] == "snapshot").then_some((socket, first))
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{path}", self.base))
            .header("cookie", &self.cookie)
            .send()
            .await
            .unwrap()
    }

    pub async fn post(&self, path: &str, body: &Value) -> reqwest::Response {
        self.client
            .post(format!("{}{path}", self.base))
            .header("cookie", &self.cookie)
            .json(body)
            .send()
            .await
            .unwrap()
    }

    /// Starts a game with `body` (e.g. `{"mode": "same_device"}`) and returns its id.
    pub async fn create_game(&self, body: Value) -> String {
        let response = self.post("/api/games", &body).await;
        assert_eq!(response.status(), 201, "{:?}", response.text().await);
        let created: Value = response.json().await.unwrap();
        created["id"].as_str().unwrap().to_owned()
    }

    /// Opens a socket on game `id` and joins it, returning the socket and the snapshot.
    pub async fn join(&self, id: &str) -> (Socket, Value) {
        let mut socket = self.connect(id).await;
        socket.send(json!({ "type": "join", "game_id": id })).await;
        let snapshot = socket.expect("snapshot").await;
        (socket, snapshot)
    }

    /// Opens a socket on game `id` without joining.
    pub async fn connect(&self, id: &str) -> Socket {
        self.socket(&format!("/api/games/{id}/ws")).await
    }

    /// Tries to open a socket on game `id`: the socket, or the HTTP status it was refused with.
    pub async fn try_connect(&self, id: &str) -> Result<Socket, u16> {
        let ws_url = format!("{}/api/games/{id}/ws", self.base.replacen("http", "ws", 1));
        let mut request = ws_url.into_client_request().unwrap();
        if !self.cookie.is_empty() {
            request.headers_mut().insert("cookie", self.cookie.parse().unwrap());
        }
        match tokio_tungstenite::connect_async(request).await {
            Ok((stream, _)) => Ok(Socket { stream }),
            Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
                Err(response.status().as_u16())
            }
            Err(error) => panic!("socket neither opened nor refused: {error}"),
        }
    }

    /// Opens a socket on game `id` as soon as a place under the caps is free (closed sockets are
    /// counted out in the background); `None` if none frees up within a second.
    pub async fn connect_once_free(&self, id: &str) -> Option<Socket> {
        for _ in 0..50 {
            if let Ok(socket) = self.try_connect(id).await {
                return Some(socket);
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        None
    }

    /// Opens the matchmaking socket.
    pub async fn queue(&self) -> Socket {
        self.socket("/api/queue/ws").await
    }

    /// Opens the lobby's socket.
    pub async fn lobby(&self) -> Socket {
        self.socket("/api/lobby/ws").await
    }

    /// Opens the signed-in player's own socket (challenges and notifications).
    pub async fn me_socket(&self) -> Socket {
        self.socket("/api/me/ws").await
    }

    async fn socket(&self, path: &str) -> Socket {
        let ws_url = format!("{}{path}", self.base.replacen("http", "ws", 1));
        let mut request = ws_url.into_client_request().unwrap();
        if !self.cookie.is_empty() {
            request.headers_mut().insert("cookie", self.cookie.parse().unwrap());
        }
        let (stream, _) =
            tokio_tungstenite::connect_async(request).await.expect("websocket connects");
        Socket { stream }
    }
}

/// A game socket.
pub struct Socket {
    stream: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
}

impl Socket {
    pub async fn send(&mut self, msg: Value) {
        self.send_text(msg.to_string()).await;
    }

    pub async fn send_text(&mut self, text: String) {
        self.stream.send(Message::text(text)).await.expect("socket open");
    }

    /// Sends `msg` if the connection still takes it: for a socket the server may be closing.
    pub async fn try_send(&mut self, msg: Value) {
        let _ = self.stream.send(Message::text(msg.to_string())).await;
    }

    /// The code and reason the server closes the socket with, reading what comes before;
    /// `None` when the connection ends without a close frame.
    pub async fn close_reason(&mut self) -> Option<(u16, String)> {
        loop {
            let frame = tokio::time::timeout(TIMEOUT, self.stream.next())
                .await
                .expect("the socket closed in time")?;
            match frame {
                Ok(Message::Close(Some(close))) => {
                    return Some((close.code.into(), close.reason.to_string()));
                }
                Ok(Message::Close(None)) | Err(_) => return None,
                Ok(_) => {}
            }
        }
    }

    /// Sends `text` as one message in frames of `parts` (a first frame, continuations, a last),
    /// as a client may fragment a message.
    pub async fn send_fragmented(&mut self, parts: &[&str]) {
        use tokio_tungstenite::tungstenite::protocol::frame::Frame;
        use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
        for (index, part) in parts.iter().enumerate() {
            let opcode = if index == 0 { Data::Text } else { Data::Continue };
            let last = index + 1 == parts.len();
            let frame = Frame::message(part.as_bytes().to_vec(), OpCode::Data(opcode), last);
            self.stream.send(Message::Frame(frame)).await.expect("socket open");
        }
    }

    /// The next JSON message, presence messages included; `None` if the socket closed.
    pub async fn next_any(&mut self) -> Option<Value> {
        loop {
            let frame = tokio::time::timeout(TIMEOUT, self.stream.next())
                .await
                .expect("a message in time")?;
            match frame {
                Ok(Message::Text(text)) => return Some(serde_json::from_str(&text).unwrap()),
                Ok(Message::Close(_)) | Err(_) => return None,
                Ok(_) => {}
            }
        }
    }

    /// The next game message, skipping presence (which arrives whenever anyone connects);
    /// `None` if the socket closed.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            let msg = self.next_any().await?;
            if msg["type"] != "presence" {
                return Some(msg);
            }
        }
    }

    /// The next game message as the protocol types it, skipping presence; `None` if the
    /// socket closed.
    pub async fn next_msg(&mut self) -> Option<ServerMsg> {
        let msg = self.next().await?;
        Some(serde_json::from_value(msg.clone()).unwrap_or_else(|error| panic!("{msg}: {error}")))
    }

    /// Reads until a presence message saying exactly `black` and `white` connected.
    pub async fn presence_becomes(&mut self, black: bool, white: bool) {
        loop {
            let msg = self.next_any().await.expect("socket open");
            if msg["type"] == "presence" && msg["black"] == black && msg["white"] == white {
                return;
            }
        }
    }

    /// The next message, which must have type `kind`.
    pub async fn expect(&mut self, kind: &str) -> Value {
        let msg =
            self.next().await.unwrap_or_else(|| panic!("socket closed while waiting for {kind}"));
        assert_eq!(msg["type"], kind, "expected {kind}, got {msg}");
        msg
    }

    /// Skips messages until one of type `kind`.
    pub async fn until(&mut self, kind: &str) -> Value {
        loop {
            let msg = self
                .next()
                .await
                .unwrap_or_else(|| panic!("socket closed while waiting for {kind}"));
            if msg["type"] == kind {
                return msg;
            }
        }
    }

    /// Plays `square` and returns the `moved` event it causes.
    pub async fn play(&mut self, square: &str) -> Value {
        self.send(json!({ "type": "move", "square": square })).await;
        self.expect("moved").await
    }

    /// Reads for `millis`, as a browser does between messages: pings the server sends are
    /// answered (the library queues the pong and sends it before the next message); messages
    /// read meanwhile are returned.
    pub async fn idle(&mut self, millis: u64) -> Vec<Value> {
        let mut read = Vec::new();
        let until = tokio::time::Instant::now() + Duration::from_millis(millis);
        while let Ok(Some(Ok(frame))) = tokio::time::timeout_at(until, self.stream.next()).await {
            if let Message::Text(text) = frame {
                read.push(serde_json::from_str(&text).unwrap());
            }
        }
        read
    }

    /// Whether the server closes the socket within `millis` (reading what comes meanwhile).
    pub async fn is_closed_within(&mut self, millis: u64) -> bool {
        let until = tokio::time::Instant::now() + Duration::from_millis(millis);
        loop {
            match tokio::time::timeout_at(until, self.stream.next()).await {
                Ok(None | Some(Err(_) | Ok(Message::Close(_)))) => return true,
                Ok(Some(Ok(_))) => {}
                Err(_) => return false,
            }
        }
    }

    /// Whether the server closed the socket (reading what is left).
    pub async fn is_closed(&mut self) -> bool {
        loop {
            match tokio::time::timeout(TIMEOUT, self.stream.next()).await {
                Ok(None) | Ok(Some(Err(_))) | Ok(Some(Ok(Message::Close(_)))) => return true,
                Ok(Some(Ok(_))) => {}
                Err(_) => return false,
            }
        }
    }
}

/// The legal squares of a position message.
pub fn legal_squares(position: &Value) -> Vec<String> {
    position["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["square"].as_str().unwrap().to_owned())
        .collect()
}
