//! This node's answers to the other nodes: commands, subscriptions and presence for the games
//! it runs, and the counting out of connections held by nodes that died.

use std::time::Duration;

use tokio::sync::mpsc;

use crate::cluster::Cluster;
use crate::cluster::wire::{NodeMsg, Reply};
use crate::domain::{GameId, PlayerId};
use crate::live::Command;

use crate::service::games::GameHub;
use crate::service::games::handle::Route;
use crate::service::games::local_game::LocalGame;

use super::presence_ledger::PresenceLedger;
use super::remote::refusal;

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
                        count_presence(&hub, &mut ledger, from, &game, player, connected).await;
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
    game: &GameId,
    player: PlayerId,
    connected: bool,
) {
    // Recorded even when the game has moved on, so that a close always meets its open.
    ledger.record(&from, game.clone(), player.clone(), connected);
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
        NodeMsg::Command { id, from, game, by, action } => {
            let body = match local(hub, &game).await {
                Some(handle) => match handle.command(Command::Player { by, action }).await {
                    Ok(()) => Reply::Done,
                    Err(error) => Reply::Refused { refusal: refusal(&error) },
                },
                None => Reply::NotHere,
            };
            cluster.reply(&from, id, body);
        }
        NodeMsg::Subscribe { id, from, game, player, since } => {
            let body = match local(hub, &game).await {
                Some(handle) => match handle.subscribe(player, since).await {
                    Ok(subscription) => Reply::Subscribed {
                        seat: subscription.seat,
                        catch_up: subscription.catch_up,
                        presence: subscription.presence,
                    },
                    Err(_) => Reply::NotHere,
                },
                None => Reply::NotHere,
            };
            cluster.reply(&from, id, body);
        }
        NodeMsg::Presence { .. } | NodeMsg::Reply { .. } => {}
    }
}

/// The game's task on this node, if this node runs it (starting it when it holds the lease).
async fn local(hub: &GameHub, id: &GameId) -> Option<LocalGame> {
    match hub.route(id).await {
        Ok(Route::Local(handle)) => Some(handle),
        _ => None,
    }
}
