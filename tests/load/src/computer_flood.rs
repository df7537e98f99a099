//! `--computer-flood N`: whether one address flooding the server with computer games slows
//! the computer's replies to everybody else. The server's searches share a queue, fair between
//! the client addresses that created the games, and one address may have at most 10 computer
//! games in progress; this mode measures what that leaves the others.
//!
//! - **Victims**: `--games` guests, spread over the sources of `--clients`, each play the
//!   computer one game after another, thinking `--think` before each move. A victim's **reply
//!   time** runs from sending its move to the message that gives it the turn back: the
//!   computer's move, or the end of the game.
//! - **Flood**: N tasks from `--attack-from`, each a guest session creating computer games and
//!   playing them with no think time at all, so the computer keeps searching for them. A
//!   refused creation (`too_many_games`, or a rate limit) is counted by its code and tried
//!   again a second later, from a new session after `too_many_games`. Refusals are the limits
//!   at work, not errors.
//!
//! The victims' errors fail the run; the flood's failures are only counted.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use reqwest::StatusCode;
use reqwest::header::{COOKIE, HeaderMap, ORIGIN};
use serde_json::{Value, json};
use tokio::sync::watch;
use tokio::time::{Instant, sleep_until, timeout};

use crate::args::Args;
use crate::client::{self, Failure, Http, Node, Player, Socket};
use crate::play::{self, Order, Pace, Rng};
use crate::report::{self, Sample, number, round};
use crate::stats::{AckPhase, Percentiles, Stats};

/// How long a flood task waits after a refusal or a failure before trying again.
const RETRY: Duration = Duration::from_secs(1);

/// Whose turn a message from the server says it is, for the player in one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Turn {
    Mine,
    Theirs,
    Over,
}

/// The turn a `snapshot`, `moved` or `ended` gives the player in `seat`; `None` for the
/// messages that say nothing about it (`presence`, `pong`, …). Passes are automatic on the
/// server, so the side to move always has a legal move.
fn turn_of(message: &Value, seat: &str) -> Option<Turn> {
    match message["type"].as_str() {
        Some("ended") => Some(Turn::Over),
        Some("snapshot") if message["status"].as_str() != Some("live") => Some(Turn::Over),
        Some("snapshot" | "moved" | "undone") => match message["to_move"].as_str() {
            None => Some(Turn::Over),
            Some(side) if side == seat => Some(Turn::Mine),
            Some(_) => Some(Turn::Theirs),
        },
        _ => None,
    }
}

/// A player's last move, from sending it until a message gives the turn back.
#[derive(Clone, Copy, Debug, Default)]
struct Reply {
    sent: Option<Instant>,
}

impl Reply {
    fn sent(&mut self, at: Instant) {
        self.sent = Some(at);
    }

    fn waiting(&self) -> bool {
        self.sent.is_some()
    }

    /// When the reply is late, `limit` after the move.
    fn due(&self, limit: Duration) -> Option<Instant> {
        self.sent.map(|sent| sent + limit)
    }

    /// A message giving `turn` came at `at`: the reply time when it gives the turn back (the
    /// player's turn again, or the game over), which ends the wait. The acknowledgement of the
    /// move itself, the computer to move, does not. When the computer has to pass, that
    /// acknowledgement already gives the turn back: a reply without a search.
    fn heard(&mut self, turn: Turn, at: Instant) -> Option<Duration> {
        match turn {
            Turn::Theirs => None,
            Turn::Mine | Turn::Over => {
                self.sent.take().map(|sent| at.saturating_duration_since(sent))
            }
        }
    }
}

/// What happened in a game, for whoever plays it to count.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Event {
    /// The player sent a move.
    Moved,
    /// The turn came back this long after the player's move.
    Replied(Duration),
}

/// How a game on a socket came to an end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ended {
    /// The game is over.
    Finished,
    /// The run is over.
    Stopped,
}

/// How a player plays: its think time and how long it waits for a reply.
#[derive(Clone, Copy, Debug)]
struct Style {
    think_min: Duration,
    think_max: Duration,
    /// A reply later than this is a failure; `None` waits as long as the server is heard.
    reply_limit: Option<Duration>,
}

