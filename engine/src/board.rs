//! A position: the discs of both sides and whose turn it is.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::movegen;
use crate::{Bitboard, Color, ParseSquareError, Square};

/// A move: a disc placed on a square, or a pass when the side to move has no legal square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Place(Square),
    Pass,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(square) => square.fmt(f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// Reads a move as [`Display`](fmt::Display) writes it: a square (`f5`) or `pass`, either case.
///
/// ```
/// use outflank_engine::{Move, Square};
///
/// assert_eq!("F5".parse::<Move>(), Ok(Move::Place(Square::F5)));
/// assert_eq!("pass".parse::<Move>(), Ok(Move::Pass));
/// assert!("z9".parse::<Move>().is_err());
/// ```
impl FromStr for Move {
    type Err = ParseSquareError;

    fn from_str(text: &str) -> Result<Move, ParseSquareError> {
        if text.eq_ignore_ascii_case("pass") {
            Ok(Move::Pass)
        } else {
            text.parse().map(Move::Place)
        }
    }
}

/// The final count of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    pub black: u8,
    pub white: u8,
    pub empty: u8,
}

impl GameResult {
    /// The side with more discs, or `None` for a draw. Empty squares count for nobody.
    pub fn winner(self) -> Option<Color> {
        match self.black.cmp(&self.white) {
            std::cmp::Ordering::Greater => Some(Color::Black),
            std::cmp::Ordering::Less => Some(Color::White),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// Discs of `color`.
    pub fn discs(self, color: Color) -> u8 {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }
}

/// "Black 34 · White 29 · 1 empty": the plain counts, empties shown apart.
impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Black {} · White {}", self.black, self.white)?;
        match self.empty {
            0 => Ok(()),
            1 => f.write_str(" · 1 empty"),
            n => write!(f, " · {n} empty"),
        }
    }
}

/// Why a move cannot be played in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum IllegalMove {
    #[error("{square} is not legal for {side}")]
    NotLegal { square: Square, side: Color },
    #[error("{side} cannot pass while a move exists")]
    PassWithMoves { side: Color },
    #[error("the game is over")]
    GameOver,
}

/// A position that cannot exist on a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum BoardError {
    #[error("{0} holds both a black and a white disc")]
    Overlap(Square),
}

/// A position: discs of the side to move and of its opponent, plus which side that is.
///
/// Stored relative to the mover (`player`, `opponent`) because that is what search needs;
/// [`Board::black`] and [`Board::white`] give the absolute view.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    player: u64,
    opponent: u64,
    side: Color,
}

impl Default for Board {
    fn default() -> Self {
        Board::start()
    }
}

impl Board {
    /// The start: White on d4 and e5, Black on d5 and e4, Black to move.
    pub const fn start() -> Board {
        Board {
            player: Square::D5.bit() | Square::E4.bit(),
            opponent: Square::D4.bit() | Square::E5.bit(),
            side: Color::Black,
        }
    }

    /// A position from the discs of each side and the side to move.
    ///
    /// # Errors
    /// [`BoardError::Overlap`] if a square holds discs of both sides.
    pub fn from_discs(black: Bitboard, white: Bitboard, side: Color) -> Result<Board, BoardError> {
        if let Some(square) = (black & white).first() {
            return Err(BoardError::Overlap(square));
        }
        Ok(Board::from_sides(black, white, side))
    }

    fn from_sides(black: Bitboard, white: Bitboard, side: Color) -> Board {
        let (player, opponent) = match side {
            Color::Black => (black.0, white.0),
            Color::White => (white.0, black.0),
        };
        Board { player, opponent, side }
    }

    /// The side to move.
    pub const fn side_to_move(&self) -> Color {
        self.side
    }

    /// Discs of the side to move.
    pub const fn player(&self) -> Bitboard {
        Bitboard(self.player)
    }

    /// Discs of the side not to move.
    pub const fn opponent(&self) -> Bitboard {
        Bitboard(self.opponent)
    }

    /// Discs of `color`.
    pub const fn discs(&self, color: Color) -> Bitboard {
        if color as u8 == self.side as u8 { Bitboard(self.player) } else { Bitboard(self.opponent) }
    }

    /// Black's discs.
    pub const fn black(&self) -> Bitboard {
        self.discs(Color::Black)
    }

    /// White's discs.
    pub const fn white(&self) -> Bitboard {
        self.discs(Color::White)
    }

