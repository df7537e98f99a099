//! How a game is timed: the same time for every move (today's 30 s), a budget for the whole
//! game with an increment after each move (Fischer), or days for each move (daily).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The move time of clocked games whose players chose no other control: 30 s (SPEC §2).
pub const DEFAULT_MOVE_TIME_MS: i64 = 30 * SECOND_MS;
const SECOND_MS: i64 = 1_000;
const MINUTE_MS: i64 = 60 * SECOND_MS;
const DAY_MS: i64 = 24 * 60 * MINUTE_MS;

/// The per-game controls players may choose, as minutes + seconds of increment: the usual
/// bullet, blitz, rapid and classical steps of online play.
pub const FISCHER: [(i64, i64); 8] =
    [(1, 0), (1, 1), (3, 0), (3, 2), (5, 3), (10, 5), (15, 10), (30, 0)];
/// The daily controls players may choose, in days a move.
pub const DAILY: [u8; 4] = [1, 2, 3, 7];
/// The per-move controls players may choose, in seconds a move.
pub const PER_MOVE: [i64; 1] = [30];

/// How a game is timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum TimeControl {
    /// The same time for every move, nothing carried over.
    PerMove { move_ms: i64 },
    /// `base_ms` for the whole game, and `increment_ms` added after each move.
    Fischer { base_ms: i64, increment_ms: i64 },
    /// `days` for each move, the clock reset after each.
    Daily { days: u8 },
}

impl TimeControl {
    /// Today's default: 30 seconds a move.
    pub const DEFAULT: TimeControl = TimeControl::PerMove { move_ms: DEFAULT_MOVE_TIME_MS };

    /// `minutes` + `seconds` (Fischer).
    pub const fn fischer(minutes: i64, seconds: i64) -> TimeControl {
        TimeControl::Fischer { base_ms: minutes * MINUTE_MS, increment_ms: seconds * SECOND_MS }
    }

    /// The time a side has before its first move.
    pub fn initial_ms(self) -> i64 {
        match self {
            TimeControl::PerMove { move_ms } => move_ms,
            TimeControl::Fischer { base_ms, .. } => base_ms,
            TimeControl::Daily { days } => i64::from(days) * DAY_MS,
        }
    }

    /// What a side that had `left` milliseconds when its turn began has after moving
    /// `elapsed` milliseconds later: a fresh move time for per-move and daily controls, the
    /// rest plus the increment for a per-game one (never below the increment, since a move
    /// within the lag allowance is accepted).
    pub fn after_move(self, left: i64, elapsed: i64) -> i64 {
        match self {
            TimeControl::PerMove { .. } | TimeControl::Daily { .. } => self.initial_ms(),
            TimeControl::Fischer { increment_ms, .. } => {
                (left - elapsed.max(0)).max(0) + increment_ms
            }
        }
    }

    /// Whether a restored game's clock resumes exactly where the stored moves left it: per game
    /// and daily, where a restart must neither give nor take time. Under seconds a move the
    /// side to move gets a fresh move time instead, as a restart may take longer than a move.
    pub fn resumes_exactly(self) -> bool {
        !matches!(self, TimeControl::PerMove { .. })
    }

    /// Whether players may choose it: one of the per-move, per-game and daily controls listed.
    pub fn is_offered(self) -> bool {
        match self {
            TimeControl::PerMove { move_ms } => {
                PER_MOVE.iter().any(|&seconds| seconds * SECOND_MS == move_ms)
            }
            TimeControl::Fischer { .. } => FISCHER
                .iter()
                .any(|&(minutes, seconds)| TimeControl::fischer(minutes, seconds) == self),
            TimeControl::Daily { days } => DAILY.contains(&days),
        }
    }

    /// Every control players may choose, in the order a chooser lists them.
    pub fn offered() -> Vec<TimeControl> {
        let per_move =
            PER_MOVE.iter().map(|&seconds| TimeControl::PerMove { move_ms: seconds * SECOND_MS });
        let fischer =
            FISCHER.iter().map(|&(minutes, seconds)| TimeControl::fischer(minutes, seconds));
        let daily = DAILY.iter().map(|&days| TimeControl::Daily { days });
        per_move.chain(fischer).chain(daily).collect()
    }
}

