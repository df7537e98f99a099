//! The bots: two guests per friend room, playing legal moves at a human pace, rematching after
//! each game until the run's end.

use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio::sync::watch;
use tokio::time::{Instant, sleep_until};
use tokio_tungstenite::tungstenite::Message;

use crate::client::{self, Failure, Http, Node, Player, Socket};
use crate::stats::{AckPhase, Stats};

/// What every bot of a run shares.
#[derive(Debug)]
pub struct Run {
    pub http: Http,
    pub nodes: Vec<Node>,
    pub stats: Arc<Stats>,
    pub think_min: Duration,
    pub think_max: Duration,
    pub timeout: Duration,
    /// No move or rematch is started after this.
    pub deadline: Instant,
    /// The most recent game set up or rematched: the attack's idle sockets aim at a live game.
    pub latest_game: watch::Sender<Option<String>>,
    /// After each game the room is left and a new one set up, instead of a rematch: a steady
    /// stream of new games (room set-ups and joins) alongside the moves.
    pub churn: bool,
    /// The rooms' time control, if not the server's default.
    pub control: Option<String>,
}

/// A small xorshift generator: think times and moves need variety, not quality.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn between(&mut self, low: Duration, high: Duration) -> Duration {
        let span = high.saturating_sub(low).as_micros() as u64;
        low + Duration::from_micros(if span == 0 { 0 } else { self.next() % (span + 1) })
    }
}

/// The two guests of a room and their first game.
#[derive(Debug)]
pub struct Table {
    pub host: Player,
    pub guest: Player,
    pub game_id: String,
}

/// A room from the host and the guest joining it, with the two guest sessions in `seated`,
/// made first when there are none: people keep their sessions from one game to the next and
/// when a busy server asks them to try again. With several nodes the guest uses the node after
/// the host's, so the two sides of a game meet across nodes. Player 2 × `index` (the host) and
/// the next (the guest) take the source addresses round-robin.
pub async fn set_up(
    run: &Run,
    index: usize,
    seated: &mut Option<(Player, Player)>,
) -> Result<Table, Failure> {
    let (host, guest) = match seated {
        Some(players) => players.clone(),
        None => {
            let count = run.nodes.len();
            let host_node = &run.nodes[index % count];
            let guest_node = &run.nodes[(index + 1) % count];
            let host = run.http.guest(host_node, &format!("Host {index}"), 2 * index).await?;
            let guest =
                run.http.guest(guest_node, &format!("Guest {index}"), 2 * index + 1).await?;
            seated.insert((host, guest)).clone()
        }
    };
    let code = run.http.create_room(&host, run.control.as_deref()).await?;
    let game_id = run.http.join_room(&guest, &code).await?;
    run.latest_game.send_replace(Some(game_id.clone()));
    Ok(Table { host, guest, game_id })
}

/// After a failure, waits 1, 2, 4 … 32 s (with jitter) before trying again, as people would:
/// retrying at once would multiply the load on a server that is already behind.
/// The run's end cuts the wait short.
pub async fn back_off(failures: u32, rng: &mut Rng, deadline: Instant) {
    let base = Duration::from_secs(1 << failures.min(5));
    sleep_until((Instant::now() + base + rng.between(Duration::ZERO, base / 2)).min(deadline))
        .await;
}

