//! Who is online on this node: players with at least one socket open (a game or the queue).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::domain::PlayerId;

/// Open sockets per player; each socket holds an [`OnlineGuard`] while it is open.
#[derive(Clone, Debug, Default)]
pub struct Online(Arc<Mutex<HashMap<PlayerId, usize>>>);

impl Online {
    /// Counts one more socket of `player` until the guard is dropped.
    pub fn enter(&self, player: &PlayerId) -> OnlineGuard {
        *self.sockets().entry(player.clone()).or_default() += 1;
        OnlineGuard { online: self.clone(), player: player.clone() }
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
        let first = online.enter(&ann);
        let second = online.enter(&ann);
        let bob = online.enter(&PlayerId::generate());
        assert_eq!(online.count(), 2);
        drop(first);
        assert_eq!(online.count(), 2);
        drop(second);
        assert_eq!(online.count(), 1);
        drop(bob);
        assert_eq!(online.count(), 0);
    }
}