/// The flood's counts: what its tasks did and how the server answered.
#[derive(Clone, Debug, Default)]
struct FloodTally {
    tasks: u64,
    sessions: u64,
    games_created: u64,
    games_finished: u64,
    moves_played: u64,
    /// Refused `POST /api/games`, by error code (`http <status>` without one).
    refusals: BTreeMap<String, u64>,
    /// Refused `POST /api/session`, the same way.
    session_refusals: BTreeMap<String, u64>,
    /// Anything else that went wrong (timeouts, sockets closed, …), by kind.
    failures: BTreeMap<String, u64>,
}

impl FloodTally {
    fn json(&self, from: IpAddr) -> Value {
        json!({
            "from": from.to_string(),
            "tasks": self.tasks,
            "sessions": self.sessions,
            "games_created": self.games_created,
            "games_finished": self.games_finished,
            "moves_played": self.moves_played,
            "refusals": self.refusals,
            "refusals_total": self.refusals.values().sum::<u64>(),
            "session_refusals": self.session_refusals,
            "failures": self.failures,
        })
    }
}

/// What the victims and the flood share.
#[derive(Debug)]
struct Flood {
    /// The victims' clients, one per source.
    http: Http,
    /// The flood's client, from `from`.
    flood_http: reqwest::Client,
    from: IpAddr,
    nodes: Vec<Node>,
    level: String,
    think_min: Duration,
    think_max: Duration,
    timeout: Duration,
    /// No game or move is started after this.
    deadline: Instant,
    /// The victims: their reply times (as acknowledgements), games and errors.
    victims: Arc<Stats>,
    /// The flood's reply times: what its own games wait for the computer.
    flood_replies: Stats,
    flood: Mutex<FloodTally>,
}

impl Flood {
    fn tally(&self, change: impl FnOnce(&mut FloodTally)) {
        change(&mut self.flood.lock().unwrap_or_else(|e| e.into_inner()));
    }
}

/// Runs the victims and `tasks` flood tasks once and returns the report.
pub async fn run(args: &Args, tasks: usize) -> Value {
    let http = match Http::new(args.timeout, &args.sources()) {
        Ok(http) => http,
        Err(failure) => return crate::not_started(&failure.0),
    };
    let flood_http = match client::http_client(Some(args.attack_from), args.timeout) {
        Ok(client) => client,
        Err(failure) => return crate::not_started(&failure.0),
    };
    let victims = Arc::new(Stats::new());
    let start = Instant::now();
    let deadline = start + args.ramp + args.duration;
    let flood = Arc::new(Flood {
        http,
        flood_http,
        from: args.attack_from,
        nodes: args.urls.iter().map(|url| Node::new(url)).collect(),
        level: args.level.clone(),
        think_min: args.think_min,
        think_max: args.think_max,
        timeout: args.timeout,
        deadline,
        victims: victims.clone(),
        flood_replies: Stats::new(),
        flood: Mutex::new(FloodTally::default()),
    });
    let samples = Arc::new(Mutex::new(vec![Sample::take(&args.server_pids)]));
    let (stop, stopped) = watch::channel(false);
    let monitor = tokio::spawn(crate::monitor(
        args.server_pids.clone(),
        victims.clone(),
        samples.clone(),
        false,
        stopped,
    ));
    eprintln!(
        "{} guests play the computer (level {}) on {} node(s) from {} address(es): ramp {:?}, \
         then {:?}; {tasks} flood tasks from {}",
        args.games,
        args.level,
        flood.nodes.len(),
        flood.http.sources(),
        args.ramp,
        args.duration,
        args.attack_from,
    );
    let flooders: Vec<_> =
        (0..tasks).map(|index| tokio::spawn(flood_task(flood.clone(), index))).collect();
    let players: Vec<_> = (0..args.games)
        .map(|index| {
            let offset = args.ramp.mul_f64(index as f64 / args.games as f64);
            tokio::spawn(victim(flood.clone(), index, start + offset))
        })
        .collect();
    // Everyone stops by themselves at the deadline, a victim after the reply it waits for
    // (which the timeout bounds); the margin only guards against a stuck task.
    let limit = deadline + args.timeout * 3 + Duration::from_secs(5);
    for player in players {
        match tokio::time::timeout_at(limit, player).await {
            Ok(Ok(())) => {}
            Ok(Err(_)) => victims.error("victim task failed"),
            Err(_) => victims.error("victim task did not stop"),
        }
    }
    for flooder in flooders {
        let abort = flooder.abort_handle();
        if !matches!(tokio::time::timeout_at(limit, flooder).await, Ok(Ok(()))) {
            abort.abort();
            flood
                .tally(|tally| *tally.failures.entry("task did not stop".into()).or_default() += 1);
        }
    }
    samples.lock().unwrap_or_else(|e| e.into_inner()).push(Sample::take(&args.server_pids));
    stop.send_replace(true);
    let _ = monitor.await;
    let samples = samples.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let tally = flood.flood.lock().unwrap_or_else(|e| e.into_inner()).clone();
    build(args, &victims, &flood.flood_replies, &tally, &samples, start)
}

