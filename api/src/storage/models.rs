//! What the store writes and reads, typed with the domain's values.

use outflank_engine::ai::Level;
use outflank_engine::xot::Opening;
use outflank_engine::{Board, Move};

use crate::domain::{
    ClientKey, EndReason, GameId, GameStatus, Mode, PlayerId, PuzzleId, RoomCode, Timestamp, Winner,
};
use crate::live::RatedPlayers;
use crate::live::TimeControl;

/// One side of a game: who plays it and the name shown for them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    /// `None` for the computer.
    pub id: Option<PlayerId>,
    /// The name shown on the board, e.g. a nickname or "Computer (Hard)".
    pub name: String,
}

/// A game as it is created; it starts live.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    pub id: GameId,
    pub mode: Mode,
    /// The computer's strength in computer games.
    pub level: Option<Level>,
    pub black: SeatRow,
    pub white: SeatRow,
    /// Normally [`Board::start`]; an imported game may start elsewhere.
    pub start_position: Board,
    /// Time allowed per move; `None` means no clock.
    pub move_time_ms: Option<i64>,
    /// The friend room the game is played in.
    pub room_code: Option<RoomCode>,
    pub rated: bool,
    pub created_at: Timestamp,
    /// When the first side's clock started, for clocked games.
    pub turn_started_at: Option<Timestamp>,
    /// The client that started it, when one did: kept while the game is live.
    pub origin: Option<ClientKey>,
    /// The computer standing in for an opponent the queue did not find: its searches go first.
    pub stand_in: bool,
    /// How a clocked game is timed; `None` without a clock, or for a clocked game stored
    /// before controls could be chosen (then `move_time_ms` a move).
    pub time_control: Option<TimeControl>,
    /// The XOT opening it starts from (its plies stored with it), if any.
    pub opening: Option<Opening>,
}

#[cfg(test)]
impl NewGame {
    /// A game `id` of two people on one device (`Black` and `White`), from the start, without a
    /// clock, made at `created_at`: the plain game the unit tests store.
    pub fn on_one_device(id: GameId, created_at: Timestamp) -> NewGame {
        NewGame {
            id,
            mode: Mode::SameDevice,
            level: None,
            black: SeatRow { id: None, name: "Black".into() },
            white: SeatRow { id: None, name: "White".into() },
            start_position: Board::start(),
            move_time_ms: None,
            room_code: None,
            rated: false,
            created_at,
            turn_started_at: None,
            origin: None,
            stand_in: false,
            time_control: None,
            opening: None,
        }
    }
}

/// Which game of its friend room a new game is. The room's current game is replaced only if it
/// is still the one expected, so two requests (on one node or two) cannot both start the room's
/// next game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoomGame<'a> {
    /// The room's first game, once the friend has joined: the room has no game yet.
    First,
    /// A rematch of `of`, which is still the room's current game.
    Rematch { of: &'a GameId },
}

/// How a game ended, written once by [`Store::finish_game`](super::Store::finish_game).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishedGame {
    /// [`GameStatus::Finished`] or [`GameStatus::Aborted`].
    pub status: GameStatus,
    /// `None` for an aborted game.
    pub winner: Option<Winner>,
    pub end_reason: EndReason,
    /// Disc counts on the final board.
    pub black_discs: u8,
    pub white_discs: u8,
    pub finished_at: Timestamp,
    /// The accounts whose ratings the result moves, for a rated game that finished.
    pub rated: Option<RatedPlayers>,
    /// The engine to review a finished game with: the review is queued in the transaction
    /// that finishes the game (an outbox the review workers read), so an end that is stored
    /// is never left unreviewed, and the end's news waits for nothing else.
    pub review: Option<String>,
}

/// A stored game without its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: GameId,
    pub mode: Mode,
    pub level: Option<Level>,
    pub black: SeatRow,
    pub white: SeatRow,
    pub status: GameStatus,
    pub winner: Option<Winner>,
    pub end_reason: Option<EndReason>,
    pub black_discs: Option<u8>,
    pub white_discs: Option<u8>,
    pub start_position: Board,
    pub move_time_ms: Option<i64>,
    pub room_code: Option<RoomCode>,
    pub rated: bool,
    pub created_at: Timestamp,
    /// The last write: creation, a move, a clock start or the end.
    pub updated_at: Timestamp,
    pub finished_at: Option<Timestamp>,
    /// When the side to move started thinking; cleared when the game ends.
    pub turn_started_at: Option<Timestamp>,
    /// The client that started it, when one did; cleared when the game ends.
    pub origin: Option<ClientKey>,
    /// The computer standing in for an opponent the queue did not find: its searches go first.
    pub stand_in: bool,
    /// How a clocked game is timed; `None` without a clock, or for a clocked game stored
    /// before controls could be chosen (then `move_time_ms` a move).
    pub time_control: Option<TimeControl>,
    /// The XOT opening it started from, if any.
    pub opening: Option<Opening>,
}

impl GameRow {
    /// How the game is timed: its control, or for a clocked game stored before controls could
    /// be chosen, its move time; `None` without a clock.
    pub fn control(&self) -> Option<TimeControl> {
        self.time_control.or(self.move_time_ms.map(|move_ms| TimeControl::PerMove { move_ms }))
    }
}

