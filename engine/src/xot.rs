//! XOT openings: games started from a balanced eight-ply line drawn at random, so that opening
//! theory learnt by heart counts for less and every game is fresh from its ninth ply.
//!
//! The list ([`openings`]) is the engine's own: `outflank-engine xot` takes every position eight
//! plies from the start, one per class of positions the start's symmetries map onto each other,
//! values each with a search and keeps those within a margin of even. Its output is committed
//! as `xot_openings.txt` (its header says the command and the search) and compiled in.
//!
//! The start position looks the same under four symmetries of the board ([`Symmetry`]), so
//! each listed line stands for up to four lines that play the same: a game may start from any
//! of them ([`Opening::under`]).

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use thiserror::Error;

use crate::{Bitboard, Board, Game, Move, Square};

/// How many plies an XOT opening has.
pub const PLIES: usize = 8;

/// The list as committed: comment lines starting with `#`, then one opening a line.
const LIST: &str = include_str!("xot_openings.txt");

/// A symmetry of the board that leaves the start position as it is. Columns `a`–`h` and rows
/// `1`–`8` (top to bottom) count 0–7 here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Every square stays.
    Identity,
    /// Half a turn: (column, row) to (7 − column, 7 − row).
    HalfTurn,
    /// The reflection in the a1–h8 diagonal: (column, row) to (row, column).
    Diagonal,
    /// The reflection in the h1–a8 diagonal: (column, row) to (7 − row, 7 − column).
    AntiDiagonal,
}

impl Symmetry {
    /// Every symmetry of the start position.
    pub const ALL: [Symmetry; 4] =
        [Symmetry::Identity, Symmetry::HalfTurn, Symmetry::Diagonal, Symmetry::AntiDiagonal];

    /// Where `square` goes.
    pub fn square(self, square: Square) -> Square {
        let (column, row) = (square.column(), square.row());
        let (column, row) = match self {
            Symmetry::Identity => (column, row),
            Symmetry::HalfTurn => (7 - column, 7 - row),
            Symmetry::Diagonal => (row, column),
            Symmetry::AntiDiagonal => (7 - row, 7 - column),
        };
        Square::from_coords(column, row).unwrap_or(square)
    }

    /// Where the squares of `squares` go.
    pub fn bitboard(self, squares: Bitboard) -> Bitboard {
        squares.into_iter().map(|square| self.square(square)).collect()
    }

    /// `board` seen under the symmetry (the side to move stays).
    pub fn board(self, board: &Board) -> Board {
        let black = self.bitboard(board.black());
        let white = self.bitboard(board.white());
        // A symmetry maps a position onto a position with the same discs: always valid.
        Board::from_discs(black, white, board.side_to_move()).unwrap_or(*board)
    }
}

/// One XOT opening: eight placements from the start, no pass among them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Opening {
    squares: [Square; PLIES],
}

/// Why a text is not an XOT opening.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseOpeningError {
    #[error("an XOT opening has {PLIES} moves, not {0}")]
    Length(usize),
    #[error("move {number} {text:?} is not a square")]
    NotASquare { number: usize, text: String },
    #[error("move {number} {square} is not legal there")]
    Illegal { number: usize, square: Square },
}

impl Opening {
    /// The opening's squares, in the order played.
    pub fn squares(&self) -> &[Square; PLIES] {
        &self.squares
    }

    /// The same opening under `symmetry`: the line that plays it on the mirrored board.
    pub fn under(&self, symmetry: Symmetry) -> Opening {
        Opening { squares: self.squares.map(|square| symmetry.square(square)) }
    }

    /// The opening's moves.
    pub fn moves(&self) -> [Move; PLIES] {
        self.squares.map(Move::Place)
    }

    /// The position after the opening.
    pub fn board(&self) -> Board {
        self.squares.iter().fold(Board::start(), |board, &square| board.play_unchecked(square))
    }

    /// The game from the start with the opening played: an XOT game's record begins with it.
    pub fn game(&self) -> Game {
        // Every opening was checked legal when it was made (`FromStr`, `of_line`).
        Game::from_moves(Board::start(), self.moves()).unwrap_or_default()
    }

    /// The opening of `squares` if they are eight legal placements from the start.
    ///
    /// # Errors
    /// [`ParseOpeningError`] naming the first move that is not legal, or the wrong length.
    pub fn of_line(squares: &[Square]) -> Result<Opening, ParseOpeningError> {
        let line: [Square; PLIES] =
            squares.try_into().map_err(|_| ParseOpeningError::Length(squares.len()))?;
        let mut board = Board::start();
        for (index, &square) in line.iter().enumerate() {
            if !board.is_legal(square) {
                return Err(ParseOpeningError::Illegal { number: index + 1, square });
            }
            board = board.play_unchecked(square);
        }
        Ok(Opening { squares: line })
    }
}

impl FromStr for Opening {
    type Err = ParseOpeningError;

