//! Games against the computer and on one device: searches, the reply delay, undo.

use outflank_engine::ai::Level;
use outflank_engine::{Board, Color, Move};

use super::*;
use crate::domain::{EndReason, Winner};
use outflank_engine::Game;

fn undo(state: &mut GameState) -> Result<Vec<Event>, CommandError> {
    state.apply(Command::player(ann(), Action::Undo), T0.plus(60_000))
}

#[test]
fn the_persons_move_asks_for_a_search_shown_no_sooner_than_300_ms_later() {
    let mut state = computer_game(Color::Black);
    let events = play(&mut state, "d3", T0.plus(1_000));
    let board = Board::start().play(Move::Place(sq("d3"))).unwrap();
    let request = SearchRequest {
        search_id: SearchId(1),
        board,
        level: Level::MEDIUM,
        not_before: T0.plus(1_300),
        think_ms: None,
    };
    assert!(
        matches!(events.as_slice(), [Event::Moved { .. }, Event::StartSearch(r)] if *r == request)
    );
    assert_eq!(state.search_request(T0), Some(request));
}

#[test]
fn a_reply_arriving_early_is_held_until_300_ms_after_the_persons_move() {
    let mut state = computer_game(Color::Black);
    play(&mut state, "d3", T0.plus(1_000));
    assert_eq!(reply(&mut state, "c3", T0.plus(1_100)), Vec::new());
    assert_eq!(line(&state), "d3");
    assert_eq!(state.next_deadline(), Some(T0.plus(1_300)));
    assert_eq!(state.apply(Command::Tick, T0.plus(1_299)), Ok(Vec::new()));
    let events = state.apply(Command::Tick, T0.plus(1_300)).unwrap();
    assert!(matches!(events.as_slice(), [Event::Moved { at, .. }] if *at == T0.plus(1_300)));
    assert_eq!(line(&state), "d3 c3");
    assert_eq!(state.next_deadline(), None);
}

#[test]
fn a_reply_arriving_after_the_delay_is_played_at_once() {
    let mut state = computer_game(Color::Black);
    play(&mut state, "d3", T0.plus(1_000));
    let events = reply(&mut state, "c3", T0.plus(2_500));
    assert!(matches!(events.as_slice(), [Event::Moved { at, .. }] if *at == T0.plus(2_500)));
    assert_eq!(line(&state), "d3 c3");
}

#[test]
fn a_computer_playing_black_is_asked_for_the_first_move_at_the_start() {
    let state = computer_game(Color::White);
    let request = SearchRequest {
        search_id: SearchId(1),
        board: Board::start(),
        level: Level::MEDIUM,
        not_before: T0,
        think_ms: None,
    };
    assert_eq!(state.search_request(T0), Some(request));
}

#[test]
fn the_person_cannot_move_for_the_computer() {
    let mut state = computer_game(Color::Black);
    play(&mut state, "d3", T0.plus(1_000));
    let result = state.apply(Command::play(ann(), sq("c3")), T0.plus(2_000));
    assert_eq!(result, Err(CommandError::NotYourTurn));
}

#[test]
fn undo_goes_back_before_the_persons_last_move_with_the_computers_replies_and_passes() {
    let mut state = computer_game(Color::Black);
    let mut now = T0;
    for (mine, theirs) in [("d3", "c3"), ("b3", "b2"), ("f5", "a3"), ("a1", "c1")] {
        now = now.plus(1_000);
        play(&mut state, mine, now);
        reply(&mut state, theirs, now.plus(500));
    }
    // White's c1 left Black without a move: Black passed and the computer moves again, shown
    // no sooner than 300 ms after its c1.
    reply(&mut state, "e3", now.plus(800));
    assert_eq!(line(&state), "d3 c3 b3 b2 f5 a3 a1 c1 pass e3");
    let events = undo(&mut state).unwrap();
    assert!(
        matches!(events.as_slice(), [Event::Undone { ply_count: 6, position, last_move: Some(last), .. }]
            if position.to_move == Some(Color::Black) && last.square == sq("a3")),
        "{events:?}"
    );
    assert_eq!(line(&state), "d3 c3 b3 b2 f5 a3");
}

#[test]
fn undo_while_the_computer_searches_cancels_the_search() {
    let mut state = computer_game(Color::Black);
    play(&mut state, "d3", T0.plus(1_000));
    let events = undo(&mut state).unwrap();
    assert!(
        matches!(
            events.as_slice(),
            [Event::CancelSearch(SearchId(1)), Event::Undone { version: 2, ply_count: 0, .. }]
        ),
        "{events:?}"
    );
    assert_eq!(state.search_request(T0), None);
}