/// One stored ply. Plies are numbered from 0, so ply `n` is `Game::plies()[n]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveRow {
    pub ply: u32,
    pub mv: Move,
    pub played_at: Timestamp,
}

/// A game with its moves in ply order: everything needed to rebuild it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub game: GameRow,
    pub moves: Vec<MoveRow>,
}

/// A person in a friend room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomMember {
    pub id: PlayerId,
    pub name: String,
}

/// A friend room as it is created, before anyone joins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewRoom {
    pub code: RoomCode,
    pub host: RoomMember,
    pub created_at: Timestamp,
    /// After this the link no longer works (checked by the caller).
    pub expires_at: Timestamp,
    /// How the room's games are timed; `None` for the default.
    pub time_control: Option<TimeControl>,
    /// Whether the room's games start from an XOT opening.
    pub xot: bool,
}

/// A stored friend room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomRow {
    pub code: RoomCode,
    pub host: RoomMember,
    pub guest: Option<RoomMember>,
    pub created_at: Timestamp,
    pub expires_at: Timestamp,
    /// The game being played, or the last one.
    pub game_id: Option<GameId>,
    /// How many games the room has started.
    pub games_played: u32,
    /// How the room's games are timed; `None` for the default.
    pub time_control: Option<TimeControl>,
    /// Whether the room's games start from an XOT opening.
    pub xot: bool,
}

/// Where a game's analysis stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnalysisStatus {
    /// Waiting for a node to claim it.
    Queued,
    /// Claimed by a node, which is working on it.
    Running,
    /// Finished: the result is stored.
    Done,
    /// Given up; a new request queues it again.
    Failed,
}

impl AnalysisStatus {
    /// The stored and wire form.
    pub const fn as_str(self) -> &'static str {
        match self {
            AnalysisStatus::Queued => "queued",
            AnalysisStatus::Running => "running",
            AnalysisStatus::Done => "done",
            AnalysisStatus::Failed => "failed",
        }
    }

    /// Whether the analysis is still to come (queued or running).
    pub const fn is_open(self) -> bool {
        matches!(self, AnalysisStatus::Queued | AnalysisStatus::Running)
    }
}

impl std::str::FromStr for AnalysisStatus {
    type Err = String;

    fn from_str(text: &str) -> Result<AnalysisStatus, String> {
        match text {
            "queued" => Ok(AnalysisStatus::Queued),
            "running" => Ok(AnalysisStatus::Running),
            "done" => Ok(AnalysisStatus::Done),
            "failed" => Ok(AnalysisStatus::Failed),
            other => Err(format!("{other:?} is not an analysis status")),
        }
    }
}

/// A stored analysis of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisRow {
    pub game_id: GameId,
    pub status: AnalysisStatus,
    /// The engine that made, or is to make, the analysis (e.g. `outflank-engine 0.1.0`).
    pub engine: String,
    /// The player who asked for it; `None` when it was queued at the end of the game.
    pub requested_by: Option<PlayerId>,
    pub progress_done: u32,
    pub progress_total: u32,
    /// The node working on it, and when it last said so.
    pub claimed_by: Option<String>,
    pub claimed_at: Option<Timestamp>,
    /// The per-ply result as JSON text, once done.
    pub result: Option<String>,
    /// Why it failed.
    pub error: Option<String>,
    /// When it was (last) queued.
    pub created_at: Timestamp,
    pub finished_at: Option<Timestamp>,
}

/// Where a finished game's moves come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameSource {
    /// Played on the server, each move by the player in its seat.
    Played,
    /// An uploaded record: its moves are whoever's the record says, not its seats' players'.
    Imported,
}

/// Who asked for an analysis: the player, and the client they asked from, each capped in the
/// analyses they may have waiting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisRequester {
    pub player: PlayerId,
    pub client: ClientKey,
}

/// The open (queued or running) analyses of an [`AnalysisRequester`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenAnalyses {
    /// Asked for by its player.
    pub by_player: u32,
    /// Asked for from its client address, by anyone.
    pub from_client: u32,
}

/// What [`Store::queue_analysis`](super::Store::queue_analysis) did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QueuedAnalysis {
    /// A new request: the row is now queued (new, or again after a failure or for a newer
    /// engine).
    Queued(AnalysisRow),
    /// Nothing to do: the game is queued, running or already analysed by this engine.
    Existing(AnalysisRow),
}

/// A puzzle from a player's game: the position before their mistake, to be mended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleRow {
    pub id: PuzzleId,
    /// The player who made the mistake, and whose puzzle it is.
    pub player_id: PlayerId,
    /// The position before the mistake.
    pub position: Board,
    /// The move played there.
    pub played: Move,
    /// Discs it lost against the best move.
    pub loss: i32,
    /// The best move.
    pub solution: Move,
    /// Every legal move's value, as JSON text (the service's to read).
    pub move_values: String,
    /// Answers given so far, and when the first right one was.
    pub attempts: u32,
    pub solved_at: Option<Timestamp>,
    pub created_at: Timestamp,
}
