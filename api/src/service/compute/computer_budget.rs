//! How many games against the computer one player, and one client address, may have in
//! progress on a node at once. A game counts from its creation until it ends or its task stops
//! (after ten minutes with nobody watching), so abandoned games free their place by themselves.

use std::collections::HashMap;

use thiserror::Error;

use crate::domain::{ClientKey, GameId, PlayerId};

/// Games against the computer in progress at once, per player.
pub const PER_PLAYER: usize = 3;
/// Games against the computer in progress at once, per client address (a household or an
/// office shares one).
pub const PER_CLIENT: usize = 10;

/// Why a new game against the computer was refused.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub enum OverBudget {
    #[error(
        "you already have {PER_PLAYER} games against the computer in progress: finish or leave one first"
    )]
    Player,
    #[error(
        "your network already has {PER_CLIENT} games against the computer in progress: finish or leave one first"
    )]
    Client,
}

/// The games against the computer in progress, by player and by client.
#[derive(Debug, Default)]
pub struct ComputerBudget {
    games: HashMap<GameId, (PlayerId, ClientKey)>,
    per_player: HashMap<PlayerId, usize>,
    per_client: HashMap<ClientKey, usize>,
}

impl ComputerBudget {
    /// Counts game `game` of `player` at `client`, unless either is at its limit.
    ///
    /// # Errors
    /// [`OverBudget`] names the limit reached; nothing is counted then.
    pub fn admit(
        &mut self,
        game: GameId,
        player: PlayerId,
        client: ClientKey,
    ) -> Result<(), OverBudget> {
        if self.per_player.get(&player).copied().unwrap_or(0) >= PER_PLAYER {
            return Err(OverBudget::Player);
        }
        if self.per_client.get(&client).copied().unwrap_or(0) >= PER_CLIENT {
            return Err(OverBudget::Client);
        }
        *self.per_player.entry(player.clone()).or_default() += 1;
        *self.per_client.entry(client).or_default() += 1;
        self.games.insert(game, (player, client));
        Ok(())
    }

    /// Game `game` ended or stopped: its place is free (a game not counted is ignored).
    pub fn release(&mut self, game: &GameId) {
        let Some((player, client)) = self.games.remove(game) else { return };
        decrement(&mut self.per_player, &player);
        decrement(&mut self.per_client, &client);
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

    #[test]
    fn a_player_may_have_three_computer_games_in_progress() {
        let mut budget = ComputerBudget::default();
        let ann = PlayerId::generate();
        for _ in 0..PER_PLAYER {
            budget.admit(GameId::generate(), ann.clone(), client(1)).unwrap();
        }
        assert_eq!(
            budget.admit(GameId::generate(), ann.clone(), client(1)),
            Err(OverBudget::Player)
        );
        assert_eq!(budget.admit(GameId::generate(), PlayerId::generate(), client(1)), Ok(()));
    }

    #[test]
    fn many_players_at_one_address_share_its_limit() {
        let mut budget = ComputerBudget::default();
        for _ in 0..PER_CLIENT {
            budget.admit(GameId::generate(), PlayerId::generate(), client(1)).unwrap();
        }
        let next = budget.admit(GameId::generate(), PlayerId::generate(), client(1));
        assert_eq!(next, Err(OverBudget::Client));
        assert_eq!(budget.admit(GameId::generate(), PlayerId::generate(), client(2)), Ok(()));
    }

    #[test]
    fn an_ended_game_frees_its_place() {
        let mut budget = ComputerBudget::default();
        let ann = PlayerId::generate();
        let games: Vec<GameId> = (0..PER_PLAYER).map(|_| GameId::generate()).collect();
        for game in &games {
            budget.admit(game.clone(), ann.clone(), client(1)).unwrap();
        }
        budget.release(&games[0]);
        budget.release(&games[0]);
        assert_eq!(budget.admit(GameId::generate(), ann.clone(), client(1)), Ok(()));
        assert_eq!(budget.admit(GameId::generate(), ann, client(1)), Err(OverBudget::Player));
    }
}
