//! Who is online on this node: players with at least one socket open (a game or the queue).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::domain::PlayerId;

/// Sockets one player may hold open at once (tabs, games and the queue together).
pub const MAX_SOCKETS_PER_PLAYER: usize = 8;

/// Open sockets per player; each socket holds an [`OnlineGuard`] while it is open.
#[derive(Clone, Debug, Default)]
pub struct Online(Arc<Mutex<HashMap<PlayerId, usize>>>);

impl Online {
    /// Counts one more socket of `player`, unless they already hold
    /// [`MAX_SOCKETS_PER_PLAYER`]; `None` then.
    pub fn try_enter(&self, player: &PlayerId) -> Option<OnlineGuard> {
        let mut sockets = self.sockets();
        let count = sockets.entry(player.clone()).or_default();
        if *count >= MAX_SOCKETS_PER_PLAYER {
            return None;
        }
        *count += 1;
        drop(sockets);
        Some(OnlineGuard { online: self.clone(), player: player.clone() })
    }

    /// Players with a socket open now (two tabs count once).
    pub fn count(&self) -> usize {
        self.sockets().len()
    }

    fn sockets(&self) -> std::sync::MutexGuard<'_, HashMap<PlayerId, usize>> {
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// One open socket; dropping it counts it out.
#[derive(Debug)]
pub struct OnlineGuard {
    online: Online,
    player: PlayerId,
}

impl Drop for OnlineGuard {
    fn drop(&mut self) {
        let mut sockets = self.online.sockets();
        if let Some(count) = sockets.get_mut(&self.player) {
            *count -= 1;
            if *count == 0 {
                sockets.remove(&self.player);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_with_two_sockets_counts_once_until_both_close() {
        let online = Online::default();
        let ann = PlayerId::generate();
        let first = online.try_enter(&ann);
        let second = online.try_enter(&ann);
        let bob = online.try_enter(&PlayerId::generate());
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
        let held: Vec<_> = (0..MAX_SOCKETS_PER_PLAYER).map(|_| online.try_enter(&ann)).collect();
        assert!(held.iter().all(Option::is_some));
        assert!(online.try_enter(&ann).is_none());
        drop(held);
        assert!(online.try_enter(&ann).is_some());
    }
}
