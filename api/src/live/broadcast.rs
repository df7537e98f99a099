//! What the subscribers of a game hear, and what a new subscriber needs first.
//!
//! Both are plain data that can cross nodes: the node running a game sends them to the nodes
//! whose sockets follow it.

use serde::{Deserialize, Serialize};

use crate::accounts::rating::RatedGame;

use super::{Event, Snapshot};

/// What a game's task sends to every subscriber.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", content = "c", rename_all = "snake_case")]
pub enum Broadcast {
    /// A public event of the game, already stored.
    Event(Event),
    /// The server is shutting down; reconnect shortly.
    Shutdown,
    /// Who is connected changed: whether each side has someone connected.
    Presence { black: bool, white: bool },
    /// A rated game's result moved both ratings (sent after its `Ended` event).
    Rated(RatedGame),
}

/// What a new subscriber needs before the live stream.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", content = "c", rename_all = "snake_case")]
pub enum CatchUp {
    /// The whole game as it stands.
    Snapshot(Box<Snapshot>),
    /// The public events after the version the subscriber gave, in order.
    Replay(Vec<Event>),
    /// The subscriber is up to date.
    UpToDate,
}
