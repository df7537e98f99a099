//! How many games of a kind one player, and one client address, may have in progress on a
//! node at once: games against the computer cost searches, games on one device a task and a
//! live row each. A game counts from its creation, or from its restoring when it is opened
//! again, until it ends or its task stops (after ten minutes with nobody watching).

use std::collections::HashMap;
use std::fmt;

use thiserror::Error;

use crate::domain::{ClientKey, GameId, Mode, PlayerId};
use crate::live::Setup;

/// The kinds of games with a budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BudgetKind {
    Computer,
    SameDevice,
}

impl BudgetKind {
    /// The budget a game of `setup` counts in, and whose it is: games between two people have
    /// none (their tasks and rows are paid by the queue's and the rooms' own limits).
    pub fn of(setup: &Setup) -> Option<(BudgetKind, PlayerId)> {
        match setup {
            Setup::Computer { human, .. } => Some((BudgetKind::Computer, human.id.clone())),
            Setup::SameDevice { player } => Some((BudgetKind::SameDevice, player.id.clone())),
            Setup::Friend { .. } | Setup::Quick { .. } | Setup::Ranked { .. } => None,
        }
    }

    /// The mode of the games of this kind.
    pub const fn mode(self) -> Mode {
        match self {
            BudgetKind::Computer => Mode::Computer,
            BudgetKind::SameDevice => Mode::SameDevice,
        }
    }

    /// Games of this kind in progress at once, per player.
    pub const fn per_player(self) -> usize {
        match self {
            BudgetKind::Computer => 3,
            BudgetKind::SameDevice => 3,
        }
    }

    /// Games of this kind in progress at once, per client address (a household, a school or
    /// an office shares one).
    pub const fn per_client(self) -> usize {
        match self {
            BudgetKind::Computer => 10,
            BudgetKind::SameDevice => 20,
        }
    }
}

impl fmt::Display for BudgetKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BudgetKind::Computer => "games against the computer",
            BudgetKind::SameDevice => "games on one device",
        })
    }
}

/// Why a new game was refused: the player's or the address's limit of that kind is reached.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub enum OverBudget {
    #[error("you already have {limit} {kind} in progress: finish or leave one first", limit = .0.per_player(), kind = .0)]
    Player(BudgetKind),
    #[error("your network already has {limit} {kind} in progress: finish or leave one first", limit = .0.per_client(), kind = .0)]
    Client(BudgetKind),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Holder {
    Player(PlayerId),
    Client(ClientKey),
}

/// The games with a budget in progress here, by kind, player and client.
#[derive(Debug, Default)]
pub struct GameBudget {
    games: HashMap<GameId, (BudgetKind, PlayerId, ClientKey)>,
    counts: HashMap<(BudgetKind, Holder), usize>,
}

impl GameBudget {
    /// Counts the new game `game` of `kind` of `player` at `client`, unless either is at its
    /// limit.
    ///
    /// # Errors
    /// [`OverBudget`] names the limit reached; nothing is counted then.
    pub fn admit(
        &mut self,
        game: GameId,
        kind: BudgetKind,
        player: PlayerId,
        client: ClientKey,
    ) -> Result<(), OverBudget> {
        if self.count_of(kind, Holder::Player(player.clone())) >= kind.per_player() {
            return Err(OverBudget::Player(kind));
        }
        if self.count_of(kind, Holder::Client(client)) >= kind.per_client() {
            return Err(OverBudget::Client(kind));
        }
        self.count(game, kind, player, client);
        Ok(())
    }

    /// Counts game `game`, opened again after its task had stopped, even above the limits: its
    /// player may always go on with it, but it takes a place a new game would need.
    pub fn count(&mut self, game: GameId, kind: BudgetKind, player: PlayerId, client: ClientKey) {
        if self.games.contains_key(&game) {
            return;
        }
        *self.counts.entry((kind, Holder::Player(player.clone()))).or_default() += 1;
        *self.counts.entry((kind, Holder::Client(client))).or_default() += 1;
        self.games.insert(game, (kind, player, client));
    }

    /// Game `game` ended or stopped: its place is free (a game not counted is ignored).
    pub fn release(&mut self, game: &GameId) {
        let Some((kind, player, client)) = self.games.remove(game) else { return };
        self.decrement(kind, Holder::Player(player));
        self.decrement(kind, Holder::Client(client));
    }

    fn count_of(&self, kind: BudgetKind, holder: Holder) -> usize {
        self.counts.get(&(kind, holder)).copied().unwrap_or(0)
    }

