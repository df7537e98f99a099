//! Rating bands: how players of about the same rating play, game by game.

use serde::Serialize;

use super::game_stats::GameStats;

/// The width of a rating band, in rating points: bands are [0, 200), [200, 400), … so a
/// player is compared with players within about a level of the computer's of themselves.
pub const BAND_WIDTH: i32 = 200;

/// How a per-game figure is spread among the games of a band.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Spread {
    /// The mean over the games (0 without any).
    pub mean: f64,
    /// The sample standard deviation over the games (0 with fewer than two).
    pub sd: f64,
    /// Games with the figure.
    pub count: u32,
}

impl Spread {
    /// The spread of `values`.
    pub fn of(values: &[f64]) -> Spread {
        let count = values.len();
        if count == 0 {
            return Spread { mean: 0.0, sd: 0.0, count: 0 };
        }
        let mean = values.iter().sum::<f64>() / count as f64;
        let sd = if count < 2 {
            0.0
        } else {
            let squares: f64 = values.iter().map(|value| (value - mean).powi(2)).sum();
            (squares / (count - 1) as f64).sqrt()
        };
        Spread { mean, sd, count: count as u32 }
    }
}

/// The distribution of per-game statistics among players of one rating band: in production,
/// the rated games of a recent period played by players whose rating at the game was in
/// [`low`, `high`). Games without a move with a choice count nowhere.
///
/// [`low`]: Band::low
/// [`high`]: Band::high
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Band {
    pub low: i32,
    pub high: i32,
    /// Per-game mean disc loss.
    pub mean_loss: Spread,
    /// Per-game share of best moves.
    pub best_share: Spread,
    /// Per-game perfect endgame, 1 or 0, over the games with a verdict.
    pub perfect_rate: Spread,
    /// Per-game spread of move times, over the games with one.
    pub time_cv: Spread,
}

impl Band {
    /// The band [`low`, `high`) made of `games`.
    ///
    /// [`low`]: Band::low
    /// [`high`]: Band::high
    pub fn from_games(low: i32, high: i32, games: &[GameStats]) -> Band {
        let counted: Vec<&GameStats> = games.iter().filter(|game| game.moves > 0).collect();
        let figure = |of: fn(&GameStats) -> Option<f64>| -> Spread {
            Spread::of(&counted.iter().filter_map(|game| of(game)).collect::<Vec<f64>>())
        };
        Band {
            low,
            high,
            mean_loss: figure(|game| Some(game.mean_loss)),
            best_share: figure(|game| Some(game.best_share)),
            perfect_rate: figure(|game| game.perfect_endgame.map(|p| if p { 1.0 } else { 0.0 })),
            time_cv: figure(|game| game.time_cv),
        }
    }
}

/// The band `rating` falls in, [low, high): [`BAND_WIDTH`] points wide, from a multiple of it
/// (1,250 is in [1,200, 1,400)).
pub fn band_of(rating: f64) -> (i32, i32) {
    let low = ((rating / f64::from(BAND_WIDTH)).floor() as i32).saturating_mul(BAND_WIDTH);
    (low, low.saturating_add(BAND_WIDTH))
}
