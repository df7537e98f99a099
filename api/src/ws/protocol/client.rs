//! What a client of a game's socket sends: joining, pings, and a player's actions.

use outflank_engine::Square;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::domain::{GameId, ParseIdError};
use crate::live::Action;

use super::MAX_FRAME_BYTES;

/// A message from a client of a game's socket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientMsg {
    /// The first message: which game, and the last version seen when reconnecting.
    Join { game_id: GameId, since: Option<u64> },
    /// Asks for a `pong`.
    Ping,
    /// A player's action (`move`, `resign`, `offer_draw`, ...), forwarded to the game.
    Act(Action),
}

/// The messages that stay with the socket, as they are written.
#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum SocketMsg {
    Join {
        game_id: GameId,
        #[serde(default)]
        since: Option<u64>,
    },
    Ping,
}

impl Serialize for ClientMsg {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            ClientMsg::Join { game_id, since } => {
                SocketMsg::Join { game_id: game_id.clone(), since: *since }.serialize(serializer)
            }
            ClientMsg::Ping => SocketMsg::Ping.serialize(serializer),
            ClientMsg::Act(action) => action.serialize(serializer),
        }
    }
}

/// Why a client frame was not understood.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ProtocolError {
    #[error("the message has {0} bytes; at most {MAX_FRAME_BYTES} are allowed")]
    TooLarge(usize),
    #[error("the message is not valid JSON: {0}")]
    BadJson(String),
    #[error("the message must be a JSON object with a \"type\" text field")]
    MissingType,
    #[error("unknown message type {0:?}")]
    UnknownType(String),
    #[error("{0}")]
    BadSquare(#[from] outflank_engine::ParseSquareError),
    #[error("{0}")]
    BadGameId(#[from] ParseIdError),
    #[error("bad {kind} message: {message}")]
    BadMessage { kind: String, message: String },
}

impl ProtocolError {
    /// The stable code sent to clients.
    pub const fn code(&self) -> &'static str {
        match self {
            ProtocolError::TooLarge(_) => "too_large",
            ProtocolError::BadJson(_) => "bad_json",
            ProtocolError::MissingType => "missing_type",
            ProtocolError::UnknownType(_) => "unknown_type",
            ProtocolError::BadSquare(_) => "bad_square",
            ProtocolError::BadGameId(_) => "bad_game_id",
            ProtocolError::BadMessage { .. } => "bad_message",
        }
    }
}

impl ClientMsg {
    /// Every client message type: the socket's own two, then every player action's.
    pub const TYPES: [&'static str; 10] = {
        let mut types = ["join", "ping", "", "", "", "", "", "", "", ""];
        let mut index = 0;
        while index < Action::KINDS.len() {
            types[index + 2] = Action::KINDS[index];
            index += 1;
        }
        types
    };

    /// Reads one frame.
    ///
    /// # Errors
    /// [`ProtocolError`] for a frame over [`MAX_FRAME_BYTES`], malformed JSON, a missing or
    /// unknown `type`, a bad square or game id, or missing or mistyped fields.
    ///
    /// ```
    /// use outflank_api::live::Action;
    /// use outflank_api::ws::protocol::ClientMsg;
    /// use outflank_engine::Square;
    ///
    /// let msg = ClientMsg::parse(r#"{"type":"move","square":"d3"}"#).unwrap();
    /// assert_eq!(msg, ClientMsg::Act(Action::Move { square: Square::D3 }));
    /// ```
    pub fn parse(frame: &str) -> Result<ClientMsg, ProtocolError> {
        if frame.len() > MAX_FRAME_BYTES {
            return Err(ProtocolError::TooLarge(frame.len()));
        }
        let value: serde_json::Value = serde_json::from_str(frame)
            .map_err(|error| ProtocolError::BadJson(error.to_string()))?;
        let kind = value
            .get("type")
            .and_then(serde_json::Value::as_str)
            .ok_or(ProtocolError::MissingType)?;
        if !ClientMsg::TYPES.contains(&kind) {
            return Err(ProtocolError::UnknownType(kind.to_owned()));
        }
        let text = |field: &str| value.get(field).and_then(serde_json::Value::as_str);
        match (kind, text("square"), text("game_id")) {
            ("move", Some(square), _) => {
                square.parse::<Square>()?;
            }
            ("join", _, Some(game_id)) => {
                game_id.parse::<GameId>()?;
            }
            _ => {}
        }
        let bad = |error: serde_json::Error| ProtocolError::BadMessage {
            kind: kind.to_owned(),
            message: error.to_string(),
        };
        match kind {
            "join" | "ping" => Ok(match serde_json::from_value(value.clone()).map_err(bad)? {
                SocketMsg::Join { game_id, since } => ClientMsg::Join { game_id, since },
                SocketMsg::Ping => ClientMsg::Ping,
            }),
            _ => serde_json::from_value(value.clone()).map(ClientMsg::Act).map_err(bad),
        }
    }

    /// The player's action this message asks for; `None` for `join` and `ping`, which the
    /// socket handles.
    pub fn action(&self) -> Option<Action> {
        match self {
            ClientMsg::Act(action) => Some(*action),
            ClientMsg::Join { .. } | ClientMsg::Ping => None,
        }
    }
}
