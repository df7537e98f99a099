//! What the matchmaking queue's socket reads and sends.

use std::fmt::Display;

use serde::{Deserialize, Serialize};

use outflank_matchmaker::QueueKind;

use crate::domain::GameId;
use crate::live::Pool;

use super::codes;

/// A queue on the wire: `"quick"` or `"ranked"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QueueName {
    Quick,
    Ranked,
}

impl QueueName {
    /// Every queue, as written.
    pub const ALL: [QueueName; 2] = [QueueName::Quick, QueueName::Ranked];
}

impl From<QueueName> for QueueKind {
    fn from(name: QueueName) -> QueueKind {
        match name {
            QueueName::Quick => QueueKind::Quick,
            QueueName::Ranked => QueueKind::Ranked,
        }
    }
}

impl From<QueueKind> for QueueName {
    fn from(kind: QueueKind) -> QueueName {
        match kind {
            QueueKind::Quick => QueueName::Quick,
            QueueKind::Ranked => QueueName::Ranked,
        }
    }
}

/// A message from a client of the queue socket.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SeekerMsg {
    /// Look for an opponent in `queue`, in each of `pools` at once (never empty, no pool
    /// twice; a frame without pools seeks in the default pool).
    Seek { queue: QueueName, pools: Vec<Pool> },
    /// Stop looking.
    Cancel,
    /// Asks for a `pong`.
    Ping,
}

/// A queue socket's frame as written, before its queue is read.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum SeekerFrame {
    Seek {
        queue: String,
        #[serde(default)]
        pools: Option<Vec<String>>,
    },
    Cancel,
    Ping,
}

/// Why a queue socket's frame was refused: the code to send back, and the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeekerError {
    pub code: &'static str,
    pub message: String,
}

impl SeekerMsg {
    /// Every message type a client of the queue socket may send.
    pub const TYPES: [&'static str; 3] = ["seek", "cancel", "ping"];

    /// Reads one frame of the queue socket, queue and all.
    ///
    /// # Errors
    /// `bad_json` for text that is not JSON, `bad_message` for JSON that is no seeker message,
    /// `bad_queue` for a `seek` that names no queue there is, `bad_pool` for one whose pools
    /// are empty or name a pool there is not.
    pub fn parse(frame: &str) -> Result<SeekerMsg, SeekerError> {
        let frame = serde_json::from_str::<SeekerFrame>(frame).map_err(|error| {
            let code = match serde_json::from_str::<serde_json::Value>(frame) {
                Ok(_) => codes::BAD_MESSAGE,
                Err(_) => codes::BAD_JSON,
            };
            SeekerError { code, message: error.to_string() }
        })?;
        Ok(match frame {
            SeekerFrame::Seek { queue, pools } => {
                let name = serde_json::from_value(serde_json::Value::String(queue.clone()));
                let queue = name.map_err(|_| SeekerError {
                    code: codes::BAD_QUEUE,
                    message: format!("\"{queue}\" is not a queue; expected quick or ranked"),
                })?;
                let pools = match pools {
                    None => vec![Pool::DEFAULT],
                    Some(keys) => pools_of(&keys)?,
                };
                SeekerMsg::Seek { queue, pools }
            }
            SeekerFrame::Cancel => SeekerMsg::Cancel,
            SeekerFrame::Ping => SeekerMsg::Ping,
        })
    }
}

/// The pools named by a `seek`, in the order given, each once.
fn pools_of(keys: &[String]) -> Result<Vec<Pool>, SeekerError> {
    let mut pools = Vec::new();
    for key in keys {
        let pool = key
            .parse::<Pool>()
            .map_err(|error| SeekerError { code: codes::BAD_POOL, message: error.to_string() })?;
        if !pools.contains(&pool) {
            pools.push(pool);
        }
    }
    if pools.is_empty() {
        let message = format!("choose at least one pool: {}", Pool::keys_listed());
        return Err(SeekerError { code: codes::BAD_POOL, message });
    }
    Ok(pools)
}

/// The opponent found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpponentMsg {
    pub name: String,
    pub computer: bool,
    /// The computer's level, 1 (weakest) to 10 (strongest).
    pub level: Option<u8>,
}

/// A message to a client of the queue socket.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum QueueMsg {
    /// Still looking, in `pools`, for `waited_ms` so far.
    Searching {
        queue: QueueName,
        pools: Vec<Pool>,
        waited_ms: i64,
    },
    /// Found: connect to game `game_id`, played in `pool`.
    Paired {
        game_id: GameId,
        pool: Pool,
        opponent: OpponentMsg,
    },
    /// No longer looking.
    Cancelled,
    /// The last message was refused.
    Error {
        code: String,
        message: String,
    },
    Pong,
}

impl QueueMsg {
    /// An `error` message.
    pub fn error(code: &str, message: impl Display) -> QueueMsg {
        QueueMsg::Error { code: code.to_owned(), message: message.to_string() }
    }
}
