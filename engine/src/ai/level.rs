//! Playing levels, the fixed budgets behind them and the rating each is measured at.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::eval::Evaluation;
use super::search::SearchLimits;

/// How strongly the computer plays: level 1 (a beginner can beat it) to level 10 (the
/// strongest). Every level is bounded by node budgets, never by wall time, so a position and a
/// level always give the same move on any machine.
///
/// Each level carries the Elo rating measured for it by self-play matches among the levels,
/// anchored at level 1 (see [`Level::elo`]), so a player can be offered a computer of about
/// their own strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(u8);

/// Text that names no level.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("\"{0}\" is not a level; expected 1 to 10 (or easy, medium, hard)")]
pub struct ParseLevelError(pub String);

/// What one level does: its search, evaluation, choice among near-best moves and rating.
struct Settings {
    limits: SearchLimits,
    evaluation: Evaluation,
    /// How far below the best score (1/100 disc) a root move may be and still be chosen.
    spread: i32,
    /// The measured Elo rating (see [`Level::elo`]).
    elo: i32,
}

const fn settings(
    max_depth: u32,
    node_budget: u64,
    exact_empties: u32,
    evaluation: Evaluation,
    spread: i32,
    elo: i32,
) -> Settings {
    // The exact solver may spend about eight times the midgame budget, between 200,000 and
    // 16,000,000 nodes (about 0.8 s): an endgame of `exact_empties` is then almost always
    // finished, and a move never takes much more than a second.
    let exact_node_limit = if exact_empties == 0 {
        0
    } else if node_budget * 8 < 200_000 {
        200_000
    } else if node_budget * 8 > 16_000_000 {
        16_000_000
    } else {
        node_budget * 8
    };
    Settings {
        limits: SearchLimits { max_depth, node_budget, exact_empties, exact_node_limit },
        evaluation,
        spread,
        elo,
    }
}

/// The levels, weakest first. The Elo column sums the differences measured between
/// neighbouring levels (`outflank-engine match N N-1`, 40 balanced openings played with both
/// colours, 20 for level 10 against 9), anchored at level 1 = 800 and rounded to 10; the
/// engine's README lists every match.
const LEVELS: [Settings; 10] = [
    settings(1, 1_000, 0, Evaluation::Simple, 80, 800),
    settings(1, 1_000, 0, Evaluation::Simple, 30, 920),
    settings(2, 1_000, 0, Evaluation::Simple, 40, 1_120),
    settings(1, 1_000, 0, Evaluation::Pattern, 60, 1_420),
    settings(3, 2_000, 4, Evaluation::Pattern, 20, 1_860),
    settings(60, 1_000, 6, Evaluation::Pattern, 0, 2_100),
    settings(60, 8_000, 8, Evaluation::Pattern, 0, 2_540),
    settings(60, 60_000, 12, Evaluation::Pattern, 0, 2_900),
    settings(60, 500_000, 16, Evaluation::Pattern, 0, 3_270),
    settings(60, 4_000_000, 20, Evaluation::Pattern, 0, 3_410),
];

impl Level {
    /// The weakest level: one move ahead over a square table, picking among the near-best
    /// moves. A beginner can beat it.
    pub const EASY: Level = Level(1);
    /// A middle level: 8,000 nodes a move over the trained evaluation, the last 8 empties
    /// perfect.
    pub const MEDIUM: Level = Level(7);
    /// The strongest level.
    pub const HARD: Level = Level(10);

    /// All levels, weakest first.
    pub const ALL: [Level; 10] = [
        Level(1),
        Level(2),
        Level(3),
        Level(4),
        Level(5),
        Level(6),
        Level(7),
        Level(8),
        Level(9),
        Level(10),
    ];

    /// Level `number`, from 1 to 10.
    pub const fn new(number: u8) -> Option<Level> {
        if number >= 1 && number as usize <= LEVELS.len() { Some(Level(number)) } else { None }
    }

    /// The level's number, 1 (weakest) to 10 (strongest).
    pub const fn number(self) -> u8 {
        self.0
    }

