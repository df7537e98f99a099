//! Which results move ratings: decided from the game's own facts.

use super::*;
use crate::accounts::rating::RatedPlayers;

fn ranked_game() -> GameState {
    let setup = Setup::Ranked { black: human(ann(), "Ann"), white: human(ben(), "Ben") };
    GameState::new(game_id(), setup, Timing::default(), T0)
}

#[test]
fn a_finished_ranked_game_rates_its_two_players() {
    let mut state = ranked_game();
    state.apply(Command::play(ann(), sq("d3")), T0.plus(1_000)).unwrap();
    state.apply(Command::player(ben(), Action::Resign), T0.plus(2_000)).unwrap();
    assert_eq!(state.rated_players(), Some(RatedPlayers { black: ann(), white: ben() }));
}

#[test]
fn a_ranked_game_in_progress_rates_nobody_yet() {
    assert_eq!(ranked_game().rated_players(), None);
}

#[test]
fn an_aborted_ranked_game_rates_nobody() {
    let mut state = ranked_game();
    // Black never moves: the game is aborted when its time runs out.
    state.apply(Command::Tick, T0.plus(31_000)).unwrap();
    assert_eq!(state.status(), crate::domain::GameStatus::Aborted);
    assert_eq!(state.rated_players(), None);
}

#[test]
fn an_unranked_game_between_people_rates_nobody() {
    let mut state = friend_game();
    state.apply(Command::player(ann(), Action::Resign), T0).unwrap();
    assert_eq!(state.rated_players(), None);
}
