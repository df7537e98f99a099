//! A game's clock under its [`TimeControl`]: what each side has left, the side whose time
//! runs, and when it loses on time.

use outflank_engine::Color;

use super::TimeControl;
use crate::domain::Timestamp;

/// The clock of a clocked game (SPEC §2 for the default of 30 s a move): the side to move
/// counts down from what it had when its turn began, and loses once that and the lag allowance
/// are spent; the waiting side's time stands still. A forced pass is no turn: the side that
/// moved moves again, with what the control gives it after a move.
///
/// A value, not a timer: the caller asks what it says at `now`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameClock {
    control: TimeControl,
    lag_allowance_ms: i64,
    /// What each side had when its current or last turn began, by colour index.
    left: [i64; 2],
    state: ClockState,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ClockState {
    /// `side`'s turn began at `started`.
    Running { side: Color, started: Timestamp },
    /// Stopped at the end of the game; `left` holds what each side had then.
    Stopped,
}

impl GameClock {
    /// A new game's clock: both sides with the control's initial time, `side`'s turn starting
    /// at `now`.
    pub fn start(control: TimeControl, lag_allowance_ms: i64, side: Color, now: Timestamp) -> Self {
        let left = [control.initial_ms(); 2];
        GameClock::resume(control, lag_allowance_ms, left, side, now)
    }

    /// A clock whose sides had `left` (black, white) when `side`'s turn began at `started`.
    pub fn resume(
        control: TimeControl,
        lag_allowance_ms: i64,
        left: [i64; 2],
        side: Color,
        started: Timestamp,
    ) -> Self {
        GameClock { control, lag_allowance_ms, left, state: ClockState::Running { side, started } }
    }

    /// The running side has moved at `now`: it gets what the control gives after a move, and
    /// `next`'s turn begins (the same side again when the other must pass).
    pub fn switch(&mut self, next: Color, now: Timestamp) {
        if let ClockState::Running { side, started } = self.state {
            let index = side as usize;
            self.left[index] = self.control.after_move(self.left[index], now.since(started));
        }
        self.state = ClockState::Running { side: next, started: now };
    }

    /// Freezes the clock at `now`, keeping what the running side had left.
    pub fn stop(&mut self, now: Timestamp) {
        if let ClockState::Running { side, .. } = self.state {
            self.left[side as usize] = self.remaining(side, now);
            self.state = ClockState::Stopped;
        }
    }

    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// The side whose time is running, if the clock runs.
    pub fn running(&self) -> Option<Color> {
        match self.state {
            ClockState::Running { side, .. } => Some(side),
            ClockState::Stopped => None,
        }
    }

    /// Milliseconds `side` has left at `now`, never below zero (the lag allowance is not shown).
    pub fn remaining(&self, side: Color, now: Timestamp) -> i64 {
        let left = self.left[side as usize];
        match self.state {
            ClockState::Running { side: running, started } if running == side => {
                (left - now.since(started)).clamp(0, left)
            }
            _ => left,
        }
    }

    /// When the running side loses on time: the end of its time plus the lag allowance.
    pub fn flag_time(&self) -> Option<Timestamp> {
        match self.state {
            ClockState::Running { side, started } => {
                Some(started.plus(self.left[side as usize]).plus(self.lag_allowance_ms))
            }
            ClockState::Stopped => None,
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
    use proptest::prelude::*;

    use super::*;

    fn clock() -> GameClock {
        GameClock::start(TimeControl::DEFAULT, 500, Color::Black, Timestamp(1_000))
    }

    fn blitz() -> GameClock {
        GameClock::start(TimeControl::fischer(3, 2), 500, Color::Black, Timestamp(0))
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
        assert_eq!(clock.remaining(Color::Black, Timestamp(20_000)), 30_000);
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

    #[test]
    fn under_a_per_game_control_the_mover_keeps_its_rest_plus_the_increment() {
        let mut clock = blitz();
        clock.switch(Color::White, Timestamp(10_000));
        assert_eq!(clock.remaining(Color::Black, Timestamp(15_000)), 172_000);
        assert_eq!(clock.remaining(Color::White, Timestamp(15_000)), 175_000);
        assert_eq!(clock.flag_time(), Some(Timestamp(10_000 + 180_000 + 500)));
    }

    #[test]
    fn a_forced_pass_takes_nothing_from_the_side_that_passes() {
        let mut clock = blitz();
        clock.switch(Color::White, Timestamp(10_000));
        // White moves; Black must pass, so White moves again at once.
        clock.switch(Color::White, Timestamp(25_000));
        assert_eq!(clock.remaining(Color::Black, Timestamp(40_000)), 172_000);
        assert_eq!(
            clock.remaining(Color::White, Timestamp(40_000)),
            180_000 - 15_000 + 2_000 - 15_000
        );
    }

    #[test]
    fn a_daily_clock_starts_each_move_afresh() {
        let daily = TimeControl::Daily { days: 1 };
        let mut clock = GameClock::start(daily, 500, Color::Black, Timestamp(0));
        clock.switch(Color::White, Timestamp(80_000_000));
        assert_eq!(clock.remaining(Color::Black, Timestamp(80_000_000)), 86_400_000);
        assert_eq!(clock.flag_time(), Some(Timestamp(80_000_000 + 86_400_000 + 500)));
    }

    #[test]
    fn a_resumed_clock_runs_from_the_stored_turn_start() {
        let control = TimeControl::fischer(5, 3);
        let clock = GameClock::resume(control, 500, [100_000, 250_000], Color::White, Timestamp(0));
        assert_eq!(clock.remaining(Color::White, Timestamp(40_000)), 210_000);
        assert_eq!(clock.remaining(Color::Black, Timestamp(40_000)), 100_000);
        assert_eq!(clock.flag_time(), Some(Timestamp(250_500)));
    }

    /// One turn of a random game: how long the mover thought, and whether the other side then
    /// had to pass.
    fn turns() -> impl Strategy<Value = Vec<(i64, bool)>> {
        prop::collection::vec((0..200_000i64, prop::bool::weighted(0.1)), 0..80)
    }

    proptest! {
        /// Under a per-game control, the time on both clocks at the end plus the time the sides
        /// spent is what they began with plus an increment per move: nothing created or lost,
        /// whatever the moves, passes and thinking times (a move within the lag allowance
        /// spends only what was left; a side that runs out spends all it had).
        #[test]
        fn per_game_clocks_neither_create_nor_lose_time(turns in turns()) {
            let control = TimeControl::fischer(3, 2);
            let mut clock = GameClock::start(control, 500, Color::Black, Timestamp(0));
            let (mut now, mut side) = (Timestamp(0), Color::Black);
            let (mut spent, mut moves) = (0, 0);
            for (thought, other_passes) in turns {
                let had = clock.remaining(side, now);
                let flag = clock.flag_time().unwrap();
                if now.plus(thought) >= flag {
                    now = flag;
                    prop_assert_eq!(clock.out_of_time(now), Some(side));
                    spent += had;
                    break;
                }
                now = now.plus(thought);
                spent += thought.min(had);
                moves += 1;
                let next = if other_passes { side } else { !side };
                clock.switch(next, now);
                prop_assert_eq!(clock.remaining(side, now), (had - thought).max(0) + 2_000);
                side = next;
            }
            clock.stop(now);
            let left: i64 = Color::ALL.iter().map(|&color| clock.remaining(color, now)).sum();
            prop_assert_eq!(left + spent, 2 * control.initial_ms() + 2_000 * moves);
        }
    }
}