    /// Reads `d3 c5 f6 …`: eight squares separated by spaces.
    fn from_str(text: &str) -> Result<Opening, ParseOpeningError> {
        let squares = text
            .split_whitespace()
            .enumerate()
            .map(|(index, word)| {
                word.parse::<Square>().map_err(|_| ParseOpeningError::NotASquare {
                    number: index + 1,
                    text: word.to_owned(),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Opening::of_line(&squares)
    }
}

impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, square) in self.squares.iter().enumerate() {
            if index > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{square}")?;
        }
        Ok(())
    }
}

/// The XOT openings, in the committed list's order.
pub fn openings() -> &'static [Opening] {
    static OPENINGS: OnceLock<Vec<Opening>> = OnceLock::new();
    OPENINGS.get_or_init(|| list_lines(LIST).filter_map(|line| line.parse().ok()).collect())
}

/// The lines of a list that hold openings (not comments, not blank).
fn list_lines(list: &str) -> impl Iterator<Item = &str> {
    list.lines().map(str::trim).filter(|line| !line.is_empty() && !line.starts_with('#'))
}

/// The key of `board`'s class under the start's symmetries: the same for every position a
/// symmetry maps it onto.
fn class_key(board: &Board) -> (u64, u64) {
    Symmetry::ALL
        .into_iter()
        .map(|symmetry| {
            let seen = symmetry.board(board);
            (seen.black().0, seen.white().0)
        })
        .min()
        .unwrap_or((board.black().0, board.white().0))
}

/// Every candidate for the list: one line for each class of positions eight plies from the
/// start (without a pass) where the side to move has a choice of at least two moves, the first
/// such line in square order.
/// The order is that of the walk, so the output is the same on every run.
pub fn candidates() -> Vec<Opening> {
    let mut seen = std::collections::HashSet::new();
    let mut found = Vec::new();
    let mut line = Vec::with_capacity(PLIES);
    walk(Board::start(), &mut line, &mut seen, &mut found);
    found
}

fn walk(
    board: Board,
    line: &mut Vec<Square>,
    seen: &mut std::collections::HashSet<(u64, u64)>,
    found: &mut Vec<Opening>,
) {
    if line.len() == PLIES {
        if board.legal_moves().count() >= 2
            && seen.insert(class_key(&board))
            && let Ok(opening) = Opening::of_line(line)
        {
            found.push(opening);
        }
        return;
    }
    for square in board.legal_moves() {
        line.push(square);
        walk(board.play_unchecked(square), line, seen, found);
        line.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_symmetry_leaves_the_start_as_it_is() {
        for symmetry in Symmetry::ALL {
            assert_eq!(symmetry.board(&Board::start()), Board::start(), "{symmetry:?}");
        }
    }

    #[test]
    fn the_symmetries_map_squares_as_documented() {
        let f5: Square = "f5".parse().unwrap();
        let names = Symmetry::ALL.map(|symmetry| symmetry.square(f5).to_string());
        assert_eq!(names, ["f5", "c4", "e6", "d3"]);
    }

    #[test]
    fn an_opening_reads_back_as_written() {
        let text = "d3 c5 f6 f5 g6 g7 h8 g5";
        let opening: Opening = text.parse().unwrap();
        assert_eq!(opening.to_string(), text);
        assert_eq!(opening.game().plies().len(), PLIES);
    }

    #[test]
    fn a_line_of_the_wrong_length_or_with_an_illegal_move_is_no_opening() {
        assert_eq!("d3 c5".parse::<Opening>(), Err(ParseOpeningError::Length(2)));
        assert_eq!(
            "d3 c5 f6 f5 g6 g7 h8 a1".parse::<Opening>(),
            Err(ParseOpeningError::Illegal { number: 8, square: Square::A1 })
        );
        assert_eq!(
            "d3 c5 f6 f5 g6 g7 h8 z9".parse::<Opening>(),
            Err(ParseOpeningError::NotASquare { number: 8, text: "z9".into() })
        );
    }

    #[test]
    fn an_opening_under_a_symmetry_is_legal_and_reaches_the_mirrored_position() {
        let opening: Opening = "d3 c5 f6 f5 g6 g7 h8 g5".parse().unwrap();
        for symmetry in Symmetry::ALL {
            let mirrored = opening.under(symmetry);
            assert_eq!(Opening::of_line(mirrored.squares()), Ok(mirrored));
            assert_eq!(mirrored.board(), symmetry.board(&opening.board()), "{symmetry:?}");
        }
    }

    #[test]
    fn every_listed_line_is_an_opening_and_none_is_lost() {
        assert_eq!(openings().len(), list_lines(LIST).count());
        assert!(openings().len() >= 1_000, "{} openings", openings().len());
    }

    #[test]
    fn no_two_listed_openings_reach_the_same_position_up_to_symmetry() {
        let mut keys: Vec<_> =
            openings().iter().map(|opening| class_key(&opening.board())).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), openings().len());
    }

    #[test]
    fn every_listed_opening_is_a_candidate() {
        let candidates: std::collections::HashSet<Opening> = candidates().into_iter().collect();
        assert!(openings().iter().all(|opening| candidates.contains(opening)));
    }
}
