//! Elo for ranked games: every account starts at 1,200; the K-factor is 40 while an account is
//! provisional (fewer than 10 rated games) and 20 afterwards, so a newcomer finds their level
//! quickly and an established rating moves steadily. Each side's change uses its own K, so the
//! two changes need not cancel out.

use outflank_engine::Color;
use skillratings::Outcomes;

use crate::domain::{GameId, PlayerId, Timestamp};
use skillratings::elo::{EloConfig, EloRating, elo};

/// Where every account starts.
pub const START: f64 = 1200.0;
/// A rating is provisional (shown "1,214?") until this many rated games.
pub const PROVISIONAL_GAMES: u32 = 10;
/// K while provisional.
pub const K_PROVISIONAL: f64 = 40.0;
/// K once established.
pub const K_ESTABLISHED: f64 = 20.0;

/// Rated games between the same two accounts within a day ([`DAY_MS`]); later results between
/// them that day are not rated, so two accounts cannot trade points game after game.
pub const PAIR_GAMES_PER_DAY: i64 = 3;
/// A day, in milliseconds.
pub const DAY_MS: i64 = 86_400_000;
/// How long a deleted account's standing is kept: signing in again with the same identity
/// within this time brings it back instead of a fresh 1,200.
pub const STANDING_KEPT_MS: i64 = 30 * DAY_MS;

/// One side's standing before a game: its rating and how many rated games it has played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Standing {
    pub rating: f64,
    pub rated_games: u32,
}

impl Standing {
    /// A new account.
    pub const NEW: Standing = Standing { rating: START, rated_games: 0 };

    /// The K-factor this side's next game uses.
    pub fn k(self) -> f64 {
        if self.rated_games < PROVISIONAL_GAMES { K_PROVISIONAL } else { K_ESTABLISHED }
    }
}

/// One side of one rated game.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RatingChange {
    pub game_id: GameId,
    pub player_id: PlayerId,
    pub color: Color,
    /// Which of the player's rated games this was, from 1.
    pub game_number: u32,
    pub before: f64,
    pub after: f64,
    pub at: Timestamp,
}

/// Both sides' changes for one rated game.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RatedGame {
    pub black: RatingChange,
    pub white: RatingChange,
}

/// How a rated game ended for the first side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Win,
    Draw,
    Loss,
}

impl Score {
    /// The same result from the other side.
    pub fn reversed(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        }
    }

    fn outcome(self) -> Outcomes {
        match self {
            Score::Win => Outcomes::WIN,
            Score::Draw => Outcomes::DRAW,
            Score::Loss => Outcomes::LOSS,
        }
    }
}

/// The new ratings of `first` and `second` after a game `first` scored `score` in.
pub fn rate(first: Standing, second: Standing, score: Score) -> (f64, f64) {
    let one = EloRating { rating: first.rating };
    let two = EloRating { rating: second.rating };
    let (first_after, _) = elo(&one, &two, &score.outcome(), &EloConfig { k: first.k() });
    let (_, second_after) = elo(&one, &two, &score.outcome(), &EloConfig { k: second.k() });
    (first_after.rating, second_after.rating)
}

/// A rating as shown: rounded to a whole number.
pub fn shown(rating: f64) -> i64 {
    // Ratings stay within a few thousand points, far inside i64.
    #[allow(clippy::cast_possible_truncation)]
    let shown = rating.round() as i64;
    shown
}

/// Whether `rated_games` still makes a rating provisional.
pub fn is_provisional(rated_games: u32) -> bool {
    rated_games < PROVISIONAL_GAMES
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Elo expectation, written out here independently of the library.
    fn expected(a: f64, b: f64) -> f64 {
        1.0 / (1.0 + 10f64.powf((b - a) / 400.0))
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn two_new_accounts_move_twenty_points_each_way() {
        assert_eq!(rate(Standing::NEW, Standing::NEW, Score::Win), (1220.0, 1180.0));
        assert_eq!(rate(Standing::NEW, Standing::NEW, Score::Loss), (1180.0, 1220.0));
        assert_eq!(rate(Standing::NEW, Standing::NEW, Score::Draw), (1200.0, 1200.0));
    }

    #[test]
    fn established_ratings_use_k_twenty() {
        let strong = Standing { rating: 1400.0, rated_games: 30 };
        let weak = Standing { rating: 1200.0, rated_games: 10 };
        let e = expected(1400.0, 1200.0);
        let (a, b) = rate(strong, weak, Score::Win);
        assert!(close(a, 1400.0 + 20.0 * (1.0 - e)), "{a}");
        assert!(close(b, 1200.0 - 20.0 * (1.0 - e)), "{b}");
        let (a, b) = rate(strong, weak, Score::Draw);
        assert!(close(a, 1400.0 + 20.0 * (0.5 - e)), "{a}");
        assert!(close(b, 1200.0 - 20.0 * (0.5 - e)), "{b}");
    }

    #[test]
    fn each_side_uses_its_own_k() {
        let newcomer = Standing { rating: 1200.0, rated_games: 9 };
        let veteran = Standing { rating: 1200.0, rated_games: 10 };
        assert_eq!(rate(newcomer, veteran, Score::Win), (1220.0, 1190.0));
    }

    #[test]
    fn provisional_until_ten_games() {
        assert!(is_provisional(9));
        assert!(!is_provisional(10));
    }

    #[test]
    fn shown_ratings_are_rounded() {
        assert_eq!(shown(1214.5), 1215);
        assert_eq!(shown(1214.49), 1214);
    }
}
