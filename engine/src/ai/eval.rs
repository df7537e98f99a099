//! Static evaluation of a position for the side to move.
//!
//! Scores are in **1/100 disc** ([`DISC`] = 100): an evaluation of `+250` means "worth about a
//! final margin of 2.5 discs to the side to move". A finished game scores its exact disc
//! difference (empties count for nobody) shifted away from every heuristic score by
//! [`PROVEN`], so the search always prefers a proven win to any hope and any hope to a proven
//! loss.
//!
//! The full evaluation adds these terms, each the mover's count minus the opponent's, with
//! weights that change smoothly with the number of empty squares (see [`WEIGHTS`]):
//!
//! - **Mobility**: legal moves. Having choices and leaving the opponent few is the main
//!   strategic goal in the midgame; a side with no good move must give something away.
//! - **Potential mobility**: empty squares next to the opponent's discs (where moves may
//!   appear later). Few discs facing empty squares (a small frontier) keeps the opponent short
//!   of moves.
//! - **Corners**: a corner disc can never be flipped and anchors its edges.
//! - **Stable edge discs**: edge discs in an unbroken run from an own corner, and every disc of
//!   a full edge. Edge discs can only be flipped along their edge, so these are safe for good.
//! - **X- and C-squares next to an empty corner** (`b2` and `b1`/`a2` for `a1`, …): a penalty,
//!   because such discs tend to hand the corner to the opponent. The X-square is the worse one.
//! - **Edges**: the other edge squares (`c1`–`f1`, …), mildly good: they are hard to flip.
//! - **Parity** (endgame): with an odd number of empties the side to move expects to play the
//!   last move, which gains discs that cannot be taken back.
//! - **Discs** (last 20 empties): the disc difference itself, rising to 0.3 disc per disc.
//!   Before that, discs are worth nothing by themselves (the other terms already say which
//!   discs are good); self-play matches confirmed that weighting them more plays worse.
//!
//! In the midgame a corner is worth 7 discs, an X-square next to an empty corner −3.5, a
//! stable edge disc 1, one move of mobility 0.65 and one square of potential mobility 0.25.
//!
//! The simple evaluation, used by [`Level::EASY`](super::Level::EASY), is a classic square
//! table: corners good, squares next to corners bad, the rest small.

use super::pattern::weights::Weights as PatternWeights;
use crate::movegen;

/// One disc, in evaluation units.
pub(crate) const DISC: i32 = 100;

/// Offset of proven results: a finished game won by `d` discs scores `PROVEN + d * DISC`.
/// Heuristic scores stay strictly inside `±PROVEN`.
pub(crate) const PROVEN: i32 = 64 * DISC;

/// Which static evaluation a search uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// The hand-tuned evaluation: mobility, potential mobility, corners, stable edges, X- and
    /// C-squares, edges, parity and discs, weighted by hand.
    Full,
    /// A square table only (level 1).
    Simple,
    /// The trained pattern evaluation: weights over edge, corner, line and diagonal patterns
    /// fitted to self-play positions labelled by exact solves and deep searches
    /// ([`ai::pattern`](super::pattern)).
    Pattern,
    /// The same patterns under other weights than the shipped ones: a candidate weights file
    /// played against them before it replaces them.
    PatternWith(&'static PatternWeights),
}

impl Evaluation {
    /// The score of a position for the side to move `p` against `o`.
    #[inline]
    pub(crate) fn score(self, p: u64, o: u64) -> i32 {
        match self {
            Evaluation::Full => evaluate(p, o),
            Evaluation::Simple => evaluate_simple(p, o),
            Evaluation::Pattern => super::pattern::evaluate(p, o),
            Evaluation::PatternWith(weights) => super::pattern::evaluate_with(weights, p, o),
        }
    }

    /// Whether this is the trained pattern evaluation, shipped or candidate weights.
    pub fn is_pattern(self) -> bool {
        matches!(self, Evaluation::Pattern | Evaluation::PatternWith(_))
    }
}

const CORNERS: u64 = 0x8100_0000_0000_0081;
const ROW_1: u64 = 0x0000_0000_0000_00FF;
const ROW_8: u64 = 0xFF00_0000_0000_0000;
const COLUMN_A: u64 = 0x0101_0101_0101_0101;
const COLUMN_H: u64 = 0x8080_8080_8080_8080;
const EDGES: u64 = ROW_1 | ROW_8 | COLUMN_A | COLUMN_H;

/// Each corner with its X-square and its two C-squares.
const CORNER_AREAS: [(u64, u64, u64); 4] = [
    (1 << 0, 1 << 9, (1 << 1) | (1 << 8)),     // a1: b2; b1, a2
    (1 << 7, 1 << 14, (1 << 6) | (1 << 15)),   // h1: g2; g1, h2
    (1 << 56, 1 << 49, (1 << 48) | (1 << 57)), // a8: b7; a7, b8
    (1 << 63, 1 << 54, (1 << 55) | (1 << 62)), // h8: g7; h7, g8
];

