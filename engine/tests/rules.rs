//! The rules of Reversi as the engine plays them (SPEC.md §1), one rule per test.

use outflank_engine::{Bitboard, Board, Color, Game, GameResult, IllegalMove, Move, Square};

fn square(name: &str) -> Square {
    name.parse().expect("test squares are valid")
}

/// The squares named in `names`, separated by spaces.
fn squares(names: &str) -> Bitboard {
    names.split_whitespace().map(square).collect()
}

fn place(name: &str) -> Move {
    Move::Place(square(name))
}

/// A game from the standard start after the listed squares (passes are automatic).
fn game(moves: &str) -> Game {
    Game::from_moves(Board::start(), moves.split_whitespace().map(place))
        .expect("test games are legal")
}

/// A position with Black on `black`, White on `white`, `side` to move.
fn position(black: &str, white: &str, side: Color) -> Board {
    Board::from_discs(squares(black), squares(white), side).expect("test discs do not overlap")
}

#[test]
fn the_start_has_white_on_d4_e5_and_black_on_d5_e4_with_black_to_move() {
    let board = Board::start();
    assert_eq!(board.white(), squares("d4 e5"));
    assert_eq!(board.black(), squares("d5 e4"));
    assert_eq!(board.side_to_move(), Color::Black);
}

#[test]
fn black_has_exactly_four_first_moves_c4_d3_e6_f5() {
    assert_eq!(Board::start().legal_moves(), squares("c4 d3 e6 f5"));
}

#[test]
fn a_move_places_a_disc_and_flips_the_closed_line() {
    let board = Board::start().play(place("d3")).unwrap();
    assert_eq!(board.black(), squares("d3 d4 d5 e4"));
    assert_eq!(board.white(), squares("e5"));
    assert_eq!(board.side_to_move(), Color::White);
}

#[test]
fn after_d3_c3_b3_b2_f5_a3_a1_c1_black_has_no_move_but_white_has() {
    let mut board = Board::start();
    for name in "d3 c3 b3 b2 f5 a3 a1 c1".split_whitespace() {
        board = board.play(place(name)).unwrap();
    }
    assert_eq!(board.side_to_move(), Color::Black);
    assert_eq!(board.legal_moves(), Bitboard::EMPTY);
    assert!(board.must_pass());
    assert!(!board.is_game_over());
}

#[test]
fn the_move_that_leaves_black_without_a_move_reports_blacks_automatic_pass() {
    let mut game = game("d3 c3 b3 b2 f5 a3 a1");
    let outcome = game.play(place("c1")).unwrap();
    assert_eq!(outcome.forced_pass, Some(Color::Black));
    assert_eq!(outcome.result, None);
    assert_eq!(game.plies().len(), 9);
    assert_eq!(game.plies()[8], Move::Pass);
}

#[test]
fn after_blacks_automatic_pass_white_can_play_exactly_e3_or_f6() {
    let game = game("d3 c3 b3 b2 f5 a3 a1 c1");
    assert_eq!(game.side_to_move(), Color::White);
    assert_eq!(game.board().legal_moves(), squares("e3 f6"));
}

#[test]
fn the_shortest_game_wipes_out_white_13_to_0_after_9_plies() {
    let game = game("d3 c3 b3 d2 e1 d6 d7 e3 f4");
    assert_eq!(game.plies().len(), 9);
    assert!(game.is_over());
    assert_eq!(game.board().white(), Bitboard::EMPTY);
    assert_eq!(game.result(), Some(GameResult { black: 13, white: 0, empty: 51 }));
    assert_eq!(game.result().and_then(GameResult::winner), Some(Color::Black));
}

#[test]
fn the_last_move_of_the_shortest_game_reports_the_result() {
    let mut game = game("d3 c3 b3 d2 e1 d6 d7 e3");
    let outcome = game.play(place("f4")).unwrap();
    assert_eq!(outcome.flipped, squares("e3 e4 e5"));
    assert_eq!(outcome.forced_pass, None);
    assert_eq!(outcome.result, Some(GameResult { black: 13, white: 0, empty: 51 }));
}

#[test]
fn a_move_flips_the_lines_in_all_eight_directions_at_once() {
    // d4 is surrounded by White, and each neighbour is backed by a Black disc.
    let board = position("b2 d2 f2 b4 f4 b6 d6 f6", "c3 d3 e3 c4 e4 c5 d5 e5", Color::Black);
    let flipped = squares("c3 d3 e3 c4 e4 c5 d5 e5");
    assert_eq!(board.flips(square("d4")), flipped);
    let after = board.play(place("d4")).unwrap();
    assert_eq!(after.black(), squares("b2 d2 f2 b4 f4 b6 d6 f6 d4") | flipped);
    assert_eq!(after.white(), Bitboard::EMPTY);
}

