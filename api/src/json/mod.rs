//! The JSON both the sockets and the HTTP routes send about games, written once at the edge:
//! a side, the board as text, legal squares with their flips, every position of a game, a
//! rating change as shown.

pub mod social;

use outflank_engine::{Bitboard, Board, Color, Game, Move, Square, openings};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::accounts::rating::{RatingChange, is_provisional, shown};

/// A colour on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Black,
    White,
}

impl From<Color> for Side {
    fn from(color: Color) -> Side {
        match color {
            Color::Black => Side::Black,
            Color::White => Side::White,
        }
    }
}

impl From<Side> for Color {
    fn from(side: Side) -> Color {
        match side {
            Side::Black => Color::Black,
            Side::White => Color::White,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LegalMsg {
    pub square: Square,
    pub flips: SquareList,
}

/// Squares as a list of their names in square order, `["d4", "e4"]`: written straight from
/// the set, as every move's broadcast holds one for each legal move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SquareList(pub Bitboard);

impl Serialize for SquareList {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0)
    }
}

impl<'de> Deserialize<'de> for SquareList {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<SquareList, D::Error> {
        Ok(SquareList(Vec::<Square>::deserialize(deserializer)?.into_iter().collect()))
    }
}

impl LegalMsg {
    /// Every legal square of `board`'s side to move with the discs it flips, in square order.
    pub fn all(board: &Board) -> Vec<LegalMsg> {
        board
            .legal_moves()
            .into_iter()
            .map(|square| LegalMsg { square, flips: SquareList(board.flips(square)) })
            .collect()
    }
}

/// One side's rating around a rated game, as shown (whole numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingSide {
    pub before: i64,
    pub after: i64,
    pub change: i64,
    /// Still provisional after this game.
    pub provisional: bool,
}

impl From<&RatingChange> for RatingSide {
    fn from(change: &RatingChange) -> RatingSide {
        RatingSide {
            before: shown(change.before),
            after: shown(change.after),
            change: shown(change.after) - shown(change.before),
            provisional: is_provisional(change.game_number),
        }
    }
}

/// The 64-character board: `X` Black, `O` White, `-` empty, from a1 to h8 row by row.
pub fn board_text(board: &Board) -> String {
    Square::ALL.iter().map(|&square| board.at(square).map_or('-', Color::letter)).collect()
}

/// The position after each ply (index 0 is the start), each with the disc placed last and
/// what it flipped (a pass keeps the one before): the `positions` of a game's replay and of
/// the analysis board.
pub fn positions_json(game: &Game) -> serde_json::Value {
    let mut last_move = serde_json::Value::Null;
    let mut positions = vec![serde_json::json!({
        "ply": 0, "board": board_text(&game.start()), "last_move": last_move, "opening_name": null,
    })];
    let openings = openings::openings_by_ply(game);
    for (index, &mv) in game.plies().iter().enumerate() {
        let (Some(before), Some(after)) = (game.board_after(index), game.board_after(index + 1))
        else {
            break;
        };
        if let Move::Place(square) = mv {
            last_move = serde_json::json!({
                "number": index + 1,
                "color": before.side_to_move().name().to_lowercase(),
                "square": square,
                "flips": SquareList(before.flips(square)),
            });
        }
        let opening = openings.get(index).copied().flatten();
        positions.push(serde_json::json!({
            "ply": index + 1,
            "board": board_text(&after),
            "last_move": last_move,
            "opening_name": opening.map(|opening| opening.name()),
        }));
    }
    serde_json::Value::Array(positions)
}