const C_SQUARES: u64 =
    CORNER_AREAS[0].2 | CORNER_AREAS[1].2 | CORNER_AREAS[2].2 | CORNER_AREAS[3].2;

/// Edge squares that are neither corners nor C-squares.
const EDGE_MIDDLE: u64 = EDGES & !CORNERS & !C_SQUARES;

/// Weights of the evaluation terms, per unit of each term, in 1/100 disc.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Weights {
    mobility: i32,
    potential: i32,
    corner: i32,
    stable: i32,
    x_square: i32,
    c_square: i32,
    edge: i32,
    parity: i32,
    disc: i32,
}

/// Weights at 60, 40, 20 and 0 empties; those in between are interpolated linearly.
const ANCHORS: [Weights; 4] = [
    Weights {
        mobility: 70,
        potential: 30,
        corner: 700,
        stable: 80,
        x_square: 350,
        c_square: 120,
        edge: 10,
        parity: 0,
        disc: 0,
    },
    Weights {
        mobility: 65,
        potential: 25,
        corner: 700,
        stable: 100,
        x_square: 300,
        c_square: 100,
        edge: 15,
        parity: 0,
        disc: 0,
    },
    Weights {
        mobility: 45,
        potential: 15,
        corner: 500,
        stable: 100,
        x_square: 200,
        c_square: 60,
        edge: 20,
        parity: 100,
        disc: 0,
    },
    Weights {
        mobility: 10,
        potential: 0,
        corner: 150,
        stable: 50,
        x_square: 0,
        c_square: 0,
        edge: 0,
        parity: 100,
        disc: 30,
    },
];

const fn mix(a: i32, b: i32, from_a: i32, span: i32) -> i32 {
    (a * from_a + b * (span - from_a)) / span
}

/// The weights for every number of empties, 0 to 60 (index = empties).
pub(crate) static WEIGHTS: [Weights; 61] = {
    let mut table = [ANCHORS[3]; 61];
    let mut empties = 0;
    while empties <= 60 {
        // Between ANCHORS[3 - k] (at 20 * k empties) and ANCHORS[2 - k] (20 more).
        let k = if empties >= 60 { 2 } else { empties / 20 };
        let (low, high) = (&ANCHORS[3 - k], &ANCHORS[2 - k]);
        let above = (empties - 20 * k) as i32; // 0..=20: how far past `low`
        let below = 20 - above;
        table[empties] = Weights {
            mobility: mix(low.mobility, high.mobility, below, 20),
            potential: mix(low.potential, high.potential, below, 20),
            corner: mix(low.corner, high.corner, below, 20),
            stable: mix(low.stable, high.stable, below, 20),
            x_square: mix(low.x_square, high.x_square, below, 20),
            c_square: mix(low.c_square, high.c_square, below, 20),
            edge: mix(low.edge, high.edge, below, 20),
            parity: mix(low.parity, high.parity, below, 20),
            disc: mix(low.disc, high.disc, below, 20),
        };
        empties += 1;
    }
    table
};

#[inline]
fn count(bits: u64) -> i32 {
    bits.count_ones() as i32
}

/// The full evaluation (see the module documentation) for the mover `p` against `o`.
pub(crate) fn evaluate(p: u64, o: u64) -> i32 {
    let empty = !(p | o);
    let w = &WEIGHTS[empty.count_ones().min(60) as usize];

    let mobility = count(movegen::moves(p, o)) - count(movegen::moves(o, p));
    let potential = count(movegen::neighbours(o) & empty) - count(movegen::neighbours(p) & empty);
    let corners = count(p & CORNERS) - count(o & CORNERS);
    let stable = count(edge_stable(p, o) & !CORNERS) - count(edge_stable(o, p) & !CORNERS);
    let edges = count(p & EDGE_MIDDLE) - count(o & EDGE_MIDDLE);
    let discs = count(p) - count(o);

    let mut x_squares = 0;
    let mut c_squares = 0;
    for (corner, x, c) in CORNER_AREAS {
        if empty & corner != 0 {
            x_squares += count(p & x) - count(o & x);
            c_squares += count(p & c) - count(o & c);
        }
    }
    let parity = if empty.count_ones() % 2 == 1 { 1 } else { -1 };

    let score =
        w.mobility * mobility + w.potential * potential + w.corner * corners + w.stable * stable
            - w.x_square * x_squares
            - w.c_square * c_squares
            + w.edge * edges
            + w.parity * parity
            + w.disc * discs;
    score.clamp(1 - PROVEN, PROVEN - 1)
}

