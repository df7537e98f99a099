//! What a live game reports after a command.

use std::fmt;

use outflank_engine::ai::Level;
use outflank_engine::{Board, Color, GameResult};

use crate::domain::{GameId, Timestamp};

use super::view::Ply;
use super::{Clocks, Ending, LastMove, Position, Setup};

/// Names one search the game asked for, so a late answer to a cancelled search is recognised.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct SearchId(pub u64);

impl fmt::Display for SearchId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A search the driver should run, answering with [`Command::ComputerMove`](super::Command).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SearchRequest {
    pub search_id: SearchId,
    pub board: Board,
    pub level: Level,
    /// The reply is shown no sooner than this; an earlier answer is held until then.
    pub not_before: Timestamp,
    /// Under a clock, how long the computer may think ([`super::thinking_time`]); `None`
    /// when the level's own budget is always in time.
    pub think_ms: Option<i64>,
}

/// Something that happened in a live game.
///
/// Events with a `version` are public: the driver first stores what they say (plies, the
/// truncation of an undo, the result, the rematch's new game), then broadcasts them. The
/// others are instructions for the driver alone.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Event {
    /// A disc was placed, followed by a forced pass if the next side had no move.
    Moved {
        version: u64,
        /// When the plies were played (store it with each ply).
        at: Timestamp,
        /// The move and any pass it forced, to store in this order.
        plies: Vec<Ply>,
        last_move: LastMove,
        position: Position,
        clocks: Option<Clocks>,
    },
    /// Plies were taken back; only the first `ply_count` plies remain (delete the rest).
    Undone { version: u64, ply_count: usize, last_move: Option<LastMove>, position: Position },
    /// `by` offered a draw.
    DrawOffered { version: u64, by: Color },
    /// `by` declined the pending draw offer, explicitly or by making a move.
    DrawDeclined { version: u64, by: Color },
    /// The game ended.
    Ended { version: u64, ending: Ending, counts: GameResult },
    /// `by` asked for a rematch; the other side has not yet.
    RematchAsked { version: u64, by: Color },
    /// Both sides agreed: create `game_id` from `setup` (colours already swapped) with
    /// [`GameState::new`](super::GameState::new), then tell the players.
    RematchStarted { version: u64, game_id: GameId, setup: Setup },
    /// `by` left after the end; no rematch is possible any more.
    Left { version: u64, by: Color },
    /// Start this search on a worker (driver only).
    StartSearch(SearchRequest),
    /// Cancel this search; its answer, if any, will be ignored (driver only).
    CancelSearch(SearchId),
}

impl Event {
    /// The version of a public event; `None` for instructions to the driver.
    pub fn version(&self) -> Option<u64> {
        match self {
            Event::Moved { version, .. }
            | Event::Undone { version, .. }
            | Event::DrawOffered { version, .. }
            | Event::DrawDeclined { version, .. }
            | Event::Ended { version, .. }
            | Event::RematchAsked { version, .. }
            | Event::RematchStarted { version, .. }
            | Event::Left { version, .. } => Some(*version),
            Event::StartSearch(_) | Event::CancelSearch(_) => None,
        }
    }

    /// Whether the event is broadcast to the game's clients.
    pub fn is_public(&self) -> bool {
        self.version().is_some()
    }
}