    /// Empty squares.
    pub const fn empty(&self) -> Bitboard {
        Bitboard(!(self.player | self.opponent))
    }

    /// What stands on `square`: `Some(color)` or `None` if empty.
    pub fn at(&self, square: Square) -> Option<Color> {
        if self.player & square.bit() != 0 {
            Some(self.side)
        } else if self.opponent & square.bit() != 0 {
            Some(self.side.opposite())
        } else {
            None
        }
    }

    /// Squares where the side to move may play.
    pub fn legal_moves(&self) -> Bitboard {
        Bitboard(movegen::moves(self.player, self.opponent))
    }

    /// Whether playing on `square` is legal.
    pub fn is_legal(&self, square: Square) -> bool {
        self.legal_moves().contains(square)
    }

    /// Discs that playing on `square` would flip; empty if the move is not legal.
    pub fn flips(&self, square: Square) -> Bitboard {
        if (self.player | self.opponent) & square.bit() != 0 {
            return Bitboard::EMPTY;
        }
        Bitboard(movegen::flips(self.player, self.opponent, square.index()))
    }

    /// Whether the side to move has no legal square (and so must pass, or the game is over).
    pub fn has_no_moves(&self) -> bool {
        movegen::moves(self.player, self.opponent) == 0
    }

    /// Whether the side to move must pass: it has no move, but its opponent has.
    pub fn must_pass(&self) -> bool {
        self.has_no_moves() && movegen::moves(self.opponent, self.player) != 0
    }

    /// Whether neither side can move.
    pub fn is_game_over(&self) -> bool {
        self.has_no_moves() && movegen::moves(self.opponent, self.player) == 0
    }

    /// The counts, if the game is over.
    pub fn result(&self) -> Option<GameResult> {
        self.is_game_over().then(|| self.counts())
    }

    /// Disc counts as they stand, finished or not.
    pub fn counts(&self) -> GameResult {
        GameResult {
            black: self.black().count() as u8,
            white: self.white().count() as u8,
            empty: self.empty().count() as u8,
        }
    }

    /// Plays `mv` if it is legal.
    ///
    /// # Errors
    /// [`IllegalMove`] if the square is not a legal move, if a pass is asked while a move exists,
    /// or if the game is over. The board is unchanged (it is `Copy`; a new one is returned).
    pub fn play(&self, mv: Move) -> Result<Board, IllegalMove> {
        if self.is_game_over() {
            return Err(IllegalMove::GameOver);
        }
        match mv {
            Move::Place(square) => {
                let flipped = self.flips(square);
                if flipped.is_empty() {
                    return Err(IllegalMove::NotLegal { square, side: self.side });
                }
                Ok(self.place(square, flipped.0))
            }
            Move::Pass if self.has_no_moves() => Ok(self.pass_unchecked()),
            Move::Pass => Err(IllegalMove::PassWithMoves { side: self.side }),
        }
    }

    /// Places a disc on `square` flipping `flipped`, with no legality check (for search).
    #[inline]
    pub(crate) const fn place(&self, square: Square, flipped: u64) -> Board {
        Board {
            player: self.opponent ^ flipped,
            opponent: self.player ^ flipped ^ square.bit(),
            side: self.side.opposite(),
        }
    }

    /// Plays on `square` without checking that it is legal (for search and tools that already
    /// know). On an illegal square the result is a meaningless position: legality is the
    /// caller's job.
    pub fn play_unchecked(&self, square: Square) -> Board {
        self.place(square, movegen::flips(self.player, self.opponent, square.index()))
    }

    /// Hands the turn to the opponent without a check.
    pub const fn pass_unchecked(&self) -> Board {
        Board { player: self.opponent, opponent: self.player, side: self.side.opposite() }
    }

    /// The raw mover/opponent bitboards.
    pub(crate) const fn raw(&self) -> (u64, u64) {
        (self.player, self.opponent)
    }
}

/// The board drawn as 8 rows of `X` (Black), `O` (White) and `-`, then the side to move.
impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "  a b c d e f g h")?;
        for row in 0..8u8 {
            write!(f, "{}", row + 1)?;
            for column in 0..8u8 {
                let square = Square::from_coords(column, row).expect("in range");
                let c = self.at(square).map_or('-', Color::letter);
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        write!(f, "{} to move", self.side)
    }
}