    const fn settings(self) -> &'static Settings {
        &LEVELS[self.0 as usize - 1]
    }

    /// The level's measured Elo rating, on the scale where level 1 is 800: what a player
    /// rated this high scores about half the points against it.
    pub const fn elo(self) -> i32 {
        self.settings().elo
    }

    /// The level whose rating is nearest `rating` (the weaker one on a tie): the computer a
    /// player of that rating finds a fair game.
    pub fn for_rating(rating: i32) -> Level {
        Level::ALL
            .into_iter()
            .min_by_key(|level| (level.elo() - rating).abs())
            .unwrap_or(Level::EASY)
    }

    /// The search limits of this level.
    pub const fn limits(self) -> SearchLimits {
        self.settings().limits
    }

    /// The evaluation this level uses.
    pub(crate) const fn evaluation(self) -> Evaluation {
        self.settings().evaluation
    }

    /// How far below the best score (in 1/100 disc) a root move may be and still be chosen.
    /// Zero means the best move only.
    pub(crate) const fn spread(self) -> i32 {
        self.settings().spread
    }
}

impl fmt::Display for Level {
    /// The level's number: `6`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Level {
    type Err = ParseLevelError;

    /// Parses a number from 1 to 10, optionally after `level` (`6`, `level 6`, `level-6`), or
    /// one of the names `easy` (1), `medium` (7) and `hard` (10), in any case.
    fn from_str(text: &str) -> Result<Level, ParseLevelError> {
        let error = || ParseLevelError(text.to_owned());
        let lower = text.trim().to_ascii_lowercase();
        match lower.as_str() {
            "easy" => return Ok(Level::EASY),
            "medium" => return Ok(Level::MEDIUM),
            "hard" => return Ok(Level::HARD),
            _ => {}
        }
        let number = lower
            .strip_prefix("level")
            .map_or(lower.as_str(), |rest| rest.trim_start_matches([' ', '-', '_']));
        if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) || number.len() > 2 {
            return Err(error());
        }
        number.parse().ok().and_then(Level::new).ok_or_else(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_round_trip_through_text() {
        for level in Level::ALL {
            assert_eq!(level.to_string().parse::<Level>(), Ok(level));
        }
    }

    #[test]
    fn levels_are_read_with_or_without_the_word_level() {
        assert_eq!("level 7".parse::<Level>(), Ok(Level::MEDIUM));
        assert_eq!("Level-10".parse::<Level>(), Ok(Level::HARD));
        assert_eq!(" 3 ".parse::<Level>(), Level::new(3).ok_or(ParseLevelError(String::new())));
    }

    #[test]
    fn the_old_names_read_as_levels_1_7_and_10() {
        assert_eq!("easy".parse::<Level>(), Ok(Level(1)));
        assert_eq!("MEDIUM".parse::<Level>(), Ok(Level(7)));
        assert_eq!("hard".parse::<Level>(), Ok(Level(10)));
    }

    #[test]
    fn text_naming_no_level_is_refused() {
        for text in ["0", "11", "expert", "", "level", "-1", "+3", "007", "level 0"] {
            assert_eq!(text.parse::<Level>(), Err(ParseLevelError(text.into())), "{text:?}");
        }
    }

    #[test]
    fn ratings_rise_with_the_level() {
        for pair in Level::ALL.windows(2) {
            assert!(pair[0].elo() < pair[1].elo(), "{} then {}", pair[0], pair[1]);
        }
        assert_eq!(Level::EASY.elo(), 800);
    }

    #[test]
    fn a_rating_gets_the_level_rated_nearest_to_it() {
        assert_eq!(Level::for_rating(0), Level::EASY);
        assert_eq!(Level::for_rating(4_000), Level::HARD);
        for level in Level::ALL {
            assert_eq!(Level::for_rating(level.elo()), level);
            assert_eq!(Level::for_rating(level.elo() + 10), level);
        }
    }

    #[test]
    fn perfect_endgames_start_no_later_as_the_level_rises() {
        for pair in Level::ALL.windows(2) {
            assert!(pair[0].limits().exact_empties <= pair[1].limits().exact_empties);
        }
        let largest = Level::ALL.iter().map(|level| level.limits().node_budget).max();
        assert_eq!(largest, Some(Level::HARD.limits().node_budget));
    }
}
