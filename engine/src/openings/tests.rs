use std::collections::HashSet;

use super::*;
use crate::xot::Symmetry;

/// The moves of a line written `f5 d6 …`.
fn moves(line: &str) -> Vec<Move> {
    line.split_whitespace().map(|word| word.parse().unwrap()).collect()
}

/// The name of the opening of `line`, if any.
fn name_of(line: &str) -> Option<&'static str> {
    opening_of(&moves(line)).map(|opening| opening.name())
}

/// `line` played on the board seen under `symmetry`, written back as text.
fn line_under(symmetry: Symmetry, line: &str) -> String {
    let squares: Vec<String> = line
        .split_whitespace()
        .map(|word| symmetry.square(word.parse().unwrap()).to_string())
        .collect();
    squares.join(" ")
}

#[test]
fn every_table_line_replays_legally_from_the_start_so_none_is_left_out() {
    for &(name, _, line) in names::LINES {
        assert!(Entry::of(&(name, &[], line)).is_some(), "{name}: {line} does not replay");
    }
    assert_eq!(openings().len(), names::LINES.len());
}

#[test]
fn every_line_is_written_in_lower_case_from_f5_with_single_spaces() {
    for opening in openings() {
        let written: Vec<&str> = opening.squares().iter().map(|square| square.name()).collect();
        assert_eq!(opening.line(), written.join(" "), "{}", opening.name());
        assert_eq!(opening.squares().first(), Some(&Square::F5), "{}", opening.name());
    }
}

#[test]
fn no_two_names_or_other_names_are_the_same_in_any_case() {
    let mut seen = HashSet::new();
    for opening in openings() {
        for name in std::iter::once(opening.name()).chain(opening.aliases().iter().copied()) {
            assert!(seen.insert(name.to_ascii_lowercase()), "{name} is listed twice");
        }
    }
}

#[test]
fn no_two_lines_reach_the_same_position_up_to_symmetry() {
    let keys: HashSet<Key> = openings().map(|opening| Key::of(&opening.board())).collect();
    assert_eq!(keys.len(), openings().len());
}

#[test]
fn the_table_holds_at_least_70_openings() {
    assert!(openings().len() >= 70, "{} openings", openings().len());
}

#[test]
fn every_line_is_named_by_its_own_name_from_each_of_the_four_first_moves() {
    for opening in openings() {
        for symmetry in Symmetry::ALL {
            let line = line_under(symmetry, opening.line());
            assert_eq!(opening_of(&moves(&line)), Some(opening), "{line} ({symmetry:?})");
        }
    }
}

#[test]
fn f5_d6_c3_d3_c4_is_the_tiger() {
    let opening = opening_of(&moves("f5 d6 c3 d3 c4")).unwrap();
    assert_eq!(opening, Opening::named("Tiger").unwrap());
    assert_eq!((opening.name(), opening.plies(), opening.line()), ("Tiger", 5, "f5 d6 c3 d3 c4"));
}

#[test]
fn the_tiger_begun_on_d3_is_the_tiger() {
    let line = line_under(Symmetry::AntiDiagonal, "f5 d6 c3 d3 c4");
    assert_eq!(line, "d3 c5 f6 f5 e6");
    assert_eq!(name_of(&line), Some("Tiger"));
}

#[test]
fn a_named_line_extending_the_tiger_wins_over_the_tiger() {
    assert_eq!(name_of("f5 d6 c3 d3 c4 f4 f6"), Some("Stephenson"));
    assert_eq!(name_of("f5 d6 c3 d3 c4 f4 f6 f3 e3"), Some("Lightning Bolt"));
}

#[test]
fn a_game_that_leaves_the_named_lines_keeps_the_last_name_it_matched() {
    // After the Tiger and f4, every named line goes on with e3, e6, c5 or f6; g4 is in none.
    let line = "f5 d6 c3 d3 c4 f4 g4";
    let game = Game::from_moves(Board::start(), moves(line)).unwrap();
    assert_eq!(opening_of(game.plies()).map(|opening| opening.name()), Some("Tiger"));
}

#[test]
fn a_whole_game_is_named_by_the_longest_line_it_played() {
    // The F.A.T. Draw, then the first legal square each ply until the game is over.
    let mut game = Game::default();
    for mv in moves(Opening::named("F.A.T. Draw").unwrap().line()) {
        game.play(mv).unwrap();
    }
    while let Some(square) = game.board().legal_moves().first() {
        game.play(Move::Place(square)).unwrap();
    }
    assert!(game.is_over());
    assert!(game.plies().len() > 50, "{} plies", game.plies().len());
    let opening = opening_of(game.plies()).unwrap();
    assert_eq!((opening.name(), opening.plies()), ("F.A.T. Draw", 21));
}

