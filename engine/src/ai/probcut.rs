//! Probabilistic cut-offs (Buro's ProbCut / Multi-ProbCut) for the midgame search.
//!
//! A deep search's score is well predicted by a shallow one's: over self-play positions,
//! `deep − shallow` has a mean near 0 and a standard deviation σ that depends on the depth and
//! the stage of the game. So before searching a node `depth` plies deep with a null window
//! at `beta`, a search [`shallow_depth`] plies deep asks whether the score is above
//! `beta + T·σ`; if so, the deep search would almost surely fail high too and the node is cut
//! at once. The same holds below `alpha − T·σ`. The time saved goes into searching deeper
//! everywhere else.
//!
//! σ is measured, not guessed: `outflank-engine probcut-fit` searches positions from
//! self-play games at both depths with the trained evaluation and prints [`SIGMA`]; the
//! engine's README gives the command and its output.

/// How many standard deviations past the bound the shallow score must be, in tenths: 1.5 cuts
/// wrongly in about 7 % of the tested nodes (one tail of a normal distribution), which deeper
/// search elsewhere more than repays.
pub(crate) const THRESHOLD_TENTHS: i32 = 15;

/// Fewest plies left at which a node tries a cut.
pub(crate) const MIN_DEPTH: u32 = 3;

/// Most plies left with a measured σ; deeper nodes use this row.
pub(crate) const MAX_DEPTH: u32 = 12;

/// Game stages: empties 0–19, 20–29, 30–39, 40–49 and 50–60.
pub(crate) const STAGES: usize = 5;

/// The depth of the shallow search that predicts a search `depth` plies deep.
#[inline]
pub(crate) const fn shallow_depth(depth: u32) -> u32 {
    (depth - 1) / 2
}

/// The stage of a position with `empties` empty squares.
#[inline]
pub(crate) const fn stage(empties: u32) -> usize {
    let stage = (empties / 10) as usize;
    let stage = if stage == 0 { 0 } else { stage - 1 };
    if stage >= STAGES { STAGES - 1 } else { stage }
}

/// σ of `deep − shallow` in 1/100 disc, by stage (rows) and depth from [`MIN_DEPTH`] to
/// [`MAX_DEPTH`] (columns), as measured by `outflank-engine probcut-fit`.
pub(crate) const SIGMA: [[i32; (MAX_DEPTH - MIN_DEPTH + 1) as usize]; STAGES] = [
    [360, 469, 422, 452, 471, 537, 552, 547, 547, 547],
    [254, 317, 266, 276, 282, 330, 313, 330, 330, 330],
    [224, 264, 219, 249, 239, 264, 264, 264, 264, 264],
    [214, 244, 219, 222, 214, 230, 210, 228, 228, 228],
    [282, 329, 251, 278, 201, 212, 226, 223, 223, 223],
];

/// The margin (1/100 disc) a shallow score must clear for a node `depth` plies deep with
/// `empties` empties.
#[inline]
pub(crate) fn margin(depth: u32, empties: u32) -> i32 {
    let column = (depth.min(MAX_DEPTH) - MIN_DEPTH) as usize;
    SIGMA[stage(empties)][column] * THRESHOLD_TENTHS / 10
}