/// Victim `index`: from `start_at`, computer games one after another until the run's end. A
/// failure is counted, and the victim starts again from a new session after a pause.
async fn victim(flood: Arc<Flood>, index: usize, start_at: Instant) {
    sleep_until(start_at).await;
    let mut rng = Rng::new(index as u64 + 1);
    let mut failures = 0u32;
    let mut session = None;
    while Instant::now() < flood.deadline {
        match victim_game(&flood, index, &mut session, &mut rng).await {
            Ok(()) => failures = 0,
            // A saturated server refusing a new game: wait as asked, then try again.
            Err(Failure(_, Some(retry_after))) => {
                Stats::count(&flood.victims.setups_refused_busy);
                sleep_until((Instant::now() + retry_after).min(flood.deadline)).await;
            }
            Err(failure) => {
                flood.victims.error(failure.0);
                session = None;
                play::back_off(failures, &mut rng, flood.deadline).await;
                failures += 1;
            }
        }
    }
}

/// One game of victim `index`, with the session in `session` (made first when there is none):
/// created, joined and played until it ends or the run does.
async fn victim_game(
    flood: &Flood,
    index: usize,
    session: &mut Option<Player>,
    rng: &mut Rng,
) -> Result<(), Failure> {
    let stats = &flood.victims;
    let set_up = async {
        let me = match session {
            Some(me) => me.clone(),
            None => {
                let node = &flood.nodes[index % flood.nodes.len()];
                let me = flood.http.guest(node, &format!("Victim {index}"), index).await?;
                session.insert(me).clone()
            }
        };
        let game_id = flood.http.create_computer_game(&me, &flood.level).await?;
        Stats::count(&stats.games_started);
        let socket = client::open_game(&me, &game_id, flood.timeout).await?;
        Ok::<_, Failure>((game_id, socket))
    };
    // A game still being set up when the run ends is given up without an error.
    let (game_id, mut socket) = tokio::select! {
        set_up = set_up => set_up?,
        _ = sleep_until(flood.deadline) => return Ok(()),
    };
    let open = stats.socket_opened();
    let style = Style {
        think_min: flood.think_min,
        think_max: flood.think_max,
        reply_limit: Some(flood.timeout),
    };
    let mut count = |event| match event {
        Event::Moved => Stats::count(&stats.moves_sent),
        Event::Replied(time) => stats.ack(time, AckPhase::Later),
    };
    let ended = play_game(flood, &mut socket, &game_id, style, rng, &mut count).await;
    client::close(socket).await;
    drop(open);
    if ended? == Ended::Finished {
        Stats::count(&stats.games_finished);
    }
    Ok(())
}

