//! How long the computer may think on a move under a clock: as long as its level wants when
//! time is plentiful, less as its time runs short, never so long that it loses on time.

use super::TimeControl;

/// Time the computer keeps in hand on every move, beyond its thinking and its reply delay: for
/// the wait for a search worker and the step from the search to the board.
pub const RESERVE_MS: i64 = 1_000;

/// How long the computer may think on a move when it has `left_ms` on its clock under
/// `control`, with `empties` empty squares and its replies shown `delay_ms` after the move
/// they answer. `None` under a daily control: a level's own budget (under a second) is
/// always within a day.
///
/// Under a per-game control the rest of the time is shared among the moves still to come
/// (about one in two of the empties, plus one), three quarters of the increment are spent
/// as they come, and no move takes more than half of what is left after the reserve.
pub fn thinking_time(
    control: TimeControl,
    left_ms: i64,
    empties: u32,
    delay_ms: i64,
) -> Option<i64> {
    let spare = |ms: i64| ms.max(0);
    match control {
        TimeControl::Daily { .. } => None,
        TimeControl::PerMove { move_ms } => Some(spare(move_ms - delay_ms - RESERVE_MS)),
        TimeControl::Fischer { increment_ms, .. } => {
            let moves_to_come = i64::from(empties.div_ceil(2)) + 1;
            let usable = left_ms - RESERVE_MS - delay_ms * moves_to_come;
            let share = usable / moves_to_come + increment_ms * 3 / 4;
            let most = (left_ms - delay_ms - RESERVE_MS) / 2;
            Some(spare(share.min(most)))
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn under_a_daily_control_the_level_decides_alone() {
        assert_eq!(thinking_time(TimeControl::Daily { days: 1 }, 86_400_000, 50, 300), None);
    }

    #[test]
    fn under_seconds_a_move_nearly_all_of_each_move_time_may_be_spent() {
        assert_eq!(thinking_time(TimeControl::DEFAULT, 30_000, 50, 300), Some(28_700));
    }

    #[test]
    fn a_per_game_clock_is_shared_among_the_moves_to_come() {
        let blitz = TimeControl::fischer(3, 2);
        // 180 s less the reserve and 300 ms of delay for each of 31 moves to come, shared
        // among them, plus 1.5 s of the increment.
        assert_eq!(thinking_time(blitz, 180_000, 60, 300), Some(5_474 + 1_500));
        assert_eq!(thinking_time(blitz, 1_000, 60, 300), Some(0));
    }

    #[test]
    fn no_move_takes_more_than_half_of_what_is_left() {
        let bullet = TimeControl::fischer(1, 1);
        assert_eq!(thinking_time(bullet, 5_000, 2, 300), Some(1_850));
    }

    proptest! {
        /// A computer that thinks on every move for twice as long as it may (a machine at half
        /// the speed the node budgets assume), waits up to 0.4 s for a search worker and shows
        /// its reply no sooner than its delay never runs out of time.
        #[test]
        fn the_computer_never_runs_out_under_any_offered_per_game_control(
            index in 0..8usize,
            first_empties in 40..=60u32,
            waits in proptest::collection::vec(0..400i64, 40),
        ) {
            let control = TimeControl::offered()
                .into_iter()
                .filter(|control| matches!(control, TimeControl::Fischer { .. }))
                .nth(index)
                .unwrap();
            let delay = 300;
            let mut left = control.initial_ms();
            let mut empties = first_empties;
            let mut waits = waits.into_iter();
            while empties > 0 {
                let think = thinking_time(control, left, empties, delay).unwrap();
                let elapsed = (2 * think + waits.next().unwrap_or(0)).max(delay);
                prop_assert!(elapsed < left, "{control}: {elapsed} ms of {left}");
                left = control.after_move(left, elapsed);
                empties = empties.saturating_sub(2);
            }
        }
    }
}
