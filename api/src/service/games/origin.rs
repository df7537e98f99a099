//! Whose game it is: the client that started it, the owner its searches are shared under, and
//! how urgent they are.

use outflank_engine::Color;

use crate::domain::ClientKey;
use crate::live::GameState;
use crate::service::compute::{SearchOwner, Urgency};

/// Whose game it is: the client that started it (stored with the game while it is live, so a
/// restored game is budgeted and scheduled as before), the owner its searches are shared under,
/// and how urgent they are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    pub client: Option<ClientKey>,
    pub owner: SearchOwner,
    pub urgency: Urgency,
}

impl Origin {
    /// A game started by a client at `client` (its searches are shared under that address).
    pub fn client(client: ClientKey) -> Origin {
        let owner = SearchOwner(client.to_string());
        Origin { client: Some(client), owner, urgency: Urgency::Normal }
    }

    /// The computer standing in for the opponent a seeker at `client` did not find: its
    /// searches go first.
    pub fn stand_in(client: ClientKey) -> Origin {
        Origin { urgency: Urgency::High, ..Origin::client(client) }
    }

    /// A game between people: it asks for no search.
    pub fn people() -> Origin {
        Origin { client: None, owner: SearchOwner("people".to_owned()), urgency: Urgency::Normal }
    }

    /// The origin of a game restored from the store: the client stored with it (a stand-in's
    /// searches still first), or, for a game stored without one, its person, or the game itself.
    pub fn restored(state: &GameState, client: Option<ClientKey>, stand_in: bool) -> Origin {
        match client {
            Some(client) if stand_in => return Origin::stand_in(client),
            Some(client) => return Origin::client(client),
            None => {}
        }
        let person = Color::ALL.iter().find_map(|&color| state.setup().human(color));
        let owner = match person {
            Some(human) => SearchOwner(format!("player:{}", human.id)),
            None => SearchOwner(format!("game:{}", state.id())),
        };
        Origin { client: None, owner, urgency: Urgency::Normal }
    }
}

#[cfg(test)]
mod tests {
    use outflank_engine::ai::Level;

    use super::*;
    use crate::domain::{GameId, Nickname, PlayerId, Timestamp};
    use crate::live::{Human, Setup, Timing};

    fn computer_game() -> GameState {
        let human = Human { id: PlayerId::generate(), name: Nickname::parse("Ann").unwrap() };
        let setup = Setup::Computer {
            human,
            color: Color::Black,
            level: Level::EASY,
            timed: false,
            stand_in: false,
        };
        GameState::new(GameId::generate(), setup, Timing::default(), Timestamp(0))
    }

    #[test]
    fn a_restored_game_is_scheduled_under_the_client_that_started_it() {
        let client = ClientKey::of(std::net::IpAddr::from([203, 0, 113, 5]));
        let origin = Origin::restored(&computer_game(), Some(client), false);
        assert_eq!(origin, Origin::client(client));
        assert_eq!(origin.owner, SearchOwner("203.0.113.5".to_owned()));
    }

    #[test]
    fn a_restored_stand_in_keeps_its_searches_first() {
        let client = ClientKey::of(std::net::IpAddr::from([203, 0, 113, 5]));
        let origin = Origin::restored(&computer_game(), Some(client), true);
        assert_eq!(origin, Origin::stand_in(client));
        assert_eq!(origin.urgency, Urgency::High);
    }

    #[test]
    fn a_restored_game_stored_without_a_client_is_scheduled_under_its_person() {
        let game = computer_game();
        let person = game.setup().human(Color::Black).unwrap().id.clone();
        let origin = Origin::restored(&game, None, false);
        assert_eq!(origin.client, None);
        assert_eq!(origin.owner, SearchOwner(format!("player:{person}")));
    }
}
