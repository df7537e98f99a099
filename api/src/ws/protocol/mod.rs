//! The JSON messages of the server's WebSockets (`docs/protocol.md`), one module a socket and
//! direction: a live game's ([`ClientMsg`] in `client`, [`ServerMsg`] in `server`) and the
//! matchmaking queue's ([`SeekerMsg`], [`QueueMsg`] in `queue`); what the HTTP routes send too
//! (a side, legal squares, a rating change) comes from [`crate::json`].
//!
//! Every frame is one JSON object whose `type` names the message. [`ClientMsg::parse`] and
//! [`SeekerMsg::parse`] read a frame once, at the edge, into typed values; [`ServerMsg`] is
//! built from the live game's [`Snapshot`](crate::live::Snapshot),
//! [`Event`](crate::live::Event)s and [`Broadcast`](crate::live::Broadcast)s. The socket layer
//! never judges legality: a player's message is an [`Action`](crate::live::Action) it forwards
//! to the game.

use std::fmt::Display;

use serde::{Deserialize, Serialize};

mod client;
mod queue;
mod server;
#[cfg(test)]
mod tests;

pub use crate::json::{LegalMsg, RatingSide, Side, SquareList};
pub use client::{ClientMsg, ProtocolError};
pub use queue::{OpponentMsg, QueueMsg, QueueName, SeekerError, SeekerMsg};
pub use server::{
    ClocksMsg, CountsMsg, LastMoveMsg, PlayerMsg, PlayersMsg, PlyMsg, PositionMsg, RematchMsg,
    ResultMsg, ServerMsg, SnapshotMsg,
};

/// The largest frame a client may send, in bytes.
pub const MAX_FRAME_BYTES: usize = 4 * 1024;

/// A client sending more messages than this within one second is disconnected.
pub const MAX_MESSAGES_PER_SECOND: u32 = 20;

/// Error codes the socket handlers send themselves (the others come from
/// [`ProtocolError::code`] and [`CommandError::code`](crate::live::CommandError::code)).
pub mod codes {
    /// A frame over [`MAX_FRAME_BYTES`](super::MAX_FRAME_BYTES); the socket is closed after it.
    pub const TOO_LARGE: &str = "too_large";
    /// A frame that is not a JSON text frame.
    pub const BAD_JSON: &str = "bad_json";
    /// A JSON message of an unknown shape (queue and lobby sockets).
    pub const BAD_MESSAGE: &str = "bad_message";
    /// The player already holds the most sockets allowed (an HTTP `429` before the upgrade).
    pub const TOO_MANY_SOCKETS: &str = "too_many_sockets";
    /// A request on a socket's address that is not a WebSocket handshake (HTTP `400`).
    pub const BAD_HANDSHAKE: &str = "bad_handshake";
    /// The player (or their network) has the most games against the computer in progress.
    pub const TOO_MANY_GAMES: &str = "too_many_games";
    /// The game could not be reached or its command not stored; nothing changed.
    pub const UNAVAILABLE: &str = "unavailable";
    /// The game in the URL does not exist.
    pub const GAME_NOT_FOUND: &str = "game_not_found";
    /// `join` named another game than the URL.
    pub const WRONG_GAME: &str = "wrong_game";
    /// A game command came before `join`.
    pub const NOT_JOINED: &str = "not_joined";
    /// Too many messages; the socket is closed after this error.
    pub const RATE_LIMITED: &str = "rate_limited";
    /// The server is stopping; reconnect in a moment.
    pub const SHUTTING_DOWN: &str = "shutting_down";
    /// The socket's session was revoked (signed out, renamed, account deleted); the socket is
    /// closed after this error.
    pub const SESSION_REVOKED: &str = "session_revoked";
    /// Ranked games need an account (queue socket).
    pub const ACCOUNT_REQUIRED: &str = "account_required";
    /// Ranked games need a public name (queue socket).
    pub const NAME_REQUIRED: &str = "name_required";
    /// A moderator closed ranked play to the account (queue socket).
    pub const RANKED_CLOSED: &str = "ranked_closed";
    /// The seeker is already in the queue (queue socket).
    pub const ALREADY_SEEKING: &str = "already_seeking";
    /// `seek` named no queue there is (queue socket).
    pub const BAD_QUEUE: &str = "bad_queue";
    /// `seek` named no pool, or a pool there is not (queue socket).
    pub const BAD_POOL: &str = "bad_pool";
}

/// An `error` message, the same on every socket: the last message was refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "error")]
pub struct ErrorMsg {
    pub code: String,
    pub message: String,
}

impl ErrorMsg {
    pub fn new(code: &str, message: impl Display) -> ErrorMsg {
        ErrorMsg { code: code.to_owned(), message: message.to_string() }
    }
}
