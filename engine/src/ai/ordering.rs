//! Move ordering: likely-best moves first, so alpha–beta cuts off early.
//!
//! The transposition-table move comes first. The others are ranked by a sum of: few replies
//! for the opponent afterwards (corner replies counted twice); few empty squares next to the
//! mover's discs afterwards (the opponent's potential mobility); a bonus for corners and a
//! penalty for X- and C-squares next to an empty corner; and, in the last 20 empties, a bonus
//! for moving into a quadrant with an odd number of empties (parity: playing last in a region
//! keeps its discs).

use crate::movegen;

const CORNERS: u64 = 0x8100_0000_0000_0081;
const X_SQUARES: u64 = 0x0042_0000_0000_4200;

/// The four 4×4 quadrants, used as regions for parity.
const QUADRANTS: [u64; 4] =
    [0x0000_0000_0F0F_0F0F, 0x0000_0000_F0F0_F0F0, 0x0F0F_0F0F_0000_0000, 0xF0F0_F0F0_0000_0000];

/// Squares next to each corner (its X- and C-squares), with the corner.
const CORNER_AREAS: [(u64, u64); 4] = [
    (1 << 0, (1 << 1) | (1 << 8) | (1 << 9)),
    (1 << 7, (1 << 6) | (1 << 14) | (1 << 15)),
    (1 << 56, (1 << 48) | (1 << 49) | (1 << 57)),
    (1 << 63, (1 << 54) | (1 << 55) | (1 << 62)),
];

/// Up to this many empties, parity counts in the ordering.
const PARITY_EMPTIES: u32 = 20;

/// The most moves a position can have (every square).
const CAPACITY: usize = 64;

/// The legal moves of a position with their flips, in the order to search them.
#[derive(Debug)]
pub(crate) struct MoveList {
    squares: [u8; CAPACITY],
    flips: [u64; CAPACITY],
    len: usize,
}

impl MoveList {
    /// Number of moves.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The `i`-th move: its square index and the discs it flips.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> (u8, u64) {
        (self.squares[i], self.flips[i])
    }

    /// The moves of `p` against `o` (`moves` is their bitboard), `hint` (a square index, or
    /// anything above 63 for none) first and the rest by the ranking of the module docs.
    pub(crate) fn ordered(p: u64, o: u64, moves: u64, hint: u8) -> MoveList {
        let mut list = MoveList { squares: [0; CAPACITY], flips: [0; CAPACITY], len: 0 };
        let mut keys = [0i32; CAPACITY];
        let empty = !(p | o);
        let odd_regions = if empty.count_ones() <= PARITY_EMPTIES {
            QUADRANTS.iter().filter(|&&q| (q & empty).count_ones() % 2 == 1).fold(0, |a, q| a | q)
        } else {
            0
        };
        let mut dangerous = 0;
        for (corner, area) in CORNER_AREAS {
            if empty & corner != 0 {
                dangerous |= area;
            }
        }

        let mut rest = moves;
        while rest != 0 {
            let square = rest.trailing_zeros() as u8;
            let bit = 1u64 << square;
            rest &= rest - 1;
            let flipped = movegen::flips(p, o, usize::from(square));
            let key = if square == hint {
                i32::MAX
            } else {
                let (mine, theirs) = (p ^ flipped ^ bit, o ^ flipped);
                let replies = movegen::moves(theirs, mine);
                let their_potential = movegen::neighbours(mine) & !(mine | theirs);
                let mut key = -8 * (replies.count_ones() + (replies & CORNERS).count_ones()) as i32
                    - 2 * their_potential.count_ones() as i32;
                if bit & CORNERS != 0 {
                    key += 60;
                } else if bit & dangerous & X_SQUARES != 0 {
                    key -= 40;
                } else if bit & dangerous != 0 {
                    key -= 10;
                }
                if bit & odd_regions != 0 {
                    key += 10;
                }
                key
            };
            // Insertion keeps the list sorted by key, highest first; ties keep square order.
            let mut at = list.len;
            while at > 0 && keys[at - 1] < key {
                keys[at] = keys[at - 1];
                list.squares[at] = list.squares[at - 1];
                list.flips[at] = list.flips[at - 1];
                at -= 1;
            }
            keys[at] = key;
            list.squares[at] = square;
            list.flips[at] = flipped;
            list.len += 1;
        }
        list
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Board, Square};

    #[test]
    fn the_hint_comes_first_and_every_move_once() {
        let board = Board::start();
        let (p, o) = board.raw();
        let moves = movegen::moves(p, o);
        let list = MoveList::ordered(p, o, moves, Square::E6 as u8);
        assert_eq!(list.len(), 4);
        assert_eq!(list.get(0).0, Square::E6 as u8);
        let all = (0..list.len()).fold(0u64, |acc, i| acc | 1 << list.get(i).0);
        assert_eq!(all, moves);
        for i in 0..list.len() {
            let (square, flipped) = list.get(i);
            assert_eq!(flipped, movegen::flips(p, o, usize::from(square)));
        }
    }

    #[test]
    fn a_corner_comes_before_an_x_square() {
        use Square::*;
        // Black to move may take a1 (over b1) or b2 (over c3).
        let p = C1.bit() | D4.bit();
        let o = B1.bit() | C3.bit();
        let moves = movegen::moves(p, o);
        assert!(moves & A1.bit() != 0 && moves & B2.bit() != 0);
        let list = MoveList::ordered(p, o, moves, 64);
        assert_eq!(list.get(0).0, A1 as u8);
    }
}
