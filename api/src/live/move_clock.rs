//! The move clock: one deadline for the side to move, nothing stored for the other.

use outflank_engine::Color;

use crate::domain::Timestamp;

/// A per-move clock (SPEC §2): the side to move has `move_time_ms` from the start of its turn,
/// plus a lag allowance before it loses; the waiting side always has a full move time.
///
/// A value, not a timer: the caller asks what it says at `now`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveClock {
    move_time_ms: i64,
    lag_allowance_ms: i64,
    state: ClockState,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ClockState {
    /// `side`'s turn began at `started`.
    Running { side: Color, started: Timestamp },
    /// Stopped at the end of the game with `left` milliseconds on `side`'s clock.
    Stopped { side: Color, left: i64 },
}

impl MoveClock {
    /// A clock with `side`'s turn starting at `now`.
    pub fn start(move_time_ms: i64, lag_allowance_ms: i64, side: Color, now: Timestamp) -> Self {
        MoveClock {
            move_time_ms,
            lag_allowance_ms,
            state: ClockState::Running { side, started: now },
        }
    }

    /// Starts a fresh turn for `side` at `now`.
    pub fn switch(&mut self, side: Color, now: Timestamp) {
        self.state = ClockState::Running { side, started: now };
    }

    /// Freezes the clock at `now`, keeping what the running side had left.
    pub fn stop(&mut self, now: Timestamp) {
        if let ClockState::Running { side, .. } = self.state {
            self.state = ClockState::Stopped { side, left: self.remaining(side, now) };
        }
    }

    /// The time for each move.
    pub fn move_time_ms(&self) -> i64 {
        self.move_time_ms
    }

    /// The side whose time is running, if the clock runs.
    pub fn running(&self) -> Option<Color> {
        match self.state {
            ClockState::Running { side, .. } => Some(side),
            ClockState::Stopped { .. } => None,
        }
    }

    /// Milliseconds `side` has left at `now`, never below zero (the lag allowance is not shown).
    pub fn remaining(&self, side: Color, now: Timestamp) -> i64 {
        match self.state {
            ClockState::Running { side: running, started } if running == side => {
                (self.move_time_ms - now.since(started)).clamp(0, self.move_time_ms)
            }
            ClockState::Stopped { side: stopped, left } if stopped == side => left,
            _ => self.move_time_ms,
        }
    }

    /// When the running side loses on time: the end of its move time plus the lag allowance.
    pub fn flag_time(&self) -> Option<Timestamp> {
        match self.state {
            ClockState::Running { started, .. } => {
                Some(started.plus(self.move_time_ms).plus(self.lag_allowance_ms))
            }
            ClockState::Stopped { .. } => None,
        }
    }

    /// The side whose time has run out at `now`, if any.
    pub fn out_of_time(&self, now: Timestamp) -> Option<Color> {
        let flag = self.flag_time()?;
        (now >= flag).then_some(self.running()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock() -> MoveClock {
        MoveClock::start(30_000, 500, Color::Black, Timestamp(1_000))
    }

    #[test]
    fn the_side_to_move_counts_down_and_the_other_shows_a_full_move_time() {
        let clock = clock();
        assert_eq!(clock.remaining(Color::Black, Timestamp(11_000)), 20_000);
        assert_eq!(clock.remaining(Color::White, Timestamp(11_000)), 30_000);
    }

    #[test]
    fn remaining_time_never_goes_below_zero() {
        assert_eq!(clock().remaining(Color::Black, Timestamp(40_000)), 0);
    }

    #[test]
    fn time_runs_out_only_after_the_lag_allowance() {
        let clock = clock();
        assert_eq!(clock.flag_time(), Some(Timestamp(31_500)));
        assert_eq!(clock.out_of_time(Timestamp(31_499)), None);
        assert_eq!(clock.out_of_time(Timestamp(31_500)), Some(Color::Black));
    }

    #[test]
    fn a_switch_gives_the_other_side_a_fresh_move_time() {
        let mut clock = clock();
        clock.switch(Color::White, Timestamp(20_000));
        assert_eq!(clock.remaining(Color::White, Timestamp(20_000)), 30_000);
        assert_eq!(clock.flag_time(), Some(Timestamp(50_500)));
    }

    #[test]
    fn a_stopped_clock_keeps_what_was_left_and_never_runs_out() {
        let mut clock = clock();
        clock.stop(Timestamp(6_000));
        assert_eq!(clock.remaining(Color::Black, Timestamp(90_000)), 25_000);
        assert_eq!(clock.running(), None);
        assert_eq!(clock.out_of_time(Timestamp(90_000)), None);
    }
}
