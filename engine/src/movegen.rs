//! Branch-light move generation and flip computation on raw bitboards.
//!
//! `p` is the side to move, `o` the opponent. Bit `n` is square `n` (`a1` = 0, `h1` = 7,
//! `a2` = 8), so shifting left by 1 moves east, by 8 moves down a row, by 7 and 9 diagonally.

/// Every column but `a` and `h`: opponent discs a horizontal or diagonal line may run through
/// without wrapping around an edge.
const INNER_COLUMNS: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// Squares reached from `p` by jumping over a run of `mask` discs in the direction of `shift`
/// (both ways). Doubling the step covers the longest possible run of six discs in four steps.
#[inline(always)]
fn lines(p: u64, mask: u64, shift: u32) -> u64 {
    let mut left = mask & (p << shift);
    left |= mask & (left << shift);
    let pairs = mask & (mask << shift);
    left |= pairs & (left << (2 * shift));
    left |= pairs & (left << (2 * shift));

    let mut right = mask & (p >> shift);
    right |= mask & (right >> shift);
    let pairs = mask & (mask >> shift);
    right |= pairs & (right >> (2 * shift));
    right |= pairs & (right >> (2 * shift));

    (left << shift) | (right >> shift)
}

/// The empty squares where the side owning `p` may play against `o`.
#[inline]
pub(crate) fn moves(p: u64, o: u64) -> u64 {
    let inner = o & INNER_COLUMNS;
    let reach = lines(p, inner, 1) | lines(p, o, 8) | lines(p, inner, 7) | lines(p, inner, 9);
    reach & !(p | o)
}

/// Rays from each square, excluding it: `[direction][square]`. The first four directions
/// increase the square index (east, south-west, south, south-east), the last four decrease it.
static RAYS: [[u64; 64]; 8] = {
    const STEPS: [(i8, i8); 8] =
        [(1, 0), (-1, 1), (0, 1), (1, 1), (-1, 0), (1, -1), (0, -1), (-1, -1)];
    let mut rays = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let (dc, dr) = STEPS[d];
            let mut c = (sq % 8) as i8 + dc;
            let mut r = (sq / 8) as i8 + dr;
            let mut ray = 0u64;
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                ray |= 1u64 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            rays[d][sq] = ray;
            sq += 1;
        }
        d += 1;
    }
    rays
};

/// The opponent discs flipped by playing on `square` (0 if the move flips nothing).
/// The square is assumed empty.
#[inline]
pub(crate) fn flips(p: u64, o: u64, square: usize) -> u64 {
    let mut flipped = 0;
    let mut d = 0;
    while d < 4 {
        // Towards higher indices the nearest square along the ray is its lowest bit.
        let ray = RAYS[d][square & 63];
        let stop = ray & !o;
        let first = stop & stop.wrapping_neg();
        let closed = ((first & p) != 0) as u64;
        flipped |= first.wrapping_sub(1) & ray & closed.wrapping_neg();
        d += 1;
    }
    while d < 8 {
        // Towards lower indices the nearest square is the highest bit; bit 0 stands in when
        // the ray holds only opponent discs, and cannot close a line unless it is on the ray.
        let ray = RAYS[d][square & 63];
        let stop = (ray & !o) | 1;
        let first = 1u64 << (63 - stop.leading_zeros());
        let closed = ((first & p & ray) != 0) as u64;
        flipped |= ray & !(first | first.wrapping_sub(1)) & closed.wrapping_neg();
        d += 1;
    }
    flipped
}

/// How many discs `p` flips by playing on `square` when every other square is filled (the
/// last empty square of a game): 0 if the move is not legal. Cheaper than [`flips`] because
/// every square on a ray up to `p`'s nearest disc belongs to the opponent.
#[inline]
pub(crate) fn last_flip_count(p: u64, square: usize) -> u32 {
    let mut flipped = 0;
    let mut d = 0;
    while d < 4 {
        let ray = RAYS[d][square & 63];
        let own = ray & p;
        let first = own & own.wrapping_neg();
        let closed = (own != 0) as u64;
        flipped |= first.wrapping_sub(1) & ray & closed.wrapping_neg();
        d += 1;
    }
    while d < 8 {
        let ray = RAYS[d][square & 63];
        let first = 1u64 << (63 - ((ray & p) | 1).leading_zeros());
        let closed = ((first & p & ray) != 0) as u64;
        flipped |= ray & !(first | first.wrapping_sub(1)) & closed.wrapping_neg();
        d += 1;
    }
    flipped.count_ones()
}

/// Squares next to a disc of `discs` (in any of the 8 directions), used for potential mobility.
#[inline]
pub(crate) fn neighbours(discs: u64) -> u64 {
    const COLUMN_A: u64 = 0x0101_0101_0101_0101;
    const COLUMN_H: u64 = 0x8080_8080_8080_8080;
    let horizontal = ((discs << 1) & !COLUMN_A) | ((discs >> 1) & !COLUMN_H);
    let row = discs | horizontal;
    horizontal | (row << 8) | (row >> 8)
}
