//! `--attack N`: abuse from one source address while the normal games play, to measure what it
//! costs them. Task *i* repeats one kind of abuse (the kinds taken round-robin), with a short
//! pause between tries, until the run's end:
//!
//! - **idle sockets**: cookie-less sockets on a live game's socket that never send `join`,
//!   held open until the server closes them, then opened again;
//! - **ping floods**: cookie-less sockets sending `ping` as fast as they can until closed;
//! - **junk cookies**: `GET /api/me` and `GET /api/stats` carrying a 120 KiB made-up session
//!   cookie, ignoring `Retry-After`;
//! - **game spam**: guest sessions creating computer games (`POST /api/games`) as fast as the
//!   server answers.
//!
//! Each try is counted with what the server did about it: the HTTP status and error code of a
//! refusal, the error code sent on a socket, a close by the server. Refusals are the defences
//! working, so none of this counts as an error of the run.

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::{SinkExt, Stream, StreamExt};
use reqwest::header::{COOKIE, HeaderMap, ORIGIN};
use serde_json::{Value, json};
use tokio::sync::watch;
use tokio::time::{Instant, sleep_until, timeout};
use tokio_tungstenite::tungstenite::{self, Message};

use crate::client::{self, ConnectError, Failure, Node, SESSION_COOKIE};
use crate::play::Rng;

/// The pause between two tries of one task: short enough to keep up the pressure, long enough
/// that a few hundred tasks do not keep the tool's own cores busy, which the server shares.
pub const PAUSE: Duration = Duration::from_millis(100);
/// The size of the junk cookie's value: far beyond any real session cookie.
const JUNK_COOKIE_BYTES: usize = 120 * 1024;
/// How long a flooded socket is read after a send fails, for the server's error and close.
const LAST_WORDS: Duration = Duration::from_secs(1);

/// A kind of abuse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    IdleSocket,
    PingFlood,
    JunkCookie,
    GameSpam,
}

impl Kind {
    pub const ALL: [Kind; 4] =
        [Kind::IdleSocket, Kind::PingFlood, Kind::JunkCookie, Kind::GameSpam];

    /// The kind's name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Kind::IdleSocket => "idle_socket",
            Kind::PingFlood => "ping_flood",
            Kind::JunkCookie => "junk_cookie",
            Kind::GameSpam => "game_spam",
        }
    }

    /// The kind task `index` repeats.
    pub fn of_task(index: usize) -> Kind {
        Kind::ALL[index % Kind::ALL.len()]
    }

    fn slot(self) -> usize {
        self as usize
    }
}

/// How one try ended.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Outcome {
    /// What the report lists it as, e.g. `GET /api/me http 429 rate_limited`.
    label: String,
    /// The HTTP status of the answer (of the upgrade, for a socket), if there was one.
    status: Option<u16>,
    /// The error code, from an HTTP error body or an `error` message on a socket.
    code: Option<String>,
    closed_by_server: bool,
}

impl Outcome {
    fn labelled(label: impl Into<String>) -> Outcome {
        Outcome { label: label.into(), status: None, code: None, closed_by_server: false }
    }

    /// An HTTP answer: `{what} http {status}`, then the error code if any.
    fn http(what: &str, status: u16, code: Option<String>) -> Outcome {
        let label = match &code {
            Some(code) => format!("{what} http {status} {code}"),
            None => format!("{what} http {status}"),
        };
        Outcome { label, status: Some(status), code, closed_by_server: false }
    }

    fn not_connected(error: ConnectError) -> Outcome {
        match error {
            ConnectError::Refused { status, code } => Outcome::http("upgrade", status, code),
            ConnectError::Failed(failure) => Outcome::labelled(failure.0),
        }
    }

    /// The server closed the socket, after sending the error `code` if any.
    fn closed(code: Option<String>) -> Outcome {
        let label = match &code {
            Some(code) => format!("closed by server after error {code}"),
            None => "closed by server".to_owned(),
        };
        Outcome { label, status: None, code, closed_by_server: true }
    }
}

/// The counts of one kind.
#[derive(Clone, Debug, Default)]
struct KindCounts {
    tasks: u64,
    attempts: u64,
    /// Messages sent on sockets (the floods' pings).
    messages_sent: u64,
    closed_by_server: u64,
    statuses: BTreeMap<u16, u64>,
    codes: BTreeMap<String, u64>,
    outcomes: BTreeMap<String, u64>,
}

