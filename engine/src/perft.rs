//! Perft: the number of move sequences of a given length, for checking the move generator.

use crate::Board;
use crate::movegen::moves;

/// Counts the leaves of the game tree `depth` plies deep from `board`.
///
/// A forced pass counts as a ply; a game that ends before `depth` counts as one leaf.
pub fn perft(board: &Board, depth: u32) -> u64 {
    let (p, o) = board.raw();
    if depth == 0 { 1 } else { count(p, o, depth) }
}

fn count(p: u64, o: u64, depth: u32) -> u64 {
    let mut options = moves(p, o);
    if depth == 1 {
        // Either the moves, or one leaf for the pass or the finished game.
        return u64::from(options.count_ones().max(1));
    }
    if options == 0 {
        return if moves(o, p) == 0 { 1 } else { count(o, p, depth - 1) };
    }
    let mut total = 0;
    while options != 0 {
        let square = options.trailing_zeros() as usize;
        options &= options - 1;
        let flipped = crate::movegen::flips(p, o, square);
        total += count(o ^ flipped, p ^ flipped ^ (1 << square), depth - 1);
    }
    total
}
