//! A player's recent games taken together.

use serde::Serialize;

use super::game_stats::GameStats;

/// The same statistics over a player's recent games: each the mean of the per-game figures,
/// so that it compares with a band's spread of per-game figures ([`super::Band`]). Games
/// without a move with a choice count nowhere.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Window {
    /// Games counted: those with at least one move with a choice.
    pub games: u32,
    /// The mean of the games' mean disc losses.
    pub mean_loss: f64,
    /// The mean of the games' shares of best moves.
    pub best_share: f64,
    /// The share of the games with a verdict on their endgame whose endgame was perfect;
    /// `None` when none has a verdict.
    pub perfect_rate: Option<f64>,
    /// Games with a verdict on their endgame.
    pub perfect_games: u32,
    /// The mean of the games' move-time spreads; `None` when no game has one.
    pub time_cv: Option<f64>,
    /// Games with a move-time spread.
    pub timed_games: u32,
}

/// The statistics of `games` taken together.
pub fn window(games: &[GameStats]) -> Window {
    let counted: Vec<&GameStats> = games.iter().filter(|game| game.moves > 0).collect();
    let verdicts: Vec<f64> = counted
        .iter()
        .filter_map(|game| game.perfect_endgame)
        .map(|perfect| if perfect { 1.0 } else { 0.0 })
        .collect();
    let spreads: Vec<f64> = counted.iter().filter_map(|game| game.time_cv).collect();
    Window {
        games: counted.len() as u32,
        mean_loss: mean(counted.iter().map(|game| game.mean_loss)).unwrap_or(0.0),
        best_share: mean(counted.iter().map(|game| game.best_share)).unwrap_or(0.0),
        perfect_rate: mean(verdicts.iter().copied()),
        perfect_games: verdicts.len() as u32,
        time_cv: mean(spreads.iter().copied()),
        timed_games: spreads.len() as u32,
    }
}

/// The mean of `values`; `None` without any.
fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, count) = values.fold((0.0, 0u32), |(sum, count), value| (sum + value, count + 1));
    (count > 0).then(|| sum / f64::from(count))
}
