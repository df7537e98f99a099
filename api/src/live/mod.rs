//! Live games as pure state machines.
//!
//! A [`GameState`] holds one game: board and history, players, the clock, the draw
//! offer, rematch requests and the result. [`GameState::apply`] takes a [`Command`] and the
//! current time and returns [`Event`]s; it never reads a clock, does I/O or draws random
//! numbers, so tests step time by hand.
//!
//! # Driving a game
//! One task per game owns the state and loops:
//! 1. Take the next command (from a socket, a finished search, or a [`Command::Tick`] sent at
//!    [`GameState::next_deadline`]) and apply it at `Timestamp::now()`.
//! 2. On `Err`, send the error to the sender only; nothing changed.
//! 3. On `Ok(events)`, first store what the public events say ([`Event::Moved`]'s plies with
//!    their time, [`Event::Undone`]'s truncation, [`Event::Ended`]'s result, the game of
//!    [`Event::RematchStarted`]), then broadcast them in order (a move is durable before
//!    anyone hears of it), then act on [`Event::StartSearch`] and [`Event::CancelSearch`].
//! 4. Sleep until [`GameState::next_deadline`], or the next command.
//!
//! After creating or restoring a game, run [`GameState::search_request`] if there is one.
//!
//! # Rules beyond the board
//! - **Clocks** (clocked modes): a [`GameClock`] under the game's [`TimeControl`]; today's
//!   default is [`Timing::move_time_ms`] (30 s) per move. The side to move loses on time once
//!   its time and [`Timing::lag_allowance_ms`] (500 ms) of grace are spent. A forced pass costs
//!   nothing: the side that moved moves again with what the control gives after a move (a
//!   fresh move time, or its rest plus the increment). A side whose time runs out before its
//!   first move aborts the game (no result).
//! - **Computer**: no clock. After the person's move the game asks for a search; an answer
//!   arriving sooner than [`Timing::computer_delay_ms`] (300 ms) after that move is held and
//!   shown at the deadline. Undo or the end cancels the search; its late answer is ignored.
//! - **Draw offers** (two people only): an offer stands until the opponent accepts, declines
//!   or moves; offering while the opponent's offer stands accepts it. A player may offer again
//!   [`DRAW_OFFER_INTERVAL_PLIES`] plies after their previous offer.
//! - **Rematch** (after the end): every person in the game asks (the computer always agrees);
//!   the new game swaps colours and gets the id passed with the completing request.
//! - **Leave**: during the game, resigns (on one device, aborts); after it, rules out a rematch.

mod announcement;
mod broadcast;
mod command;
mod draw;
mod event;
mod game_clock;
pub mod ggs_clock;
mod history;
mod pool;
mod rematch;
mod setup;
mod snapshot;
mod state;
mod thinking_time;
mod time_control;
mod view;

#[cfg(test)]
mod tests;

pub use announcement::Announcement;
pub use broadcast::{Broadcast, CatchUp};
pub use command::{Action, Command, CommandError};
pub use draw::DRAW_OFFER_INTERVAL_PLIES;
pub use event::{Event, SearchId, SearchRequest};
pub use game_clock::GameClock;
pub use history::{History, Resume};
pub use pool::{Pool, RatedPlayers, UnknownPool};
pub use rematch::RematchView;
pub use setup::{
    DEFAULT_COMPUTER_DELAY_MS, DEFAULT_LAG_ALLOWANCE_MS, Human, Player, Setup, Stored, Timing,
};
pub use snapshot::Snapshot;
pub use state::{GameState, RATED_AFTER_MOVES, RestoreError};
pub use thinking_time::thinking_time;
pub use time_control::{BadTimeControl, ChosenControlError, DEFAULT_MOVE_TIME_MS, TimeControl};
pub use view::{Clocks, Ending, LastMove, LegalMove, Ply, Position, Seat, winner_of};
