//! Rules of live games, with time stepped by hand.

mod clock;
mod computer;
mod draw;
mod moves;
mod rating;
mod rematch;
mod snapshot;
mod xot;

use outflank_engine::ai::Level;
use outflank_engine::{Bitboard, Color, Square};

use super::*;
use crate::domain::{GameId, Nickname, PlayerId, Timestamp};

/// The time every test game starts at.
const T0: Timestamp = Timestamp(1_000_000);

fn player(id: &str) -> PlayerId {
    id.parse().expect("a valid player id")
}

/// Plays Black in friend games and the person's side elsewhere.
fn ann() -> PlayerId {
    player("annaaaaaaaaaaaaa")
}

/// Plays White in friend games.
fn ben() -> PlayerId {
    player("bennbbbbbbbbbbbb")
}

/// Watches.
fn zed() -> PlayerId {
    player("zedzzzzzzzzzzzzz")
}

fn human(id: PlayerId, name: &str) -> Human {
    Human { id, name: Nickname::parse(name).expect("a valid nickname") }
}

fn game_id() -> GameId {
    "gameaaaaaa".parse().expect("a valid game id")
}

/// The id every rematch of [`game_id`] gets.
fn next_id() -> GameId {
    GameId::rematch_of(&game_id())
}

fn sq(text: &str) -> Square {
    text.parse().expect("a square")
}

fn squares(texts: &[&str]) -> Bitboard {
    texts.iter().map(|text| sq(text)).collect()
}

/// Ann (Black) against Ben (White), 30-s moves, starting at [`T0`].
fn friend_game() -> GameState {
    let setup = Setup::Friend { black: human(ann(), "Ann"), white: human(ben(), "Ben") };
    GameState::new(game_id(), setup, Timing::default(), T0)
}

/// Ann playing `color` against the computer at Medium.
fn computer_game(color: Color) -> GameState {
    let setup = Setup::Computer {
        human: human(ann(), "Ann"),
        color,
        level: Level::MEDIUM,
        timed: false,
        stand_in: false,
    };
    GameState::new(game_id(), setup, Timing::default(), T0)
}

/// Ann playing both sides.
fn same_device_game() -> GameState {
    GameState::new(
        game_id(),
        Setup::SameDevice { player: human(ann(), "Ann") },
        Timing::default(),
        T0,
    )
}

/// The person whose turn it is.
fn mover(state: &GameState) -> PlayerId {
    let side = state.game().side_to_move();
    state.setup().human(side).expect("a person to move").id.clone()
}

/// The side to move plays `square` at `now`.
fn play(state: &mut GameState, square: &str, now: Timestamp) -> Vec<Event> {
    let by = mover(state);
    state.apply(Command::play(by, sq(square)), now).expect("a legal move")
}

/// Plays `line` (squares separated by spaces) one second apart from `start`; returns the time
/// of the last move.
fn play_line(state: &mut GameState, line: &str, start: Timestamp) -> Timestamp {
    let mut now = start;
    for square in line.split_whitespace() {
        now = now.plus(1_000);
        play(state, square, now);
    }
    now
}

/// The computer answers its pending search with `square` at `now`.
fn reply(state: &mut GameState, square: &str, now: Timestamp) -> Vec<Event> {
    let search_id = state.search_request(T0).expect("a search to answer").search_id;
    let mv = outflank_engine::Move::Place(sq(square));
    state.apply(Command::ComputerMove { search_id, mv }, now).expect("a legal reply")
}

/// The plies of the game in coordinates, e.g. `"d3 c3 pass e3"`.
fn line(state: &GameState) -> String {
    state.game().plies().iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
}
