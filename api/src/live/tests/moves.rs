//! Moves, turns, passes, resignation and the end of the game.

use outflank_engine::{Color, GameResult, Move};

use super::*;
use crate::domain::{EndReason, GameStatus, Winner};

#[test]
fn a_legal_move_switches_the_turn_and_starts_the_opponents_clock() {
    let mut state = friend_game();
    let events = play(&mut state, "d3", T0.plus(4_000));
    let [Event::Moved { version, at, plies, last_move, position, clocks }] = events.as_slice()
    else {
        panic!("expected one Moved event, got {events:?}");
    };
    assert_eq!(*version, 1);
    assert_eq!(*at, T0.plus(4_000));
    assert_eq!(plies, &[Ply { number: 1, color: Color::Black, mv: Move::Place(sq("d3")) }]);
    assert_eq!(
        *last_move,
        LastMove { number: 1, color: Color::Black, square: sq("d3"), flips: squares(&["d4"]) }
    );
    assert_eq!(position.to_move, Some(Color::White));
    assert_eq!(
        *clocks,
        Some(Clocks { black_ms: 30_000, white_ms: 30_000, running: Some(Color::White) })
    );
    assert_eq!(state.next_deadline(), Some(T0.plus(4_000 + 30_000 + 500)));
}

#[test]
fn an_illegal_move_is_rejected_and_changes_nothing() {
    let mut state = friend_game();
    let before = state.snapshot(T0);
    let result = state.apply(Command::play(ann(), sq("a1")), T0);
    assert_eq!(result, Err(CommandError::IllegalMove(sq("a1"))));
    assert_eq!(state.snapshot(T0), before);
    assert_eq!(state.version(), 0);
}

#[test]
fn a_move_out_of_turn_is_rejected_and_changes_nothing() {
    let mut state = friend_game();
    let before = state.snapshot(T0);
    let result = state.apply(Command::play(ben(), sq("d3")), T0);
    assert_eq!(result, Err(CommandError::NotYourTurn));
    assert_eq!(state.snapshot(T0), before);
}

#[test]
fn a_move_by_a_spectator_is_rejected_and_changes_nothing() {
    let mut state = friend_game();
    let before = state.snapshot(T0);
    let result = state.apply(Command::play(zed(), sq("d3")), T0);
    assert_eq!(result, Err(CommandError::NotAPlayer));
    assert_eq!(state.snapshot(T0), before);
}

#[test]
fn a_forced_pass_is_recorded_and_the_mover_plays_again_with_a_fresh_clock() {
    let mut state = friend_game();
    let now = play_line(&mut state, "d3 c3 b3 b2 f5 a3 a1", T0);
    let events = play(&mut state, "c1", now.plus(7_000));
    let [Event::Moved { plies, position, clocks, .. }] = events.as_slice() else {
        panic!("expected one Moved event, got {events:?}");
    };
    assert_eq!(
        plies,
        &[
            Ply { number: 8, color: Color::White, mv: Move::Place(sq("c1")) },
            Ply { number: 9, color: Color::Black, mv: Move::Pass },
        ]
    );
    assert_eq!(position.to_move, Some(Color::White));
    let legal: Vec<_> = position.legal.iter().map(|legal| legal.square).collect();
    assert_eq!(legal, [sq("e3"), sq("f6")]);
    assert_eq!(
        *clocks,
        Some(Clocks { black_ms: 30_000, white_ms: 30_000, running: Some(Color::White) })
    );
    assert_eq!(state.next_deadline(), Some(now.plus(7_000 + 30_500)));
}

#[test]
fn the_shortest_game_ends_black_13_white_0_normally() {
    let mut state = friend_game();
    let now = play_line(&mut state, "d3 c3 b3 d2 e1 d6 d7 e3", T0);
    let events = play(&mut state, "f4", now.plus(1_000));
    let [
        Event::Moved { version: 9, position, clocks, .. },
        Event::Ended { version: 10, ending, counts },
    ] = events.as_slice()
    else {
        panic!("expected Moved then Ended, got {events:?}");
    };
    let expected = Ending { reason: EndReason::Normal, winner: Some(Winner::Black) };
    assert_eq!(*ending, expected);
    assert_eq!(*counts, GameResult { black: 13, white: 0, empty: 51 });
    assert_eq!(position.to_move, None);
    assert!(position.legal.is_empty());
    assert_eq!(clocks.and_then(|clocks| clocks.running), None);
    assert_eq!(state.status(), GameStatus::Finished);
    assert_eq!(state.next_deadline(), None);
}

#[test]
fn resigning_ends_the_game_with_the_other_side_winning() {
    let mut state = friend_game();
    play(&mut state, "d3", T0.plus(1_000));
    let events = state.apply(Command::player(ann(), Action::Resign), T0.plus(2_000)).unwrap();
    let ending = Ending { reason: EndReason::Resignation, winner: Some(Winner::White) };
    assert_eq!(
        events,
        [Event::Ended { version: 2, ending, counts: GameResult { black: 4, white: 1, empty: 59 } }]
    );
    assert_eq!(state.ending(), Some(ending));
}

#[test]
fn moves_and_resignations_after_the_end_are_refused() {
    let mut state = friend_game();
    state.apply(Command::player(ben(), Action::Resign), T0).unwrap();
    let version = state.version();
    assert_eq!(state.apply(Command::play(ann(), sq("d3")), T0), Err(CommandError::GameOver));
    assert_eq!(
        state.apply(Command::player(ann(), Action::Resign), T0),
        Err(CommandError::GameOver)
    );
    assert_eq!(
        state.apply(Command::player(ann(), Action::OfferDraw), T0),
        Err(CommandError::GameOver)
    );
    assert_eq!(state.version(), version);
}

#[test]
fn a_tick_before_any_deadline_does_nothing() {
    let mut state = friend_game();
    assert_eq!(state.apply(Command::Tick, T0.plus(10_000)), Ok(Vec::new()));
    assert_eq!(state.version(), 0);
}

#[test]
fn each_public_event_carries_the_next_version() {
    let mut state = friend_game();
    play(&mut state, "d3", T0.plus(1_000));
    let offered = state.apply(Command::player(ann(), Action::OfferDraw), T0.plus(2_000)).unwrap();
    let moved = play(&mut state, "c3", T0.plus(3_000));
    let versions: Vec<_> = offered.iter().chain(&moved).filter_map(Event::version).collect();
    assert_eq!(versions, [2, 3, 4]);
    assert_eq!(state.version(), 4);
}

#[test]
fn seats_tell_black_white_both_and_spectators_apart() {
    let friend = friend_game();
    assert_eq!(friend.seat_of(&ann()), Seat::Black);
    assert_eq!(friend.seat_of(&ben()), Seat::White);
    assert_eq!(friend.seat_of(&zed()), Seat::Spectator);
    assert_eq!(same_device_game().seat_of(&ann()), Seat::Both);
}
