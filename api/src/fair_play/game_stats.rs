//! One player's side of one reviewed game, in a few numbers.

use serde::{Deserialize, Serialize};

/// Exact moves with a choice a game needs before its endgame counts as perfect or not: with
/// fewer (a game decided early, a solve that ran out of nodes) a clean endgame says little.
pub const MIN_EXACT_MOVES: u32 = 5;

/// Timed moves with a choice a game needs before the spread of its move times is given.
pub const MIN_TIMED_MOVES: u32 = 5;

/// One move a player made (passes left out), as the review saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveFacts {
    /// Discs lost against the best move (0: a best move).
    pub loss: i32,
    /// Whether it was the only legal move.
    pub forced: bool,
    /// Whether the position was solved exactly (20 empties or fewer in the server's reviews).
    pub exact: bool,
    /// The time the player took, in milliseconds, when known.
    pub think_ms: Option<i64>,
}

/// One player's side of one reviewed game. Forced moves are left out of every figure: they
/// say nothing about the player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameStats {
    /// Moves with a choice.
    pub moves: u32,
    /// The mean disc loss over the moves with a choice (0 without any).
    pub mean_loss: f64,
    /// The share (0 to 1) of the moves with a choice that were best (a loss of 0).
    pub best_share: f64,
    /// Moves with a choice in exactly solved positions.
    pub exact_moves: u32,
    /// Whether every exact move with a choice was best; `None` with fewer than
    /// [`MIN_EXACT_MOVES`] of them.
    pub perfect_endgame: Option<bool>,
    /// The coefficient of variation (standard deviation over mean) of the think times of the
    /// moves with a choice; `None` with fewer than [`MIN_TIMED_MOVES`] timed ones. All moves
    /// instant gives 0.
    pub time_cv: Option<f64>,
}

impl GameStats {
    /// The figures of one side's moves.
    pub fn from_moves(moves: &[MoveFacts]) -> GameStats {
        let chosen: Vec<&MoveFacts> = moves.iter().filter(|facts| !facts.forced).collect();
        let count = chosen.len() as u32;
        let losses: i64 = chosen.iter().map(|facts| i64::from(facts.loss.max(0))).sum();
        let best = chosen.iter().filter(|facts| facts.loss <= 0).count();
        let exact: Vec<&&MoveFacts> = chosen.iter().filter(|facts| facts.exact).collect();
        let exact_moves = exact.len() as u32;
        let perfect_endgame =
            (exact_moves >= MIN_EXACT_MOVES).then(|| exact.iter().all(|facts| facts.loss <= 0));
        let times: Vec<f64> =
            chosen.iter().filter_map(|facts| facts.think_ms).map(|ms| ms.max(0) as f64).collect();
        GameStats {
            moves: count,
            mean_loss: ratio(losses as f64, count),
            best_share: ratio(best as f64, count),
            exact_moves,
            perfect_endgame,
            time_cv: coefficient_of_variation(&times),
        }
    }
}

/// `total / count`, 0 when `count` is 0.
fn ratio(total: f64, count: u32) -> f64 {
    if count == 0 { 0.0 } else { total / f64::from(count) }
}

/// The sample standard deviation of `times` over their mean; `None` with fewer than
/// [`MIN_TIMED_MOVES`], 0 when they are all 0.
fn coefficient_of_variation(times: &[f64]) -> Option<f64> {
    if times.len() < MIN_TIMED_MOVES as usize {
        return None;
    }
    let count = times.len() as f64;
    let mean = times.iter().sum::<f64>() / count;
    if mean == 0.0 {
        return Some(0.0);
    }
    let squares: f64 = times.iter().map(|time| (time - mean).powi(2)).sum();
    Some((squares / (count - 1.0)).sqrt() / mean)
}
