//! The two sides.

use std::fmt;
use std::ops::Not;

/// A side: Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// Both sides, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other side.
    pub const fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The letter used in position strings: `X` for Black, `O` for White.
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }

    /// The side written as `X`/`*`/`B` (Black) or `O`/`W` (White), either case.
    pub const fn from_letter(letter: char) -> Option<Color> {
        match letter.to_ascii_uppercase() {
            'X' | '*' | 'B' => Some(Color::Black),
            'O' | 'W' => Some(Color::White),
            _ => None,
        }
    }

    /// The English name, `"Black"` or `"White"`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "Black",
            Color::White => "White",
        }
    }
}

impl Not for Color {
    type Output = Color;

    fn not(self) -> Color {
        self.opposite()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
