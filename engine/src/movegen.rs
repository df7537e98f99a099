//! Branch-light move generation and flip computation on raw bitboards.
//!
//! `p` is the side to move, `o` the opponent. Bit `n` is square `n` (`a1` = 0, `h1` = 7,
//! `a2` = 8), so shifting left by 1 moves east, by 8 moves down a row, by 7 and 9 diagonally.

/// Every column but `a` and `h`: opponent discs a horizontal or diagonal line may run through
/// without wrapping around an edge.
const INNER_COLUMNS: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// Column `a`; multiplied by it, a set with at most one square per column gathers into the
/// top byte.
const COLUMN_A: u64 = 0x0101_0101_0101_0101;

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

/// The eight rays from one square, excluding it, in one aligned cache line so that each
/// half loads as one vector. The first four directions increase the square index (east,
/// south-west, south, south-east), the last four decrease it.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct SquareRays([u64; 8]);

/// Rays from each square: `RAYS[square].0[direction]`.
static RAYS: [SquareRays; 64] = {
    const STEPS: [(i8, i8); 8] =
        [(1, 0), (-1, 1), (0, 1), (1, 1), (-1, 0), (1, -1), (0, -1), (-1, -1)];
    let mut rays = [SquareRays([0u64; 8]); 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dc, dr) = STEPS[d];
            let mut c = (sq % 8) as i8 + dc;
            let mut r = (sq / 8) as i8 + dr;
            let mut ray = 0u64;
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                ray |= 1u64 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            rays[sq].0[d] = ray;
            d += 1;
        }
        sq += 1;
    }
    rays
};

/// The opponent discs flipped by playing on `square` (0 if the move flips nothing).
/// The square is assumed empty.
#[inline]
pub(crate) fn flips(p: u64, o: u64, square: usize) -> u64 {
    // Towards higher indices the nearest square along a ray is its lowest bit.
    let rays = &RAYS[square & 63].0;
    let mut upper = [0u64; 4];
    for (lane, flipped) in upper.iter_mut().enumerate() {
        let ray = rays[lane];
        let stop = ray & !o;
        let first = stop & stop.wrapping_neg();
        let closed = ((first & p) != 0) as u64;
        *flipped = first.wrapping_sub(1) & ray & closed.wrapping_neg();
    }
    // Towards lower indices the nearest square not the opponent's is the highest bit of
    // `stop`. Smearing it down the ray by the direction's step (1, 7, 8, 9 squares), then
    // doubling, covers a ray's seven squares in three shifts: the ray's squares above the
    // smear are the opponent's run next to `square`, and the smear's top is that stop. The
    // four rays are computed lane by lane, in the shape the compiler turns into vector
    // instructions.
    const STEPS: [u32; 4] = [1, 7, 8, 9];
    let mut lower = [0u64; 4];
    for lane in 0..4 {
        let ray = rays[4 + lane];
        let step = STEPS[lane];
        let stop = ray & !o;
        let mut smear = stop | (stop >> step);
        smear |= smear >> (2 * step);
        smear |= smear >> (4 * step);
        let first = (smear ^ (smear >> step)) & ray;
        let closed = ((first & p) != 0) as u64;
        lower[lane] = ray & !smear & closed.wrapping_neg();
    }
    (upper[0] | upper[1] | upper[2] | upper[3]) | (lower[0] | lower[1] | lower[2] | lower[3])
}

/// Flips along one line of up to eight squares, for the last empty square of a game:
/// `[position of the empty square][the line's own discs as a byte]`. Walking away from the
/// empty square both ways, the squares before the nearest own disc are the opponent's (every
/// other square is filled), and are flipped if that disc exists. Squares off a short line read
/// as neither, so a walk off its end finds no own disc and flips nothing.
static LINE_FLIPS: [[u8; 256]; 8] = {
    let mut table = [[0u8; 256]; 8];
    let mut position = 0;
    while position < 8 {
        let mut own = 0;
        while own < 256 {
            let mut flipped = 0;
            // Towards higher positions.
            let mut at = position + 1;
            while at < 8 && own & (1 << at) == 0 {
                at += 1;
            }
            if at < 8 {
                flipped += at - position - 1;
            }
            // Towards lower positions.
            let mut at = position as i32 - 1;
            while at >= 0 && own & (1 << at) == 0 {
                at -= 1;
            }
            if at >= 0 {
                flipped += position - at as usize - 1;
            }
            table[position][own] = flipped as u8;
            own += 1;
        }
        position += 1;
    }
    table
};

