//! Position strings in the form used by published endgame test suites: 64 characters in
//! `a1 b1 … h8` order (`X` or `*` Black, `O` White, `-` or `.` empty), a space, the side to move.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::{Bitboard, Board, Color, Square};

/// Why a position string was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParsePositionError {
    #[error("a position needs 64 squares, found {0}")]
    Length(usize),
    #[error("square {square} holds {found:?}; expected X, *, O, - or .")]
    Square { square: Square, found: char },
    #[error("the side to move is missing; add X or O after the 64 squares")]
    MissingSide,
    #[error("{0:?} is not a side to move; expected X or O")]
    Side(String),
}

impl FromStr for Board {
    type Err = ParsePositionError;

    /// Parses `"<64 squares> <X|O>"`; whitespace around the side is free.
    fn from_str(text: &str) -> Result<Board, ParsePositionError> {
        let text = text.trim();
        let squares: String = text.chars().take_while(|c| !c.is_whitespace()).collect();
        let count = squares.chars().count();
        if count != 64 {
            return Err(ParsePositionError::Length(count));
        }
        let (mut black, mut white) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for (square, c) in Square::ALL.into_iter().zip(squares.chars()) {
            match c {
                'X' | 'x' | '*' => black = black.with(square),
                'O' | 'o' => white = white.with(square),
                '-' | '.' => {}
                found => return Err(ParsePositionError::Square { square, found }),
            }
        }
        let side_text = text[squares.len()..].trim();
        let side_text = side_text.split_whitespace().next().unwrap_or("");
        let side_text = side_text.trim_end_matches(';');
        if side_text.is_empty() {
            return Err(ParsePositionError::MissingSide);
        }
        let mut letters = side_text.chars();
        let side = match (letters.next().and_then(Color::from_letter), letters.next()) {
            (Some(side), None) => side,
            _ => return Err(ParsePositionError::Side(side_text.to_owned())),
        };
        Ok(Board::from_discs(black, white, side).expect("a square holds one letter"))
    }
}

/// Writes the 64-character form, then a space and `X` or `O`.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let squares: String =
            Square::ALL.iter().map(|&square| self.at(square).map_or('-', Color::letter)).collect();
        write!(f, "{squares} {}", self.side_to_move().letter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "---------------------------OX------XO--------------------------- X";

    #[test]
    fn start_position_has_its_standard_string() {
        assert_eq!(Board::start().to_string(), START);
        assert_eq!(START.parse::<Board>(), Ok(Board::start()));
    }

    #[test]
    fn stars_dots_and_lower_case_are_accepted() {
        let text = "...........................o*......*o........................... x";
        assert_eq!(text.parse::<Board>(), Ok(Board::start()));
    }

    #[test]
    fn wrong_length_is_rejected() {
        assert_eq!("---- X".parse::<Board>(), Err(ParsePositionError::Length(4)));
    }

    #[test]
    fn unknown_square_letter_is_named() {
        let text = format!("{}Z X", "-".repeat(63));
        assert_eq!(
            text.parse::<Board>(),
            Err(ParsePositionError::Square { square: Square::H8, found: 'Z' })
        );
    }

    #[test]
    fn missing_or_bad_side_is_rejected() {
        let squares = "-".repeat(64);
        assert_eq!(squares.parse::<Board>(), Err(ParsePositionError::MissingSide));
        assert_eq!(
            format!("{squares} Q").parse::<Board>(),
            Err(ParsePositionError::Side("Q".into()))
        );
    }

    #[test]
    fn obf_lines_parse_up_to_the_side() {
        let text = format!("{} O; A1:+2;", "-".repeat(64));
        assert_eq!(text.parse::<Board>().map(|b| b.side_to_move()), Ok(Color::White));
    }
}
