//! Position strings (`Board::from_str`): 64 squares `X`/`*`/`O`/`-`/`.`, then the side to move.
//!
//! Any input: parsing never panics, and an error prints. A string that parses:
//! - holds, square by square, the discs its first 64 characters say, and the side it names;
//! - prints as 64 `X`/`O`/`-` characters, a space and `X` or `O`, which parse back to the same
//!   board and print again the same;
//! - on that board (reachable in a game or not) the move generator agrees with a plain
//!   square-by-square walk: the legal squares, the discs each move flips, what playing it
//!   gives, and when a pass is allowed.

#![no_main]

use libfuzzer_sys::fuzz_target;
use outflank_engine::{Board, Color, IllegalMove, Move, Square};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match text.parse::<Board>() {
        Err(error) => {
            let _ = error.to_string();
        }
        Ok(board) => {
            check_parse(&text, board);
            check_print(board);
            check_moves(board);
        }
    }
});

/// The board holds what the text says.
fn check_parse(text: &str, board: Board) {
    let mut chars = text.trim().chars();
    for square in Square::ALL {
        let expected = match chars.next() {
            Some('X' | 'x' | '*') => Some(Color::Black),
            Some('O' | 'o') => Some(Color::White),
            Some('-' | '.') => None,
            other => panic!("{text:?} parsed, but square {square} is {other:?}"),
        };
        assert_eq!(board.at(square), expected, "square {square} of {text:?}");
    }
    let side = chars.as_str().trim_start().chars().next();
    let side = side.and_then(Color::from_letter);
    assert_eq!(Some(board.side_to_move()), side, "side to move of {text:?}");
}

fn check_print(board: Board) {
    let printed = board.to_string();
    assert_eq!(printed.len(), 66, "printed form {printed:?}");
    assert!(printed[..64].bytes().all(|b| matches!(b, b'X' | b'O' | b'-')), "{printed:?}");
    assert!(matches!(&printed[64..], " X" | " O"), "{printed:?}");
    assert_eq!(printed.parse::<Board>(), Ok(board), "printed form {printed:?} reads back");
    assert_eq!(printed.parse::<Board>().map(|b| b.to_string()), Ok(printed.clone()));
    let _ = format!("{board:?}");
}

/// The eight directions as (column step, row step).
const DIRECTIONS: [(i8, i8); 8] =
    [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Discs of the side to move's opponent flipped by a disc on `square`, walking each line.
fn walk_flips(board: Board, square: Square) -> Vec<Square> {
    let me = board.side_to_move();
    if board.at(square).is_some() {
        return Vec::new();
    }
    let mut flipped = Vec::new();
    for (dc, dr) in DIRECTIONS {
        let mut line = Vec::new();
        let (mut c, mut r) = (square.column() as i8 + dc, square.row() as i8 + dr);
        while let Some(next) = Square::from_coords(c as u8, r as u8).filter(|_| c >= 0 && r >= 0) {
            match board.at(next) {
                Some(color) if color == me => {
                    flipped.extend(line);
                    break;
                }
                Some(_) => line.push(next),
                None => break,
            }
            c += dc;
            r += dr;
        }
    }
    flipped.sort();
    flipped
}

fn check_moves(board: Board) {
    let me = board.side_to_move();
    let counts = board.counts();
    assert_eq!(u32::from(counts.black) + u32::from(counts.white) + u32::from(counts.empty), 64);
    assert!((board.black() & board.white()).is_empty());

    let mut any_legal = false;
    for square in Square::ALL {
        let expected = walk_flips(board, square);
        let flips: Vec<Square> = board.flips(square).into_iter().collect();
        assert_eq!(flips, expected, "flips of {square} on {board}");
        let legal = !expected.is_empty();
        any_legal |= legal;
        assert_eq!(board.is_legal(square), legal, "legality of {square} on {board}");
        assert_eq!(board.legal_moves().contains(square), legal);

        let played = board.play(Move::Place(square));
        if !legal {
            let game_over = board.is_game_over();
            match played {
                Err(IllegalMove::GameOver) => assert!(game_over),
                Err(IllegalMove::NotLegal { square: s, side }) => {
                    assert!(!game_over);
                    assert_eq!((s, side), (square, me));
                }
                other => panic!("{square} is not legal on {board}, but play gave {other:?}"),
            }
            continue;
        }
        let after = played.unwrap_or_else(|error| panic!("{square} on {board}: {error}"));
        assert_eq!(after.side_to_move(), me.opposite());
        assert_eq!(after.at(square), Some(me));
        for other in Square::ALL {
            let want = if other == square || expected.contains(&other) {
                Some(me)
            } else {
                board.at(other)
            };
            assert_eq!(after.at(other), want, "{other} after {square} on {board}");
        }
        assert_eq!(board.play_unchecked(square), after);
    }
    assert_eq!(board.has_no_moves(), !any_legal);
    let opponent_can_move = board.pass_unchecked().legal_moves().into_iter().next().is_some();
    assert_eq!(board.must_pass(), !any_legal && opponent_can_move);
    assert_eq!(board.is_game_over(), !any_legal && !opponent_can_move);
    assert_eq!(board.result().is_some(), board.is_game_over());
    match board.play(Move::Pass) {
        Ok(after) => {
            assert!(board.must_pass(), "a pass was allowed on {board}");
            assert_eq!(after, board.pass_unchecked());
        }
        Err(IllegalMove::GameOver) => assert!(board.is_game_over()),
        Err(IllegalMove::PassWithMoves { side }) => {
            assert!(any_legal);
            assert_eq!(side, me);
        }
        Err(other) => panic!("pass on {board}: {other}"),
    }
}