/// The two diagonals through each square: `[square] = (a1-h8 direction, a8-h1 direction)`.
static DIAGONALS: [(u64, u64); 64] = {
    let mut table = [(0u64, 0u64); 64];
    let mut square = 0;
    while square < 64 {
        let (column, row) = ((square % 8) as i32, (square / 8) as i32);
        let (mut down, mut up) = (0u64, 0u64);
        let mut c = 0;
        while c < 8 {
            let r = row + (c - column);
            if r >= 0 && r < 8 {
                down |= 1 << (r * 8 + c);
            }
            let r = row - (c - column);
            if r >= 0 && r < 8 {
                up |= 1 << (r * 8 + c);
            }
            c += 1;
        }
        table[square] = (down, up);
        square += 1;
    }
    table
};

/// How many discs `p` flips by playing on `square` when every other square is filled (the
/// last empty square of a game): 0 if the move is not legal. Each of the square's four lines
/// is gathered into a byte of `p`'s discs and looked up in [`LINE_FLIPS`]; rows and diagonals
/// are indexed by column (a diagonal has one square per column), columns by row.
#[inline]
pub(crate) fn last_flip_count(p: u64, square: usize) -> u32 {
    /// Gathers bit `8 * r` of a column into bit `r` of the top byte.
    const GATHER_COLUMN: u64 = 0x0102_0408_1020_4080;
    let square = square & 63;
    let (column, row) = (square & 7, square >> 3);
    let row_bits = (p >> (8 * row)) as u8;
    let column_bits = ((((p >> column) & COLUMN_A).wrapping_mul(GATHER_COLUMN)) >> 56) as u8;
    let (down, up) = DIAGONALS[square];
    let down_bits = ((p & down).wrapping_mul(COLUMN_A) >> 56) as u8;
    let up_bits = ((p & up).wrapping_mul(COLUMN_A) >> 56) as u8;
    u32::from(LINE_FLIPS[column][usize::from(row_bits)])
        + u32::from(LINE_FLIPS[row][usize::from(column_bits)])
        + u32::from(LINE_FLIPS[column][usize::from(down_bits)])
        + u32::from(LINE_FLIPS[column][usize::from(up_bits)])
}

/// Squares next to a disc of `discs` (in any of the 8 directions), used for potential mobility.
#[inline]
pub(crate) fn neighbours(discs: u64) -> u64 {
    const COLUMN_H: u64 = 0x8080_8080_8080_8080;
    let horizontal = ((discs << 1) & !COLUMN_A) | ((discs >> 1) & !COLUMN_H);
    let row = discs | horizontal;
    horizontal | (row << 8) | (row >> 8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::numbers;

    #[test]
    fn the_last_flip_count_is_the_number_of_discs_a_move_on_the_last_square_flips() {
        for (index, discs) in numbers(0x2545_F491_4F6C_DD1D).take(200_000).enumerate() {
            let square = index % 64;
            let p = discs & !(1 << square);
            let o = !(p | 1 << square);
            assert_eq!(
                last_flip_count(p, square),
                flips(p, o, square).count_ones(),
                "own discs {p:#018x}, square {square}"
            );
        }
    }

    #[test]
    fn a_lone_own_disc_or_none_at_all_flips_as_the_rays_say() {
        for square in 0..64 {
            assert_eq!(last_flip_count(0, square), 0);
            for own in 0..64 {
                let p = (1u64 << own) & !(1 << square);
                let o = !(p | 1 << square);
                assert_eq!(last_flip_count(p, square), flips(p, o, square).count_ones());
            }
        }
    }
}
