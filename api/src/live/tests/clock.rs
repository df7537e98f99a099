//! Move clocks, timeouts, first-move aborts and restarts.

use outflank_engine::{Board, Color, GameResult, Move};

use super::*;
use crate::domain::{EndReason, GameStatus, Winner};

/// Ann (Black) and Ben (White) have both moved; White is to move from `T0 + 3 s`.
fn after_three_moves() -> GameState {
    let mut state = friend_game();
    play_line(&mut state, "d3 c3 b3", T0);
    state
}

#[test]
fn thirty_seconds_without_a_move_lose_on_time_for_the_side_to_move() {
    let mut state = after_three_moves();
    let flag = T0.plus(3_000 + 30_000 + 500);
    let events = state.apply(Command::Tick, flag).unwrap();
    let ending = Ending { reason: EndReason::Timeout, winner: Some(Winner::Black) };
    assert_eq!(
        events,
        [Event::Ended { version: 4, ending, counts: GameResult { black: 5, white: 2, empty: 57 } }]
    );
    assert_eq!(state.status(), GameStatus::Finished);
}

#[test]
fn the_lag_allowance_keeps_the_game_going_until_half_a_second_after_zero() {
    let mut state = after_three_moves();
    let just_before = T0.plus(3_000 + 30_000 + 499);
    assert_eq!(state.snapshot(just_before).clocks.map(|clocks| clocks.white_ms), Some(0));
    assert_eq!(state.apply(Command::Tick, just_before), Ok(Vec::new()));
    let square = state.snapshot(just_before).position.legal[0].square;
    let events = state.apply(Command::play(ben(), square), just_before).unwrap();
    assert!(matches!(events.as_slice(), [Event::Moved { .. }]), "{events:?}");
}

#[test]
fn a_move_after_the_flag_is_not_played_and_the_game_is_lost_on_time() {
    let mut state = after_three_moves();
    let late = T0.plus(3_000 + 40_000);
    let events = state.apply(Command::play(ben(), sq("c4")), late).unwrap();
    let ending = Ending { reason: EndReason::Timeout, winner: Some(Winner::Black) };
    assert!(matches!(events.as_slice(), [Event::Ended { ending: e, .. }] if *e == ending));
    assert_eq!(line(&state), "d3 c3 b3");
}

#[test]
fn the_clock_runs_while_nobody_sends_anything() {
    let state = after_three_moves();
    let later = T0.plus(3_000 + 20_000);
    let clocks = state.snapshot(later).clocks;
    assert_eq!(
        clocks,
        Some(Clocks { black_ms: 30_000, white_ms: 10_000, running: Some(Color::White) })
    );
    assert_eq!(state.next_deadline(), Some(T0.plus(33_500)));
}

#[test]
fn black_never_making_a_first_move_aborts_the_game() {
    let mut state = friend_game();
    let events = state.apply(Command::Tick, T0.plus(30_500)).unwrap();
    assert!(
        matches!(events.as_slice(), [Event::Ended { ending, .. }] if *ending == Ending::aborted()),
        "{events:?}"
    );
    assert_eq!(state.status(), GameStatus::Aborted);
    assert_eq!(state.ending().and_then(|ending| ending.winner), None);
}

#[test]
fn white_never_making_a_first_move_aborts_the_game() {
    let mut state = friend_game();
    play(&mut state, "d3", T0.plus(1_000));
    let events = state.apply(Command::Tick, T0.plus(31_500)).unwrap();
    assert!(
        matches!(events.as_slice(), [Event::Ended { ending, .. }] if *ending == Ending::aborted()),
        "{events:?}"
    );
    assert_eq!(state.status(), GameStatus::Aborted);
}

#[test]
fn clocks_stop_at_the_end_showing_what_was_left() {
    let mut state = after_three_moves();
    state.apply(Command::player(ben(), Action::Resign), T0.plus(13_000)).unwrap();
    let clocks = state.snapshot(T0.plus(99_000)).clocks;
    assert_eq!(clocks, Some(Clocks { black_ms: 30_000, white_ms: 20_000, running: None }));
}

#[test]
fn a_shorter_configured_move_time_is_used() {
    let setup = Setup::Friend { black: human(ann(), "Ann"), white: human(ben(), "Ben") };
    let timing = Timing { move_time_ms: 2_000, lag_allowance_ms: 0, computer_delay_ms: 0 };
    let state = GameState::new(game_id(), setup, timing, T0);
    assert_eq!(state.next_deadline(), Some(T0.plus(2_000)));
    assert_eq!(state.snapshot(T0).move_time_ms, Some(2_000));
}

fn stored(plies: &str, ending: Option<Ending>) -> Stored {
    let plies: Vec<Move> = plies.split_whitespace().map(|text| Move::Place(sq(text))).collect();
    // One second apart from T0, as `play_line` plays them.
    let times = (1..=plies.len()).map(|n| T0.plus(1_000 * n as i64)).collect();
    Stored {
        id: game_id(),
        setup: Setup::Friend { black: human(ann(), "Ann"), white: human(ben(), "Ben") },
        start: Board::start(),
        plies,
        ending,
        rematch: None,
        control: None,
        opening: None,
        times: (T0, times),
    }
}

