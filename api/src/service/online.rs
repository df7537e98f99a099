//! Who is online on this node, and how many sockets each holds: players with at least one
//! socket open (a game or the queue) count as online; anonymous spectators do not. Sockets are
//! capped per player and per client address.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use thiserror::Error;

use crate::domain::{ClientKey, PlayerId};

/// Sockets one player may hold open at once (tabs, games and the queue together).
pub const MAX_SOCKETS_PER_PLAYER: usize = 8;
/// Sockets one client address may hold open at once, whoever they belong to, unless configured
/// otherwise (`OUTFLANK_SOCKETS_PER_ADDRESS`).
pub const DEFAULT_SOCKETS_PER_CLIENT: usize = 64;

/// Who opens a socket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Visitor {
    /// The session's player; `None` for someone without a session (a spectator).
    pub player: Option<PlayerId>,
    pub client: ClientKey,
}

/// Why a socket was refused.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub enum TooManySockets {
    #[error("you already have {MAX_SOCKETS_PER_PLAYER} connections open; close some tabs")]
    Player,
    #[error("your network already has {0} connections open; close some first")]
    Client(usize),
}

/// Open sockets per player and per client; each socket holds an [`OnlineGuard`] while open.
#[derive(Clone, Debug)]
pub struct Online(Arc<Mutex<Sockets>>);

#[derive(Debug)]
struct Sockets {
    per_player: HashMap<PlayerId, usize>,
    per_client: HashMap<ClientKey, usize>,
    client_cap: usize,
}

impl Default for Online {
    fn default() -> Online {
        Online::new(DEFAULT_SOCKETS_PER_CLIENT)
    }
}

impl Online {
    /// Counts sockets, at most `client_cap` per client address (at least one).
    pub fn new(client_cap: usize) -> Online {
        let sockets = Sockets {
            per_player: HashMap::new(),
            per_client: HashMap::new(),
            client_cap: client_cap.max(1),
        };
        Online(Arc::new(Mutex::new(sockets)))
    }

    /// Counts one more socket of `visitor`, unless their player or client is at its cap.
    ///
    /// # Errors
    /// [`TooManySockets`] names the cap reached; nothing is counted then.
    pub fn try_enter(&self, visitor: &Visitor) -> Result<OnlineGuard, TooManySockets> {
        let mut sockets = self.sockets();
        if let Some(player) = &visitor.player
            && sockets.per_player.get(player).copied().unwrap_or(0) >= MAX_SOCKETS_PER_PLAYER
        {
            return Err(TooManySockets::Player);
        }
        let cap = sockets.client_cap;
        if sockets.per_client.get(&visitor.client).copied().unwrap_or(0) >= cap {
            return Err(TooManySockets::Client(cap));
        }
        if let Some(player) = &visitor.player {
            *sockets.per_player.entry(player.clone()).or_default() += 1;
        }
        *sockets.per_client.entry(visitor.client).or_default() += 1;
        drop(sockets);
        Ok(OnlineGuard { online: self.clone(), visitor: visitor.clone() })
    }

    /// Players with a socket open now (two tabs count once; spectators without a session not
    /// at all).
    pub fn count(&self) -> usize {
        self.sockets().per_player.len()
    }

    /// The players [`Online::count`] counts, for joining with who is playing or waiting
    /// elsewhere.
    pub fn players(&self) -> Vec<PlayerId> {
        self.sockets().per_player.keys().cloned().collect()
    }

    /// The most sockets one client address may hold.
    pub fn client_cap(&self) -> usize {
        self.sockets().client_cap
    }

    /// The sockets held now, per client address and per player: what this node counts in a
    /// cluster-wide tally.
    pub fn held(&self) -> Held {
        let sockets = self.sockets();
        Held {
            per_client: sockets.per_client.iter().map(|(key, n)| (*key, *n)).collect(),
            per_player: sockets.per_player.iter().map(|(key, n)| (key.clone(), *n)).collect(),
        }
    }

    fn sockets(&self) -> std::sync::MutexGuard<'_, Sockets> {
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The sockets one node holds, per client address and per player.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Held {
    pub per_client: Vec<(ClientKey, usize)>,
    pub per_player: Vec<(PlayerId, usize)>,
}

/// One open socket; dropping it counts it out.
#[derive(Debug)]
pub struct OnlineGuard {
    online: Online,
    visitor: Visitor,
}

impl Drop for OnlineGuard {
    fn drop(&mut self) {
        let mut sockets = self.online.sockets();
        if let Some(player) = &self.visitor.player {
            decrement(&mut sockets.per_player, player);
        }
        decrement(&mut sockets.per_client, &self.visitor.client);
    }
}

fn decrement<K: std::hash::Hash + Eq>(counts: &mut HashMap<K, usize>, key: &K) {
    if let Some(count) = counts.get_mut(key) {
        *count -= 1;
        if *count == 0 {
            counts.remove(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(last: u8) -> ClientKey {
        ClientKey::of(std::net::IpAddr::from([203, 0, 113, last]))
    }

    fn player(id: &PlayerId) -> Visitor {
        Visitor { player: Some(id.clone()), client: client(1) }
    }

    #[test]
    fn a_player_with_two_sockets_counts_once_until_both_close() {
        let online = Online::default();
        let ann = PlayerId::generate();
        let first = online.try_enter(&player(&ann));
        let second = online.try_enter(&player(&ann));
        let bob = online.try_enter(&player(&PlayerId::generate()));
        assert_eq!(online.count(), 2);
        drop(first);
        assert_eq!(online.count(), 2);
        drop(second);
        assert_eq!(online.count(), 1);
        drop(bob);
        assert_eq!(online.count(), 0);
    }

    #[test]
    fn a_player_cannot_hold_more_than_the_socket_cap() {
        let online = Online::default();
        let ann = PlayerId::generate();
        let held: Vec<_> =
            (0..MAX_SOCKETS_PER_PLAYER).map(|_| online.try_enter(&player(&ann))).collect();
        assert!(held.iter().all(Result::is_ok));
        assert_eq!(online.try_enter(&player(&ann)).unwrap_err(), TooManySockets::Player);
        drop(held);
        assert!(online.try_enter(&player(&ann)).is_ok());
    }

    #[test]
    fn sockets_without_a_session_count_towards_their_address_but_not_as_online() {
        let online = Online::new(3);
        let anonymous = Visitor { player: None, client: client(1) };
        let held: Vec<_> = (0..3).map(|_| online.try_enter(&anonymous).unwrap()).collect();
        assert_eq!(online.count(), 0);
        assert_eq!(online.try_enter(&anonymous).unwrap_err(), TooManySockets::Client(3));
        let elsewhere = Visitor { player: None, client: client(2) };
        assert!(online.try_enter(&elsewhere).is_ok());
        drop(held);
        assert!(online.try_enter(&anonymous).is_ok());
    }

    #[test]
    fn held_sockets_are_listed_per_address_and_per_player() {
        let online = Online::default();
        let ann = PlayerId::generate();
        let _first = online.try_enter(&player(&ann)).unwrap();
        let _second = online.try_enter(&player(&ann)).unwrap();
        let _spectator = online.try_enter(&Visitor { player: None, client: client(2) }).unwrap();
        let mut held = online.held();
        held.per_client.sort();
        assert_eq!(held.per_client, [(client(1), 2), (client(2), 1)]);
        assert_eq!(held.per_player, [(ann, 2)]);
    }
}
