//! The bitboard move generator against a naive square-by-square reference kept here: for
//! positions reached in random games and for arbitrary disc patterns, the legal moves, the
//! flips of every square and the position after each move are the same.

use outflank_engine::{Bitboard, Board, Color, Move, Square};
use proptest::prelude::*;
use proptest::sample::Index;

/// The eight directions as (column step, row step).
const DIRECTIONS: [(i32, i32); 8] =
    [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];

/// Who owns the square at (`column`, `row`), or `None` if it is empty or off the board.
fn owner(board: &Board, column: i32, row: i32) -> Option<Color> {
    if !(0..8).contains(&column) || !(0..8).contains(&row) {
        return None;
    }
    let bit = 1u64 << (row * 8 + column);
    if board.black().0 & bit != 0 {
        Some(Color::Black)
    } else if board.white().0 & bit != 0 {
        Some(Color::White)
    } else {
        None
    }
}

fn on_board(column: i32, row: i32) -> bool {
    (0..8).contains(&column) && (0..8).contains(&row)
}

/// The discs the side to move flips by playing on (`column`, `row`): walk each direction over
/// opponent discs; the walk counts only if it stops on an own disc.
fn reference_flips(board: &Board, column: i32, row: i32) -> u64 {
    let me = board.side_to_move();
    if owner(board, column, row).is_some() {
        return 0;
    }
    let mut flipped = 0;
    for (dx, dy) in DIRECTIONS {
        let mut line = 0u64;
        let (mut x, mut y) = (column + dx, row + dy);
        while on_board(x, y) && owner(board, x, y) == Some(me.opposite()) {
            line |= 1u64 << (y * 8 + x);
            x += dx;
            y += dy;
        }
        if on_board(x, y) && owner(board, x, y) == Some(me) {
            flipped |= line;
        }
    }
    flipped
}

fn reference_legal_moves(board: &Board) -> u64 {
    let mut moves = 0;
    for row in 0..8 {
        for column in 0..8 {
            if reference_flips(board, column, row) != 0 {
                moves |= 1u64 << (row * 8 + column);
            }
        }
    }
    moves
}

/// The position after the side to move plays on `square`, built disc by disc.
fn reference_play(board: &Board, square: Square) -> Board {
    let flipped = reference_flips(board, i32::from(square.column()), i32::from(square.row()));
    let mover = board.player().0 | flipped | square.bit();
    let other = board.opponent().0 & !flipped;
    let (black, white) = match board.side_to_move() {
        Color::Black => (mover, other),
        Color::White => (other, mover),
    };
    Board::from_discs(Bitboard(black), Bitboard(white), board.side_to_move().opposite())
        .expect("reference play keeps the sides apart")
}

/// The positions of a game from the start where `choices` pick each move among the legal
/// ones; a side without a move passes, and the walk ends when the game does.
fn positions(choices: &[Index]) -> Vec<Board> {
    let mut board = Board::start();
    let mut seen = vec![board];
    for choice in choices {
        if board.is_game_over() {
            break;
        }
        let moves: Vec<Square> = board.legal_moves().into_iter().collect();
        let mv = if moves.is_empty() {
            Move::Pass
        } else {
            Move::Place(moves[choice.index(moves.len())])
        };
        board = board.play(mv).expect("the move was chosen among the legal ones");
        seen.push(board);
    }
    seen
}

/// Any two disjoint sets of discs, sparse or dense, either side to move.
fn arbitrary_board() -> impl Strategy<Value = Board> {
    (any::<u64>(), any::<u64>(), any::<u64>(), any::<bool>()).prop_map(|(a, b, mask, white)| {
        let black = a & mask;
        let white_discs = b & mask & !black;
        let side = if white { Color::White } else { Color::Black };
        Board::from_discs(Bitboard(black), Bitboard(white_discs), side).expect("disjoint")
    })
}

fn random_game() -> impl Strategy<Value = Vec<Index>> {
    prop::collection::vec(any::<Index>(), 0..=60)
}

#[test]
fn the_reference_finds_the_four_opening_moves() {
    let expected = Bitboard::from_iter([Square::C4, Square::D3, Square::E6, Square::F5]);
    assert_eq!(Bitboard(reference_legal_moves(&Board::start())), expected);
}

#[test]
fn the_generator_and_the_reference_agree_where_black_must_pass() {
    // The position of the rules after d3 c3 b3 b2 f5 a3 a1 c1: Black has no move.
    let mut board = Board::start();
    for name in ["d3", "c3", "b3", "b2", "f5", "a3", "a1", "c1"] {
        board = board.play(Move::Place(name.parse().unwrap())).unwrap();
    }
    assert_eq!(reference_legal_moves(&board), 0);
    assert_eq!(board.legal_moves(), Bitboard::EMPTY);
    let white = board.play(Move::Pass).unwrap();
    let expected = Bitboard::from_iter([Square::E3, Square::F6]);
    assert_eq!(Bitboard(reference_legal_moves(&white)), expected);
    assert_eq!(white.legal_moves(), expected);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn legal_moves_match_the_reference_in_reachable_positions(choices in random_game()) {
        for board in positions(&choices) {
            prop_assert_eq!(board.legal_moves(), Bitboard(reference_legal_moves(&board)), "{}", board);
        }
    }

    #[test]
    fn flips_of_every_square_match_the_reference_in_reachable_positions(choices in random_game()) {
        for board in positions(&choices) {
            for square in Square::ALL {
                let (column, row) = (i32::from(square.column()), i32::from(square.row()));
                let expected = Bitboard(reference_flips(&board, column, row));
                prop_assert_eq!(board.flips(square), expected, "{} {}", board, square);
            }
        }
    }

    #[test]
    fn playing_matches_the_reference_in_reachable_positions(choices in random_game()) {
        for board in positions(&choices) {
            for square in board.legal_moves() {
                prop_assert_eq!(board.play(Move::Place(square)), Ok(reference_play(&board, square)));
            }
        }
    }

    #[test]
    fn pass_and_game_over_match_the_reference_in_reachable_positions(choices in random_game()) {
        for board in positions(&choices) {
            let mine = reference_legal_moves(&board);
            let theirs = reference_legal_moves(&board.pass_unchecked());
            prop_assert_eq!(board.must_pass(), mine == 0 && theirs != 0);
            prop_assert_eq!(board.is_game_over(), mine == 0 && theirs == 0);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn legal_moves_match_the_reference_on_arbitrary_discs(board in arbitrary_board()) {
        prop_assert_eq!(board.legal_moves(), Bitboard(reference_legal_moves(&board)), "{}", board);
    }

    #[test]
    fn flips_of_every_square_match_the_reference_on_arbitrary_discs(board in arbitrary_board()) {
        for square in Square::ALL {
            let (column, row) = (i32::from(square.column()), i32::from(square.row()));
            let expected = Bitboard(reference_flips(&board, column, row));
            prop_assert_eq!(board.flips(square), expected, "{} {}", board, square);
        }
    }
}