/// Ann and Ben at 3+2 from [`T0`].
fn blitz_game() -> GameState {
    let setup = Setup::Friend { black: human(ann(), "Ann"), white: human(ben(), "Ben") };
    let game = outflank_engine::Game::default();
    GameState::timed(game_id(), setup, game, TimeControl::fischer(3, 2), Timing::default(), T0)
}

#[test]
fn under_a_per_game_control_each_side_keeps_its_rest_plus_the_increment() {
    let mut state = blitz_game();
    play(&mut state, "d3", T0.plus(10_000));
    play(&mut state, "c3", T0.plus(14_000));
    let clocks = state.snapshot(T0.plus(20_000)).clocks;
    assert_eq!(
        clocks,
        Some(Clocks {
            black_ms: 172_000 - 6_000,
            white_ms: 180_000 - 4_000 + 2_000,
            running: Some(Color::Black)
        })
    );
    assert_eq!(state.control(), Some(TimeControl::fischer(3, 2)));
    assert_eq!(state.snapshot(T0).move_time_ms, None);
}

#[test]
fn under_a_per_game_control_a_side_loses_when_its_whole_time_is_spent() {
    let mut state = blitz_game();
    play(&mut state, "d3", T0.plus(10_000));
    play(&mut state, "c3", T0.plus(11_000));
    // Black had 172 s when its turn began at T0 + 11 s.
    assert_eq!(state.next_deadline(), Some(T0.plus(11_000 + 172_000 + 500)));
    let events = state.apply(Command::Tick, T0.plus(11_000 + 172_500)).unwrap();
    let ending = Ending { reason: EndReason::Timeout, winner: Some(Winner::White) };
    assert!(matches!(events.as_slice(), [Event::Ended { ending: e, .. }] if *e == ending));
}

#[test]
fn a_restored_per_game_clock_stands_exactly_where_the_stored_times_left_it() {
    let blitz = TimeControl::fischer(3, 2);
    let stored = Stored { control: Some(blitz), ..stored("d3 c3 b3", None) };
    // Restored long after the last move (T0 + 3 s): White's time ran on meanwhile.
    let now = T0.plus(3_000 + 100_000);
    let state = GameState::restore(stored, Timing::default(), now).unwrap();
    let mut played = blitz_game();
    play_line(&mut played, "d3 c3 b3", T0);
    assert_eq!(state.snapshot(now).clocks, played.snapshot(now).clocks);
    assert_eq!(
        state.snapshot(now).clocks,
        Some(Clocks {
            black_ms: 180_000 - 1_000 + 2_000 - 1_000 + 2_000,
            white_ms: 180_000 - 1_000 + 2_000 - 100_000,
            running: Some(Color::White)
        })
    );
    assert_eq!(state.next_deadline(), played.next_deadline());
}

#[test]
fn a_restored_daily_game_keeps_its_deadline() {
    let stored = Stored { control: Some(TimeControl::Daily { days: 1 }), ..stored("d3", None) };
    let state = GameState::restore(stored, Timing::default(), T0.plus(3_600_000)).unwrap();
    assert_eq!(state.next_deadline(), Some(T0.plus(1_000 + 86_400_000 + 500)));
}

#[test]
fn a_restored_game_gives_the_side_to_move_a_full_move_time() {
    let now = T0.plus(3_600_000);
    let state = GameState::restore(stored("d3 c3 b3", None), Timing::default(), now).unwrap();
    assert_eq!(line(&state), "d3 c3 b3");
    let clocks = state.snapshot(now).clocks;
    assert_eq!(
        clocks,
        Some(Clocks { black_ms: 30_000, white_ms: 30_000, running: Some(Color::White) })
    );
    assert_eq!(state.next_deadline(), Some(now.plus(30_500)));
}

#[test]
fn a_restored_game_remembers_who_has_moved_for_timeouts() {
    let mut state = GameState::restore(stored("d3 c3 b3", None), Timing::default(), T0).unwrap();
    state.apply(Command::Tick, T0.plus(30_500)).unwrap();
    assert_eq!(
        state.ending(),
        Some(Ending { reason: EndReason::Timeout, winner: Some(Winner::Black) })
    );
}

#[test]
fn a_restored_finished_game_keeps_its_ending_and_has_no_deadline() {
    let resigned = Ending::loss(Color::White, EndReason::Resignation);
    let state = GameState::restore(stored("d3", Some(resigned)), Timing::default(), T0).unwrap();
    assert_eq!(state.ending(), Some(resigned));
    assert_eq!(state.next_deadline(), None);
}

#[test]
fn restoring_plies_that_do_not_replay_is_an_error() {
    let result = GameState::restore(stored("d3 a1", None), Timing::default(), T0);
    assert!(matches!(result, Err(RestoreError::Replay(error)) if error.number == 2));
}

#[test]
fn versions_after_a_restore_continue_above_those_before_it() {
    let mut state = GameState::restore(stored("d3", None), Timing::default(), T0).unwrap();
    assert_eq!(state.version(), 1_000_000);
    let events = play(&mut state, "c3", T0.plus(1_000));
    assert_eq!(events.first().and_then(Event::version), Some(1_000_001));
}
