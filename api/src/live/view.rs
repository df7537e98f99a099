//! What a live game shows: plies, positions, clocks, results and seats.

use outflank_engine::{Bitboard, Board, Color, GameResult, Move, Square};

use crate::domain::{EndReason, GameStatus, Winner};

/// One ply of the game: a move or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Ply {
    /// 1-based, counting passes.
    pub number: usize,
    pub color: Color,
    pub mv: Move,
}

/// The last disc placed (passes skipped) and what it flipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LastMove {
    /// The ply number of the move.
    pub number: usize,
    pub color: Color,
    pub square: Square,
    pub flips: Bitboard,
}

/// A legal square for the side to move and the discs it would flip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LegalMove {
    pub square: Square,
    pub flips: Bitboard,
}

/// The board as players see it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Position {
    pub board: Board,
    /// The side to move; `None` once the game has ended.
    pub to_move: Option<Color>,
    /// Legal squares of the side to move, in square order (a1, b1, … h8); empty once ended.
    pub legal: Vec<LegalMove>,
    /// Disc counts and empty squares.
    pub counts: GameResult,
    /// The name of the named opening the game's first moves make (the longest that matches,
    /// kept once the game leaves the named lines), if any.
    pub opening_name: Option<String>,
}

/// Both sides' clocks at one moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Clocks {
    pub black_ms: i64,
    pub white_ms: i64,
    /// The side whose time runs; `None` once the game has ended.
    pub running: Option<Color>,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Ending {
    pub reason: EndReason,
    /// `None` when aborted (no result); `Some(Winner::Draw)` for a draw.
    pub winner: Option<Winner>,
}

impl Ending {
    /// The end when neither side can move: more discs wins.
    pub fn normal(counts: GameResult) -> Ending {
        let winner = counts.winner().map_or(Winner::Draw, winner_of);
        Ending { reason: EndReason::Normal, winner: Some(winner) }
    }

    /// `loser` lost for `reason` (resignation or timeout).
    pub fn loss(loser: Color, reason: EndReason) -> Ending {
        Ending { reason, winner: Some(winner_of(loser.opposite())) }
    }

    /// Ended without a result.
    pub fn aborted() -> Ending {
        Ending { reason: EndReason::Aborted, winner: None }
    }

    /// A draw both players agreed to.
    pub fn agreed_draw() -> Ending {
        Ending { reason: EndReason::AgreedDraw, winner: Some(Winner::Draw) }
    }

    /// Finished, or aborted when there is no result.
    pub fn status(&self) -> GameStatus {
        match self.reason {
            EndReason::Aborted => GameStatus::Aborted,
            _ => GameStatus::Finished,
        }
    }
}

/// The winner matching a colour.
pub fn winner_of(color: Color) -> Winner {
    match color {
        Color::Black => Winner::Black,
        Color::White => Winner::White,
    }
}

/// What a connected person may do in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    Black,
    White,
    /// Plays both sides (same-device games).
    Both,
    /// Watches, read-only.
    Spectator,
}

impl Seat {
    /// The seat of one colour.
    pub fn of(color: Color) -> Seat {
        match color {
            Color::Black => Seat::Black,
            Color::White => Seat::White,
        }
    }

    /// Whether this seat plays `color`.
    pub fn plays(self, color: Color) -> bool {
        matches!(
            (self, color),
            (Seat::Both, _) | (Seat::Black, Color::Black) | (Seat::White, Color::White)
        )
    }

    /// The colours this seat plays.
    pub fn colors(self) -> &'static [Color] {
        match self {
            Seat::Black => &[Color::Black],
            Seat::White => &[Color::White],
            Seat::Both => &Color::ALL,
            Seat::Spectator => &[],
        }
    }

    /// The wire form: `black`, `white`, `both` or `spectator`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Seat::Black => "black",
            Seat::White => "white",
            Seat::Both => "both",
            Seat::Spectator => "spectator",
        }
    }
}
