//! A cheap estimate of stable discs: discs that can never be flipped again.
//!
//! A disc cannot flip along a line if the line is full, if the disc is at the end of the line
//! (on the board's edge in that direction), or if a neighbour on the line is a stable disc of
//! the same colour. A disc safe along all four lines is stable. Repeating this until nothing
//! changes finds corners, discs anchored to them, and discs on full lines: an underestimate,
//! which is what a bound needs. The rounds start from the discs joined to a corner along an
//! edge, which they would find anyway, one disc a round.

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

/// The squares safe along each line whatever their neighbours: full lines and the board's edge
/// in that direction.
struct SafeLines {
    horizontal: u64,
    vertical: u64,
    diag9: u64,
    diag7: u64,
}

impl SafeLines {
    #[inline]
    fn new(filled: u64) -> SafeLines {
        SafeLines {
            horizontal: full_rows(filled) | COLUMN_A | COLUMN_H,
            vertical: full_columns(filled) | ROW_1 | ROW_8,
            diag9: full_diagonals::<1>(filled) | EDGE,
            diag7: full_diagonals::<-1>(filled) | EDGE,
        }
    }

    /// The discs of `own` safe along every line, given that the discs of `anchors` are stable.
    #[inline]
    fn safe(&self, own: u64, anchors: u64) -> u64 {
        let horizontal = self.horizontal | (anchors << 1) | (anchors >> 1);
        let vertical = self.vertical | (anchors << 8) | (anchors >> 8);
        let diag9 = self.diag9 | (anchors << 9) | (anchors >> 9);
        let diag7 = self.diag7 | (anchors << 7) | (anchors >> 7);
        own & horizontal & vertical & diag9 & diag7
    }

    /// The least set closed under [`SafeLines::safe`]: the stable discs found. The search
    /// starts from the discs anchored to a corner along an edge, which are in that set, so that
    /// it takes fewer rounds than from none (from none, about six a call on FFO #40-#42).
    #[inline]
    fn stable(&self, own: u64) -> u64 {
        self.stable_from(own, edge_anchored(own))
    }

    /// The least set closed under [`SafeLines::safe`] found round by round from `start`, which
    /// must be part of it.
    #[inline]
    fn stable_from(&self, own: u64, start: u64) -> u64 {
        let mut stable = start;
        loop {
            let next = self.safe(own, stable);
            if next == stable {
                return stable;
            }
            stable = next;
        }
    }
}

/// The contiguous discs of `row` from its low end.
#[inline]
fn low_run(row: u8) -> u8 {
    row & !row.wrapping_add(1)
}

/// The contiguous discs of `row` from its high end.
#[inline]
fn high_run(row: u8) -> u8 {
    (0xFF00u16 >> row.leading_ones()) as u8
}

/// `from` spread along `along` by steps of `SHIFT` squares up the board (negative: down),
/// stopping at the first square outside `along` (an occluded fill in three doubling rounds).
#[inline]
fn fill<const SHIFT: i32>(mut from: u64, mut along: u64) -> u64 {
    let shift = |bits: u64, by: u32| if SHIFT > 0 { bits << by } else { bits >> by };
    let step = SHIFT.unsigned_abs();
    from |= along & shift(from, step);
    along &= shift(along, step);
    from |= along & shift(from, 2 * step);
    along &= shift(along, 2 * step);
    from | (along & shift(from, 4 * step))
}

/// The discs of `own` joined to one of its corners along an edge: each has its own disc or the
/// corner on one side along the edge, and the edge itself on every other line, so it is stable.
#[inline]
fn edge_anchored(own: u64) -> u64 {
    let (row_1, row_8) = (own as u8, (own >> 56) as u8);
    let rows = u64::from(low_run(row_1) | high_run(row_1))
        | u64::from(low_run(row_8) | high_run(row_8)) << 56;
    let (column_a, column_h) = (own & COLUMN_A, own & COLUMN_H);
    let up = fill::<8>(column_a & 1, column_a) | fill::<8>(column_h & 0x80, column_h);
    let down = fill::<-8>(column_a & 1 << 56, column_a) | fill::<-8>(column_h & 1 << 63, column_h);
    rows | up | down
}

/// Stable discs of `own`, with `filled` the occupied squares.
pub(super) fn stable_discs(own: u64, filled: u64) -> u64 {
    SafeLines::new(filled).stable(own)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::numbers;

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

    #[test]
    fn starting_from_the_discs_anchored_along_edges_finds_the_same_stable_discs() {
        let mut numbers = numbers(0x9E37_79B9_7F4A_7C15);
        let mut next = move || numbers.next().unwrap();
        for _ in 0..20_000 {
            let filled = next() | next() | next();
            let own = (next() | next()) & filled;
            let anchored = edge_anchored(own);
            let stable = stable_discs(own, filled);
            assert_eq!(anchored & !stable, 0, "{own:#x} {filled:#x}");
            let from_none = SafeLines::new(filled).stable_from(own, 0);
            assert_eq!(stable, from_none, "{own:#x} {filled:#x}");
        }
    }

    #[test]
    fn discs_anchored_along_an_edge_run_from_an_owned_corner_to_the_first_gap() {
        // a1-c1 and h1 on row 1, a8 with a7 and a6 down column A, h8 alone; e1, a3 and a4 are
        // cut off from every corner.
        let own = 0b1001_0111 | 1 << 40 | 1 << 48 | 1 << 56 | 1 << 63 | 1 << 16 | 1 << 24;
        let expected = 0b1000_0111 | 1 << 40 | 1 << 48 | 1 << 56 | 1 << 63;
        assert_eq!(edge_anchored(own), expected);
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
        let mut numbers = numbers(0x9E37_79B9_7F4A_7C15);
        for _ in 0..2_000 {
            // Dense random boards, so that full diagonals are common.
            let mut filled = !0u64;
            for number in numbers.by_ref().take(3) {
                filled &= number | (number >> 3);
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
