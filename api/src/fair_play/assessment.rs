//! The signal: a player's recent games far better than their rating band.

use serde::Serialize;

use super::band::{Band, Spread};
use super::game_stats::GameStats;
use super::window::{Window, window};

/// Games the rolling window needs: fewer recent games (with a move with a choice) give no
/// assessment.
pub const MIN_GAMES: usize = 10;
/// Games a band needs before players are compared with it: fewer give no assessment.
pub const MIN_BAND_GAMES: u32 = 30;

/// How many standard errors better than the band the window must be, summed over its
/// statistics ([`Assessment::score`]), to flag. Measured on the computer levels
/// (`docs/fair-play.md`): level-against-neighbour windows reached at most 6.9, a level three
/// levels up under a weaker one's rating at least 13.3.
pub const FLAG_SCORE: f64 = 10.0;

/// The least standard deviation of a band's per-game mean loss the z-scores use (discs), so
/// that a band of very even games does not make every small difference look large.
pub const MIN_SD_LOSS: f64 = 0.25;
/// The least standard deviation of a band's per-game share of best moves the z-scores use.
pub const MIN_SD_BEST: f64 = 0.05;
/// The least standard deviation of a band's perfect-endgame rate the z-scores use. Where
/// perfect endgames are rare (or the rule) the rate's own deviation is near 0, and one lucky
/// endgame would count as many standard errors; with this floor one perfect endgame in ten
/// more than the band is about one.
pub const MIN_SD_PERFECT: f64 = 0.3;

/// What a player's recent games say beside their rating band.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Assessment {
    pub window: Window,
    pub band: Band,
    /// How much lower the window's mean loss is than the band's, in standard errors of a mean
    /// of as many games (positive: better than the band).
    pub z_loss: f64,
    /// How much higher the window's share of best moves is than the band's, likewise.
    pub z_best: f64,
    /// How much higher the window's perfect-endgame rate is than the band's, likewise; `None`
    /// when no recent game or too few band games have a verdict on their endgame.
    pub z_perfect: Option<f64>,
    /// `z_loss + z_best + z_perfect` (0 for a missing `z_perfect`): how far better than the
    /// band the window is in all.
    pub score: f64,
    /// Whether the player goes on the moderators' queue: `score` at least [`FLAG_SCORE`].
    /// Move times never flag.
    pub flagged: bool,
    /// Why it was flagged: the score, then one line a statistic with its numbers, e.g.
    /// `mean loss 0.80 against 4.10 ± 1.20 in 1,200–1,400 (z 8.7)`. Empty when not flagged.
    pub reasons: Vec<String>,
}

/// `recent` (a player's last [`MIN_GAMES`] or more rated games, all of them taken) beside
/// `band` (the band of the player's rating). `None` when fewer than [`MIN_GAMES`] of them
/// have a move with a choice, or the band has fewer than [`MIN_BAND_GAMES`] games.
pub fn assess(recent: &[GameStats], band: &Band) -> Option<Assessment> {
    let window = window(recent);
    if (window.games as usize) < MIN_GAMES || band.mean_loss.count < MIN_BAND_GAMES {
        return None;
    }
    let z_loss =
        z(band.mean_loss.mean - window.mean_loss, &band.mean_loss, MIN_SD_LOSS, window.games);
    let z_best =
        z(window.best_share - band.best_share.mean, &band.best_share, MIN_SD_BEST, window.games);
    let z_perfect =
        window.perfect_rate.filter(|_| band.perfect_rate.count >= MIN_BAND_GAMES).map(|rate| {
            let better = rate - band.perfect_rate.mean;
            z(better, &band.perfect_rate, MIN_SD_PERFECT, window.perfect_games)
        });
    let score = z_loss + z_best + z_perfect.unwrap_or(0.0);
    let flagged = score >= FLAG_SCORE;
    let mut reasons = Vec::new();
    if flagged {
        let range = format!("{}–{}", thousands(band.low), thousands(band.high));
        reasons.push(format!(
            "last {} games: {score:.1} standard errors better than {range}, summed (flagged \
             from {FLAG_SCORE:.0})",
            window.games
        ));
        reasons.push(format!(
            "mean loss {:.2} against {:.2} ± {:.2} in {range} (z {z_loss:.1})",
            window.mean_loss, band.mean_loss.mean, band.mean_loss.sd
        ));
        reasons.push(format!(
            "best moves {} against {} ± {} in {range} (z {z_best:.1})",
            percent(window.best_share),
            percent(band.best_share.mean),
            percent(band.best_share.sd)
        ));
        if let (Some(rate), Some(z_perfect)) = (window.perfect_rate, z_perfect) {
            reasons.push(format!(
                "perfect endgames {} of {} against {} ± {} in {range} (z {z_perfect:.1})",
                (rate * f64::from(window.perfect_games)).round(),
                window.perfect_games,
                percent(band.perfect_rate.mean),
                percent(band.perfect_rate.sd)
            ));
        }
    }
    Some(Assessment {
        window,
        band: band.clone(),
        z_loss,
        z_best,
        z_perfect,
        score,
        flagged,
        reasons,
    })
}

/// `better` in standard errors of a mean of `games` games drawn from `spread` (its deviation
/// at least `floor`).
fn z(better: f64, spread: &Spread, floor: f64, games: u32) -> f64 {
    better / (spread.sd.max(floor) / f64::from(games.max(1)).sqrt())
}

/// `1,200`.
fn thousands(number: i32) -> String {
    let digits = number.unsigned_abs().to_string();
    let mut text = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    if number < 0 { format!("-{text}") } else { text }
}

/// `62%`.
fn percent(share: f64) -> String {
    format!("{:.0}%", share * 100.0)
}
