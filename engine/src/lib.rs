//! Outflank's Reversi engine: exact rules on bitboards, games with history, text records,
//! computer players and an exact endgame solver. Pure: no I/O, no clocks, no randomness.
//!
//! Coordinates follow the Outflank rules: columns `a`–`h` left to right, rows `1`–`8` top to
//! bottom, so `a1` is the top-left corner and square index `row * 8 + column` (`a1` = bit 0).
//!
//! ```
//! use outflank_engine::{Board, Move, Square};
//!
//! let board = Board::start();
//! let moves: Vec<Square> = board.legal_moves().into_iter().collect();
//! assert_eq!(moves, [Square::D3, Square::C4, Square::F5, Square::E6]);
//! let after = board.play(Move::Place(Square::D3)).unwrap();
//! assert_eq!(after.counts().black, 4);
//! ```

mod bitboard;
mod board;
mod color;
mod movegen;
mod perft;
mod position;
mod square;

pub use bitboard::{Bitboard, Squares};
pub use board::{Board, BoardError, GameResult, IllegalMove, Move};
pub use color::Color;
pub use perft::perft;
pub use position::ParsePositionError;
pub use square::{ParseSquareError, Square};

// Games with history and text records.
mod game;
pub mod record;
pub use game::{Game, Outcome, ReplayError};
pub use record::{Conclusion, ParseRecordError, Record};

// GGF game files and the NBoard engine protocol.
pub mod ggf;
pub mod nboard;
pub use ggf::{GgfGame, ParseGgfError};

// Exact endgame solving.
pub mod solve;

// Game review: every ply judged by the search and the solver, its positions shared among
// threads.
pub mod analysis;
mod parallel;

// Computer players.
pub mod ai;
pub use ai::Level;

// Named openings (the Tiger, the Rose…), recognised by position.
pub mod openings;
pub use openings::{Opening, opening_of, opening_of_game, openings_by_ply};

// XOT: games started from a balanced eight-ply opening drawn at random.
pub mod xot;

#[cfg(feature = "serde")]
mod serde_support;
#[cfg(test)]
mod test_support;