#[test]
fn a_transposition_is_named_as_the_line_it_reaches() {
    // The Maruoka Buffalo is f5 f6 e6 f4 c3 d7 f3: here Black plays f3 before c3.
    let transposed = "f5 f6 e6 f4 f3 d7 c3";
    assert_eq!(name_of("f5 f6 e6 f4 f3"), Some("Diagonal"));
    assert_eq!(name_of(transposed), Some("Maruoka Buffalo"));
    // The Landau (… e3 c5 c4 d3 c3) with White's and Black's moves 6 to 9 in another order.
    assert_eq!(name_of("f5 f6 e6 f4 e3 d3 c3 c5 c4"), Some("Landau"));
}

#[test]
fn no_moves_have_no_opening() {
    assert_eq!(opening_of(&[]), None);
    assert_eq!(opening_of_game(&Game::default()), None);
}

#[test]
fn the_first_move_alone_has_no_name() {
    for first in ["f5", "d3", "c4", "e6"] {
        assert_eq!(name_of(first), None, "{first}");
    }
}

#[test]
fn the_second_move_names_one_of_the_three_replies() {
    assert_eq!(name_of("f5 d6"), Some("Perpendicular"));
    assert_eq!(name_of("f5 f6"), Some("Diagonal"));
    assert_eq!(name_of("f5 f4"), Some("Parallel"));
    assert_eq!(name_of("c4 c3"), Some("Diagonal"));
}

#[test]
fn a_move_that_cannot_be_played_ends_the_replay() {
    assert_eq!(name_of("f5 d6 c3 d3 c4 a1 f4 f6"), Some("Tiger"));
    assert_eq!(opening_of(&[Move::Pass]), None);
}

#[test]
fn a_game_is_named_as_its_plies_are() {
    let line = "f5 d6 c5 f4 e3 c6 d3 f6 e6 d7 g3 c4 b4 c3 e7";
    let game = Game::from_moves(Board::start(), moves(line)).unwrap();
    assert_eq!(opening_of_game(&game).map(|opening| opening.name()), Some("Rose-Tamenori-Kling"));
    assert_eq!(opening_of_game(&game), opening_of(game.plies()));
}

#[test]
fn a_game_from_another_start_has_no_opening() {
    let start = Board::start().play(Move::Place(Square::F5)).unwrap();
    let game = Game::from_moves(start, moves("d6 c3 d3 c4")).unwrap();
    assert_eq!(opening_of_game(&game), None);
}

#[test]
fn an_opening_is_found_by_any_of_its_names_in_any_case() {
    let snake = Opening::named("Snake").unwrap();
    assert_eq!(Opening::named("peasant"), Some(snake));
    assert_eq!(snake.aliases(), ["Peasant"]);
    assert_eq!(snake.to_string(), "Snake");
    assert_eq!(Opening::named("Queen's Gambit"), None);
}

#[test]
fn the_moves_of_an_opening_reach_its_board() {
    let rose = Opening::named("Rose").unwrap();
    let game = Game::from_moves(Board::start(), rose.moves()).unwrap();
    assert_eq!((rose.moves().len(), game.board()), (10, rose.board()));
}

#[test]
fn the_bit_symmetries_move_each_square_where_the_board_symmetries_do() {
    for square in Square::ALL {
        let (column, row) = (square.column(), square.row());
        let at = |column, row| Square::from_coords(column, row).unwrap().bit();
        assert_eq!(flip_rows(square.bit()), at(column, 7 - row), "{square}");
        assert_eq!(flip_columns(square.bit()), at(7 - column, row), "{square}");
        assert_eq!(transpose(square.bit()), Symmetry::Diagonal.square(square).bit(), "{square}");
        let half_turn = flip_rows(flip_columns(square.bit()));
        assert_eq!(half_turn, Symmetry::HalfTurn.square(square).bit(), "{square}");
    }
}

#[test]
fn a_position_has_the_same_key_as_each_of_its_eight_images() {
    let board = Opening::named("Rose").unwrap().board();
    let black = images(board.black().0);
    let white = images(board.white().0);
    for (black, white) in black.into_iter().zip(white) {
        let image =
            Board::from_discs(crate::Bitboard(black), crate::Bitboard(white), board.side_to_move())
                .unwrap();
        assert_eq!(Key::of(&image), Key::of(&board));
    }
    let distinct: HashSet<(u64, u64)> = black.into_iter().zip(white).collect();
    assert_eq!(distinct.len(), 8);
}

#[test]
fn the_opening_by_ply_is_the_opening_of_the_game_cut_after_that_ply() {
    let line = "f5 d6 c3 d3 c4 f4 f6 f3 e6 e7 d7 g6 f8 f7 g5 h6 h4 g4 h3 h5 h7 c5 b4";
    let game = Game::from_moves(Board::start(), moves(line)).unwrap();
    let by_ply = openings_by_ply(&game);
    assert_eq!(by_ply.len(), game.plies().len());
    for (index, opening) in by_ply.iter().enumerate() {
        let cut =
            Game::from_moves(Board::start(), moves(line).into_iter().take(index + 1)).unwrap();
        assert_eq!(*opening, opening_of_game(&cut), "after {} plies", index + 1);
    }
    assert_eq!(by_ply.last().map(|opening| opening.map(|o| o.name())), Some(Some("F.A.T. Draw")));
}
