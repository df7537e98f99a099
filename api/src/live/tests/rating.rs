//! Which results move ratings: decided from the game's own facts.

use super::*;
use crate::live::{Pool, RatedPlayers};

fn ranked_game() -> GameState {
    let setup = Setup::Ranked { black: human(ann(), "Ann"), white: human(ben(), "Ben") };
    GameState::new(game_id(), setup, Timing::default(), T0)
}

#[test]
fn a_finished_ranked_game_rates_its_two_players() {
    let mut state = opened_ranked_game();
    state.apply(Command::player(ben(), Action::Resign), T0.plus(9_000)).unwrap();
    assert_eq!(
        state.rated_players(),
        Some(RatedPlayers { black: ann(), white: ben(), pool: Pool::Move30 })
    );
}

#[test]
fn a_ranked_blitz_game_is_rated_in_the_blitz_pool() {
    let setup = Setup::Ranked { black: human(ann(), "Ann"), white: human(ben(), "Ben") };
    let control = Pool::Blitz.control();
    let mut state = GameState::timed(
        game_id(),
        setup,
        outflank_engine::Game::default(),
        control,
        Timing::default(),
        T0,
    );
    for (n, square) in ["d3", "c3", "b3", "d2", "e1", "d6"].into_iter().enumerate() {
        let by = if n % 2 == 0 { ann() } else { ben() };
        state.apply(Command::play(by, sq(square)), T0.plus(1_000 * (n as i64 + 1))).unwrap();
    }
    state.apply(Command::player(ben(), Action::Resign), T0.plus(9_000)).unwrap();
    assert_eq!(
        state.rated_players(),
        Some(RatedPlayers { black: ann(), white: ben(), pool: Pool::Blitz })
    );
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

/// Plays the first six plies of the shortest game: three discs a side.
fn opened_ranked_game() -> GameState {
    let mut state = ranked_game();
    for (n, square) in ["d3", "c3", "b3", "d2", "e1", "d6"].into_iter().enumerate() {
        let by = if n % 2 == 0 { ann() } else { ben() };
        state.apply(Command::play(by, sq(square)), T0.plus(1_000 * (n as i64 + 1))).unwrap();
    }
    state
}

#[test]
fn a_ranked_game_resigned_before_three_moves_a_side_is_aborted() {
    let mut state = ranked_game();
    state.apply(Command::play(ann(), sq("d3")), T0.plus(1_000)).unwrap();
    state.apply(Command::play(ben(), sq("c3")), T0.plus(2_000)).unwrap();
    let events = state.apply(Command::player(ann(), Action::Resign), T0.plus(3_000)).unwrap();
    assert!(matches!(events[..], [Event::Ended { ending, .. }] if ending == Ending::aborted()));
    assert_eq!(state.rated_players(), None);
}

#[test]
fn a_ranked_game_resigned_after_three_moves_a_side_is_lost_and_rated() {
    let mut state = opened_ranked_game();
    let events = state.apply(Command::player(ann(), Action::Resign), T0.plus(9_000)).unwrap();
    let lost = Ending::loss(outflank_engine::Color::Black, crate::domain::EndReason::Resignation);
    assert!(matches!(events[..], [Event::Ended { ending, .. }] if ending == lost));
    assert_eq!(
        state.rated_players(),
        Some(RatedPlayers { black: ann(), white: ben(), pool: Pool::Move30 })
    );
}

#[test]
fn a_draw_agreed_early_in_a_ranked_game_is_aborted() {
    let mut state = ranked_game();
    state.apply(Command::play(ann(), sq("d3")), T0.plus(1_000)).unwrap();
    state.apply(Command::player(ann(), Action::OfferDraw), T0.plus(1_500)).unwrap();
    state.apply(Command::player(ben(), Action::AcceptDraw), T0.plus(2_000)).unwrap();
    assert_eq!(state.ending(), Some(Ending::aborted()));
}

#[test]
fn the_rematch_of_a_ranked_game_is_an_unrated_quick_game() {
    let mut state = opened_ranked_game();
    state.apply(Command::player(ann(), Action::Resign), T0.plus(9_000)).unwrap();
    state.apply(Command::player(ann(), Action::Rematch), T0.plus(10_000)).unwrap();
    let events = state.apply(Command::player(ben(), Action::Rematch), T0.plus(11_000)).unwrap();
    let [Event::RematchStarted { setup, .. }] = &events[..] else { panic!("{events:?}") };
    assert_eq!(setup, &Setup::Quick { black: human(ben(), "Ben"), white: human(ann(), "Ann") });
}
