//! Playing levels and the fixed budgets behind them.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::eval::Evaluation;
use super::search::SearchLimits;

/// How strongly the computer plays. Every level is bounded by node budgets, never by wall
/// time, so a position and a level always give the same move on any machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Looks one move ahead with a simple square table and picks among the near-best moves
    /// (a choice seeded by the position): beatable by a beginner.
    Easy,
    /// Looks a few moves ahead with the full evaluation; plays the last 10 empties perfectly.
    Medium,
    /// Searches as deep as a budget of about a second allows; plays the last 20 empties
    /// perfectly.
    Hard,
}

/// Text that names no level.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("\"{0}\" is not a level; expected easy, medium or hard")]
pub struct ParseLevelError(pub String);

impl Level {
    /// All levels, weakest first.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Medium, Level::Hard];

    /// The lower-case name: `"easy"`, `"medium"` or `"hard"`.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }

    /// The search limits of this level.
    pub const fn limits(self) -> SearchLimits {
        match self {
            Level::Easy => SearchLimits {
                max_depth: 1,
                node_budget: 1_000,
                exact_empties: 0,
                exact_node_limit: 0,
            },
            Level::Medium => SearchLimits {
                max_depth: 6,
                node_budget: 20_000,
                exact_empties: 10,
                exact_node_limit: 2_000_000,
            },
            Level::Hard => SearchLimits {
                max_depth: 60,
                node_budget: 2_000_000,
                exact_empties: 20,
                exact_node_limit: 16_000_000,
            },
        }
    }

    /// The evaluation this level uses.
    pub(crate) const fn evaluation(self) -> Evaluation {
        match self {
            Level::Easy => Evaluation::Simple,
            Level::Medium | Level::Hard => Evaluation::Full,
        }
    }

    /// How far below the best score (in 1/100 disc) a root move may be and still be chosen.
    /// Zero means the best move only.
    pub(crate) const fn spread(self) -> i32 {
        match self {
            Level::Easy => 80,
            Level::Medium | Level::Hard => 0,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = ParseLevelError;

    /// Parses `easy`, `medium` or `hard`, in any case.
    fn from_str(text: &str) -> Result<Level, ParseLevelError> {
        Level::ALL
            .into_iter()
            .find(|level| text.eq_ignore_ascii_case(level.name()))
            .ok_or_else(|| ParseLevelError(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for level in Level::ALL {
            assert_eq!(level.to_string().parse::<Level>(), Ok(level));
        }
        assert_eq!("HARD".parse::<Level>(), Ok(Level::Hard));
        assert_eq!("expert".parse::<Level>(), Err(ParseLevelError("expert".into())));
    }
}