/// One room for the whole run: set up at `start_at`, then both players play and rematch until
/// the deadline. After a failure (counted) the room is given up and a new one is set up.
pub async fn play_room(run: &Run, index: usize, start_at: Instant) {
    sleep_until(start_at).await;
    let mut rng = Rng::new(index as u64 + 1);
    let mut failures = 0u32;
    let mut seated = None;
    while Instant::now() < run.deadline {
        // A room still being set up when the run ends is given up without an error.
        let table = tokio::select! {
            outcome = set_up(run, index, &mut seated) => outcome,
            _ = sleep_until(run.deadline) => break,
        };
        let table = match table {
            Ok(table) => table,
            // A saturated server refusing a new game: wait as asked, then try again.
            Err(Failure(_, Some(retry_after))) => {
                Stats::count(&run.stats.setups_refused_busy);
                sleep_until((Instant::now() + retry_after).min(run.deadline)).await;
                continue;
            }
            Err(failure) => {
                run.stats.error(failure.0);
                // Start again from new sessions.
                seated = None;
                back_off(failures, &mut rng, run.deadline).await;
                failures += 1;
                continue;
            }
        };
        let (abort, _) = watch::channel(false);
        let mut guest_rng = Rng::new(rng.next());
        let seat = |player, counts_games, rng| {
            let abort = &abort;
            let game_id = table.game_id.clone();
            async move {
                let outcome = play_player(run, player, game_id, counts_games, rng, abort).await;
                if let Err(failure) = &outcome {
                    run.stats.error(failure.0.clone());
                    abort.send_replace(true);
                }
                outcome.is_ok()
            }
        };
        let (host_done, guest_done) = tokio::join!(
            seat(&table.host, true, &mut rng),
            seat(&table.guest, false, &mut guest_rng)
        );
        if host_done && guest_done {
            if run.churn {
                failures = 0;
                continue;
            }
            break;
        }
        back_off(failures, &mut rng, run.deadline).await;
        failures += 1;
    }
}

enum Next {
    Rematch(String),
    Stop,
}

/// The server closes a socket that sends more than 20 messages in one second (docs/protocol.md);
/// a player keeps below that, with a margin.
const MESSAGES_PER_SECOND: usize = 18;

/// A player's recent messages on one socket, to keep to [`MESSAGES_PER_SECOND`].
#[derive(Debug, Default)]
pub struct Pace {
    sent: std::collections::VecDeque<Instant>,
}

impl Pace {
    /// When the next message may go: `now`, or a second after the oldest of the last few.
    fn next_at(&self, now: Instant) -> Instant {
        match self.sent.front() {
            Some(&oldest) if self.sent.len() >= MESSAGES_PER_SECOND => {
                (oldest + Duration::from_secs(1)).max(now)
            }
            _ => now,
        }
    }

    fn record(&mut self, at: Instant) {
        self.sent.push_back(at);
        if self.sent.len() > MESSAGES_PER_SECOND {
            self.sent.pop_front();
        }
    }

    /// Waits until a message may go, and counts it as sent.
    pub async fn wait_turn(&mut self) {
        sleep_until(self.next_at(Instant::now())).await;
        self.record(Instant::now());
    }
}

/// One player: plays the game, then each rematch, on a new socket each time.
async fn play_player(
    run: &Run,
    me: &Player,
    mut game_id: String,
    counts_games: bool,
    rng: &mut Rng,
    abort: &watch::Sender<bool>,
) -> Result<(), Failure> {
    let mut aborted = abort.subscribe();
    loop {
        let mut socket = client::open_game(me, &game_id, run.timeout).await?;
        let open = run.stats.socket_opened();
        let next = play_game(run, &mut socket, &game_id, counts_games, rng, &mut aborted).await;
        client::close(socket).await;
        drop(open);
        match next? {
            Next::Rematch(id) => {
                if counts_games {
                    run.latest_game.send_replace(Some(id.clone()));
                }
                game_id = id;
            }
            Next::Stop => return Ok(()),
        }
    }
}

/// A frame from the server as JSON; `None` for a frame that carries no message (a ping, a
/// binary frame).
///
/// # Errors
/// The socket closed or broke, or the text is not JSON.
pub fn read_frame(
    frame: Option<Result<Message, tokio_tungstenite::tungstenite::Error>>,
) -> Result<Option<Value>, Failure> {
    match frame {
        None | Some(Ok(Message::Close(_))) => Err(Failure::new("socket closed by server")),
        Some(Err(_)) => Err(Failure::new("socket error")),
        Some(Ok(Message::Text(frame))) => serde_json::from_str::<Value>(&frame)
            .map(Some)
            .map_err(|_| Failure::new("bad server message (not JSON)")),
        Some(Ok(_)) => Ok(None),
    }
}

/// Where a message stands against the last version a player saw (see the protocol's
/// versions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// The next one, a snapshot, or a message without a version: read it.
    Next,
    /// Seen already: ignore it.
    Duplicate,
    /// Some were missed: join again with `since` and let the server send them.
    Gap { since: i64 },
}

