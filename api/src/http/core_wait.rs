//! How much of its time a thread spends ready to run but waiting for a core: the CPU pressure
//! it meets, as Linux's pressure-stall information counts it for the whole system.
//!
//! A worker whose own queue is short can still answer late when the machine's cores are all
//! busy: each time a socket wakes it, it waits its turn for a core first, and a move crosses
//! several threads before it is acknowledged. Its event loop's lag does not show those waits;
//! the kernel's count of them (`/proc/thread-self/schedstat`) does.

use std::time::Duration;

/// How long the calling thread has waited for a core since it started; `None` where the system
/// does not say.
pub fn waited_so_far() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    parse_schedstat(&text)
}

/// The wait for a core in a `schedstat` line: time on a core, time waiting for one (both in
/// nanoseconds), and the number of turns.
fn parse_schedstat(text: &str) -> Option<Duration> {
    let waited = text.split_whitespace().nth(1)?.parse().ok()?;
    Some(Duration::from_nanos(waited))
}

/// A running mean of the share of time one thread spent waiting for a core.
#[derive(Debug, Clone, Copy, Default)]
pub struct CoreWait {
    last: Option<Duration>,
    mean: f64,
}

impl CoreWait {
    /// Takes the thread's total wait `so_far` after `elapsed` since the last reading; returns
    /// the mean share (each new interval weighs a quarter).
    pub fn update(&mut self, so_far: Duration, elapsed: Duration) -> f64 {
        if let Some(last) = self.last
            && !elapsed.is_zero()
        {
            let share =
                (so_far.saturating_sub(last).as_secs_f64() / elapsed.as_secs_f64()).min(1.0);
            self.mean += (share - self.mean) / 4.0;
        }
        self.last = Some(so_far);
        self.mean
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TICK: Duration = Duration::from_millis(50);

    #[test]
    fn the_wait_is_the_second_field_of_schedstat() {
        assert_eq!(parse_schedstat("1200000 3400000 17\n"), Some(Duration::from_nanos(3_400_000)));
        assert_eq!(parse_schedstat("1200000\n"), None);
        assert_eq!(parse_schedstat(""), None);
    }

    #[test]
    fn this_system_tells_a_threads_wait_or_says_it_cannot() {
        let first = waited_so_far();
        if cfg!(target_os = "linux") {
            assert!(first.is_some());
            assert!(waited_so_far() >= first);
        }
    }

    #[test]
    fn the_first_reading_only_sets_the_start() {
        let mut wait = CoreWait::default();
        assert_eq!(wait.update(Duration::from_secs(7), TICK), 0.0);
    }

    #[test]
    fn the_mean_moves_a_quarter_of_the_way_to_each_new_share() {
        let mut wait = CoreWait::default();
        wait.update(Duration::ZERO, TICK);
        assert_eq!(wait.update(TICK, TICK), 0.25);
        assert_eq!(wait.update(TICK, TICK), 0.1875);
    }

    #[test]
    fn a_share_above_the_whole_interval_counts_as_all_of_it() {
        let mut wait = CoreWait::default();
        wait.update(Duration::ZERO, TICK);
        assert_eq!(wait.update(TICK * 3, TICK), 0.25);
    }
}