/// What the attack tried and how the server answered, per kind.
#[derive(Debug, Default)]
pub struct AttackCounts {
    kinds: Mutex<[KindCounts; 4]>,
}

impl AttackCounts {
    fn with<T>(&self, kind: Kind, change: impl FnOnce(&mut KindCounts) -> T) -> T {
        let mut kinds = self.kinds.lock().unwrap_or_else(|e| e.into_inner());
        change(&mut kinds[kind.slot()])
    }

    fn task_started(&self, kind: Kind) {
        self.with(kind, |counts| counts.tasks += 1);
    }

    /// One try of `kind`, which sent `messages` socket messages and ended with `outcome`.
    fn record(&self, kind: Kind, outcome: &Outcome, messages: u64) {
        self.with(kind, |counts| {
            counts.attempts += 1;
            counts.messages_sent += messages;
            counts.closed_by_server += u64::from(outcome.closed_by_server);
            if let Some(status) = outcome.status {
                *counts.statuses.entry(status).or_default() += 1;
            }
            if let Some(code) = &outcome.code {
                *counts.codes.entry(code.clone()).or_default() += 1;
            }
            *counts.outcomes.entry(outcome.label.clone()).or_default() += 1;
        });
    }

    /// A task that had to be stopped from outside (a fault of this tool, not of the server).
    pub fn task_did_not_stop(&self, index: usize) {
        self.with(Kind::of_task(index), |counts| {
            *counts.outcomes.entry("task did not stop".to_owned()).or_default() += 1;
        });
    }

    /// The attack section of the report.
    pub fn report(&self, from: IpAddr, tasks: usize) -> Value {
        let kinds = self.kinds.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let attempts: u64 = kinds.iter().map(|counts| counts.attempts).sum();
        let by_kind: serde_json::Map<String, Value> = Kind::ALL
            .iter()
            .map(|kind| {
                let counts = &kinds[kind.slot()];
                let statuses: BTreeMap<String, u64> =
                    counts.statuses.iter().map(|(status, n)| (status.to_string(), *n)).collect();
                let section = json!({
                    "tasks": counts.tasks,
                    "attempts": counts.attempts,
                    "messages_sent": counts.messages_sent,
                    "closed_by_server": counts.closed_by_server,
                    "statuses": statuses,
                    "codes": counts.codes,
                    "outcomes": counts.outcomes,
                });
                (kind.name().to_owned(), section)
            })
            .collect();
        json!({
            "from": from.to_string(),
            "tasks": tasks,
            "pause_ms": PAUSE.as_millis() as u64,
            "attempts": attempts,
            "kinds": by_kind,
        })
    }
}

/// What every attack task shares.
#[derive(Debug)]
pub struct Attack {
    http: reqwest::Client,
    from: IpAddr,
    nodes: Vec<Node>,
    /// The latest normal game: the idle sockets and floods open its socket.
    latest_game: watch::Receiver<Option<String>>,
    timeout: Duration,
    /// Every task stops here.
    deadline: Instant,
    pub counts: AttackCounts,
}

impl Attack {
    pub fn new(
        from: IpAddr,
        nodes: Vec<Node>,
        latest_game: watch::Receiver<Option<String>>,
        timeout: Duration,
        deadline: Instant,
    ) -> Result<Attack, Failure> {
        Ok(Attack {
            http: client::http_client(Some(from), timeout)?,
            from,
            nodes,
            latest_game,
            timeout,
            deadline,
            counts: AttackCounts::default(),
        })
    }
}

