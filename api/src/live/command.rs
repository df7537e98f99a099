//! What can be asked of a live game, and why a request may be refused.

use outflank_engine::{Move, Square};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::domain::PlayerId;

use super::SearchId;

/// What a player may ask of a game. The one list of player commands: sockets read it from
/// clients, nodes send it to the node running the game, and the game judges it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// Place a disc on `square` for the side to move.
    Move { square: Square },
    /// Give up; the other side wins.
    Resign,
    /// Offer a draw to the opponent (or accept theirs if one is pending).
    OfferDraw,
    /// Accept the opponent's draw offer.
    AcceptDraw,
    /// Decline the opponent's draw offer.
    DeclineDraw,
    /// Ask for a rematch after the end; the new game's id derives from this game's
    /// ([`GameId::rematch_of`](crate::domain::GameId::rematch_of)).
    Rematch,
    /// Take back moves (computer and same-device games only).
    Undo,
    /// Leave the game: resigns (or, on one device, aborts) a game in progress; after the end,
    /// withdraws from any rematch.
    Leave,
}

impl Action {
    /// One action of every kind (a move to d3), in the order of [`Action::KINDS`].
    pub const EVERY_KIND: [Action; 8] = [
        Action::Move { square: Square::D3 },
        Action::Resign,
        Action::OfferDraw,
        Action::AcceptDraw,
        Action::DeclineDraw,
        Action::Rematch,
        Action::Undo,
        Action::Leave,
    ];

    /// Every action's type as clients write it: the one list of command names, which the
    /// socket reads and the browser client's is checked against.
    pub const KINDS: [&'static str; 8] = {
        let mut kinds = [""; 8];
        let mut index = 0;
        while index < kinds.len() {
            kinds[index] = Action::EVERY_KIND[index].kind();
            index += 1;
        }
        kinds
    };

    /// The action's type as clients write it, e.g. `"offer_draw"` (the same as its `type`
    /// field in JSON, which a test holds).
    pub const fn kind(self) -> &'static str {
        match self {
            Action::Move { .. } => "move",
            Action::Resign => "resign",
            Action::OfferDraw => "offer_draw",
            Action::AcceptDraw => "accept_draw",
            Action::DeclineDraw => "decline_draw",
            Action::Rematch => "rematch",
            Action::Undo => "undo",
            Action::Leave => "leave",
        }
    }
}

/// A request to a live game: a player's action, which carries who sent it (the game decides
/// whether that person may), or one of the driver's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `by` asks for `action`.
    Player { by: PlayerId, action: Action },
    /// Sent by the driver at [`GameState::next_deadline`](super::GameState::next_deadline):
    /// applies timeouts and delayed computer replies that are due.
    Tick,
    /// The result of the search the game asked for; ignored unless `search_id` is the one
    /// still awaited.
    ComputerMove { search_id: SearchId, mv: Move },
}

impl Command {
    /// `by` asks for `action`.
    pub fn player(by: PlayerId, action: Action) -> Command {
        Command::Player { by, action }
    }

    /// `by` places a disc on `square`.
    pub fn play(by: PlayerId, square: Square) -> Command {
        Command::Player { by, action: Action::Move { square } }
    }
}

/// Why a command was refused. The game is unchanged; the error goes only to the sender.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
#[serde(tag = "code", content = "detail", rename_all = "snake_case")]
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