#[test]
fn the_late_answer_of_a_cancelled_search_never_changes_the_board() {
    let mut state = computer_game(Color::Black);
    play(&mut state, "d3", T0.plus(1_000));
    undo(&mut state).unwrap();
    let version = state.version();
    let late = Command::ComputerMove { search_id: SearchId(1), mv: Move::Place(sq("c3")) };
    assert_eq!(state.apply(late, T0.plus(90_000)), Ok(Vec::new()));
    assert_eq!(line(&state), "");
    assert_eq!(state.version(), version);
}

#[test]
fn undo_drops_a_reply_held_back_for_the_delay() {
    let mut state = computer_game(Color::Black);
    play(&mut state, "d3", T0.plus(1_000));
    reply(&mut state, "c3", T0.plus(1_100));
    state.apply(Command::player(ann(), Action::Undo), T0.plus(1_200)).unwrap();
    assert_eq!(state.next_deadline(), None);
    assert_eq!(state.apply(Command::Tick, T0.plus(1_300)), Ok(Vec::new()));
    assert_eq!(line(&state), "");
}

#[test]
fn a_new_search_after_undo_has_a_new_id() {
    let mut state = computer_game(Color::Black);
    play(&mut state, "d3", T0.plus(1_000));
    undo(&mut state).unwrap();
    play(&mut state, "c4", T0.plus(61_000));
    assert_eq!(state.search_request(T0).map(|request| request.search_id), Some(SearchId(2)));
}

#[test]
fn undo_without_a_move_of_the_person_is_refused() {
    let mut state = computer_game(Color::White);
    reply(&mut state, "d3", T0);
    assert_eq!(undo(&mut state), Err(CommandError::NothingToUndo));
    assert_eq!(line(&state), "d3");
}

#[test]
fn undo_in_a_clocked_game_is_refused() {
    let mut state = friend_game();
    play(&mut state, "d3", T0.plus(1_000));
    let result = state.apply(Command::player(ann(), Action::Undo), T0.plus(2_000));
    assert_eq!(result, Err(CommandError::UndoNotAllowed));
    assert_eq!(line(&state), "d3");
}

#[test]
fn an_illegal_computer_move_is_refused() {
    let mut state = computer_game(Color::Black);
    play(&mut state, "d3", T0.plus(1_000));
    let bad = Command::ComputerMove { search_id: SearchId(1), mv: Move::Place(sq("a1")) };
    assert_eq!(
        state.apply(bad, T0.plus(2_000)),
        Err(CommandError::IllegalComputerMove(Move::Place(sq("a1"))))
    );
    assert_eq!(state.search_request(T0).map(|request| request.search_id), Some(SearchId(1)));
}

#[test]
fn resigning_cancels_the_computers_search() {
    let mut state = computer_game(Color::Black);
    play(&mut state, "d3", T0.plus(1_000));
    let events = state.apply(Command::player(ann(), Action::Resign), T0.plus(1_100)).unwrap();
    assert!(
        matches!(events.as_slice(), [Event::CancelSearch(SearchId(1)), Event::Ended { .. }]),
        "{events:?}"
    );
}

#[test]
fn computer_games_have_no_clock() {
    let state = computer_game(Color::Black);
    assert_eq!(state.snapshot(T0).clocks, None);
    assert_eq!(state.next_deadline(), None);
}

#[test]
fn on_one_device_the_player_moves_for_both_sides() {
    let mut state = same_device_game();
    play_line(&mut state, "d3 c3", T0);
    assert_eq!(line(&state), "d3 c3");
}

#[test]
fn undo_on_one_device_takes_back_one_move_with_the_pass_it_forced() {
    let mut state = same_device_game();
    play_line(&mut state, "d3 c3 b3 b2 f5 a3 a1 c1", T0);
    assert_eq!(line(&state), "d3 c3 b3 b2 f5 a3 a1 c1 pass");
    let events = undo(&mut state).unwrap();
    assert!(matches!(events.as_slice(), [Event::Undone { ply_count: 7, .. }]), "{events:?}");
    assert_eq!(line(&state), "d3 c3 b3 b2 f5 a3 a1");
    undo(&mut state).unwrap();
    assert_eq!(line(&state), "d3 c3 b3 b2 f5 a3");
}