/// Attack task `index`: its kind of abuse, tried again and again until the run's end.
pub async fn run_task(attack: Arc<Attack>, index: usize) {
    let kind = Kind::of_task(index);
    attack.counts.task_started(kind);
    let node = &attack.nodes[index % attack.nodes.len()];
    let mut latest_game = attack.latest_game.clone();
    let mut rng = Rng::new(index as u64 + 1);
    let junk = match kind {
        Kind::JunkCookie => format!("{SESSION_COOKIE}={}", junk_text(&mut rng, JUNK_COOKIE_BYTES)),
        _ => String::new(),
    };
    let mut session: Option<String> = None;
    let mut turn = 0usize;
    while Instant::now() < attack.deadline {
        let game_id = match kind {
            Kind::IdleSocket | Kind::PingFlood => {
                let wait = latest_game.wait_for(Option::is_some);
                let game_id = tokio::select! {
                    game_id = wait => game_id.ok().and_then(|game_id| game_id.clone()),
                    _ = sleep_until(attack.deadline) => None,
                };
                match game_id {
                    Some(game_id) => game_id,
                    None => break,
                }
            }
            Kind::JunkCookie | Kind::GameSpam => String::new(),
        };
        let attempt = async {
            match kind {
                Kind::IdleSocket => (idle_socket(&attack, node, &game_id).await, 0),
                Kind::PingFlood => ping_flood(&attack, node, &game_id).await,
                Kind::JunkCookie => (junk_cookie(&attack, node, &junk, turn).await, 0),
                Kind::GameSpam => (game_spam(&attack, node, &mut session, index).await, 0),
            }
        };
        let (outcome, messages) = tokio::select! {
            done = attempt => done,
            _ = sleep_until(attack.deadline) => (Outcome::labelled("cut short by the run's end"), 0),
        };
        attack.counts.record(kind, &outcome, messages);
        turn += 1;
        sleep_until((Instant::now() + PAUSE).min(attack.deadline)).await;
    }
}

/// `length` characters that look like a cookie value and verify as nothing.
fn junk_text(rng: &mut Rng, length: usize) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    (0..length).map(|_| char::from(ALPHABET[rng.below(ALPHABET.len())])).collect()
}

/// Reads a socket until the server closes it, keeping the code of the last `error` message.
async fn read_until_closed<S>(stream: &mut S) -> Outcome
where
    S: Stream<Item = Result<Message, tungstenite::Error>> + Unpin,
{
    let mut code = None;
    while let Some(frame) = stream.next().await {
        match frame {
            Ok(Message::Text(text)) => {
                let message: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
                if message["type"] == "error"
                    && let Some(error) = message["code"].as_str()
                {
                    code = Some(error.to_owned());
                }
            }
            Ok(Message::Close(_)) => break,
            Ok(_) => {}
            Err(_) => {
                let label = match &code {
                    Some(code) => format!("socket error after error {code}"),
                    None => "socket error".to_owned(),
                };
                return Outcome { label, status: None, code, closed_by_server: false };
            }
        }
    }
    Outcome::closed(code)
}

/// A cookie-less socket on the game's address, as from a browser on another site's page.
async fn open_anonymous(
    attack: &Attack,
    node: &Node,
    game_id: &str,
) -> Result<client::Socket, Outcome> {
    let url = node.ws_url(&format!("/api/games/{game_id}/ws"));
    let request = client::socket_request(node, &url, None).map_err(|f| Outcome::labelled(f.0))?;
    client::connect(node, request, Some(attack.from), attack.timeout)
        .await
        .map_err(Outcome::not_connected)
}

/// A socket that never sends `join`, held until the server closes it.
async fn idle_socket(attack: &Attack, node: &Node, game_id: &str) -> Outcome {
    match open_anonymous(attack, node, game_id).await {
        Ok(mut socket) => read_until_closed(&mut socket).await,
        Err(outcome) => outcome,
    }
}

/// A socket sending `ping` as fast as it can until the server closes it; also returns how many
/// were sent.
async fn ping_flood(attack: &Attack, node: &Node, game_id: &str) -> (Outcome, u64) {
    let socket = match open_anonymous(attack, node, game_id).await {
        Ok(socket) => socket,
        Err(outcome) => return (outcome, 0),
    };
    let (mut sink, mut stream) = socket.split();
    let ping = Message::text(json!({"type": "ping"}).to_string());
    let mut sent = 0u64;
    let flood = async {
        while let Ok(Ok(())) = timeout(attack.timeout, sink.send(ping.clone())).await {
            sent += 1;
        }
    };
    let outcome = tokio::select! {
        outcome = read_until_closed(&mut stream) => Some(outcome),
        () = flood => None,
    };
    // A send failed: the server's error and close may still be on their way.
    let outcome = match outcome {
        Some(outcome) => outcome,
        None => timeout(LAST_WORDS, read_until_closed(&mut stream))
            .await
            .unwrap_or_else(|_| Outcome::labelled("send failed")),
    };
    (outcome, sent)
}

