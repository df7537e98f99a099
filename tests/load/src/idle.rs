//! `--idle-sockets N`: the servers' memory per open game socket. Sets up N/2 rooms (two guests
//! and a game each), then opens a socket per player, joins and waits; the growth of the servers'
//! resident memory between the two steps, divided by the sockets open, is the cost of a socket.

use std::sync::Arc;
use std::time::Duration;

use futures_util::{StreamExt, stream};
use serde_json::{Value, json};
use tokio::sync::{Semaphore, mpsc, watch};
use tokio::time::{Instant, sleep, timeout};
use tokio_tungstenite::tungstenite::Message;

use crate::client::{self, Failure, Player};
use crate::play::{Run, Table, set_up};
use crate::procfs;
use crate::report::round;

/// How many rooms are set up, and sockets opened, at once.
const AT_ONCE: usize = 32;

fn rss_kb(pids: &[u32]) -> Vec<Option<u64>> {
    pids.iter().map(|pid| procfs::process(&pid.to_string()).map(|s| s.rss_kb)).collect()
}

/// Opens one player's socket, reports when the snapshot has come, then holds it open (answering
/// the server's pings) until told to stop.
async fn hold(
    run: Arc<Run>,
    player: Player,
    game_id: String,
    at_once: Arc<Semaphore>,
    ready: mpsc::UnboundedSender<bool>,
    mut stop: watch::Receiver<bool>,
) {
    let stats = &run.stats;
    let permit = at_once.acquire_owned().await;
    let mut socket = match client::open_game(&player, &game_id, run.timeout).await {
        Ok(socket) => socket,
        Err(failure) => {
            stats.error(failure.0);
            let _ = ready.send(false);
            return;
        }
    };
    let _open = stats.socket_opened();
    let snapshot = async {
        while let Some(frame) = socket.next().await {
            if let Ok(Message::Text(text)) = frame {
                let message: Value = serde_json::from_str(&text)
                    .map_err(|_| Failure::new("bad server message (not JSON)"))?;
                if message["type"] == "snapshot" {
                    return Ok(());
                }
            }
        }
        Err(Failure::new("socket closed by server"))
    };
    let joined = match timeout(run.timeout, snapshot).await {
        Err(_) => Err(Failure::new("timeout snapshot")),
        Ok(outcome) => outcome,
    };
    let _ = ready.send(joined.is_ok());
    drop(ready);
    drop(permit);
    if let Err(failure) = joined {
        stats.error(failure.0);
        return;
    }
    loop {
        tokio::select! {
            _ = stop.changed() => break,
            frame = socket.next() => match frame {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => {
                    stats.error("socket closed by server");
                    return;
                }
                Some(Ok(_)) => {}
            },
        }
    }
    client::close(socket).await;
}

/// The servers' summed memory growth from `from` to `to`, per item.
fn growth_per(to: &[Option<u64>], from: &[Option<u64>], count: usize) -> Option<f64> {
    if count == 0 {
        return None;
    }
    let mut grown = 0i64;
    for (to, from) in to.iter().zip(from) {
        grown += (*to)? as i64 - (*from)? as i64;
    }
    Some(grown as f64 / count as f64)
}

/// Runs the measurement and returns its part of the report.
pub async fn measure(run: Arc<Run>, sockets: usize, hold_for: Duration, pids: &[u32]) -> Value {
    let stats = run.stats.clone();
    let games = sockets.div_ceil(2);
    let before = rss_kb(pids);
    eprintln!("idle: setting up {games} rooms");
    let set_up_started = Instant::now();
    let tables: Vec<Table> = stream::iter(0..games)
        .map(|index| {
            let run = &run;
            async move { set_up(run, index, &mut None).await }
        })
        .buffer_unordered(AT_ONCE)
        .filter_map(|outcome| {
            let stats = &stats;
            async move { outcome.map_err(|failure| stats.error(failure.0)).ok() }
        })
        .collect()
        .await;
    let set_up_seconds = set_up_started.elapsed().as_secs_f64();
    let rooms_set_up = tables.len();
    sleep(Duration::from_secs(2)).await;
    let after_rooms = rss_kb(pids);

    eprintln!("idle: opening {sockets} sockets");
    let opening_started = Instant::now();
    let (stop, _) = watch::channel(false);
    let (ready_tx, mut ready) = mpsc::unbounded_channel();
    let at_once = Arc::new(Semaphore::new(AT_ONCE));
    let players = tables
        .into_iter()
        .flat_map(|table| [(table.host, table.game_id.clone()), (table.guest, table.game_id)])
        .take(sockets);
    let mut holders = Vec::new();
    for (player, game_id) in players {
        holders.push(tokio::spawn(hold(
            run.clone(),
            player,
            game_id,
            at_once.clone(),
            ready_tx.clone(),
            stop.subscribe(),
        )));
    }
    drop(ready_tx);
    let mut joined = 0usize;
    while let Some(ok) = ready.recv().await {
        joined += usize::from(ok);
    }
    let opening_seconds = opening_started.elapsed().as_secs_f64();
    eprintln!("idle: {joined} sockets joined in {opening_seconds:.1} s; holding");
    sleep(Duration::from_secs(3)).await;
    let after_sockets = rss_kb(pids);
    let open_after_settling = stats.sockets_open();
    sleep(hold_for).await;
    let end = rss_kb(pids);
    let open_at_end = stats.sockets_open();
    stop.send_replace(true);
    for holder in holders {
        let _ = timeout(Duration::from_secs(5), holder).await;
    }

    let servers: Vec<Value> = pids
        .iter()
        .enumerate()
        .map(|(i, pid)| {
            json!({
                "pid": pid,
                "rss_kb_before": before[i],
                "rss_kb_after_rooms": after_rooms[i],
                "rss_kb_after_sockets": after_sockets[i],
                "rss_kb_end": end[i],
            })
        })
        .collect();
    json!({
        "sockets_requested": sockets,
        "rooms": games,
        "set_up_seconds": round(set_up_seconds, 2),
        "sockets_joined": joined,
        "opening_seconds": round(opening_seconds, 2),
        "sockets_open_after_settling": open_after_settling,
        "sockets_open_at_end": open_at_end,
        "hold_seconds": hold_for.as_secs_f64(),
        "servers": servers,
        "rooms_set_up": rooms_set_up,
        "kb_per_room": growth_per(&after_rooms, &before, rooms_set_up),
        "kb_per_socket": growth_per(&after_sockets, &after_rooms, open_after_settling as usize),
    })
}