#[test]
fn a_computer_answer_after_the_end_is_ignored() {
    let mut state = computer_game(Color::Black);
    play(&mut state, "d3", T0.plus(1_000));
    state.apply(Command::player(ann(), Action::Resign), T0.plus(1_100)).unwrap();
    let version = state.version();
    let late = Command::ComputerMove { search_id: SearchId(1), mv: Move::Place(sq("c3")) };
    assert_eq!(state.apply(late, T0.plus(2_000)), Ok(Vec::new()));
    assert_eq!(line(&state), "d3");
    assert_eq!(state.version(), version);
}

#[test]
fn on_one_device_the_side_to_move_resigns() {
    let mut state = same_device_game();
    play(&mut state, "d3", T0.plus(1_000));
    state.apply(Command::player(ann(), Action::Resign), T0.plus(2_000)).unwrap();
    assert_eq!(
        state.ending(),
        Some(Ending {
            reason: crate::domain::EndReason::Resignation,
            winner: Some(crate::domain::Winner::Black)
        })
    );
}

/// Ann (Black) against the computer at Medium under 3+2.
fn blitz_computer_game() -> GameState {
    let setup = Setup::Computer {
        human: human(ann(), "Ann"),
        color: Color::Black,
        level: Level::MEDIUM,
        timed: true,
        stand_in: false,
    };
    GameState::timed(
        game_id(),
        setup,
        Game::default(),
        TimeControl::fischer(3, 2),
        Timing::default(),
        T0,
    )
}

#[test]
fn a_computer_game_is_untimed_unless_a_control_was_chosen() {
    assert_eq!(computer_game(Color::Black).snapshot(T0).clocks, None);
    let clocks = blitz_computer_game().snapshot(T0.plus(10_000)).clocks;
    let running = Clocks { black_ms: 170_000, white_ms: 180_000, running: Some(Color::Black) };
    assert_eq!(clocks, Some(running));
}

#[test]
fn under_a_clock_the_computers_search_may_take_its_share_of_the_time_left() {
    let mut state = blitz_computer_game();
    play(&mut state, "d3", T0.plus(20_000));
    let request = state.search_request(T0.plus(20_000)).expect("the computer's search");
    let expected = thinking_time(TimeControl::fischer(3, 2), 180_000, 59, 300);
    assert_eq!((request.think_ms, expected.is_some()), (expected, true));
    // Asked again later (a restart), it has less time to share.
    let later = state.search_request(T0.plus(120_000)).expect("the computer's search");
    assert!(later.think_ms < request.think_ms, "{later:?}");
}

#[test]
fn under_a_clock_nobody_takes_moves_back() {
    let mut state = blitz_computer_game();
    play(&mut state, "d3", T0.plus(1_000));
    reply(&mut state, "c3", T0.plus(1_500));
    assert_eq!(undo(&mut state), Err(CommandError::UndoNotAllowed));
}

#[test]
fn a_computer_that_stops_answering_loses_on_time() {
    let mut state = blitz_computer_game();
    play(&mut state, "d3", T0.plus(1_000));
    reply(&mut state, "c3", T0.plus(2_000));
    play(&mut state, "b3", T0.plus(3_000));
    // White spent 1 s and gained 2: 181 s from its turn at 3 s.
    let flag = T0.plus(3_000 + 181_000 + 500);
    assert_eq!(state.apply(Command::Tick, flag.plus(-1)), Ok(Vec::new()));
    let events = state.apply(Command::Tick, flag).unwrap();
    let ending = Ending { reason: EndReason::Timeout, winner: Some(Winner::Black) };
    assert!(
        matches!(events.as_slice(), [Event::CancelSearch(_), Event::Ended { ending: e, .. }] if *e == ending),
        "{events:?}"
    );
}

#[test]
fn under_a_clock_a_reply_held_back_is_shown_at_its_time_not_at_the_flag() {
    let mut state = blitz_computer_game();
    play(&mut state, "d3", T0.plus(1_000));
    reply(&mut state, "c3", T0.plus(1_100));
    assert_eq!(state.next_deadline(), Some(T0.plus(1_300)));
    state.apply(Command::Tick, T0.plus(1_300)).unwrap();
    assert_eq!(line(&state), "d3 c3");
    // Black spent 1 s of its 180 and gained 2.
    assert_eq!(state.next_deadline(), Some(T0.plus(1_300 + 181_000 + 500)));
}
