//! The trained pattern evaluation: a sum of weights, one per pattern instance of the position,
//! as the strongest Othello programs evaluate.
//!
//! Patterns (edges with their X-squares, corner blocks, lines and diagonals; see [`layout`])
//! are read in all their positions on the board; each instance's contents (empty, mover,
//! opponent on each square) index a weight table shared by all the instances of the pattern.
//! Three scalar features join them: the mover's and the opponent's number of legal moves and
//! the parity of the number of empties. The weights were fitted by least squares to self-play
//! positions labelled by the exact solver (up to 20 empties) and by 12-ply searches (up to 44)
//! (`outflank-train`, see the engine's README).
//!
//! **Phases.** One weight set per 5 empties (0–4, 5–9, …, 55–60: [`layout::PHASES`] sets).
//! What a pattern is worth changes steadily over a game, so neighbouring empties counts can
//! share weights; 5 empties per set keeps each set trained on enough positions while a lookup
//! stays a single table read (no interpolation between sets). The trainer shares strength
//! between neighbours: each set is fitted on its own empties plus 5 either side, regularised
//! towards the set fitted before it (from the end of the game), so neighbouring sets agree
//! where they meet and patterns rare in one phase inherit the neighbouring values. The shipped
//! file stays at 4 MB (12 sets of 167,339 `i16`).
//!
//! Scores are in 1/100 disc for the side to move, clamped strictly inside ±6400 (`PROVEN`, the
//! search's offset of proven results). The evaluation of a position equals that of each of its
//! 8 symmetric images exactly.
//!
//! # Public parts
//! Play and analysis reach the evaluation through [`Search`](super::Search) and
//! [`Evaluation::Pattern`](super::Evaluation::Pattern). Public here is what the trainer
//! (`outflank-train`) shares with the engine: [`layout`], the features it fits, and
//! [`weights`], the file format it writes and the engine reads. Using these modules rather
//! than copies of them, the trainer fits exactly the features the engine evaluates and writes
//! exactly the files the engine reads.

pub mod layout;
pub mod weights;

use std::sync::LazyLock;

use super::eval::{DISC, PROVEN};
use crate::movegen;
use weights::{UNITS_PER_DISC, Weights};

/// The trained weights file, embedded in the engine: what play and analysis evaluate with.
static EMBEDDED: &[u8] = include_bytes!("../../../weights/eval.bin");

/// The weights the exact solver orders its moves by (and its presearch cuts by): a blend of
/// the shipped fit with the second generation's, made by `outflank-train blend`. It orders
/// endgames better than either fit alone (on FFO #40–#49 and on fresh positions), while play
/// is stronger with the shipped fit; see the engine's README.
static ORDER_EMBEDDED: &[u8] = include_bytes!("../../../weights/order.bin");

// Both files are checked by the tests (checksum, version, layout): failing to read them here
// would mean a broken build, not a runtime condition.

/// The embedded weights, read once.
static WEIGHTS: LazyLock<Weights> = LazyLock::new(|| {
    Weights::from_bytes(EMBEDDED).expect("the embedded evaluation weights are valid")
});

/// The embedded ordering weights, read once.
static ORDER_WEIGHTS: LazyLock<Weights> = LazyLock::new(|| {
    Weights::from_bytes(ORDER_EMBEDDED).expect("the embedded ordering weights are valid")
});

/// The pattern evaluation of the mover `p` against `o` with the shipped weights, in 1/100
/// disc, strictly inside ±`PROVEN`.
#[inline]
pub(crate) fn evaluate(p: u64, o: u64) -> i32 {
    evaluate_with(&WEIGHTS, p, o)
}

/// The weights the exact solver orders its moves by.
#[inline]
pub(crate) fn order_weights() -> &'static Weights {
    &ORDER_WEIGHTS
}

/// [`evaluate_with`] for a position whose mover's legal moves `moves_p` are known already (the
/// solver's move ordering has them), which saves generating them again.
#[inline]
pub(crate) fn evaluate_knowing(weights: &Weights, p: u64, o: u64, moves_p: u64) -> i32 {
    let moves_o = movegen::moves(o, p).count_ones();
    evaluate_counted(weights, p, o, moves_p.count_ones(), moves_o)
}

/// The pattern evaluation of the mover `p` against `o` under `weights`.
#[inline]
pub(crate) fn evaluate_with(weights: &Weights, p: u64, o: u64) -> i32 {
    let moves_p = movegen::moves(p, o).count_ones();
    let moves_o = movegen::moves(o, p).count_ones();
    evaluate_counted(weights, p, o, moves_p, moves_o)
}

/// The pattern evaluation of the mover `p` (with `moves_p` legal moves) against `o` (with
/// `moves_o`) under `weights`.
#[inline(always)]
fn evaluate_counted(weights: &Weights, p: u64, o: u64, moves_p: u32, moves_o: u32) -> i32 {
    let empties = (!(p | o)).count_ones();
    let table = weights.phase(layout::phase(empties));
    let mut sum = 0i32;
    layout::features(p, o, moves_p, moves_o, |index| sum += i32::from(table[index]));
    // Units to 1/100 disc, rounding to nearest.
    let score = (sum * DISC + UNITS_PER_DISC / 2).div_euclid(UNITS_PER_DISC);
    score.clamp(1 - PROVEN, PROVEN - 1)
}

#[cfg(test)]
mod tests;
