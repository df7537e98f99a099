//! Fair-play statistics: what a player's reviewed games say about their play, beside players
//! of the same rating. Pure rules; the reviews and ratings come from the caller.
//!
//! Each rated game's review gives, for each side, a [`GameStats`] ([`GameStats::from_moves`]).
//! A player's last [`MIN_GAMES`] or more games make a [`Window`]; the games of players rated in
//! the same [`Band`] ([`band_of`]) give the spread of each statistic; [`assess`] says how many
//! standard errors better than the band the window is, and flags a player far outside it for
//! the moderators. It never punishes anyone by itself. `docs/fair-play.md` gives the
//! statistics, the thresholds and how they were measured.

mod assessment;
mod band;
mod game_stats;
mod window;

#[cfg(test)]
mod tests;

pub use assessment::{
    Assessment, FLAG_SCORE, MIN_BAND_GAMES, MIN_GAMES, MIN_SD_BEST, MIN_SD_LOSS, MIN_SD_PERFECT,
    assess,
};
pub use band::{BAND_WIDTH, Band, Spread, band_of};
pub use game_stats::{GameStats, MIN_EXACT_MOVES, MIN_TIMED_MOVES, MoveFacts};
pub use window::{Window, window};
