//! What nodes say to each other through Redis: requests to the node that owns a game, their
//! replies, and each game's stream of messages for sockets on other nodes. All JSON.

use outflank_engine::Square;
use serde::{Deserialize, Serialize};

use crate::domain::{GameId, PlayerId};
use crate::live::{Command, Seat};
use crate::ws::protocol::ServerMsg;

/// A message on a node's own channel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum NodeMsg {
    /// Apply a player's command to a game this node owns.
    Command { id: u64, from: String, game: String, command: PlayerCommand },
    /// Catch a subscriber on another node up with a game this node owns.
    Subscribe { id: u64, from: String, game: String, player: String, since: Option<u64> },
    /// A connection of `player` on node `from` opened or closed.
    Presence {
        /// Empty from a node that does not say (counted, but not counted out if it dies).
        #[serde(default)]
        from: String,
        game: String,
        player: String,
        connected: bool,
    },
    /// The answer to request `id`.
    Reply { id: u64, body: Reply },
}

/// An answer from the owning node.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "r", rename_all = "snake_case")]
pub enum Reply {
    /// The command was applied: its events are stored and published.
    Done,
    /// The command was refused; the message goes to the client as it is.
    Refused { msg: ServerMsg },
    /// What the subscriber missed, already as messages, and who is connected.
    Subscribed { seat: Seat, catch_up: Vec<ServerMsg>, presence: (bool, bool) },
    /// The node does not run that game (any more): ask again who owns it.
    NotHere,
}

/// A message on a game's channel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum GameWire {
    /// A message for every socket on the game.
    Msg { msg: ServerMsg },
    /// Node `node` stopped running the game (it ended its task, shut down, or lost the game to
    /// another node): its followers subscribe again.
    Closed { node: String },
}

/// A command a player sends, as it travels between nodes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "c", rename_all = "snake_case")]
pub enum PlayerCommand {
    Move { by: String, square: String },
    Resign { by: String },
    OfferDraw { by: String },
    AcceptDraw { by: String },
    DeclineDraw { by: String },
    Rematch { by: String, next_game: String },
    Undo { by: String },
    Leave { by: String },
}

impl PlayerCommand {
    /// The wire form of a player's command; `None` for the driver's own commands.
    pub fn from_command(command: &Command) -> Option<PlayerCommand> {
        let by = |player: &PlayerId| player.to_string();
        Some(match command {
            Command::Move { by: p, square } => {
                PlayerCommand::Move { by: by(p), square: square.to_string() }
            }
            Command::Resign { by: p } => PlayerCommand::Resign { by: by(p) },
            Command::OfferDraw { by: p } => PlayerCommand::OfferDraw { by: by(p) },
            Command::AcceptDraw { by: p } => PlayerCommand::AcceptDraw { by: by(p) },
            Command::DeclineDraw { by: p } => PlayerCommand::DeclineDraw { by: by(p) },
            Command::Rematch { by: p, next_game } => {
                PlayerCommand::Rematch { by: by(p), next_game: next_game.to_string() }
            }
            Command::Undo { by: p } => PlayerCommand::Undo { by: by(p) },
            Command::Leave { by: p } => PlayerCommand::Leave { by: by(p) },
            Command::Tick | Command::ComputerMove { .. } => return None,
        })
    }

    /// The command again; `None` if a field does not parse.
    pub fn into_command(self) -> Option<Command> {
        let player = |text: &str| text.parse::<PlayerId>().ok();
        Some(match self {
            PlayerCommand::Move { by, square } => {
                Command::Move { by: player(&by)?, square: square.parse::<Square>().ok()? }
            }
            PlayerCommand::Resign { by } => Command::Resign { by: player(&by)? },
            PlayerCommand::OfferDraw { by } => Command::OfferDraw { by: player(&by)? },
            PlayerCommand::AcceptDraw { by } => Command::AcceptDraw { by: player(&by)? },
            PlayerCommand::DeclineDraw { by } => Command::DeclineDraw { by: player(&by)? },
            PlayerCommand::Rematch { by, next_game } => {
                Command::Rematch { by: player(&by)?, next_game: next_game.parse::<GameId>().ok()? }
            }
            PlayerCommand::Undo { by } => Command::Undo { by: player(&by)? },
            PlayerCommand::Leave { by } => Command::Leave { by: player(&by)? },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_commands_cross_the_wire_unchanged() {
        let by = PlayerId::generate();
        let commands = [
            Command::Move { by: by.clone(), square: "d3".parse().unwrap() },
            Command::Resign { by: by.clone() },
            Command::Rematch { by: by.clone(), next_game: GameId::generate() },
            Command::Leave { by },
        ];
        for command in commands {
            let wire = PlayerCommand::from_command(&command).unwrap();
            let text = serde_json::to_string(&wire).unwrap();
            let back: PlayerCommand = serde_json::from_str(&text).unwrap();
            assert_eq!(back.into_command(), Some(command));
        }
    }

    #[test]
    fn the_drivers_own_commands_stay_on_their_node() {
        assert_eq!(PlayerCommand::from_command(&Command::Tick), None);
    }

    #[test]
    fn a_reply_with_messages_reads_back() {
        let reply = Reply::Subscribed {
            seat: Seat::Black,
            catch_up: vec![ServerMsg::Presence { black: true, white: false }],
            presence: (true, false),
        };
        let text = serde_json::to_string(&NodeMsg::Reply { id: 7, body: reply.clone() }).unwrap();
        assert_eq!(
            serde_json::from_str::<NodeMsg>(&text).unwrap(),
            NodeMsg::Reply { id: 7, body: reply }
        );
    }
}
