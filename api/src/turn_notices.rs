//! A player whose daily game waits for their move hears of it (`daily_turn`), and again when
//! less than a tenth of the move's time is left (`daily_reminder`), if the move is still not
//! made. Reminders are kept in memory on the node running the game: a restart forgets the
//! ones not yet due.

use std::time::Duration;

use serde_json::json;
use tokio::sync::broadcast;

use crate::domain::{NotificationKind, Timestamp};
use crate::notifier::Notifier;
use crate::service::{DailyTurn, GameHub};
use crate::storage::{DbError, Store};

/// How often reminders falling due are looked for.
const CHECK_EVERY: Duration = Duration::from_secs(1);

/// Starts the task that tells players of their daily games' turns on this node.
pub fn spawn(hub: &GameHub, store: Store, notifier: Notifier) {
    let mut turns = hub.daily_turns();
    let clock = hub.clock().clone();
    actix_web::rt::spawn(async move {
        // The latest turn of each game, until its reminder falls due.
        let mut waiting: Vec<DailyTurn> = Vec::new();
        let mut ticks = tokio::time::interval(CHECK_EVERY);
        loop {
            tokio::select! {
                turn = turns.recv() => match turn {
                    Ok(turn) => {
                        tell(&store, &notifier, &turn, NotificationKind::DailyTurn, clock.now()).await;
                        waiting.retain(|earlier| earlier.game != turn.game);
                        waiting.push(turn);
                    }
                    Err(broadcast::error::RecvError::Lagged(missed)) => {
                        tracing::warn!(missed, "players were not told of some daily turns");
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                },
                _ = ticks.tick() => {
                    let now = clock.now();
                    let (due, later): (Vec<_>, Vec<_>) =
                        waiting.into_iter().partition(|turn| reminder_at(turn) <= now);
                    waiting = later;
                    for turn in due {
                        if still_waits(&store, &turn).await {
                            tell(&store, &notifier, &turn, NotificationKind::DailyReminder, now).await;
                        }
                    }
                }
            }
        }
    });
}

/// When a tenth of the move's time is left.
fn reminder_at(turn: &DailyTurn) -> Timestamp {
    Timestamp(turn.deadline.0 - turn.move_ms / 10)
}

/// Whether the game is still on and still waits for the same move.
async fn still_waits(store: &Store, turn: &DailyTurn) -> bool {
    match store.load_game(&turn.game).await {
        Ok(record) => {
            record.game.status == crate::domain::GameStatus::Live
                && record.moves.len() == turn.plies
        }
        Err(error) => {
            tracing::warn!(%error, "a daily game's reminder could not be checked");
            false
        }
    }
}

/// Notifies the player to move of `turn`, if they have an account (a guest has no
/// notifications).
async fn tell(
    store: &Store,
    notifier: &Notifier,
    turn: &DailyTurn,
    kind: NotificationKind,
    now: Timestamp,
) {
    match store.account(&turn.to_move.id).await {
        Ok(_) => {}
        Err(DbError::NotFound) => return,
        Err(error) => return tracing::warn!(%error, "a daily turn was not notified"),
    }
    let data = json!({
        "game_id": turn.game,
        "opponent": turn.opponent,
        "deadline": turn.deadline.0,
    });
    notifier.notify(&turn.to_move.id, kind, data, now).await;
}
