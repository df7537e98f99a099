//! Everything a client needs to draw a game from scratch.

use outflank_engine::Color;
use outflank_engine::xot::Opening;

use crate::domain::{GameId, GameStatus, Mode};

use super::{Clocks, Ending, LastMove, Player, Ply, Position, RematchView, TimeControl};

/// A live game as it stands, for a client that (re)connects.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Snapshot {
    pub game_id: GameId,
    pub mode: Mode,
    /// The version of the last public event; later events have higher versions.
    pub version: u64,
    pub status: GameStatus,
    pub black: Player,
    pub white: Player,
    pub position: Position,
    /// Both clocks, in clocked modes.
    pub clocks: Option<Clocks>,
    /// The time for each move, in clocked modes timed per move.
    pub move_time_ms: Option<i64>,
    /// How the game is timed, in clocked modes (absent from nodes that predate it).
    #[serde(default)]
    pub control: Option<TimeControl>,
    /// The XOT opening the game started from, if it did (absent from nodes that predate it).
    #[serde(default)]
    pub opening: Option<Opening>,
    /// Whether the computer stands in for a person the matchmaker did not find.
    #[serde(default)]
    pub stand_in: bool,
    pub last_move: Option<LastMove>,
    /// Every ply, passes included.
    pub moves: Vec<Ply>,
    /// The side whose draw offer awaits an answer.
    pub draw_offer: Option<Color>,
    pub rematch: RematchView,
    pub ending: Option<Ending>,
}
