//! Rematches and leaving.

use outflank_engine::Color;

use super::*;
use crate::domain::{EndReason, GameStatus, Winner};

fn rematch(state: &mut GameState, by: PlayerId) -> Result<Vec<Event>, CommandError> {
    state.apply(Command::player(by, Action::Rematch), T0)
}

fn resigned_friend_game() -> GameState {
    let mut state = friend_game();
    state.apply(Command::player(ann(), Action::Resign), T0).unwrap();
    state
}

#[test]
fn a_rematch_needs_both_players_and_swaps_colours() {
    let mut state = resigned_friend_game();
    assert_eq!(
        rematch(&mut state, ben()),
        Ok(vec![Event::RematchAsked { version: 2, by: Color::White }])
    );
    let events = rematch(&mut state, ann()).unwrap();
    let swapped = Setup::Friend { black: human(ben(), "Ben"), white: human(ann(), "Ann") };
    assert_eq!(events, [Event::RematchStarted { version: 3, game_id: next_id(), setup: swapped }]);
    assert_eq!(state.snapshot(T0).rematch.next_game, Some(next_id()));
}

#[test]
fn a_rematch_before_the_end_is_refused() {
    let mut state = friend_game();
    assert_eq!(rematch(&mut state, ann()), Err(CommandError::GameNotOver));
}

#[test]
fn asking_for_a_rematch_twice_is_refused() {
    let mut state = resigned_friend_game();
    rematch(&mut state, ann()).unwrap();
    assert_eq!(rematch(&mut state, ann()), Err(CommandError::RematchAlreadyAsked));
}

#[test]
fn a_rematch_after_it_started_is_refused() {
    let mut state = resigned_friend_game();
    rematch(&mut state, ann()).unwrap();
    rematch(&mut state, ben()).unwrap();
    assert_eq!(rematch(&mut state, ben()), Err(CommandError::RematchAlreadyStarted));
}

#[test]
fn a_game_restored_with_its_rematch_started_refuses_another() {
    let stored = Stored {
        id: game_id(),
        setup: Setup::Friend { black: human(ann(), "Ann"), white: human(ben(), "Ben") },
        start: outflank_engine::Board::start(),
        plies: Vec::new(),
        ending: Some(Ending { reason: EndReason::Resignation, winner: Some(Winner::White) }),
        rematch: Some(next_id()),
        control: None,
        opening: None,
        times: (T0, Vec::new()),
    };
    let mut state = GameState::restore(stored, Timing::default(), T0).unwrap();
    assert_eq!(state.snapshot(T0).rematch.next_game, Some(next_id()));
    assert_eq!(rematch(&mut state, ann()), Err(CommandError::RematchAlreadyStarted));
}

#[test]
fn a_rematch_after_the_opponent_left_is_refused() {
    let mut state = resigned_friend_game();
    let events = state.apply(Command::player(ben(), Action::Leave), T0).unwrap();
    assert_eq!(events, [Event::Left { version: 2, by: Color::White }]);
    assert_eq!(rematch(&mut state, ann()), Err(CommandError::OpponentLeft));
}

#[test]
fn a_spectator_cannot_ask_for_a_rematch() {
    let mut state = resigned_friend_game();
    assert_eq!(rematch(&mut state, zed()), Err(CommandError::NotAPlayer));
}

#[test]
fn against_the_computer_one_request_starts_the_rematch_with_the_colour_the_person_chose() {
    let mut state = computer_game(Color::White);
    state.apply(Command::player(ann(), Action::Resign), T0).unwrap();
    let events = rematch(&mut state, ann()).unwrap();
    let same = Setup::Computer {
        human: human(ann(), "Ann"),
        color: Color::White,
        level: outflank_engine::ai::Level::MEDIUM,
        timed: false,
        stand_in: false,
    };
    assert_eq!(events, [Event::RematchStarted { version: 2, game_id: next_id(), setup: same }]);
}

#[test]
fn leaving_a_live_game_resigns_it() {
    let mut state = friend_game();
    state.apply(Command::player(ben(), Action::Leave), T0).unwrap();
    assert_eq!(
        state.ending(),
        Some(Ending { reason: EndReason::Resignation, winner: Some(Winner::Black) })
    );
}

#[test]
fn leaving_a_same_device_game_aborts_it() {
    let mut state = same_device_game();
    state.apply(Command::player(ann(), Action::Leave), T0).unwrap();
    assert_eq!(state.status(), GameStatus::Aborted);
}

#[test]
fn leaving_twice_after_the_end_tells_nobody_again() {
    let mut state = resigned_friend_game();
    state.apply(Command::player(ann(), Action::Leave), T0).unwrap();
    assert_eq!(state.apply(Command::player(ann(), Action::Leave), T0), Ok(Vec::new()));
}

#[test]
fn a_rematch_id_derives_from_the_game_and_never_repeats_along_a_chain() {
    assert_eq!(GameId::rematch_of(&game_id()), GameId::rematch_of(&game_id()));
    let mut seen = std::collections::HashSet::from([game_id()]);
    let mut id = game_id();
    for _ in 0..1_000 {
        id = GameId::rematch_of(&id);
        assert!(seen.insert(id.clone()), "{id} came back");
    }
}
