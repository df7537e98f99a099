//! How many games a node lets run at once, learnt from how it keeps up: raised step by step while
//! the limit is what holds games back and the node keeps pace, cut to a share of the games
//! running when it falls behind (additive increase, multiplicative decrease, as TCP finds a
//! link's rate).
//!
//! A reading that the node is behind comes only once the games already running overload it, and
//! by then they play slower for everyone. Refusing new games for a while after such a reading
//! lets the games that were admitted meanwhile overshoot again each time the refusal ends. A
//! limit on the number of games instead holds the load near the last level the node carried,
//! and only the games beyond it wait.

use std::time::{Duration, Instant};

/// The share of the running games a cut keeps, in percent.
pub const KEPT_AT_A_CUT: usize = 90;

/// The least time between two cuts: a cut shows only as games end, so readings soon after one
/// still describe the load before it.
pub const SETTLE: Duration = Duration::from_secs(1);

/// How often the limit may rise while the node keeps pace.
pub const RAISE_EVERY: Duration = Duration::from_millis(500);

/// A rise adds this share of the limit, in percent, and at least [`LEAST_RAISE`] games.
pub const RAISE_PERCENT: usize = 3;

/// The least number of games a rise adds.
pub const LEAST_RAISE: usize = 4;

/// A node always lets this many games run, however far behind it reads.
pub const FLOOR: usize = 16;

/// The limit on games running at once, and when it last changed.
#[derive(Debug, Clone, Default)]
pub struct GameLimit {
    /// `None` until the node first falls behind: no limit.
    limit: Option<usize>,
    last_cut: Option<Instant>,
    last_raise: Option<Instant>,
}

impl GameLimit {
    /// The limit now, if there is one.
    pub fn limit(&self) -> Option<usize> {
        self.limit
    }

    /// Whether one more game may start while `running` run (or are being set up).
    pub fn admits(&self, running: usize) -> bool {
        self.limit.is_none_or(|limit| running < limit)
    }

    /// Takes one reading at `now`: `running` games, and whether the node is `behind`.
    pub fn observe(&mut self, now: Instant, running: usize, behind: bool) {
        if behind {
            if self.last_cut.is_some_and(|cut| now.saturating_duration_since(cut) < SETTLE) {
                return;
            }
            let base = self.limit.map_or(running, |limit| limit.min(running));
            self.limit = Some((base * KEPT_AT_A_CUT / 100).max(FLOOR));
            self.last_cut = Some(now);
            self.last_raise = Some(now);
            return;
        }
        let Some(limit) = self.limit else { return };
        if self.last_raise.is_some_and(|raise| now.saturating_duration_since(raise) < RAISE_EVERY) {
            return;
        }
        // Only a limit that holds games back needs to rise; one far above the games running
        // says nothing about whether the node would carry more.
        if running * 100 >= limit * KEPT_AT_A_CUT {
            self.limit = Some(limit + (limit * RAISE_PERCENT / 100).max(LEAST_RAISE));
            self.last_raise = Some(now);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(start: Instant, millis: u64) -> Instant {
        start + Duration::from_millis(millis)
    }

    #[test]
    fn a_node_that_never_fell_behind_has_no_limit() {
        let mut limit = GameLimit::default();
        limit.observe(Instant::now(), 5_000, false);
        assert_eq!(limit.limit(), None);
        assert!(limit.admits(1_000_000));
    }

    #[test]
    fn falling_behind_limits_the_games_to_a_share_of_those_running() {
        let mut limit = GameLimit::default();
        limit.observe(Instant::now(), 1_000, true);
        assert_eq!(limit.limit(), Some(900));
        assert!(limit.admits(899));
        assert!(!limit.admits(900));
    }

    #[test]
    fn readings_soon_after_a_cut_do_not_cut_again() {
        let start = Instant::now();
        let mut limit = GameLimit::default();
        limit.observe(start, 1_000, true);
        limit.observe(at(start, 999), 1_000, true);
        assert_eq!(limit.limit(), Some(900));
        limit.observe(at(start, 1_000), 1_000, true);
        assert_eq!(limit.limit(), Some(810));
    }

    #[test]
    fn a_cut_starts_from_the_limit_when_more_games_run_than_it_allows() {
        let start = Instant::now();
        let mut limit = GameLimit::default();
        limit.observe(start, 1_000, true);
        limit.observe(at(start, 2_000), 950, true);
        assert_eq!(limit.limit(), Some(810));
    }

    #[test]
    fn a_cut_starts_from_the_games_running_when_fewer_run_than_the_limit_allows() {
        let start = Instant::now();
        let mut limit = GameLimit::default();
        limit.observe(start, 1_000, true);
        limit.observe(at(start, 2_000), 500, true);
        assert_eq!(limit.limit(), Some(450));
    }

    #[test]
    fn a_limit_never_falls_below_the_floor() {
        let mut limit = GameLimit::default();
        limit.observe(Instant::now(), 3, true);
        assert_eq!(limit.limit(), Some(FLOOR));
    }

    #[test]
    fn a_limit_holding_games_back_rises_while_the_node_keeps_pace() {
        let start = Instant::now();
        let mut limit = GameLimit::default();
        limit.observe(start, 1_000, true);
        limit.observe(at(start, 499), 900, false);
        assert_eq!(limit.limit(), Some(900));
        limit.observe(at(start, 500), 900, false);
        assert_eq!(limit.limit(), Some(927));
        limit.observe(at(start, 1_000), 927, false);
        assert_eq!(limit.limit(), Some(954));
    }

    #[test]
    fn a_small_limit_rises_by_at_least_a_few_games() {
        let start = Instant::now();
        let mut limit = GameLimit::default();
        limit.observe(start, 0, true);
        limit.observe(at(start, 500), FLOOR, false);
        assert_eq!(limit.limit(), Some(FLOOR + LEAST_RAISE));
    }

    #[test]
    fn a_limit_far_above_the_games_running_stays_where_it_is() {
        let start = Instant::now();
        let mut limit = GameLimit::default();
        limit.observe(start, 1_000, true);
        limit.observe(at(start, 5_000), 100, false);
        assert_eq!(limit.limit(), Some(900));
    }
}