/// Flood task `index`: a guest session creating computer games and playing each with no
/// think time, until the run's end.
async fn flood_task(flood: Arc<Flood>, index: usize) {
    flood.tally(|tally| tally.tasks += 1);
    let node = &flood.nodes[index % flood.nodes.len()];
    let mut rng = Rng::new(u64::MAX - index as u64);
    let mut seat = FloodSeat::default();
    while Instant::now() < flood.deadline {
        let round = flood_round(&flood, node, index, &mut seat, &mut rng);
        let pause = tokio::select! {
            pause = round => pause,
            _ = sleep_until(flood.deadline) => break,
        };
        if pause {
            sleep_until((Instant::now() + RETRY).min(flood.deadline)).await;
        }
    }
}

/// What a flood task keeps from one step to the next: its guest session and the game it plays.
#[derive(Debug, Default)]
struct FloodSeat {
    session: Option<Player>,
    game: Option<String>,
}

/// One step of a flood task: a session when it has none, else a game, created when there is
/// none, played to its end. A game whose socket the server would not open (the flood's address
/// soon meets the rate limit) is kept and opened again after the pause: given up, it would hold
/// one of the address's 10 games without a search. Returns whether to pause before the next
/// step (after a refusal or a failure).
async fn flood_round(
    flood: &Flood,
    node: &Node,
    index: usize,
    seat: &mut FloodSeat,
    rng: &mut Rng,
) -> bool {
    let FloodSeat { session, game } = seat;
    let failed = |kind: String| {
        flood.tally(|tally| *tally.failures.entry(kind).or_default() += 1);
        true
    };
    let Some(me) = session.clone() else {
        let body = json!({ "nickname": format!("Flood {index}") });
        return match post(flood, node, "/api/session", None, body, StatusCode::OK).await {
            Answer::Done(headers, _) => match client::session_cookie(&headers) {
                Some(cookie) => {
                    let local_address = Some(flood.from);
                    *session =
                        Some(Player { node: node.clone(), cookie, source: 0, local_address });
                    flood.tally(|tally| tally.sessions += 1);
                    false
                }
                None => failed("no session cookie POST /api/session".into()),
            },
            Answer::Refused(code) => {
                flood.tally(|tally| *tally.session_refusals.entry(code).or_default() += 1);
                true
            }
            Answer::Failed(kind) => failed(format!("{kind} POST /api/session")),
        };
    };
    let game_id = match game.clone() {
        Some(game_id) => game_id,
        None => {
            let body = client::computer_game(&flood.level);
            let cookie = Some(me.cookie.as_str());
            match post(flood, node, "/api/games", cookie, body, StatusCode::CREATED).await {
                Answer::Done(_, body) => match body["id"].as_str() {
                    Some(id) => {
                        flood.tally(|tally| tally.games_created += 1);
                        game.insert(id.to_owned()).clone()
                    }
                    None => return failed("bad response POST /api/games".into()),
                },
                Answer::Refused(code) => {
                    // A session refused more games, or no longer known, is replaced.
                    if code == "too_many_games" || code == "http 401" {
                        *session = None;
                    }
                    flood.tally(|tally| *tally.refusals.entry(code).or_default() += 1);
                    return true;
                }
                Answer::Failed(kind) => return failed(format!("{kind} POST /api/games")),
            }
        }
    };
    let mut socket = match client::open_game(&me, &game_id, flood.timeout).await {
        Ok(socket) => socket,
        Err(failure) => return failed(failure.0),
    };
    let style = Style { think_min: Duration::ZERO, think_max: Duration::ZERO, reply_limit: None };
    let mut count = |event| match event {
        Event::Moved => flood.tally(|tally| tally.moves_played += 1),
        Event::Replied(time) => flood.flood_replies.ack(time, AckPhase::Later),
    };
    let ended = play_game(flood, &mut socket, &game_id, style, rng, &mut count).await;
    client::close(socket).await;
    *game = None;
    match ended {
        Ok(Ended::Finished) => {
            flood.tally(|tally| tally.games_finished += 1);
            false
        }
        Ok(Ended::Stopped) => false,
        Err(failure) => failed(failure.0),
    }
}