#[test]
fn a_long_line_flips_every_disc_up_to_the_own_disc() {
    let board = position("h1", "b1 c1 d1 e1 f1 g1", Color::Black);
    assert_eq!(board.flips(square("a1")), squares("b1 c1 d1 e1 f1 g1"));
}

#[test]
fn flipping_stops_at_the_nearest_own_disc() {
    // Along row 1: White b1, Black c1, White d1, Black e1. Only b1 is enclosed.
    let board = position("c1 e1", "b1 d1", Color::Black);
    assert_eq!(board.flips(square("a1")), squares("b1"));
}

#[test]
fn an_empty_square_breaks_a_line() {
    // Row 1 has a gap at c1 before Black's d1; column a is closed by a3.
    let board = position("d1 a3", "b1 a2", Color::Black);
    assert_eq!(board.flips(square("a1")), squares("a2"));
}

#[test]
fn a_line_that_runs_to_the_edge_without_an_own_disc_flips_nothing() {
    // Row 1 and the diagonal are White to the edge; column a is closed by a3.
    let board = position("a3", "b1 c1 d1 e1 f1 g1 h1 b2 c3 d4 e5 f6 g7 h8 a2", Color::Black);
    assert_eq!(board.flips(square("a1")), squares("a2"));
}

#[test]
fn a_line_needs_at_least_one_opponent_disc() {
    // b1 is Black's own disc next to a1; a1 encloses nothing.
    let board = position("b1 c1", "d1", Color::Black);
    assert_eq!(board.flips(square("a1")), Bitboard::EMPTY);
    assert!(!board.legal_moves().contains(square("a1")));
}

#[test]
fn flipped_discs_flip_nothing_further() {
    // a1 flips a2; the new Black disc on a2 would enclose b2 against c2, but flips do not chain.
    let board = position("a3 c2", "a2 b2", Color::Black);
    let after = board.play(place("a1")).unwrap();
    assert_eq!(after.black(), squares("a1 a2 a3 c2"));
    assert_eq!(after.white(), squares("b2"));
}

#[test]
fn playing_an_occupied_square_is_rejected_and_changes_nothing() {
    let mut game = Game::default();
    assert_eq!(
        game.play(place("d4")),
        Err(IllegalMove::NotLegal { square: Square::D4, side: Color::Black })
    );
    assert_eq!(game.board(), Board::start());
    assert_eq!(game.plies(), &[]);
}

#[test]
fn playing_a_square_that_flips_nothing_is_rejected_and_changes_nothing() {
    let mut game = game("d3");
    let before = game.clone();
    assert_eq!(
        game.play(place("a1")),
        Err(IllegalMove::NotLegal { square: Square::A1, side: Color::White })
    );
    assert_eq!(game, before);
    assert_eq!(game.board(), before.board());
}

#[test]
fn a_rejected_move_keeps_the_redo_stack() {
    let mut game = game("d3 c3");
    game.undo();
    assert!(game.play(place("a1")).is_err());
    assert_eq!(game.redo(), Some(place("c3")));
}

#[test]
fn a_pass_is_rejected_while_a_move_exists() {
    let mut game = Game::default();
    assert_eq!(game.play(Move::Pass), Err(IllegalMove::PassWithMoves { side: Color::Black }));
    assert_eq!(game.plies(), &[]);
}

#[test]
fn an_explicit_pass_is_accepted_when_the_side_to_move_has_no_move() {
    let mut game = game("d3 c3 b3 b2 f5 a3 a1 c1");
    assert_eq!(game.undo(), Some(Move::Pass));
    let outcome = game.play(Move::Pass).unwrap();
    assert_eq!(
        outcome,
        outflank_engine::Outcome { flipped: Bitboard::EMPTY, forced_pass: None, result: None }
    );
    assert_eq!(game.side_to_move(), Color::White);
    assert_eq!(game.plies().len(), 9);
}

#[test]
fn a_full_board_ends_the_game() {
    let full = format!("{}{} X", "X".repeat(40), "O".repeat(24));
    let game = Game::new(full.parse().unwrap());
    assert!(game.is_over());
    assert_eq!(game.result(), Some(GameResult { black: 40, white: 24, empty: 0 }));
}

#[test]
fn a_blocked_position_with_empty_squares_ends_the_game() {
    // Neither disc can enclose the other: nobody can move.
    let game = Game::new(position("a1", "h8", Color::Black));
    assert!(game.is_over());
    assert_eq!(game.result(), Some(GameResult { black: 1, white: 1, empty: 62 }));
}

#[test]
fn equal_counts_are_a_draw() {
    let result = GameResult { black: 1, white: 1, empty: 62 };
    assert_eq!(result.winner(), None);
}

