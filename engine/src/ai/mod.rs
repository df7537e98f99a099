//! Computer players: a move for the side to move at a chosen [`Level`].
//!
//! One search serves every level: iterative deepening negamax alpha–beta with
//! principal-variation search, a transposition table, move ordering and probabilistic
//! cut-offs (ProbCut), over one of three evaluations ([`Evaluation`]); the last
//! empties go to the exact [solver](crate::solve). Levels differ in their budgets, which count
//! nodes and never time, so the same position and level give the same move (and node count)
//! on any machine.
//!
//! | level | evaluation | midgame search | exact endgame |
//! |---|---|---|---|
//! | 1 (Easy) | square table | 1 ply, a pick among moves within 0.8 disc of the best, seeded by the position | — |
//! | 2 | square table | 1 ply, a pick within 0.3 disc | — |
//! | 3 | square table | 2 plies, a pick within 0.4 disc | — |
//! | 4 | trained | 1 ply, a pick within 0.6 disc | — |
//! | 5 | trained | 3 plies within 2,000 nodes, a pick within 0.2 disc | last 4 empties |
//! | 6 | trained | as deep as 1,000 nodes go | last 6 empties |
//! | 7 (Medium) | trained | as deep as 8,000 nodes go | last 8 empties |
//! | 8 | trained | as deep as 60,000 nodes go | last 12 empties |
//! | 9 | trained | as deep as 500,000 nodes go | last 16 empties |
//! | 10 (Hard) | trained | as deep as 4,000,000 nodes go (about 0.4 s) | last 20 empties, within 16 M solver nodes |
//!
//! Each level's rating ([`Level::elo`]) comes from matches among the levels. When an exact
//! solve runs out of nodes, a win/loss/draw solve (half the nodes) decides if it finds a win
//! or a draw; otherwise the midgame search plays.
//!
//! Scores are for the side to move in **1/100 disc**: `+250` is "about 2.5 discs ahead". An
//! exact score is the final disc difference times 100 (empties count for nobody).
//!
//! ```
//! use outflank_engine::ai::{Level, best_move};
//! use outflank_engine::Board;
//!
//! let choice = best_move(&Board::start(), Level::MEDIUM, None).unwrap();
//! assert!(Board::start().play(choice.mv).is_ok());
//! ```
//!
//! # Evaluation
//! The trained evaluation (levels 4–10) sums weights over the classic Othello patterns, fitted
//! to self-play results ([`pattern`], and the engine's README). The hand-tuned one
//! ([`Evaluation::Full`]) adds mobility, potential mobility, corners, stable edge discs,
//! X- and C-squares next to an empty corner, edges, parity and, near the end, discs; the
//! source of the `eval` module says what each term is for and how much it weighs.

mod eval;
mod level;
mod ordering;
pub mod pattern;
mod probcut;
mod search;
mod tt;

use std::sync::atomic::AtomicBool;

use thiserror::Error;

use crate::{Board, Move};

pub use eval::Evaluation;
pub use level::{Level, ParseLevelError};
pub use search::{Search, SearchLimits};

/// A chosen move and what the search knows about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move: [`Move::Pass`] exactly when the side to move has no legal square.
    pub mv: Move,
    /// The score for the side to move, in 1/100 disc. When `exact`, the final disc difference
    /// times 100 under perfect play. When the solver could only prove a win or a draw (Hard,
    /// large endgames), `100` or `0` with `exact` false.
    pub score: i32,
    /// Plies searched: the last completed (or usefully cut-short) iteration; the number of
    /// empties for a solved endgame; 0 for a pass or a lone legal move.
    pub depth: u32,
    /// Positions visited, solver included.
    pub nodes: u64,
    /// Whether `score` is the proven final disc difference and `mv` reaches it.
    pub exact: bool,
}

/// Why no move was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum SearchError {
    /// The cancel flag was set before or during the search.
    #[error("the search was cancelled")]
    Cancelled,
    /// Neither side can move.
    #[error("the game is over")]
    GameOver,
}

/// The move `level` plays in `board`, for the side to move.
///
/// A side that must pass gets [`Move::Pass`] at once. The search polls `cancel` and gives up
/// when it is set.
///
/// # Errors
/// [`SearchError::Cancelled`] if `cancel` is set before or during the search (no move is
/// returned then); [`SearchError::GameOver`] if neither side can move.
pub fn best_move(
    board: &Board,
    level: Level,
    cancel: Option<&AtomicBool>,
) -> Result<Choice, SearchError> {
    Search::for_level(level).run(board, cancel)
}