    fn decrement(&mut self, kind: BudgetKind, holder: Holder) {
        let key = (kind, holder);
        if let Some(count) = self.counts.get_mut(&key) {
            *count -= 1;
            if *count == 0 {
                self.counts.remove(&key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMPUTER: BudgetKind = BudgetKind::Computer;

    fn client(last: u8) -> ClientKey {
        ClientKey::of(std::net::IpAddr::from([203, 0, 113, last]))
    }

    #[test]
    fn a_player_may_have_three_computer_games_in_progress() {
        let mut budget = GameBudget::default();
        let ann = PlayerId::generate();
        for _ in 0..3 {
            budget.admit(GameId::generate(), COMPUTER, ann.clone(), client(1)).unwrap();
        }
        assert_eq!(
            budget.admit(GameId::generate(), COMPUTER, ann.clone(), client(1)),
            Err(OverBudget::Player(COMPUTER))
        );
        let bob = PlayerId::generate();
        assert_eq!(budget.admit(GameId::generate(), COMPUTER, bob, client(1)), Ok(()));
    }

    #[test]
    fn many_players_at_one_address_share_its_limit() {
        let mut budget = GameBudget::default();
        for _ in 0..10 {
            let player = PlayerId::generate();
            budget.admit(GameId::generate(), COMPUTER, player, client(1)).unwrap();
        }
        let next = budget.admit(GameId::generate(), COMPUTER, PlayerId::generate(), client(1));
        assert_eq!(next, Err(OverBudget::Client(COMPUTER)));
        let elsewhere = budget.admit(GameId::generate(), COMPUTER, PlayerId::generate(), client(2));
        assert_eq!(elsewhere, Ok(()));
    }

    #[test]
    fn each_kind_has_its_own_limits() {
        let mut budget = GameBudget::default();
        let ann = PlayerId::generate();
        for _ in 0..3 {
            budget.admit(GameId::generate(), COMPUTER, ann.clone(), client(1)).unwrap();
        }
        let same_device = BudgetKind::SameDevice;
        for _ in 0..3 {
            budget.admit(GameId::generate(), same_device, ann.clone(), client(1)).unwrap();
        }
        assert_eq!(
            budget.admit(GameId::generate(), same_device, ann, client(1)),
            Err(OverBudget::Player(same_device))
        );
    }

    #[test]
    fn a_game_opened_again_counts_even_above_the_limit_and_keeps_new_ones_out() {
        let mut budget = GameBudget::default();
        let games: Vec<GameId> = (0..10).map(|_| GameId::generate()).collect();
        for game in &games {
            budget.admit(game.clone(), COMPUTER, PlayerId::generate(), client(1)).unwrap();
        }
        let restored = GameId::generate();
        budget.count(restored.clone(), COMPUTER, PlayerId::generate(), client(1));
        // Eleven in progress: one ending leaves the address still full.
        budget.release(&games[0]);
        let next = budget.admit(GameId::generate(), COMPUTER, PlayerId::generate(), client(1));
        assert_eq!(next, Err(OverBudget::Client(COMPUTER)));
        budget.release(&restored);
        let next = budget.admit(GameId::generate(), COMPUTER, PlayerId::generate(), client(1));
        assert_eq!(next, Ok(()));
    }

    #[test]
    fn counting_a_game_twice_counts_it_once() {
        let mut budget = GameBudget::default();
        let ann = PlayerId::generate();
        let game = GameId::generate();
        budget.count(game.clone(), COMPUTER, ann.clone(), client(1));
        budget.count(game.clone(), COMPUTER, ann.clone(), client(1));
        budget.release(&game);
        for _ in 0..3 {
            budget.admit(GameId::generate(), COMPUTER, ann.clone(), client(1)).unwrap();
        }
    }

    #[test]
    fn an_ended_game_frees_its_place() {
        let mut budget = GameBudget::default();
        let ann = PlayerId::generate();
        let games: Vec<GameId> = (0..3).map(|_| GameId::generate()).collect();
        for game in &games {
            budget.admit(game.clone(), COMPUTER, ann.clone(), client(1)).unwrap();
        }
        budget.release(&games[0]);
        budget.release(&games[0]);
        assert_eq!(budget.admit(GameId::generate(), COMPUTER, ann.clone(), client(1)), Ok(()));
        assert_eq!(
            budget.admit(GameId::generate(), COMPUTER, ann, client(1)),
            Err(OverBudget::Player(COMPUTER))
        );
    }
}
