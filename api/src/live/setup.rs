//! Who plays a live game and how it is timed.

use outflank_engine::ai::Level;
use outflank_engine::xot::Opening;
use outflank_engine::{Board, Color, Move};

use crate::domain::{GameId, Mode, Nickname, PlayerId, Timestamp};

use super::time_control::DEFAULT_MOVE_TIME_MS;
use super::{Ending, TimeControl};

/// How long after the clock shows zero a move is still accepted, for network lag.
pub const DEFAULT_LAG_ALLOWANCE_MS: i64 = 500;
/// The computer's reply appears no sooner than this after the human's move (SPEC §2).
pub const DEFAULT_COMPUTER_DELAY_MS: i64 = 300;

/// The time rules of live games, from the server's configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Timing {
    /// Time for each move in clocked modes.
    pub move_time_ms: i64,
    /// Grace after the move time before the side to move loses on time.
    pub lag_allowance_ms: i64,
    /// Earliest the computer's reply is shown after the move it answers.
    pub computer_delay_ms: i64,
}

impl Timing {
    /// The control of a clocked game whose players chose none: the configured move time.
    pub fn default_control(&self) -> TimeControl {
        TimeControl::PerMove { move_ms: self.move_time_ms }
    }
}

impl Default for Timing {
    fn default() -> Timing {
        Timing {
            move_time_ms: DEFAULT_MOVE_TIME_MS,
            lag_allowance_ms: DEFAULT_LAG_ALLOWANCE_MS,
            computer_delay_ms: DEFAULT_COMPUTER_DELAY_MS,
        }
    }
}

/// A person in a game.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Human {
    pub id: PlayerId,
    pub name: Nickname,
}

/// Whoever plays one colour.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Player {
    Human(Human),
    /// The computer at a level; always labelled as the computer.
    Computer(Level),
}

impl Player {
    /// What the board shows: the nickname, or the computer clearly labelled with its level
    /// and rating (`Computer · level 6 (≈2,100)`).
    pub fn display_name(&self) -> String {
        match self {
            Player::Human(human) => human.name.to_string(),
            Player::Computer(level) => {
                format!("Computer · level {level} (≈{})", thousands(level.elo()))
            }
        }
    }

    /// The person, unless this is the computer.
    pub fn human(&self) -> Option<&Human> {
        match self {
            Player::Human(human) => Some(human),
            Player::Computer(_) => None,
        }
    }
}

/// The players of a game, by mode. Colours are decided by the caller (random where SPEC says
/// so); [`Setup::rematch`] swaps people's colours deterministically.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Setup {
    /// A person against the computer; `color` is the person's. Untimed unless `timed`: then
    /// both sides play under the game's control and nobody takes moves back. `stand_in` when
    /// the matchmaker gave the computer because no person was found.
    Computer {
        human: Human,
        color: Color,
        level: Level,
        #[serde(default)]
        timed: bool,
        #[serde(default)]
        stand_in: bool,
    },
    /// One person playing both sides on one device.
    SameDevice { player: Human },
    /// Two people through a friend link.
    Friend { black: Human, white: Human },
    /// Two people paired by the quick queue.
    Quick { black: Human, white: Human },
    /// Two signed-in people in a rated game.
    Ranked { black: Human, white: Human },
}

impl Setup {
    /// The mode this setup plays.
    pub fn mode(&self) -> Mode {
        match self {
            Setup::Computer { .. } => Mode::Computer,
            Setup::SameDevice { .. } => Mode::SameDevice,
            Setup::Friend { .. } => Mode::Friend,
            Setup::Quick { .. } => Mode::Quick,
            Setup::Ranked { .. } => Mode::Ranked,
        }
    }

    /// Whether moves are timed: always between two people at a distance, against the computer
    /// when a control was chosen.
    pub fn has_clock(&self) -> bool {
        match self {
            Setup::Computer { timed, .. } => *timed,
            _ => self.mode().has_clock(),
        }
    }

