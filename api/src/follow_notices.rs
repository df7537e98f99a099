//! Followers hear when someone they follow starts a game with another person: each game
//! between two people created on this node is told to the followers of both players, at most
//! once per follower and followed player every [`QUIET`], never to the opponent, and never
//! across a block.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::sync::broadcast;

use crate::domain::{NotificationKind, PlayerId, Timestamp};
use crate::live::Human;
use crate::notifier::Notifier;
use crate::service::{GameHub, StartedGame};
use crate::storage::Store;

/// How long a follower hears of no other game of the same player.
pub const QUIET: Duration = Duration::from_secs(30 * 60);

/// Starts the task that tells followers of the games started on this node.
pub fn spawn(hub: &GameHub, store: Store, notifier: Notifier) {
    let mut started = hub.started_games();
    actix_web::rt::spawn(async move {
        let mut told: HashMap<(PlayerId, PlayerId), Instant> = HashMap::new();
        loop {
            match started.recv().await {
                Ok(game) => {
                    told.retain(|_, at| at.elapsed() < QUIET);
                    for (player, opponent) in
                        [(&game.black, &game.white), (&game.white, &game.black)]
                    {
                        tell_followers(&store, &notifier, &mut told, &game, player, opponent).await;
                    }
                }
                Err(broadcast::error::RecvError::Lagged(missed)) => {
                    tracing::warn!(missed, "followers were not told of some games");
                }
                Err(broadcast::error::RecvError::Closed) => break,
            }
        }
    });
}

async fn tell_followers(
    store: &Store,
    notifier: &Notifier,
    told: &mut HashMap<(PlayerId, PlayerId), Instant>,
    game: &StartedGame,
    player: &Human,
    opponent: &Human,
) {
    let followers = match store.followers_of(&player.id).await {
        Ok(followers) => followers,
        Err(error) => return tracing::warn!(%error, "followers were not told of a game"),
    };
    let now = Timestamp::now();
    for follower in followers {
        if follower == opponent.id || told.contains_key(&(follower.clone(), player.id.clone())) {
            continue;
        }
        if store.blocked_between(&follower, &player.id).await.unwrap_or(true) {
            continue;
        }
        let data = json!({
            "game_id": game.id,
            "player": player.name,
            "opponent": opponent.name,
            "mode": game.mode,
            "control": game.control,
        });
        let kind = NotificationKind::FollowedStarted;
        if notifier.notify(&follower, kind, data, now).await.is_some() {
            told.insert((follower.clone(), player.id.clone()), Instant::now());
        }
    }
}
