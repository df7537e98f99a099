//! Games on other nodes: commands, subscriptions and presence for a game whose owner is
//! elsewhere travel as requests through the cluster; and this node answers such requests for
//! the games it runs.

use std::time::Duration;

use tokio::sync::mpsc;

use crate::cluster::wire::{NodeMsg, PlayerCommand, Reply};
use crate::cluster::{Cluster, ClusterError};
use crate::domain::{GameId, PlayerId};
use crate::live::Command;
use crate::ws::protocol::ServerMsg;

use super::hub::{CatchUp, GameHub, LocalGame, Route, ServiceError, Subscription};
use super::presence_ledger::PresenceLedger;

/// Applies `command` to game `id` wherever it runs. If the owner has gone, the game is found
/// again (and taken over when nobody runs it) and the command tried once more.
pub(super) async fn command(
    hub: &GameHub,
    id: &GameId,
    command: Command,
) -> Result<(), ServiceError> {
    let wire = PlayerCommand::from_command(&command).ok_or(ServiceError::Unavailable)?;
    for _ in 0..2 {
        let (cluster, owner) = match hub.route(id).await? {
            Route::Local(handle) => return handle.command(command).await,
            Route::Remote { cluster, owner } => (cluster, owner),
        };
        let game = id.to_string();
        let command = wire.clone();
        let request = |id, from| NodeMsg::Command { id, from, game, command };
        match cluster.request(&owner, request).await {
            Ok(Reply::Done) => return Ok(()),
            Ok(Reply::Refused { msg }) => return Err(ServiceError::Refused(Box::new(msg))),
            Ok(Reply::NotHere | Reply::Subscribed { .. }) | Err(ClusterError::Timeout) => {}
            Err(ClusterError::Redis(error)) => {
                tracing::warn!(%error, "cannot reach the cluster");
                return Err(ServiceError::Unavailable);
            }
        }
    }
    Err(ServiceError::Unavailable)
}

/// Subscribes `player` to game `id` wherever it runs: on another node, the game's messages
/// are followed here first, then the owner sends what the player missed.
pub(super) async fn subscribe(
    hub: &GameHub,
    id: &GameId,
    player: PlayerId,
    since: Option<u64>,
) -> Result<Subscription, ServiceError> {
    let (cluster, owner) = match hub.route(id).await? {
        Route::Local(handle) => return handle.subscribe(player, since).await,
        Route::Remote { cluster, owner } => (cluster, owner),
    };
    let events = cluster.follow(id, &owner).await.map_err(|_| ServiceError::Unavailable)?;
    let game = id.to_string();
    let player = player.to_string();
    let request = |id, from| NodeMsg::Subscribe { id, from, game, player, since };
    match cluster.request(&owner, request).await {
        Ok(Reply::Subscribed { seat, catch_up, presence }) => {
            Ok(Subscription { seat, catch_up: CatchUp::Messages(catch_up), presence, events })
        }
        _ => Err(ServiceError::Unavailable),
    }
}

/// Counts a connection of `player` opening or closing on game `id`, wherever it runs.
pub(super) async fn presence(hub: &GameHub, id: &GameId, player: PlayerId, connected: bool) {
    match hub.route(id).await {
        Ok(Route::Local(handle)) => handle.presence(player, connected).await,
        Ok(Route::Remote { cluster, owner }) => {
            let msg = NodeMsg::Presence {
                from: cluster.node().to_owned(),
                game: id.to_string(),
                player: player.to_string(),
                connected,
            };
            cluster.tell(&owner, &msg);
        }
        Err(_) => {}
    }
}

/// Answers the requests other nodes send this one, for as long as the process lives.
pub fn spawn_serving(
    hub: GameHub,
    cluster: Cluster,
    mut requests: mpsc::UnboundedReceiver<NodeMsg>,
) {
    tokio::spawn(async move {
        let mut ledger = PresenceLedger::default();
        let mut check = tokio::time::interval(CHECK_NODES_EVERY);
        loop {
            tokio::select! {
                request = requests.recv() => match request {
                    // In order, so a connection's opening is counted before its closing.
                    Some(NodeMsg::Presence { from, game, player, connected }) => {
                        count_presence(&hub, &mut ledger, from, &game, &player, connected).await;
                    }
                    Some(request) => {
                        let (hub, cluster) = (hub.clone(), cluster.clone());
                        tokio::spawn(async move { serve(&hub, &cluster, request).await });
                    }
                    None => break,
                },
                _ = check.tick() => count_out_dead_nodes(&hub, &cluster, &mut ledger).await,
            }
        }
    });
}

