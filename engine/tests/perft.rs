//! Perft from the start position, as listed in the rules (a pass is a ply; a game that ends
//! early is one leaf).

use outflank_engine::{Board, perft};

const EXPECTED: [u64; 12] =
    [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800, 1939886636];

#[test]
fn perft_from_the_start_matches_the_rules_to_depth_9() {
    for (depth, &leaves) in (1..=9).zip(EXPECTED.iter()) {
        assert_eq!(perft(&Board::start(), depth), leaves, "depth {depth}");
    }
}

#[test]
fn perft_of_depth_zero_is_one_leaf() {
    assert_eq!(perft(&Board::start(), 0), 1);
}
