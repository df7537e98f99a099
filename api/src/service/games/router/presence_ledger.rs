//! The connections that sockets on other nodes hold to the games this node runs, by node. A
//! node that dies cannot say its sockets closed; with this ledger the owner counts them out
//! itself, so the opponent sees the player leave (and come back once they reconnect elsewhere).

use std::collections::HashMap;

use crate::domain::{GameId, PlayerId};

/// Open connections per node, game and player.
#[derive(Debug, Default)]
pub struct PresenceLedger {
    by_node: HashMap<String, HashMap<(GameId, PlayerId), usize>>,
}

impl PresenceLedger {
    /// Notes that a connection of `player` to `game` on `node` opened or closed. A close
    /// without an open (say, one counted before this node took the game over) is ignored.
    pub fn record(&mut self, node: &str, game: GameId, player: PlayerId, connected: bool) {
        let connections = self.by_node.entry(node.to_owned()).or_default();
        let key = (game, player);
        if connected {
            *connections.entry(key).or_default() += 1;
        } else if let Some(count) = connections.get_mut(&key) {
            *count -= 1;
            if *count == 0 {
                connections.remove(&key);
            }
        }
        if connections.is_empty() {
            self.by_node.remove(node);
        }
    }

    /// The nodes with connections open.
    pub fn nodes(&self) -> Vec<String> {
        self.by_node.keys().cloned().collect()
    }

    /// Removes `node` and returns what it had open: each game and player with how many
    /// connections.
    pub fn forget(&mut self, node: &str) -> Vec<(GameId, PlayerId, usize)> {
        let mut open: Vec<_> = self
            .by_node
            .remove(node)
            .unwrap_or_default()
            .into_iter()
            .map(|((game, player), count)| (game, player, count))
            .collect();
        open.sort();
        open
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dead_nodes_open_connections_are_handed_back_with_their_counts() {
        let (game, ann, bob) = (GameId::generate(), PlayerId::generate(), PlayerId::generate());
        let mut ledger = PresenceLedger::default();
        ledger.record("a", game.clone(), ann.clone(), true);
        ledger.record("a", game.clone(), ann.clone(), true);
        ledger.record("a", game.clone(), bob.clone(), true);
        ledger.record("b", game.clone(), bob.clone(), true);
        let mut expected = vec![(game.clone(), ann, 2), (game, bob, 1)];
        expected.sort();
        assert_eq!(ledger.forget("a"), expected);
        assert_eq!(ledger.nodes(), vec!["b".to_owned()]);
        assert_eq!(ledger.forget("a"), vec![]);
    }

    #[test]
    fn closed_connections_are_not_handed_back() {
        let (game, ann) = (GameId::generate(), PlayerId::generate());
        let mut ledger = PresenceLedger::default();
        ledger.record("a", game.clone(), ann.clone(), true);
        ledger.record("a", game, ann, false);
        assert!(ledger.nodes().is_empty());
        assert_eq!(ledger.forget("a"), vec![]);
    }

    #[test]
    fn a_close_without_an_open_is_ignored() {
        let (game, ann) = (GameId::generate(), PlayerId::generate());
        let mut ledger = PresenceLedger::default();
        ledger.record("a", game.clone(), ann.clone(), false);
        ledger.record("a", game.clone(), ann.clone(), true);
        assert_eq!(ledger.forget("a"), vec![(game, ann, 1)]);
    }
}