/// Square values of the simple evaluation, in 1/100 disc, `a1` first.
#[rustfmt::skip]
const SQUARE_VALUES: [i32; 64] = [
    400, -80,  40,  20,  20,  40, -80, 400,
    -80,-160, -10, -10, -10, -10,-160, -80,
     40, -10,  10,   5,   5,  10, -10,  40,
     20, -10,   5,   0,   0,   5, -10,  20,
     20, -10,   5,   0,   0,   5, -10,  20,
     40, -10,  10,   5,   5,  10, -10,  40,
    -80,-160, -10, -10, -10, -10,-160, -80,
    400, -80,  40,  20,  20,  40, -80, 400,
];

/// The simple evaluation: the square values of the mover's discs minus the opponent's.
pub(crate) fn evaluate_simple(p: u64, o: u64) -> i32 {
    let sum = |mut bits: u64| {
        let mut total = 0;
        while bits != 0 {
            total += SQUARE_VALUES[bits.trailing_zeros() as usize];
            bits &= bits - 1;
        }
        total
    };
    (sum(p) - sum(o)).clamp(1 - PROVEN, PROVEN - 1)
}

/// The score of a finished game for the mover: the disc difference (empties count for
/// nobody), shifted by [`PROVEN`] unless it is a draw.
#[inline]
pub(crate) fn final_score(p: u64, o: u64) -> i32 {
    let diff = count(p) - count(o);
    diff * DISC + diff.signum() * PROVEN
}

/// Turns a search score into a plain one: proven results lose their [`PROVEN`] offset and
/// become the disc difference in 1/100 disc; heuristic scores are unchanged.
pub(crate) fn plain(score: i32) -> i32 {
    if score.abs() > PROVEN { score - score.signum() * PROVEN } else { score }
}

/// Discs of `p` that can never be flipped because they sit on an edge, either in an unbroken
/// run of `p` discs from a corner of `p`, or anywhere on a full edge.
pub(crate) fn edge_stable(p: u64, o: u64) -> u64 {
    let mut stable = 0;
    for (line, step) in [(ROW_1, 1), (ROW_8, 1), (COLUMN_A, 8), (COLUMN_H, 8)] {
        let own = p & line;
        if (p | o) & line == line {
            stable |= own;
        } else {
            let anchors = own & CORNERS;
            stable |= fill_up(anchors, own, step) | fill_down(anchors, own, step);
        }
    }
    stable
}

/// `from` extended through `through` towards higher indices, `step` at a time.
fn fill_up(mut from: u64, mut through: u64, step: u32) -> u64 {
    from |= through & (from << step);
    through &= through << step;
    from |= through & (from << (2 * step));
    through &= through << (2 * step);
    from | (through & (from << (4 * step)))
}

/// `from` extended through `through` towards lower indices, `step` at a time.
fn fill_down(mut from: u64, mut through: u64, step: u32) -> u64 {
    from |= through & (from >> step);
    through &= through >> step;
    from |= through & (from >> (2 * step));
    through &= through >> (2 * step);
    from | (through & (from >> (4 * step)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Board, Square};

    fn bits(squares: &[Square]) -> u64 {
        squares.iter().fold(0, |acc, s| acc | s.bit())
    }

    #[test]
    fn weights_hit_their_anchors() {
        for (k, anchor) in ANCHORS.iter().enumerate() {
            let w = &WEIGHTS[60 - 20 * k];
            assert_eq!(
                (w.mobility, w.corner, w.disc),
                (anchor.mobility, anchor.corner, anchor.disc)
            );
        }
        assert_eq!(WEIGHTS[10].disc, 15);
    }

    #[test]
    fn runs_from_an_own_corner_are_stable() {
        use Square::*;
        let p = bits(&[A1, B1, C1, E1, A2, A3, H8, H7, H5]);
        let o = bits(&[D1]);
        assert_eq!(edge_stable(p, o), bits(&[A1, B1, C1, A2, A3, H8, H7]));
    }

    #[test]
    fn a_full_edge_is_stable_for_both_sides() {
        use Square::*;
        let p = bits(&[B8, C8, D8, G8]);
        let o = bits(&[A8, E8, F8, H8]);
        assert_eq!(edge_stable(p, o), p);
        assert_eq!(edge_stable(o, p), o);
    }

    #[test]
    fn a_lone_edge_disc_is_not_stable() {
        assert_eq!(edge_stable(Square::D1.bit(), Square::E1.bit()), 0);
    }

    #[test]
    fn the_symmetric_start_evaluates_to_zero() {
        let (p, o) = Board::start().raw();
        assert_eq!(evaluate(p, o), 0);
        assert_eq!(evaluate(o, p), 0);
        assert_eq!(evaluate_simple(p, o), 0);
    }

    #[test]
    fn proven_results_lie_beyond_every_heuristic_score() {
        assert_eq!(final_score(1, 0), PROVEN + DISC);
        assert_eq!(final_score(0, 1), -PROVEN - DISC);
        assert_eq!(final_score(1, 6), -PROVEN - DISC);
        assert_eq!(final_score(3, 12), 0);
        assert_eq!(plain(final_score(0b111, 0)), 3 * DISC);
        assert_eq!(plain(-250), -250);
    }
}