/// Sends `request` and names what came back: `{what} http {status}` and the error code of the
/// body, or the failure. Returns the answer's headers too.
async fn send(
    attack: &Attack,
    request: reqwest::RequestBuilder,
    what: &str,
) -> (Outcome, Option<HeaderMap>) {
    let response = match request.send().await {
        Ok(response) => response,
        Err(error) if error.is_timeout() => {
            return (Outcome::labelled(format!("timeout {what}")), None);
        }
        Err(error) if error.is_connect() => {
            return (Outcome::labelled(format!("connect error {what}")), None);
        }
        Err(_) => return (Outcome::labelled(format!("request error {what}")), None),
    };
    let status = response.status();
    let headers = response.headers().clone();
    let body = timeout(attack.timeout, response.bytes()).await;
    let code = match body {
        Ok(Ok(body)) if !status.is_success() => client::error_code(&body),
        _ => None,
    };
    (Outcome::http(what, status.as_u16(), code), Some(headers))
}

/// `GET /api/me` or `GET /api/stats` (alternately) with the junk cookie.
async fn junk_cookie(attack: &Attack, node: &Node, cookie: &str, turn: usize) -> Outcome {
    let (path, what) = if turn.is_multiple_of(2) {
        ("/api/me", "GET /api/me")
    } else {
        ("/api/stats", "GET /api/stats")
    };
    let request = attack.http.get(format!("{}{path}", node.base)).header(COOKIE, cookie);
    send(attack, request, what).await.0
}

/// A guest session when there is none, else one more computer game for it. A session the
/// server will not give more games (or no longer knows) is replaced by a new one.
async fn game_spam(
    attack: &Attack,
    node: &Node,
    session: &mut Option<String>,
    index: usize,
) -> Outcome {
    let origin = node.base.as_str();
    let Some(cookie) = session.as_deref() else {
        let body = json!({ "nickname": format!("Spam {index}") });
        let request = attack
            .http
            .post(format!("{}/api/session", node.base))
            .header(ORIGIN, origin)
            .json(&body);
        let (outcome, headers) = send(attack, request, "POST /api/session").await;
        *session = headers.as_ref().and_then(client::session_cookie);
        return outcome;
    };
    let body = json!({ "mode": "computer", "level": "easy", "color": "black" });
    let request = attack
        .http
        .post(format!("{}/api/games", node.base))
        .header(ORIGIN, origin)
        .header(COOKIE, cookie)
        .json(&body);
    let (outcome, _) = send(attack, request, "POST /api/games").await;
    if outcome.status == Some(401) || outcome.code.as_deref() == Some("too_many_games") {
        *session = None;
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tasks_take_the_kinds_in_turn() {
        let kinds: Vec<&str> = (0..5).map(|i| Kind::of_task(i).name()).collect();
        assert_eq!(kinds, ["idle_socket", "ping_flood", "junk_cookie", "game_spam", "idle_socket"]);
    }

    #[test]
    fn junk_is_a_cookie_value_of_the_size_asked() {
        let junk = junk_text(&mut Rng::new(1), 1000);
        assert_eq!(junk.len(), 1000);
        assert!(junk.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
    }

    #[test]
    fn outcomes_are_counted_by_status_code_and_close() {
        let counts = AttackCounts::default();
        let limited = Outcome::http("GET /api/me", 429, Some("rate_limited".to_owned()));
        counts.record(Kind::JunkCookie, &limited, 0);
        counts.record(Kind::JunkCookie, &limited, 0);
        counts.record(Kind::IdleSocket, &Outcome::closed(Some("not_joined".to_owned())), 0);
        let refused = ConnectError::Refused { status: 429, code: Some("too_many_sockets".into()) };
        counts.record(Kind::IdleSocket, &Outcome::not_connected(refused), 0);
        counts.record(Kind::PingFlood, &Outcome::closed(None), 25);
        let report = counts.report("127.0.0.2".parse().unwrap(), 3);
        assert_eq!(report["attempts"], 5);
        let junk = &report["kinds"]["junk_cookie"];
        assert_eq!(junk["statuses"]["429"], 2);
        assert_eq!(junk["codes"]["rate_limited"], 2);
        assert_eq!(junk["outcomes"]["GET /api/me http 429 rate_limited"], 2);
        let idle = &report["kinds"]["idle_socket"];
        assert_eq!(idle["closed_by_server"], 1);
        assert_eq!(idle["codes"]["not_joined"], 1);
        assert_eq!(idle["outcomes"]["closed by server after error not_joined"], 1);
        assert_eq!(idle["outcomes"]["upgrade http 429 too_many_sockets"], 1);
        assert_eq!(report["kinds"]["ping_flood"]["messages_sent"], 25);
    }
}