#[test]
fn no_move_or_pass_is_accepted_once_the_game_is_over() {
    let mut game = game("d3 c3 b3 d2 e1 d6 d7 e3 f4");
    assert_eq!(game.play(place("a1")), Err(IllegalMove::GameOver));
    assert_eq!(game.play(Move::Pass), Err(IllegalMove::GameOver));
    assert_eq!(game.plies().len(), 9);
}

#[test]
fn an_unfinished_game_has_no_result() {
    let game = game("d3 c3");
    assert!(!game.is_over());
    assert_eq!(game.result(), None);
}

#[test]
fn board_after_gives_the_position_after_each_ply() {
    let game = game("d3 c3 b3");
    let after_d3 = Board::start().play(place("d3")).unwrap();
    let after_c3 = after_d3.play(place("c3")).unwrap();
    let after_b3 = after_c3.play(place("b3")).unwrap();
    assert_eq!(game.board_after(0), Some(Board::start()));
    assert_eq!(game.board_after(1), Some(after_d3));
    assert_eq!(game.board_after(2), Some(after_c3));
    assert_eq!(game.board_after(3), Some(after_b3));
    assert_eq!(game.board_after(4), None);
    assert_eq!(game.start(), Board::start());
}

#[test]
fn undo_restores_the_exact_previous_position() {
    let mut game = game("d3 c3 b3");
    let before_b3 = game.board_after(2).unwrap();
    assert_eq!(game.undo(), Some(place("b3")));
    assert_eq!(game.board(), before_b3);
    assert_eq!(game.plies(), &[place("d3"), place("c3")]);
    assert_eq!(game.side_to_move(), Color::Black);
}

#[test]
fn undo_at_the_start_does_nothing() {
    let mut game = Game::default();
    assert_eq!(game.undo(), None);
    assert!(!game.can_undo());
    assert_eq!(game.board(), Board::start());
}

#[test]
fn undo_takes_back_an_automatic_pass_as_a_ply_of_its_own() {
    let mut game = game("d3 c3 b3 b2 f5 a3 a1 c1");
    let before_pass = game.board_after(8).unwrap();
    assert_eq!(game.undo(), Some(Move::Pass));
    assert_eq!(game.board(), before_pass);
    assert_eq!(game.undo(), Some(place("c1")));
    assert_eq!(game.plies().len(), 7);
}

#[test]
fn redo_replays_the_undone_plies_in_order() {
    let mut game = game("d3 c3 b3");
    let finished = game.clone();
    game.undo();
    game.undo();
    assert!(game.can_redo());
    assert_eq!(game.redo(), Some(place("c3")));
    assert_eq!(game.redo(), Some(place("b3")));
    assert_eq!(game.redo(), None);
    assert_eq!(game, finished);
    assert_eq!(game.board(), finished.board());
}

#[test]
fn playing_a_new_move_clears_the_redo_stack() {
    let mut game = game("d3 c3 b3");
    game.undo();
    game.play(place("c4")).unwrap();
    assert!(!game.can_redo());
    assert_eq!(game.redo(), None);
    assert_eq!(game.plies(), &[place("d3"), place("c3"), place("c4")]);
}

#[test]
fn undo_to_takes_back_plies_down_to_the_given_count() {
    let mut game = game("d3 c3 b3 b2 f5");
    let after_two = game.board_after(2).unwrap();
    assert_eq!(game.undo_to(2), 3);
    assert_eq!(game.plies().len(), 2);
    assert_eq!(game.board(), after_two);
    assert_eq!(game.undo_to(5), 0);
    assert_eq!(game.redo(), Some(place("b3")));
}

#[test]
fn a_listed_pass_where_one_is_forced_is_that_same_pass() {
    let listed = ["d3", "c3", "b3", "b2", "f5", "a3", "a1", "c1"].map(place);
    let with_pass = listed.iter().copied().chain([Move::Pass, place("e3")]);
    let without_pass = listed.iter().copied().chain([place("e3")]);
    let a = Game::from_moves(Board::start(), with_pass).unwrap();
    let b = Game::from_moves(Board::start(), without_pass).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.plies().len(), 10);
}

#[test]
fn replaying_a_list_names_the_first_illegal_move_by_ply() {
    let moves = ["d3", "c3", "a1"].map(place);
    let error = Game::from_moves(Board::start(), moves).unwrap_err();
    assert_eq!(error.number, 3);
    assert_eq!(error.mv, place("a1"));
    assert_eq!(error.error, IllegalMove::NotLegal { square: Square::A1, side: Color::Black });
    assert_eq!(error.to_string(), "move 3 (a1): a1 is not legal for Black");
}