/// How the server answered one of the flood's requests.
#[derive(Debug)]
enum Answer {
    /// The status expected, with the headers and the JSON body.
    Done(HeaderMap, Value),
    /// Another status: the error code of the body, or `http <status>` without one.
    Refused(String),
    /// No answer: `timeout`, `connect error` or `request error`.
    Failed(&'static str),
}

/// POSTs `body` from the flood's address, as a page of `node` would.
async fn post(
    flood: &Flood,
    node: &Node,
    path: &str,
    cookie: Option<&str>,
    body: Value,
    expect: StatusCode,
) -> Answer {
    let mut request = flood
        .flood_http
        .post(format!("{}{path}", node.base))
        .header(ORIGIN, node.base.as_str())
        .json(&body);
    if let Some(cookie) = cookie {
        request = request.header(COOKIE, cookie);
    }
    let response = match request.send().await {
        Ok(response) => response,
        Err(error) if error.is_timeout() => return Answer::Failed("timeout"),
        Err(error) if error.is_connect() => return Answer::Failed("connect error"),
        Err(_) => return Answer::Failed("request error"),
    };
    let status = response.status();
    let headers = response.headers().clone();
    let body = match timeout(flood.timeout, response.bytes()).await {
        Ok(Ok(body)) => body,
        _ => return Answer::Failed("timeout"),
    };
    if status != expect {
        let code = client::error_code(&body);
        return Answer::Refused(code.unwrap_or_else(|| format!("http {}", status.as_u16())));
    }
    Answer::Done(headers, serde_json::from_slice(&body).unwrap_or(Value::Null))
}

/// Plays one computer game on `socket` in `style`: whenever it is the player's turn, a random
/// legal square after a think time. Each move and each reply time goes to `count`. Returns when
/// the game ends, or when the run is over and no reply is awaited.
async fn play_game(
    flood: &Flood,
    socket: &mut Socket,
    game_id: &str,
    style: Style,
    rng: &mut Rng,
    count: &mut impl FnMut(Event),
) -> Result<Ended, Failure> {
    let far = Instant::now() + Duration::from_secs(365 * 24 * 3600);
    // The server pings every 15 s and the computer replies within a second or so: longer
    // silence means something is stuck.
    let silence = (flood.think_max * 2 + flood.timeout).max(Duration::from_secs(30));
    let mut seat = String::new();
    let mut legal: Vec<String> = Vec::new();
    let mut move_at: Option<Instant> = None;
    let mut reply = Reply::default();
    let mut version: Option<i64> = None;
    let mut pace = Pace::default();
    let mut last_heard = Instant::now();
    loop {
        let stopping = Instant::now() >= flood.deadline;
        if stopping && !reply.waiting() {
            return Ok(Ended::Stopped);
        }
        let late = style.reply_limit.and_then(|limit| reply.due(limit));
        tokio::select! {
            biased;
            frame = socket.next() => {
                last_heard = Instant::now();
                let Some(message) = play::read_frame(frame)? else { continue };
                let kind = message["type"].as_str().unwrap_or("");
                match play::order(&message, version) {
                    Order::Duplicate => continue,
                    Order::Gap { since } => {
                        let join = json!({"type": "join", "game_id": game_id, "since": since});
                        pace.wait_turn().await;
                        client::send(socket, &join, flood.timeout).await?;
                        continue;
                    }
                    Order::Next => {}
                }
                if let Some(theirs) = message["version"].as_i64() {
                    version = Some(theirs);
                }
                match kind {
                    "snapshot" => {
                        seat = message["you"].as_str().unwrap_or("").to_owned();
                        if seat != "black" && seat != "white" {
                            return Err(Failure::new(format!("unexpected seat {seat:?}")));
                        }
                    }
                    "error" => {
                        let code = message["code"].as_str().unwrap_or("");
                        return Err(Failure::new(format!("server error {code}")));
                    }
                    _ => {}
                }
                if matches!(kind, "snapshot" | "moved" | "undone") {
                    legal = play::legal_squares(&message);
                }
                let Some(turn) = turn_of(&message, &seat) else { continue };
                if let Some(time) = reply.heard(turn, Instant::now()) {
                    count(Event::Replied(time));
                }
                match turn {
                    Turn::Mine if move_at.is_none() => {
                        let think = rng.between(style.think_min, style.think_max);
                        move_at = Some(Instant::now() + think);
                    }
                    Turn::Mine => {}
                    Turn::Theirs => move_at = None,
                    // A game ending on the board sends its last `moved`, then `ended`.
                    Turn::Over if kind == "moved" => move_at = None,
                    Turn::Over => return Ok(Ended::Finished),
                }
            }
            _ = sleep_until(move_at.unwrap_or(far)), if move_at.is_some() && !stopping => {
                move_at = None;
                if legal.is_empty() {
                    continue;
                }
                let square = legal[rng.below(legal.len())].clone();
                pace.wait_turn().await;
                let sent = Instant::now();
                client::send(socket, &json!({"type": "move", "square": square}), flood.timeout)
                    .await?;
                reply.sent(sent);
                count(Event::Moved);
            }
            _ = sleep_until(flood.deadline), if !stopping => {}
            _ = sleep_until(late.unwrap_or(far)), if late.is_some() => {
                return Err(Failure::new("timeout computer reply"));
            }
            _ = sleep_until(last_heard + silence) => {
                return Err(Failure::new("timeout server silent"));
            }
        }
    }
}

fn reply_json(p: Percentiles) -> Value {
    json!({
        "count": p.count,
        "p50_ms": round(p.p50, 2),
        "p90_ms": round(p.p90, 2),
        "p99_ms": round(p.p99, 2),
        "max_ms": round(p.max, 2),
    })
}

/// The report of a run, as JSON.
fn build(
    args: &Args,
    victims: &Stats,
    flood_replies: &Stats,
    flood: &FloodTally,
    samples: &[Sample],
    start: Instant,
) -> Value {
    let since = |stats: &Stats, at: Instant| at.into_std().saturating_duration_since(stats.start);
    let window = |stats: &Stats, a: &Sample, b: &Sample| {
        stats.latencies(since(stats, a.at), since(stats, b.at))
    };
    let (first, last) = (&samples[0], &samples[samples.len() - 1]);
    let (steady_from, steady_to) = (start + args.ramp, start + args.ramp + args.duration);
    let all = victims.latencies(Duration::ZERO, Duration::MAX);
    let replies = all.len();
    let flood_all = flood_replies.latencies(Duration::ZERO, Duration::MAX);
    // Each reply, to a victim or to the flood, is one search of the computer (or a pass).
    let searches = replies + flood_all.len();
    let mut reply_time = json!({ "all": reply_json(Percentiles::of(all)) });
    let mut flood_reply_time = json!({ "all": reply_json(Percentiles::of(flood_all)) });
    let mut cpu = json!({ "whole_run": report::usage(first, last, searches) });
    let steady_a = samples.iter().find(|s| s.at >= steady_from);
    let steady_b = samples.iter().rev().find(|s| s.at <= steady_to);
    if let (Some(a), Some(b)) = (steady_a, steady_b)
        && b.at > a.at
    {
        let steady = window(victims, a, b);
        let flood_steady = window(flood_replies, a, b);
        let searches = steady.len() + flood_steady.len();
        reply_time["steady"] = reply_json(Percentiles::of(steady));
        flood_reply_time["steady"] = reply_json(Percentiles::of(flood_steady));
        cpu["steady"] = report::usage(a, b, searches);
    }
    let mut flood = flood.json(args.attack_from);
    flood["reply_time"] = flood_reply_time;
    let passed = victims.error_total() == 0 && replies > 0;
    json!({
        "mode": "computer-flood",
        "nodes": args.urls,
        "level": args.level,
        "ramp_seconds": args.ramp.as_secs_f64(),
        "duration_seconds": args.duration.as_secs_f64(),
        "victims": {
            "games": args.games,
            // Loopback source addresses of the victims; 0: the system's choice (127.0.0.1).
            "clients": args.clients,
            "think_ms": [args.think_min.as_millis() as u64, args.think_max.as_millis() as u64],
            "games_started": Stats::get(&victims.games_started),
            "games_finished": Stats::get(&victims.games_finished),
            "moves_sent": Stats::get(&victims.moves_sent),
            "setups_refused_busy": Stats::get(&victims.setups_refused_busy),
            "reply_time": reply_time,
            "errors": victims.errors(),
            "error_total": victims.error_total(),
        },
        "flood": flood,
        "server_pids": args.server_pids,
        "cpu": cpu,
        "passed": passed,
    })
}

/// The report as plain text.
pub fn text(report: &Value) -> String {
    let mut out = String::new();
    let victims = &report["victims"];
    let clients = match victims["clients"].as_u64() {
        Some(clients) if clients > 0 => format!(" from {clients} addresses"),
        _ => String::new(),
    };
    let nodes = report["nodes"]
        .as_array()
        .map(|n| n.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(" "))
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "{} victims against the computer (level {}) on {nodes}{clients} for {} s after a {} s \
         ramp, think {}..{} ms",
        number(&victims["games"]),
        report["level"].as_str().unwrap_or("?"),
        number(&report["duration_seconds"]),
        number(&report["ramp_seconds"]),
        number(&victims["think_ms"][0]),
        number(&victims["think_ms"][1]),
    );
    let _ = writeln!(
        out,
        "victims: {} games started, {} finished, {} moves sent, {} new games refused as busy \
         (503, Retry-After honoured)",
        number(&victims["games_started"]),
        number(&victims["games_finished"]),
        number(&victims["moves_sent"]),
        number(&victims["setups_refused_busy"]),
    );
    write_replies(&mut out, "victims'", &victims["reply_time"]);
    write_flood(&mut out, &report["flood"]);
    let pids = report["server_pids"].as_array().cloned().unwrap_or_default();
    report::write_usage(&mut out, "CPU, whole run", &report["cpu"]["whole_run"], &pids);
    if !report["cpu"]["steady"].is_null() {
        report::write_usage(&mut out, "CPU at full load", &report["cpu"]["steady"], &pids);
    }
    let errors = victims["errors"].as_object().cloned().unwrap_or_default();
    if errors.is_empty() {
        let _ = writeln!(out, "victims' errors: none");
    } else {
        let _ = writeln!(out, "victims' errors: {}", number(&victims["error_total"]));
        for (kind, count) in errors {
            let _ = writeln!(out, "  {kind}: {count}");
        }
    }
    let _ = writeln!(out, "{}", if report["passed"] == true { "PASSED" } else { "FAILED" });
    out
}