/// `30s` (a move), `3+2` (minutes + seconds of increment) or `2d` (days a move). Parts that
/// are not whole seconds or minutes are written in milliseconds (`1500ms`, `90000ms+0`), so
/// every control reads back as itself.
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::PerMove { move_ms } if move_ms % SECOND_MS == 0 => {
                write!(f, "{}s", move_ms / SECOND_MS)
            }
            TimeControl::PerMove { move_ms } => write!(f, "{move_ms}ms"),
            TimeControl::Fischer { base_ms, increment_ms } => {
                if base_ms % MINUTE_MS == 0 {
                    write!(f, "{}", base_ms / MINUTE_MS)?;
                } else {
                    write!(f, "{base_ms}ms")?;
                }
                if increment_ms % SECOND_MS == 0 {
                    write!(f, "+{}", increment_ms / SECOND_MS)
                } else {
                    write!(f, "+{increment_ms}ms")
                }
            }
            TimeControl::Daily { days } => write!(f, "{days}d"),
        }
    }
}

/// Why a text is not a time control.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{0:?} is not a time control: write 30s (a move), 3+2 (minutes + seconds) or 2d (days)")]
pub struct BadTimeControl(pub String);

impl FromStr for TimeControl {
    type Err = BadTimeControl;

    fn from_str(text: &str) -> Result<TimeControl, BadTimeControl> {
        let bad = || BadTimeControl(text.to_owned());
        let positive = |ms: i64| if ms > 0 { Ok(ms) } else { Err(bad()) };
        let at_least_zero = |ms: i64| if ms >= 0 { Ok(ms) } else { Err(bad()) };
        let amount = |part: &str, unit_ms: i64| -> Result<i64, BadTimeControl> {
            let (digits, unit_ms) = match part.strip_suffix("ms") {
                Some(digits) => (digits, 1),
                None => (part, unit_ms),
            };
            if digits.is_empty() || !digits.bytes().all(|byte| byte.is_ascii_digit()) {
                return Err(bad());
            }
            digits.parse::<i64>().ok().and_then(|n| n.checked_mul(unit_ms)).ok_or_else(bad)
        };
        if let Some((base, increment)) = text.split_once('+') {
            return Ok(TimeControl::Fischer {
                base_ms: positive(amount(base, MINUTE_MS)?)?,
                increment_ms: at_least_zero(amount(increment, SECOND_MS)?)?,
            });
        }
        if let Some(days) = text.strip_suffix('d') {
            let days = days.parse::<u8>().map_err(|_| bad())?;
            return if days > 0 { Ok(TimeControl::Daily { days }) } else { Err(bad()) };
        }
        if text.ends_with("ms") {
            return Ok(TimeControl::PerMove { move_ms: positive(amount(text, 1)?)? });
        }
        let seconds = text.strip_suffix('s').ok_or_else(bad)?;
        Ok(TimeControl::PerMove { move_ms: positive(amount(seconds, SECOND_MS)?)? })
    }
}

/// Why a control asked for cannot be played; the message lists those offered.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ChosenControlError {
    #[error("{0}; choose one of {choices}", choices = offered_list())]
    Unreadable(#[from] BadTimeControl),
    #[error("{0} is not offered; choose one of {choices}", choices = offered_list())]
    NotOffered(TimeControl),
}

/// The controls offered, as players write them: `30s, 1+0, …, 7d`.
fn offered_list() -> String {
    let offered: Vec<String> = TimeControl::offered().iter().map(ToString::to_string).collect();
    offered.join(", ")
}

impl TimeControl {
    /// The control a player asked for in `text`, if it is one of those offered.
    ///
    /// # Errors
    /// [`ChosenControlError`] when `text` is no control, or one not offered.
    pub fn chosen(text: &str) -> Result<TimeControl, ChosenControlError> {
        let control: TimeControl = text.parse()?;
        if control.is_offered() {
            Ok(control)
        } else {
            Err(ChosenControlError::NotOffered(control))
        }
    }
}

