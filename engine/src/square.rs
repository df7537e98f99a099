//! Squares of the board: `a1` is the top-left corner, rows run 1–8 from top to bottom.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// A square, numbered `row * 8 + column` so that `a1` is bit 0, `h1` bit 7 and `h8` bit 63.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[rustfmt::skip]
pub enum Square {
    A1 = 0,
    B1 = 1,
    C1 = 2,
    D1 = 3,
    E1 = 4,
    F1 = 5,
    G1 = 6,
    H1 = 7,
    A2 = 8,
    B2 = 9,
    C2 = 10,
    D2 = 11,
    E2 = 12,
    F2 = 13,
    G2 = 14,
    H2 = 15,
    A3 = 16,
    B3 = 17,
    C3 = 18,
    D3 = 19,
    E3 = 20,
    F3 = 21,
    G3 = 22,
    H3 = 23,
    A4 = 24,
    B4 = 25,
    C4 = 26,
    D4 = 27,
    E4 = 28,
    F4 = 29,
    G4 = 30,
    H4 = 31,
    A5 = 32,
    B5 = 33,
    C5 = 34,
    D5 = 35,
    E5 = 36,
    F5 = 37,
    G5 = 38,
    H5 = 39,
    A6 = 40,
    B6 = 41,
    C6 = 42,
    D6 = 43,
    E6 = 44,
    F6 = 45,
    G6 = 46,
    H6 = 47,
    A7 = 48,
    B7 = 49,
    C7 = 50,
    D7 = 51,
    E7 = 52,
    F7 = 53,
    G7 = 54,
    H7 = 55,
    A8 = 56,
    B8 = 57,
    C8 = 58,
    D8 = 59,
    E8 = 60,
    F8 = 61,
    G8 = 62,
    H8 = 63,
}

/// Text that does not name a square (`a1` to `h8`, either case).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("\"{0}\" is not a square (columns a–h, rows 1–8)")]
pub struct ParseSquareError(pub String);

impl Square {
    /// All 64 squares, `a1` first, row by row.
    #[rustfmt::skip]
    pub const ALL: [Square; 64] = {
        use Square::*;
        [
        A1, B1, C1, D1, E1, F1, G1, H1,
        A2, B2, C2, D2, E2, F2, G2, H2,
        A3, B3, C3, D3, E3, F3, G3, H3,
        A4, B4, C4, D4, E4, F4, G4, H4,
        A5, B5, C5, D5, E5, F5, G5, H5,
        A6, B6, C6, D6, E6, F6, G6, H6,
        A7, B7, C7, D7, E7, F7, G7, H7,
        A8, B8, C8, D8, E8, F8, G8, H8,
        ]
    };

    /// The square with this index (`row * 8 + column`), if it is below 64.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 { Some(Square::ALL[index as usize]) } else { None }
    }

    /// The square at `column` (0 = a) and `row` (0 = row 1), if both are below 8.
    pub const fn from_coords(column: u8, row: u8) -> Option<Square> {
        if column < 8 && row < 8 { Square::new(row * 8 + column) } else { None }
    }

    /// Parses two ASCII bytes such as `b"d3"` or `b"D3"`.
    pub const fn from_ascii(text: &[u8]) -> Option<Square> {
        if text.len() != 2 {
            return None;
        }
        let column = text[0].to_ascii_lowercase().wrapping_sub(b'a');
        let row = text[1].wrapping_sub(b'1');
        Square::from_coords(column, row)
    }

    /// Index 0..64 (`a1` = 0).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Column 0..8 (`a` = 0).
    pub const fn column(self) -> u8 {
        self as u8 % 8
    }

    /// Row 0..8 (row `1` = 0, at the top).
    pub const fn row(self) -> u8 {
        self as u8 / 8
    }

    /// The single-bit mask of this square.
    pub const fn bit(self) -> u64 {
        1u64 << self as u8
    }

    /// The square's name, such as `"d3"`: what [`fmt::Display`] writes, without formatting
    /// machinery or an allocation (a server writes thousands of them a second).
    pub const fn name(self) -> &'static str {
        NAMES[self as usize]
    }
}

/// Every square's name, by index.
#[rustfmt::skip]
const NAMES: [&str; 64] = [
    "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1",
    "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2",
    "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3",
    "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4",
    "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5",
    "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6",
    "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7",
    "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8",
];

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Square::from_ascii(text.as_bytes()).ok_or_else(|| ParseSquareError(text.to_owned()))
    }
}

impl TryFrom<u8> for Square {
    type Error = ParseSquareError;

    fn try_from(index: u8) -> Result<Self, Self::Error> {
        Square::new(index).ok_or_else(|| ParseSquareError(index.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a1_is_bit_zero_and_h8_is_bit_63() {
        assert_eq!(Square::A1.index(), 0);
        assert_eq!(Square::H1.index(), 7);
        assert_eq!(Square::A2.index(), 8);
        assert_eq!(Square::H8.index(), 63);
    }

    #[test]
    fn names_round_trip_for_every_square() {
        for square in Square::ALL {
            assert_eq!(square.to_string().parse::<Square>(), Ok(square));
        }
    }

    #[test]
    fn a_square_is_named_by_its_column_letter_then_its_row_number() {
        assert_eq!((Square::A1.name(), Square::D3.name(), Square::H8.name()), ("a1", "d3", "h8"));
        for square in Square::ALL {
            let expected = [b'a' + square.column(), b'1' + square.row()];
            assert_eq!(square.name().as_bytes(), expected, "square {}", square.index());
        }
    }

    #[test]
    fn parsing_accepts_upper_case() {
        assert_eq!("D3".parse::<Square>(), Ok(Square::D3));
    }

    #[test]
    fn parsing_rejects_anything_off_the_board() {
        for text in ["", "d", "i1", "a0", "a9", "h9", "d33", " d3", "3d", "é1"] {
            assert_eq!(text.parse::<Square>(), Err(ParseSquareError(text.to_owned())), "{text}");
        }
    }
}
