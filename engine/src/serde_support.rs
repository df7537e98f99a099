//! Serde support (the `serde` feature), for programs that send engine values between
//! processes: squares, moves and XOT openings as their text (`"d3"`, `"pass"`), colours as `"black"` and
//! `"white"`, levels and classes of move by name, bitboards as their `u64`, and a board as both sides' discs with
//! the side to move.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::ai::Level;
use crate::analysis::Class;
use crate::xot::Opening;
use crate::{Bitboard, Board, Color, GameResult, Move, Square};

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Square, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(D::Error::custom)
    }
}

impl Serialize for Opening {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Opening {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Opening, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(D::Error::custom)
    }
}

impl Serialize for Move {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Move {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Move, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(D::Error::custom)
    }
}

impl Serialize for Color {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

impl<'de> Deserialize<'de> for Color {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Color, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        match text.as_ref() {
            "black" => Ok(Color::Black),
            "white" => Ok(Color::White),
            other => Err(D::Error::custom(format!("{other:?} is not a colour"))),
        }
    }
}

impl Serialize for Class {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Class {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Class, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Class::from_name(&text)
            .ok_or_else(|| D::Error::custom(format!("{text:?} is not a class of move")))
    }
}

impl Serialize for Level {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Level {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Level, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(D::Error::custom)
    }
}

impl Serialize for Bitboard {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u64(self.0)
    }
}

impl<'de> Deserialize<'de> for Bitboard {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Bitboard, D::Error> {
        u64::deserialize(deserializer).map(Bitboard)
    }
}

/// A board's fields as they travel.
#[derive(Serialize, Deserialize)]
struct BoardFields {
    black: Bitboard,
    white: Bitboard,
    side: Color,
}

impl Serialize for Board {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        BoardFields { black: self.black(), white: self.white(), side: self.side_to_move() }
            .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Board {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Board, D::Error> {
        let fields = BoardFields::deserialize(deserializer)?;
        Board::from_discs(fields.black, fields.white, fields.side).map_err(D::Error::custom)
    }
}

/// The counts as they travel.
#[derive(Serialize, Deserialize)]
struct Counts {
    black: u8,
    white: u8,
    empty: u8,
}

impl Serialize for GameResult {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Counts { black: self.black, white: self.white, empty: self.empty }.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for GameResult {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<GameResult, D::Error> {
        let Counts { black, white, empty } = Counts::deserialize(deserializer)?;
        Ok(GameResult { black, white, empty })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<T: Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug>(
        value: T,
    ) -> String {
        let text = serde_json::to_string(&value).unwrap();
        assert_eq!(serde_json::from_str::<T>(&text).unwrap(), value, "{text}");
        text
    }

    #[test]
    fn squares_and_moves_travel_as_their_text() {
        assert_eq!(round_trip(Square::D3), r#""d3""#);
        assert_eq!(round_trip(Move::Place(Square::H8)), r#""h8""#);
        assert_eq!(round_trip(Move::Pass), r#""pass""#);
        assert_eq!(round_trip(Color::White), r#""white""#);
        assert_eq!(round_trip(Level::HARD), r#""10""#);
    }

    #[test]
    fn a_class_of_move_travels_as_its_name() {
        for class in Class::ALL {
            assert_eq!(round_trip(class), format!("\"{}\"", class.name()));
        }
        assert!(serde_json::from_str::<Class>(r#""brilliant""#).is_err());
    }

    #[test]
    fn a_board_travels_with_its_side_to_move() {
        let board = Board::start().play(Move::Place(Square::D3)).unwrap();
        let text = round_trip(board);
        assert!(text.contains(r#""side":"white""#), "{text}");
    }

    #[test]
    fn a_board_with_a_square_taken_twice_is_refused() {
        let text = r#"{"black":1,"white":1,"side":"black"}"#;
        assert!(serde_json::from_str::<Board>(text).is_err());
    }
}