impl From<TimeControl> for String {
    fn from(control: TimeControl) -> String {
        control.to_string()
    }
}

impl TryFrom<String> for TimeControl {
    type Error = BadTimeControl;

    fn try_from(text: String) -> Result<TimeControl, BadTimeControl> {
        text.parse()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_written_as_players_say_them() {
        assert_eq!(TimeControl::DEFAULT.to_string(), "30s");
        assert_eq!(TimeControl::fischer(3, 2).to_string(), "3+2");
        assert_eq!(TimeControl::fischer(30, 0).to_string(), "30+0");
        assert_eq!(TimeControl::Daily { days: 2 }.to_string(), "2d");
        assert_eq!(TimeControl::PerMove { move_ms: 1_500 }.to_string(), "1500ms");
        let odd = TimeControl::Fischer { base_ms: 90_000, increment_ms: 250 };
        assert_eq!(odd.to_string(), "90000ms+250ms");
    }

    #[test]
    fn every_control_reads_back_as_itself() {
        let odd = [
            TimeControl::PerMove { move_ms: 1_500 },
            TimeControl::Fischer { base_ms: 90_000, increment_ms: 250 },
            TimeControl::Fischer { base_ms: 60_000, increment_ms: 0 },
        ];
        for control in TimeControl::offered().into_iter().chain(odd) {
            assert_eq!(control.to_string().parse::<TimeControl>(), Ok(control), "{control}");
        }
    }

    #[test]
    fn malformed_or_empty_controls_are_refused() {
        for text in [
            "", "30", "s", "-5s", "0s", "3+", "+2", "0+2", "3+-1", "0d", "256d", "3m", "1.5s",
            "3+2+1", "x+2",
        ] {
            assert_eq!(
                text.parse::<TimeControl>(),
                Err(BadTimeControl(text.to_owned())),
                "{text:?}"
            );
        }
    }

    #[test]
    fn only_the_listed_controls_are_offered() {
        assert!(TimeControl::fischer(3, 2).is_offered());
        assert!(TimeControl::Daily { days: 7 }.is_offered());
        assert!(TimeControl::DEFAULT.is_offered());
        assert!(!TimeControl::fischer(4, 2).is_offered());
        assert!(!TimeControl::Daily { days: 5 }.is_offered());
        assert!(!TimeControl::PerMove { move_ms: 1_500 }.is_offered());
        assert_eq!(TimeControl::offered().len(), PER_MOVE.len() + FISCHER.len() + DAILY.len());
    }

    #[test]
    fn a_chosen_control_must_be_offered_and_the_refusal_lists_those_that_are() {
        assert_eq!(TimeControl::chosen("3+2"), Ok(TimeControl::fischer(3, 2)));
        let refused = TimeControl::chosen("4+2").unwrap_err();
        assert_eq!(refused, ChosenControlError::NotOffered(TimeControl::fischer(4, 2)));
        assert!(refused.to_string().ends_with(
            "choose one of 30s, 1+0, 1+1, 3+0, 3+2, 5+3, 10+5, 15+10, 30+0, 1d, 2d, 3d, 7d"
        ));
        assert!(matches!(TimeControl::chosen("soon"), Err(ChosenControlError::Unreadable(_))));
    }

    #[test]
    fn a_per_game_control_keeps_the_rest_and_adds_the_increment() {
        let blitz = TimeControl::fischer(3, 2);
        assert_eq!(blitz.initial_ms(), 180_000);
        assert_eq!(blitz.after_move(180_000, 10_000), 172_000);
        // A move within the lag allowance leaves only the increment.
        assert_eq!(blitz.after_move(1_000, 1_400), 2_000);
    }

    #[test]
    fn per_move_and_daily_controls_start_every_move_afresh() {
        assert_eq!(TimeControl::DEFAULT.after_move(30_000, 29_000), 30_000);
        let daily = TimeControl::Daily { days: 2 };
        assert_eq!(daily.initial_ms(), 2 * 86_400_000);
        assert_eq!(daily.after_move(daily.initial_ms(), 86_400_000), 2 * 86_400_000);
    }
}