/// How often the nodes with sockets on this node's games are checked for being alive.
const CHECK_NODES_EVERY: Duration = Duration::from_secs(2);

/// Counts a connection on another node opening or closing, in its game and in the ledger.
async fn count_presence(
    hub: &GameHub,
    ledger: &mut PresenceLedger,
    from: String,
    game: &str,
    player: &str,
    connected: bool,
) {
    let (Ok(id), Ok(player)) = (game.parse::<GameId>(), player.parse::<PlayerId>()) else {
        return;
    };
    // Recorded even when the game has moved on, so that a close always meets its open.
    if !from.is_empty() {
        ledger.record(&from, id, player.clone(), connected);
    }
    if let Some(handle) = local(hub, game).await {
        handle.presence(player, connected).await;
    }
}

/// Closes, in their games, the connections of nodes that are no longer alive: their sockets
/// are gone, and they could not say so.
async fn count_out_dead_nodes(hub: &GameHub, cluster: &Cluster, ledger: &mut PresenceLedger) {
    for node in ledger.nodes() {
        if !matches!(cluster.is_alive(&node).await, Ok(false)) {
            continue;
        }
        tracing::info!(%node, "counting out the connections of a node that is gone");
        for (game, player, count) in ledger.forget(&node) {
            if let Some(handle) = hub.running(&game) {
                for _ in 0..count {
                    handle.presence(player.clone(), false).await;
                }
            }
        }
    }
}

async fn serve(hub: &GameHub, cluster: &Cluster, request: NodeMsg) {
    match request {
        NodeMsg::Command { id, from, game, command } => {
            let body = match (local(hub, &game).await, command.into_command()) {
                (Some(handle), Some(command)) => match handle.command(command).await {
                    Ok(()) => Reply::Done,
                    Err(error) => Reply::Refused { msg: ServerMsg::from(&error) },
                },
                (Some(_), None) => Reply::Refused {
                    msg: ServerMsg::error("bad_message", "the command could not be read"),
                },
                (None, _) => Reply::NotHere,
            };
            cluster.reply(&from, id, body);
        }
        NodeMsg::Subscribe { id, from, game, player, since } => {
            let body = match (local(hub, &game).await, player.parse::<PlayerId>()) {
                (Some(handle), Ok(player)) => match handle.subscribe(player, since).await {
                    Ok(subscription) => Reply::Subscribed {
                        seat: subscription.seat,
                        catch_up: messages(subscription.catch_up, subscription.seat),
                        presence: subscription.presence,
                    },
                    Err(_) => Reply::NotHere,
                },
                _ => Reply::NotHere,
            };
            cluster.reply(&from, id, body);
        }
        NodeMsg::Presence { .. } | NodeMsg::Reply { .. } => {}
    }
}

/// The game's task on this node, if this node runs it (starting it when it holds the lease).
async fn local(hub: &GameHub, game: &str) -> Option<LocalGame> {
    let id = game.parse::<GameId>().ok()?;
    match hub.route(&id).await {
        Ok(Route::Local(handle)) => Some(handle),
        _ => None,
    }
}

/// A catch-up as the messages a socket sends.
fn messages(catch_up: CatchUp, seat: crate::live::Seat) -> Vec<ServerMsg> {
    match catch_up {
        CatchUp::Snapshot(snapshot) => vec![ServerMsg::snapshot(&snapshot, seat)],
        CatchUp::Replay(events) => events.iter().filter_map(ServerMsg::from_event).collect(),
        CatchUp::UpToDate => Vec::new(),
        CatchUp::Messages(messages) => messages,
    }
}
