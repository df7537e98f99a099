//! A stop that cannot hang: once the process is told to stop, a thread of its own ends it
//! after [`STOP_LIMIT`] if the graceful stop has not.
//!
//! Every step of the stop has its own limit (open requests [`REQUESTS_LIMIT`], the store
//! [`CLOSE_LIMIT`](crate::storage::CLOSE_LIMIT)), yet a stop was seen to hang past them, rarely:
//! actix-server before 2.9.1 let a worker end when the accept thread stopped before the worker
//! got its stop command, and the graceful stop then waited for that worker for ever (its thread
//! gone, nothing logged). The version used has the fix; the watchdog stays as the last guard.
//! Nothing acknowledged is lost by exiting, since a move is confirmed only once stored; the
//! watchdog names the step the stop was in, so the log says where.

use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Duration;

/// How long a stop waits for open requests to end before it closes their connections.
pub const REQUESTS_LIMIT: Duration = Duration::from_secs(5);

/// How long a stop may take in all: the steps' own limits (5 s + 10 s) and a margin, within
/// Kubernetes' default 30-s grace.
pub const STOP_LIMIT: Duration = Duration::from_secs(20);

/// The steps of a stop, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Step {
    /// Telling players and ending open requests.
    StoppingServer = 0,
    /// Closing the store.
    ClosingStore = 1,
    /// Everything closed; the process is leaving `main`.
    Exiting = 2,
}

impl Step {
    fn from_u8(value: u8) -> Step {
        match value {
            0 => Step::StoppingServer,
            1 => Step::ClosingStore,
            _ => Step::Exiting,
        }
    }

    /// What the stop was doing, as the watchdog logs it.
    pub fn describe(self) -> &'static str {
        match self {
            Step::StoppingServer => "telling players and ending open requests",
            Step::ClosingStore => "closing the store",
            Step::Exiting => "leaving the process after everything closed",
        }
    }
}

static STEP: AtomicU8 = AtomicU8::new(Step::StoppingServer as u8);

/// Records the step the stop has reached.
pub fn reached(step: Step) {
    STEP.store(step as u8, Ordering::SeqCst);
}

/// Starts the watchdog: after `limit`, logs the step the stop was in and exits with status 1.
/// Only the process's own stop arms it (a test server stopped in-process never does).
pub fn arm(limit: Duration) {
    let spawned = std::thread::Builder::new().name("stop-watchdog".into()).spawn(move || {
        std::thread::sleep(limit);
        let step = Step::from_u8(STEP.load(Ordering::SeqCst));
        tracing::error!(
            limit_seconds = limit.as_secs(),
            step = step.describe(),
            "the server did not stop in time; exiting"
        );
        std::process::exit(1);
    });
    if let Err(error) = spawned {
        tracing::warn!(%error, "the stop has no watchdog");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Set in the child process of [`an_armed_watchdog_ends_a_stop_that_hangs`].
    const HANGING_STOP: &str = "OUTFLANK_TEST_HANGING_STOP";

    /// The watchdog ends the whole process, so it runs in a child: this test binary again,
    /// running only this test, which then plays a stop that hangs while closing the store.
    #[test]
    fn an_armed_watchdog_ends_a_stop_that_hangs() {
        if std::env::var_os(HANGING_STOP).is_some() {
            tracing_subscriber::fmt().with_writer(std::io::stderr).with_ansi(false).init();
            reached(Step::ClosingStore);
            arm(Duration::from_millis(100));
            std::thread::sleep(Duration::from_secs(60));
            return;
        }
        let name = "stop_watchdog::tests::an_armed_watchdog_ends_a_stop_that_hangs";
        let output = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", name, "--nocapture", "--test-threads=1"])
            .env(HANGING_STOP, "1")
            .output()
            .unwrap();
        let log = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "the child's log: {log}");
        assert!(log.contains("the server did not stop in time; exiting"), "{log}");
        assert!(log.contains("step=\"closing the store\""), "{log}");
    }

    #[test]
    fn each_step_reads_back_as_itself() {
        for step in [Step::StoppingServer, Step::ClosingStore, Step::Exiting] {
            assert_eq!(Step::from_u8(step as u8), step);
        }
    }

    #[test]
    fn the_stop_limit_outlasts_the_limits_of_its_steps() {
        let steps = REQUESTS_LIMIT + crate::storage::CLOSE_LIMIT;
        assert!(STOP_LIMIT > steps);
        assert!(STOP_LIMIT < Duration::from_secs(30));
    }
}