/// Where `message` stands after version `last` (`None`: nothing seen yet).
pub fn order(message: &Value, last: Option<i64>) -> Order {
    match (last, message["version"].as_i64()) {
        (Some(mine), Some(theirs)) if text(message, "type") != "snapshot" => {
            if theirs <= mine {
                Order::Duplicate
            } else if theirs > mine + 1 {
                Order::Gap { since: mine }
            } else {
                Order::Next
            }
        }
        _ => Order::Next,
    }
}

fn text<'a>(value: &'a Value, key: &str) -> &'a str {
    value[key].as_str().unwrap_or("")
}

/// The legal squares of a `snapshot` or `moved`.
pub fn legal_squares(message: &Value) -> Vec<String> {
    message["legal"]
        .as_array()
        .map(|legal| legal.iter().filter_map(|m| m["square"].as_str()).map(str::to_owned).collect())
        .unwrap_or_default()
}

/// Plays one game on `socket` until it ends and a rematch starts, or the run is over.
async fn play_game(
    run: &Run,
    socket: &mut Socket,
    game_id: &str,
    counts_games: bool,
    rng: &mut Rng,
    aborted: &mut watch::Receiver<bool>,
) -> Result<Next, Failure> {
    let stats = &run.stats;
    let far = Instant::now() + Duration::from_secs(365 * 24 * 3600);
    // The server pings every 15 s and the opponent moves within a think time: longer silence
    // means something is stuck.
    let silence = (run.think_max * 2 + run.timeout).max(Duration::from_secs(30));
    let mut seat = String::new();
    let mut legal: Vec<String> = Vec::new();
    let mut move_at: Option<Instant> = None;
    let mut pending: Option<(String, Instant)> = None;
    let mut rematch_at: Option<Instant> = None;
    let mut started = false;
    let mut version: Option<i64> = None;
    // My moves acknowledged on this socket so far.
    let mut acked: u32 = 0;
    let mut pace = Pace::default();
    let mut last_heard = Instant::now();
    loop {
        let stopping = Instant::now() >= run.deadline;
        if stopping && pending.is_none() {
            return Ok(Next::Stop);
        }
        let ack_deadline = pending.as_ref().map_or(far, |(_, sent)| *sent + run.timeout);
        tokio::select! {
            biased;
            _ = aborted.changed() => return Ok(Next::Stop),
            frame = socket.next() => {
                last_heard = Instant::now();
                let Some(message) = read_frame(frame)? else { continue };
                match order(&message, version) {
                    Order::Duplicate => {
                        Stats::count(&stats.duplicates_ignored);
                        continue;
                    }
                    Order::Gap { since } => {
                        Stats::count(&stats.resyncs);
                        let join = json!({"type": "join", "game_id": game_id, "since": since});
                        pace.wait_turn().await;
                        client::send(socket, &join, run.timeout).await?;
                        continue;
                    }
                    Order::Next => {}
                }
                if let Some(theirs) = message["version"].as_i64() {
                    version = Some(theirs);
                }
                match text(&message, "type") {
                    "snapshot" => {
                        seat = text(&message, "you").to_owned();
                        if seat != "black" && seat != "white" {
                            return Err(Failure::new(format!("unexpected seat {seat:?}")));
                        }
                        if counts_games && !started {
                            started = true;
                            Stats::count(&stats.games_started);
                        }
                        legal = legal_squares(&message);
                        if text(&message, "status") != "live" {
                            rematch_at = Some(Instant::now() + rng.between(run.think_min, run.think_max));
                        } else if text(&message, "to_move") == seat && pending.is_none() && !legal.is_empty() {
                            move_at = Some(Instant::now() + rng.between(run.think_min, run.think_max));
                        }
                    }
                    "moved" => {
                        if let Some((square, sent)) = &pending {
                            let ply = &message["plies"][0];
                            if text(ply, "color") == seat && text(ply, "move").eq_ignore_ascii_case(square) {
                                stats.ack(sent.elapsed(), AckPhase::of_move(acked));
                                acked += 1;
                                pending = None;
                            }
                        }
                        legal = legal_squares(&message);
                        if text(&message, "to_move") == seat && pending.is_none() && !legal.is_empty() {
                            move_at = Some(Instant::now() + rng.between(run.think_min, run.think_max));
                        } else {
                            move_at = None;
                        }
                    }
                    "ended" => {
                        move_at = None;
                        if counts_games {
                            Stats::count(&stats.games_finished);
                        }
                        let reason = text(&message["result"], "reason");
                        if reason == "timeout" || reason == "aborted" {
                            stats.error(format!("game ended by {reason}"));
                        }
                        if run.churn {
                            return Ok(Next::Stop);
                        }
                        rematch_at = Some(Instant::now() + rng.between(run.think_min, run.think_max));
                    }
                    "rematch_started" => {
                        let id = text(&message, "game_id");
                        if id.is_empty() {
                            return Err(Failure::new("bad server message (rematch_started)"));
                        }
                        return Ok(Next::Rematch(id.to_owned()));
                    }
                    "error" => {
                        let code = text(&message, "code");
                        if matches!(code, "rate_limited" | "shutting_down") {
                            return Err(Failure::new(format!("server error {code}")));
                        }
                        stats.error(format!("server error {code}"));
                        pending = None;
                    }
                    "left" => return Err(Failure::new("opponent left")),
                    _ => {}
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
                client::send(socket, &json!({"type": "move", "square": square}), run.timeout).await?;
                Stats::count(&stats.moves_sent);
                pending = Some((square, sent));
            }
            _ = sleep_until(rematch_at.unwrap_or(far)), if rematch_at.is_some() && !stopping => {
                rematch_at = None;
                pace.wait_turn().await;
                client::send(socket, &json!({"type": "rematch"}), run.timeout).await?;
            }
            _ = sleep_until(run.deadline), if !stopping => {}
            _ = sleep_until(ack_deadline), if pending.is_some() => {
                return Err(Failure::new("timeout move ack"));
            }
            _ = sleep_until(last_heard + silence) => {
                return Err(Failure::new("timeout server silent"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn think_times_stay_in_range() {
        let mut rng = Rng::new(7);
        let (low, high) = (Duration::from_millis(200), Duration::from_millis(600));
        for _ in 0..1000 {
            let d = rng.between(low, high);
            assert!(d >= low && d <= high);
            assert!(rng.below(3) < 3);
        }
        assert_eq!(rng.between(low, low), low);
    }

    #[test]
    fn a_player_keeps_below_the_servers_message_rate() {
        let start = Instant::now();
        let mut pace = Pace::default();
        for i in 0..MESSAGES_PER_SECOND {
            assert_eq!(pace.next_at(start), start, "message {i} goes at once");
            pace.record(start + Duration::from_millis(i as u64));
        }
        assert_eq!(pace.next_at(start), start + Duration::from_secs(1));
        let later = start + Duration::from_secs(2);
        assert_eq!(pace.next_at(later), later);
    }

    #[test]
    fn a_message_is_read_next_ignored_as_seen_or_answered_by_joining_since_the_last_seen() {
        let moved = |version: i64| json!({ "type": "moved", "version": version });
        assert_eq!(order(&moved(5), None), Order::Next);
        assert_eq!(order(&moved(5), Some(4)), Order::Next);
        assert_eq!(order(&moved(4), Some(4)), Order::Duplicate);
        assert_eq!(order(&moved(3), Some(4)), Order::Duplicate);
        assert_eq!(order(&moved(7), Some(4)), Order::Gap { since: 4 });
        // A snapshot stands on its own; a message without a version is always read.
        assert_eq!(order(&json!({ "type": "snapshot", "version": 2 }), Some(4)), Order::Next);
        assert_eq!(order(&json!({ "type": "pong" }), Some(4)), Order::Next);
    }

    #[test]
    fn legal_squares_are_read_from_the_message() {
        let message =
            serde_json::json!({"legal": [{"square": "d3", "flips": ["d4"]}, {"square": "c4"}]});
        assert_eq!(legal_squares(&message), ["d3", "c4"]);
        assert!(legal_squares(&serde_json::json!({"legal": null})).is_empty());
    }
}
