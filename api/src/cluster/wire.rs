//! What nodes say to each other through Redis: requests to the node that owns a game, their
//! replies, and each game's stream for sockets on other nodes.
//!
//! Everything is a domain value (a player's [`Action`], a game's [`Broadcast`], a
//! [`CatchUp`]) serialised as JSON inside an [`Envelope`] that names the protocol version. A
//! node reads only messages of its own version and drops the others (counted in the log); see
//! the crate README for what that means during a rolling deploy.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::domain::{GameId, PlayerId};
use crate::live::{Action, Broadcast, CatchUp, CommandError, Seat};
use crate::social::PlayerEvent;

/// The version of this protocol. Raise it whenever a message below changes shape.
pub const PROTOCOL_VERSION: u32 = 2;

/// A message with the protocol version of the node that sent it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Envelope<T> {
    pub v: u32,
    pub msg: T,
}

/// Why a message from another node was not read.
#[derive(Debug, Error)]
pub enum WireError {
    #[error("a message of protocol version {0} (this node speaks {PROTOCOL_VERSION})")]
    OtherVersion(u32),
    #[error("an unreadable message: {0}")]
    Malformed(#[from] serde_json::Error),
}

/// The text of `msg` in this node's protocol version.
///
/// # Errors
/// The message cannot be written as JSON (not for the types of this module).
pub fn encode<T: Serialize>(msg: &T) -> Result<String, serde_json::Error> {
    serde_json::to_string(&Envelope { v: PROTOCOL_VERSION, msg })
}

/// Reads a message written by [`encode`] on a node of the same protocol version.
///
/// # Errors
/// [`WireError::OtherVersion`] for another version; [`WireError::Malformed`] otherwise.
pub fn decode<T: DeserializeOwned>(text: &str) -> Result<T, WireError> {
    #[derive(Deserialize)]
    struct Version {
        v: u32,
    }
    let Version { v } = serde_json::from_str(text)?;
    if v != PROTOCOL_VERSION {
        return Err(WireError::OtherVersion(v));
    }
    let envelope: Envelope<T> = serde_json::from_str(text)?;
    Ok(envelope.msg)
}

/// A message on a node's own channel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum NodeMsg {
    /// Apply `by`'s action to a game this node owns.
    Command { id: u64, from: String, game: GameId, by: PlayerId, action: Action },
    /// Catch a subscriber on another node up with a game this node owns.
    Subscribe { id: u64, from: String, game: GameId, player: PlayerId, since: Option<u64> },
    /// A connection of `player` on node `from` opened or closed.
    Presence { from: String, game: GameId, player: PlayerId, connected: bool },
    /// The answer to request `id`.
    Reply { id: u64, body: Reply },
}

/// An answer from the owning node.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "r", rename_all = "snake_case")]
pub enum Reply {
    /// The command was applied: its events are stored and published.
    Done,
    /// The command was refused.
    Refused { refusal: Refusal },
    /// What the subscriber missed, and who is connected.
    Subscribed { seat: Seat, catch_up: CatchUp, presence: (bool, bool) },
    /// The node does not run that game (any more): ask again who owns it.
    NotHere,
}

/// Why the owning node refused a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "why", content = "error", rename_all = "snake_case")]
pub enum Refusal {
    /// The game refused it; nothing changed.
    Command(CommandError),
    /// There is no such game.
    NotFound,
    /// The owner could not apply it now (storage, restarting).
    Unavailable,
}

/// A message on a game's channel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum GameWire {
    /// What the game told its subscribers.
    Broadcast { broadcast: Broadcast },
    /// Node `node` stopped running the game (it ended its task, shut down, or lost the game to
    /// another node): its followers subscribe again.
    Closed { node: String },
}

/// A message on the site's channel of players: what one player is told, for their sockets on
/// whichever node they are. Every node hears it; the one that sent it has told its own already.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerWire {
    pub node: String,
    pub to: PlayerId,
    pub event: PlayerEvent,
}

#[cfg(test)]
mod tests {
    use outflank_engine::Square;

    use super::*;

    fn read_back<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(msg: T) {
        let text = encode(&msg).unwrap();
        assert_eq!(decode::<T>(&text).unwrap(), msg, "{text}");
    }

    #[test]
    fn every_player_action_crosses_the_wire_unchanged() {
        let by = PlayerId::generate();
        let game = GameId::generate();
        for action in Action::EVERY_KIND {
            let from = "node".to_owned();
            read_back(NodeMsg::Command { id: 1, from, game: game.clone(), by: by.clone(), action });
        }
    }

    #[test]
    fn a_refusal_keeps_the_games_reason() {
        let refusal = Refusal::Command(CommandError::IllegalMove(Square::A1));
        read_back(NodeMsg::Reply { id: 7, body: Reply::Refused { refusal } });
        read_back(NodeMsg::Reply { id: 8, body: Reply::Refused { refusal: Refusal::NotFound } });
    }

    #[test]
    fn a_subscription_reply_carries_the_catch_up_and_presence() {
        let body = Reply::Subscribed {
            seat: Seat::Black,
            catch_up: CatchUp::UpToDate,
            presence: (true, false),
        };
        read_back(NodeMsg::Reply { id: 7, body });
    }

    #[test]
    fn a_game_stream_carries_broadcasts() {
        read_back(GameWire::Broadcast {
            broadcast: Broadcast::Presence { black: true, white: false },
        });
        read_back(GameWire::Closed { node: "abc".to_owned() });
    }

    #[test]
    fn a_players_message_carries_its_event() {
        let notification = crate::social::Notification {
            id: crate::domain::NotificationId::generate(),
            kind: crate::domain::NotificationKind::ChallengeDeclined,
            created_at: crate::domain::Timestamp(5),
            read: false,
            data: serde_json::json!({"to": "bob"}),
        };
        let event = PlayerEvent::Notification { notification };
        read_back(PlayerWire { node: "abc".to_owned(), to: PlayerId::generate(), event });
    }

    #[test]
    fn a_message_of_another_version_is_not_read() {
        let text = r#"{"v":1,"msg":{"t":"closed","node":"abc"}}"#;
        assert!(matches!(decode::<GameWire>(text), Err(WireError::OtherVersion(1))));
    }

    #[test]
    fn a_message_without_a_version_is_malformed() {
        let text = r#"{"t":"closed","node":"abc"}"#;
        assert!(matches!(decode::<GameWire>(text), Err(WireError::Malformed(_))));
    }
}
