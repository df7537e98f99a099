//! What the games tell the rest of the site as it happens, beyond their own followers: a game
//! between two people created on this node, and a daily game waiting for a person's move. A
//! listener that falls behind misses some; nothing here is kept.

use tokio::sync::broadcast;

use crate::domain::{GameId, Mode, Timestamp};
use crate::live::{Human, TimeControl};

/// Items buffered for a slow listener.
const BUFFER: usize = 256;

/// A game between two people, just created: who plays it and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartedGame {
    pub id: GameId,
    pub mode: Mode,
    pub control: TimeControl,
    pub black: Human,
    pub white: Human,
}

/// A daily game waiting for `to_move`'s move since its `plies`-th ply, until `deadline`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DailyTurn {
    pub game: GameId,
    pub to_move: Human,
    pub opponent: String,
    pub plies: usize,
    /// The time a move has under the game's control.
    pub move_ms: i64,
    pub deadline: Timestamp,
}

/// The senders of both kinds of news.
#[derive(Debug)]
pub(super) struct GameNews {
    pub(super) started: broadcast::Sender<StartedGame>,
    pub(super) turns: broadcast::Sender<DailyTurn>,
}

impl Default for GameNews {
    fn default() -> Self {
        GameNews { started: broadcast::channel(BUFFER).0, turns: broadcast::channel(BUFFER).0 }
    }
}
