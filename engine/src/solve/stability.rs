//! A cheap estimate of stable discs: discs that can never be flipped again.
//!
//! A disc cannot flip along a line if the line is full, if the disc is at the end of the line
//! (on the board's edge in that direction), or if a neighbour on the line is a stable disc of
//! the same colour. A disc safe along all four lines is stable. Starting from no stable discs,
//! repeating this until nothing changes finds corners, discs anchored to them, and discs on
//! full lines: an underestimate, which is what a bound needs.

const COLUMN_A: u64 = 0x0101_0101_0101_0101;
const COLUMN_H: u64 = 0x8080_8080_8080_8080;
const ROW_1: u64 = 0x0000_0000_0000_00FF;
const ROW_8: u64 = 0xFF00_0000_0000_0000;
const EDGE: u64 = COLUMN_A | COLUMN_H | ROW_1 | ROW_8;

/// Squares whose row is full.
fn full_rows(filled: u64) -> u64 {
    let mut rows = filled & (filled >> 1);
    rows &= rows >> 2;
    rows &= rows >> 4;
    // Bit 0 of each row now says whether the whole row is filled.
    (rows & COLUMN_A).wrapping_mul(0xFF)
}

/// Squares whose column is full.
fn full_columns(filled: u64) -> u64 {
    let mut columns = filled & (filled >> 8);
    columns &= columns >> 16;
    columns &= columns >> 32;
    (columns & ROW_1).wrapping_mul(0x0101_0101_0101_0101)
}

/// Squares from which `steps` steps of `(columns, rows)` leave the board.
const fn leaving(steps: i32, columns: i32, rows: i32) -> u64 {
    let mut set = 0u64;
    let mut square = 0;
    while square < 64 {
        let column = square % 8 + steps * columns;
        let row = square / 8 + steps * rows;
        if column < 0 || column > 7 || row < 0 || row > 7 {
            set |= 1 << square;
        }
        square += 1;
    }
    set
}

/// Squares whose diagonal is full in both directions; a step down the diagonal moves one row
/// down and `COLUMNS` (1 or -1) columns across, `8 + COLUMNS` squares. A square passes a round
/// when it and the square the round's step on passed the round before (or that square is off
/// the board), so each round doubles the span checked: three rounds of 1, 2 and 4 steps cover
/// a diagonal's eight squares. A shift that wraps round an edge lands on a square counted as
/// off the board, so wrapping never matters.
#[inline]
fn full_diagonals<const COLUMNS: i32>(filled: u64) -> u64 {
    let shift = (8 + COLUMNS) as u32;
    let down_ends =
        const { [leaving(1, COLUMNS, 1), leaving(2, COLUMNS, 1), leaving(4, COLUMNS, 1)] };
    let up_ends =
        const { [leaving(1, -COLUMNS, -1), leaving(2, -COLUMNS, -1), leaving(4, -COLUMNS, -1)] };
    let (mut down, mut up) = (filled, filled);
    for (round, (down_end, up_end)) in down_ends.into_iter().zip(up_ends).enumerate() {
        let step = shift << round;
        down &= (down >> step) | down_end;
        up &= (up << step) | up_end;
    }
    down & up
}

/// Stable discs of `own`, with `filled` the occupied squares.
pub(super) fn stable_discs(own: u64, filled: u64) -> u64 {
    let horizontal_safe = full_rows(filled) | COLUMN_A | COLUMN_H;
    let vertical_safe = full_columns(filled) | ROW_1 | ROW_8;
    let diag9_safe = full_diagonals::<1>(filled) | EDGE;
    let diag7_safe = full_diagonals::<-1>(filled) | EDGE;

    let mut stable = 0u64;
    loop {
        let horizontal = horizontal_safe | (stable << 1) | (stable >> 1);
        let vertical = vertical_safe | (stable << 8) | (stable >> 8);
        let diag9 = diag9_safe | (stable << 9) | (stable >> 9);
        let diag7 = diag7_safe | (stable << 7) | (stable >> 7);
        let next = own & horizontal & vertical & diag9 & diag7;
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_and_discs_anchored_along_an_edge_are_stable() {
        // a1, b1, c1 and a2 of one side, d1 of the other, nothing else.
        let own = 0b0111 | (1 << 8);
        let filled = own | 0b1000;
        assert_eq!(stable_discs(own, filled), own);
        assert_eq!(stable_discs(0b1000, filled), 0);
    }

    #[test]
    fn nothing_is_stable_at_the_start_and_everything_on_a_full_board() {
        let (black, white) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
        assert_eq!(stable_discs(black, black | white), 0);
        let half = 0x5555_5555_5555_5555;
        assert_eq!(stable_discs(half, !0), half);
    }

    #[test]
    fn a_disc_on_full_lines_is_stable_even_away_from_edges() {
        // d4 alone, with its row, column and both diagonals filled by the other side.
        let d4 = 1u64 << 27;
        let lines = 0x0000_0000_FF00_0000
            | 0x0808_0808_0808_0808
            | 0x8040_2010_0804_0201
            | 0x0001_0204_0810_2040;
        assert_eq!(stable_discs(d4, lines | d4) & d4, d4);
        // One empty square on its column makes it flippable.
        assert_eq!(stable_discs(d4, (lines | d4) & !(1 << 3)), 0);
    }

    /// Whether every square on the line through `square` along `(columns, rows)` is filled.
    fn line_full(filled: u64, square: i32, columns: i32, rows: i32) -> bool {
        [(columns, rows), (-columns, -rows)].iter().all(|&(dc, dr)| {
            let (mut c, mut r) = (square % 8, square / 8);
            while (0..8).contains(&c) && (0..8).contains(&r) {
                if filled & (1 << (r * 8 + c)) == 0 {
                    return false;
                }
                c += dc;
                r += dr;
            }
            true
        })
    }

    #[test]
    fn full_diagonals_are_the_squares_whose_whole_diagonal_is_filled() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2_000 {
            // Dense random boards, so that full diagonals are common.
            let mut filled = !0u64;
            for _ in 0..3 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                filled &= state | (state >> 3);
            }
            let diagonals = [(full_diagonals::<1>(filled), 1), (full_diagonals::<-1>(filled), -1)];
            for (full, columns) in diagonals {
                for square in 0..64 {
                    let expected = line_full(filled, square, columns, 1);
                    assert_eq!(full & (1 << square) != 0, expected, "{filled:#x} {square}");
                }
            }
        }
    }
}
