//! What can be asked of a live game, and why a request may be refused.

use outflank_engine::{Move, Square};
use thiserror::Error;

use crate::domain::{GameId, PlayerId};

use super::SearchId;

/// A request to a live game. Player commands carry who sent them; the game decides whether
/// that person may.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Place a disc on `square` for the side to move.
    Move { by: PlayerId, square: Square },
    /// Give up; the other side wins.
    Resign { by: PlayerId },
    /// Offer a draw to the opponent (or accept theirs if one is pending).
    OfferDraw { by: PlayerId },
    /// Accept the opponent's draw offer.
    AcceptDraw { by: PlayerId },
    /// Decline the opponent's draw offer.
    DeclineDraw { by: PlayerId },
    /// Ask for a rematch after the end. `next_game` becomes the new game's id if this request
    /// completes the agreement; otherwise it is unused.
    Rematch { by: PlayerId, next_game: GameId },
    /// Take back moves (computer and same-device games only).
    Undo { by: PlayerId },
    /// Leave the game: resigns (or, on one device, aborts) a game in progress; after the end,
    /// withdraws from any rematch.
    Leave { by: PlayerId },
    /// Sent by the driver at [`GameState::next_deadline`](super::GameState::next_deadline):
    /// applies timeouts and delayed computer replies that are due.
    Tick,
    /// The result of the search the game asked for; ignored unless `search_id` is the one
    /// still awaited.
    ComputerMove { search_id: SearchId, mv: Move },
}

/// Why a command was refused. The game is unchanged; the error goes only to the sender.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum CommandError {
    #[error("you are not a player in this game")]
    NotAPlayer,
    #[error("the game is over")]
    GameOver,
    #[error("the game is not over yet")]
    GameNotOver,
    #[error("it is not your turn")]
    NotYourTurn,
    #[error("{0} is not a legal move")]
    IllegalMove(Square),
    #[error("the computer's move {0} is not legal")]
    IllegalComputerMove(Move),
    #[error("moves can only be taken back against the computer or on one device")]
    UndoNotAllowed,
    #[error("there is no move of yours to take back")]
    NothingToUndo,
    #[error("draws can only be offered in games between two people")]
    DrawNotAllowed,
    #[error("you have already offered a draw")]
    DrawAlreadyOffered,
    #[error("you can offer a draw again after {0} more plies")]
    DrawOfferTooSoon(usize),
    #[error("there is no draw offer to answer")]
    NoDrawOffer,
    #[error("you have already asked for a rematch")]
    RematchAlreadyAsked,
    #[error("the rematch has already started")]
    RematchAlreadyStarted,
    #[error("your opponent has left")]
    OpponentLeft,
}

impl CommandError {
    /// The stable code sent to clients (`docs/protocol.md` lists them).
    pub const fn code(self) -> &'static str {
        match self {
            CommandError::NotAPlayer => "not_a_player",
            CommandError::GameOver => "game_over",
            CommandError::GameNotOver => "game_not_over",
            CommandError::NotYourTurn => "not_your_turn",
            CommandError::IllegalMove(_) => "illegal_move",
            CommandError::IllegalComputerMove(_) => "illegal_computer_move",
            CommandError::UndoNotAllowed => "undo_not_allowed",
            CommandError::NothingToUndo => "nothing_to_undo",
            CommandError::DrawNotAllowed => "draw_not_allowed",
            CommandError::DrawAlreadyOffered => "draw_already_offered",
            CommandError::DrawOfferTooSoon(_) => "draw_offer_too_soon",
            CommandError::NoDrawOffer => "no_draw_offer",
            CommandError::RematchAlreadyAsked => "rematch_already_asked",
            CommandError::RematchAlreadyStarted => "rematch_already_started",
            CommandError::OpponentLeft => "opponent_left",
        }
    }
}