    /// Whether a player may take moves back: in an untimed game against the computer or on
    /// one device.
    pub fn allows_undo(&self) -> bool {
        self.mode().allows_undo() && !self.has_clock()
    }

    /// Whether the computer stands in for a person the matchmaker did not find.
    pub fn is_stand_in(&self) -> bool {
        matches!(self, Setup::Computer { stand_in: true, .. })
    }

    /// Who plays `color`.
    pub fn player(&self, color: Color) -> Player {
        match self {
            Setup::Computer { color: human_color, level, .. } if color != *human_color => {
                Player::Computer(*level)
            }
            Setup::Computer { human, .. } | Setup::SameDevice { player: human } => {
                Player::Human(human.clone())
            }
            Setup::Friend { black, white }
            | Setup::Quick { black, white }
            | Setup::Ranked { black, white } => match color {
                Color::Black => Player::Human(black.clone()),
                Color::White => Player::Human(white.clone()),
            },
        }
    }

    /// The person playing `color`, unless it is the computer.
    pub fn human(&self, color: Color) -> Option<&Human> {
        match self {
            Setup::Computer { human, color: human_color, .. } => {
                (color == *human_color).then_some(human)
            }
            Setup::SameDevice { player } => Some(player),
            Setup::Friend { black, white }
            | Setup::Quick { black, white }
            | Setup::Ranked { black, white } => match color {
                Color::Black => Some(black),
                Color::White => Some(white),
            },
        }
    }

    /// The computer's colour and level, in a game against the computer.
    pub fn computer(&self) -> Option<(Color, Level)> {
        match self {
            Setup::Computer { color, level, .. } => Some((color.opposite(), *level)),
            _ => None,
        }
    }

    /// The same players for a rematch: people swap colours; against the computer the person
    /// keeps the colour they chose (a rematch is asked for, so the computer no longer stands in
    /// for anyone). A ranked game's rematch is a quick game, unrated.
    pub fn rematch(&self) -> Setup {
        match self.clone() {
            Setup::Computer { human, color, level, timed, .. } => {
                Setup::Computer { human, color, level, timed, stand_in: false }
            }
            Setup::SameDevice { player } => Setup::SameDevice { player },
            Setup::Friend { black, white } => Setup::Friend { black: white, white: black },
            Setup::Quick { black, white } => Setup::Quick { black: white, white: black },
            // A rematch is not rated: rating two people who just played again and again would
            // let them trade points; each rated game goes through the queue.
            Setup::Ranked { black, white } => Setup::Quick { black: white, white: black },
        }
    }
}

/// A game as the store keeps it, for [`GameState::restore`](super::GameState::restore).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stored {
    pub id: GameId,
    pub setup: Setup,
    /// The position the game started from (normally [`Board::start`]).
    pub start: Board,
    /// Every ply, passes included, oldest first.
    pub plies: Vec<Move>,
    /// How the game ended, if it did.
    pub ending: Option<Ending>,
    /// The rematch already started from this game, if one was.
    pub rematch: Option<GameId>,
    /// How a clocked game is timed; `None` for today's default (the move time of [`Timing`]).
    pub control: Option<TimeControl>,
    /// The XOT opening the game started from; its plies are the first stored ones.
    pub opening: Option<Opening>,
    /// When the game was created (its first turn began), and when each ply was played: a
    /// per-game or daily clock is replayed from them, so it resumes exactly where it was.
    pub times: (Timestamp, Vec<Timestamp>),
}

/// `1450` as `1,450`.
fn thousands(number: i32) -> String {
    let digits = number.unsigned_abs().to_string();
    let mut text = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    if number < 0 { format!("-{text}") } else { text }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_computer_is_named_with_its_level_and_rating_in_thousands() {
        let name = |number| Player::Computer(Level::new(number).unwrap()).display_name();
        assert_eq!(name(1), "Computer · level 1 (≈800)");
        assert_eq!(thousands(3_210), "3,210");
        assert_eq!(name(10), format!("Computer · level 10 (≈{})", thousands(Level::HARD.elo())));
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(-1_200), "-1,200");
    }
}
