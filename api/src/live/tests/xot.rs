//! XOT games: they start after their opening, whose plies are nobody's moves.

use outflank_engine::ai::Level;
use outflank_engine::xot::Opening;
use outflank_engine::{Board, Color};

use super::*;

/// Eight legal plies from the start.
const LINE: &str = "d3 c5 f6 f5 g6 g7 h8 g5";

fn opening() -> Opening {
    LINE.parse().expect("an XOT opening")
}

fn xot_game(setup: Setup) -> GameState {
    GameState::xot(game_id(), setup, opening(), TimeControl::DEFAULT, Timing::default(), T0)
}

fn xot_friend_game() -> GameState {
    xot_game(Setup::Friend { black: human(ann(), "Ann"), white: human(ben(), "Ben") })
}

fn xot_computer_game() -> GameState {
    xot_game(Setup::Computer {
        human: human(ann(), "Ann"),
        color: Color::Black,
        level: Level::MEDIUM,
        timed: false,
        stand_in: false,
    })
}

#[test]
fn an_xot_game_starts_after_its_opening_with_black_to_move() {
    let state = xot_friend_game();
    assert_eq!(line(&state), LINE);
    assert_eq!(state.game().board(), opening().board());
    assert_eq!(state.game().side_to_move(), Color::Black);
    let snapshot = state.snapshot(T0);
    assert_eq!(snapshot.opening, Some(opening()));
    assert_eq!(snapshot.moves.len(), 8);
    assert_eq!(snapshot.clocks.map(|clocks| clocks.running), Some(Some(Color::Black)));
}

#[test]
fn a_game_from_the_standard_start_has_no_opening() {
    assert_eq!(friend_game().snapshot(T0).opening, None);
}

#[test]
fn a_side_that_places_nothing_after_the_opening_is_aborted_on_time() {
    let mut state = xot_friend_game();
    let events = state.apply(Command::Tick, T0.plus(30_500)).unwrap();
    assert!(
        matches!(events.as_slice(), [Event::Ended { ending, .. }] if *ending == Ending::aborted()),
        "{events:?}"
    );
}

#[test]
fn undo_never_takes_back_the_opening() {
    let mut state = xot_computer_game();
    let undo =
        |state: &mut GameState| state.apply(Command::player(ann(), Action::Undo), T0.plus(60_000));
    assert_eq!(undo(&mut state), Err(CommandError::NothingToUndo));
    let first = state.game().board().legal_moves().first().expect("a move for Black");
    let by = ann();
    state.apply(Command::play(by, first), T0.plus(1_000)).unwrap();
    undo(&mut state).unwrap();
    assert_eq!(line(&state), LINE);
    assert_eq!(undo(&mut state), Err(CommandError::NothingToUndo));
}

#[test]
fn the_computer_moves_first_from_the_opening_when_it_plays_black() {
    let state = xot_game(Setup::Computer {
        human: human(ann(), "Ann"),
        color: Color::White,
        level: Level::MEDIUM,
        timed: false,
        stand_in: false,
    });
    let request = state.search_request(T0).expect("the computer's search");
    assert_eq!(request.board, opening().board());
}

#[test]
fn a_restored_xot_game_keeps_its_opening() {
    let stored = Stored {
        id: game_id(),
        setup: Setup::Friend { black: human(ann(), "Ann"), white: human(ben(), "Ben") },
        start: Board::start(),
        plies: opening().moves().to_vec(),
        ending: None,
        rematch: None,
        control: None,
        opening: Some(opening()),
        times: (T0, vec![T0; 8]),
    };
    let mut state = GameState::restore(stored, Timing::default(), T0).unwrap();
    assert_eq!(state.opening(), Some(opening()));
    // Nobody has placed a disc of their own yet: a timeout aborts.
    let events = state.apply(Command::Tick, T0.plus(30_500)).unwrap();
    assert!(
        matches!(events.as_slice(), [Event::Ended { ending, .. }] if *ending == Ending::aborted())
    );
}