/// `{whose} reply time, whole run (…)` and the same at full load, when there is one.
fn write_replies(out: &mut String, whose: &str, reply_time: &Value) {
    for (key, title) in [("all", "whole run"), ("steady", "at full load")] {
        let reply = &reply_time[key];
        if !reply.is_null() {
            let _ = writeln!(
                out,
                "{whose} reply time, {title} ({} replies): p50 {} ms, p90 {} ms, p99 {} ms, max \
                 {} ms",
                number(&reply["count"]),
                number(&reply["p50_ms"]),
                number(&reply["p90_ms"]),
                number(&reply["p99_ms"]),
                number(&reply["max_ms"]),
            );
        }
    }
}

/// The flood section: what its tasks did and how the server answered.
fn write_flood(out: &mut String, flood: &Value) {
    if flood["tasks"].as_u64().unwrap_or(0) == 0 {
        let _ = writeln!(out, "flood: none");
        return;
    }
    let _ = writeln!(
        out,
        "flood from {} ({} tasks): {} sessions, {} games created, {} finished, {} moves played; \
         refusals are not errors",
        flood["from"].as_str().unwrap_or("?"),
        number(&flood["tasks"]),
        number(&flood["sessions"]),
        number(&flood["games_created"]),
        number(&flood["games_finished"]),
        number(&flood["moves_played"]),
    );
    for (key, title) in [
        ("refusals", "games refused"),
        ("session_refusals", "sessions refused"),
        ("failures", "failures"),
    ] {
        let list = report::counts_list(&flood[key]);
        if !list.is_empty() {
            let _ = writeln!(out, "  {title}: {list}");
        }
    }
    write_replies(out, "  the flood's", &flood["reply_time"]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_turn_is_read_from_the_side_to_move_and_the_status() {
        let moved = |to_move: Value| json!({"type": "moved", "version": 3, "to_move": to_move});
        assert_eq!(turn_of(&moved(json!("black")), "black"), Some(Turn::Mine));
        assert_eq!(turn_of(&moved(json!("white")), "black"), Some(Turn::Theirs));
        assert_eq!(turn_of(&moved(Value::Null), "black"), Some(Turn::Over));
        let snapshot = json!({"type": "snapshot", "status": "live", "to_move": "black"});
        assert_eq!(turn_of(&snapshot, "black"), Some(Turn::Mine));
        let over = json!({"type": "snapshot", "status": "finished", "to_move": null});
        assert_eq!(turn_of(&over, "black"), Some(Turn::Over));
        assert_eq!(
            turn_of(&json!({"type": "ended", "status": "finished"}), "white"),
            Some(Turn::Over)
        );
        assert_eq!(turn_of(&json!({"type": "presence", "black": true}), "black"), None);
        assert_eq!(turn_of(&json!({"type": "pong"}), "black"), None);
    }

    #[test]
    fn a_reply_runs_from_the_move_to_the_turn_coming_back() {
        let start = Instant::now();
        let mut reply = Reply::default();
        assert!(!reply.waiting());
        assert_eq!(reply.heard(Turn::Mine, start), None, "no move, no reply");
        reply.sent(start);
        assert!(reply.waiting());
        assert_eq!(reply.due(Duration::from_secs(10)), Some(start + Duration::from_secs(10)));
        // The move's own acknowledgement: the computer is to move.
        assert_eq!(reply.heard(Turn::Theirs, start + Duration::from_millis(2)), None);
        let back = start + Duration::from_millis(450);
        assert_eq!(reply.heard(Turn::Mine, back), Some(Duration::from_millis(450)));
        assert!(!reply.waiting());
        assert_eq!(reply.heard(Turn::Mine, back), None, "counted once");
        reply.sent(back);
        let end = back + Duration::from_millis(700);
        assert_eq!(reply.heard(Turn::Over, end), Some(Duration::from_millis(700)));
        assert_eq!(reply.due(Duration::from_secs(10)), None);
    }

    #[test]
    fn the_report_gives_reply_times_and_the_floods_counts() {
        let args =
            match crate::args::parse(["--computer-flood", "3", "--games", "2"].map(String::from)) {
                Ok(crate::args::Parsed::Run(args)) => *args,
                _ => panic!("the arguments parse"),
            };
        let victims = Stats::new();
        for ms in [400, 500, 600] {
            victims.ack(Duration::from_millis(ms), AckPhase::Later);
        }
        let mut tally = FloodTally { tasks: 3, moves_played: 40, ..FloodTally::default() };
        *tally.refusals.entry("too_many_games".into()).or_default() += 2;
        *tally.refusals.entry("rate_limited".into()).or_default() += 1;
        let start = Instant::now();
        let report = build(&args, &victims, &Stats::new(), &tally, &[Sample::take(&[])], start);
        assert_eq!(report["mode"], "computer-flood");
        let replies = &report["victims"]["reply_time"]["all"];
        assert_eq!((replies["count"].as_u64(), replies["p50_ms"].as_f64()), (Some(3), Some(500.0)));
        assert_eq!(replies["max_ms"].as_f64(), Some(600.0));
        assert_eq!(report["flood"]["refusals"]["too_many_games"], 2);
        assert_eq!(report["flood"]["refusals_total"], 3);
        assert_eq!(report["passed"], true);
        let text = text(&report);
        let line = "victims' reply time, whole run (3 replies): p50 500.0 ms, p90 600.0 ms";
        assert!(text.contains(line), "{text}");
        assert!(text.contains("games refused: rate_limited 1, too_many_games 2"), "{text}");
        victims.error("timeout computer reply");
        let failed = build(&args, &victims, &Stats::new(), &tally, &[Sample::take(&[])], start);
        assert_eq!(failed["passed"], false);
    }
}
