//! What a connecting client is sent.

use outflank_engine::ai::Level;
use outflank_engine::{Color, GameResult, Move};

use super::*;
use crate::domain::{GameStatus, Mode};

#[test]
fn the_start_lists_each_legal_move_with_the_discs_it_flips() {
    let legal = friend_game().snapshot(T0).position.legal;
    let expected = [("d3", "d4"), ("c4", "d4"), ("f5", "e5"), ("e6", "e5")]
        .map(|(square, flip)| LegalMove { square: sq(square), flips: squares(&[flip]) });
    assert_eq!(legal, expected);
}

#[test]
fn a_new_game_snapshot_shows_the_start() {
    let snapshot = friend_game().snapshot(T0);
    assert_eq!(snapshot.game_id, game_id());
    assert_eq!(snapshot.mode, Mode::Friend);
    assert_eq!(snapshot.version, 0);
    assert_eq!(snapshot.status, GameStatus::Live);
    assert_eq!(snapshot.position.board, outflank_engine::Board::start());
    assert_eq!(snapshot.position.to_move, Some(Color::Black));
    assert_eq!(snapshot.position.counts, GameResult { black: 2, white: 2, empty: 60 });
    assert_eq!(snapshot.black, Player::Human(human(ann(), "Ann")));
    assert_eq!(snapshot.white, Player::Human(human(ben(), "Ben")));
    assert_eq!(snapshot.move_time_ms, Some(30_000));
    assert_eq!(snapshot.last_move, None);
    assert_eq!(snapshot.moves, []);
    assert_eq!(snapshot.draw_offer, None);
    assert_eq!(snapshot.rematch, RematchView { asked: vec![], left: vec![], next_game: None });
    assert_eq!(snapshot.ending, None);
}

#[test]
fn the_snapshot_lists_every_ply_with_passes_and_the_last_disc_placed() {
    let mut state = same_device_game();
    play_line(&mut state, "d3 c3 b3 b2 f5 a3 a1 c1", T0);
    let snapshot = state.snapshot(T0);
    assert_eq!(snapshot.moves.len(), 9);
    assert_eq!(snapshot.moves[8], Ply { number: 9, color: Color::Black, mv: Move::Pass });
    assert_eq!(
        snapshot.last_move,
        Some(LastMove {
            number: 8,
            color: Color::White,
            square: sq("c1"),
            flips: squares(&["b2"])
        })
    );
}

#[test]
fn the_snapshot_labels_the_computer_with_its_level() {
    let snapshot = computer_game(Color::White).snapshot(T0);
    assert_eq!(snapshot.black, Player::Computer(Level::MEDIUM));
    assert_eq!(snapshot.white, Player::Human(human(ann(), "Ann")));
}
