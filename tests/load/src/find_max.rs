//! `--find-max`: steps the load up, run after run, until moves are no longer acknowledged in
//! time, and reports the most moves per second that were.

use std::fmt::Write as _;
use std::time::Duration;

use serde_json::{Value, json};

use crate::args::{Args, FindMax};
use crate::report::round;

/// What one step measured at full load.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub games: usize,
    pub moves_per_second: f64,
    pub p99_ms: f64,
    /// The p99 of a socket's first moves and of the later ones (see `AckPhase`).
    pub opening_p99_ms: Option<f64>,
    pub later_p99_ms: Option<f64>,
    pub errors: u64,
    pub server_cpu_us_per_move: Vec<Value>,
    pub tool_cpu_us_per_move: Value,
    pub passed: bool,
}

impl Step {
    /// Reads a run's report: a step passes with no error, some moves, and a full-load p99 at or
    /// below `p99_limit`.
    pub fn of(report: &Value, games: usize, p99_limit: Duration) -> Step {
        let steady = &report["cpu"]["steady"];
        let moves_per_second = report["moves"]["steady_per_second"].as_f64().unwrap_or(0.0);
        let p99_ms = report["ack_latency"]["steady"]["p99_ms"].as_f64().unwrap_or(f64::INFINITY);
        let errors = report["error_total"].as_u64().unwrap_or(u64::MAX);
        let phase_p99 = |phase: &str| report["ack_latency"]["by_phase"][phase]["p99_ms"].as_f64();
        let limit_ms = p99_limit.as_secs_f64() * 1000.0;
        Step {
            games,
            moves_per_second,
            p99_ms,
            opening_p99_ms: phase_p99("opening"),
            later_p99_ms: phase_p99("later"),
            errors,
            server_cpu_us_per_move: steady["server_cpu_us_per_move"]
                .as_array()
                .cloned()
                .unwrap_or_default(),
            tool_cpu_us_per_move: steady["tool_cpu_us_per_move"].clone(),
            passed: errors == 0 && moves_per_second > 0.0 && p99_ms <= limit_ms,
        }
    }

    fn json(&self) -> Value {
        json!({
            "games": self.games,
            "moves_per_second": self.moves_per_second,
            "p99_ms": if self.p99_ms.is_finite() { json!(self.p99_ms) } else { Value::Null },
            "opening_p99_ms": self.opening_p99_ms,
            "later_p99_ms": self.later_p99_ms,
            "errors": self.errors,
            "server_cpu_us_per_move": self.server_cpu_us_per_move,
            "tool_cpu_us_per_move": self.tool_cpu_us_per_move,
            "passed": self.passed,
        })
    }
}

/// The games of the step after one with `games`: at least one more.
pub fn next_games(games: usize, growth: f64) -> usize {
    ((games as f64 * growth).ceil() as usize).max(games + 1)
}

/// The passing step with the most moves per second.
pub fn best(steps: &[Step]) -> Option<&Step> {
    steps.iter().filter(|step| step.passed).max_by(|a, b| {
        a.moves_per_second.partial_cmp(&b.moves_per_second).unwrap_or(std::cmp::Ordering::Equal)
    })
}

/// Runs the steps and returns the report; it passes when at least one step did.
pub async fn run(args: &Args, steps: FindMax) -> Value {
    let mut done: Vec<Step> = Vec::new();
    let mut games = args.games;
    for index in 0..steps.max_steps {
        let mut step_args = args.clone();
        step_args.games = games;
        step_args.duration = steps.step;
        step_args.find_max = None;
        eprintln!("find-max step {}: {games} games", index + 1);
        let report = crate::play(step_args).await;
        if report["mode"] == "not-started" {
            return report;
        }
        let step = Step::of(&report, games, steps.p99_limit);
        eprintln!(
            "find-max step {}: {games} games, {:.0} moves/s, p99 {:.1} ms (a socket's first \
             moves {}, later {}), {} errors: {}",
            index + 1,
            step.moves_per_second,
            step.p99_ms,
            step.opening_p99_ms.map_or("n/a".to_owned(), |ms| format!("{ms:.1} ms")),
            step.later_p99_ms.map_or("n/a".to_owned(), |ms| format!("{ms:.1} ms")),
            step.errors,
            if step.passed { "passed" } else { "over the limit" }
        );
        let passed = step.passed;
        done.push(step);
        if !passed {
            break;
        }
        games = next_games(games, steps.growth);
        // Let the last step's sockets close before the next one's ramp.
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
    let max = best(&done).map(Step::json);
    let stopped_by = match done.last() {
        Some(last) if !last.passed && last.errors > 0 => "errors",
        Some(last) if !last.passed => "p99",
        _ => "max-steps",
    };
    json!({
        "mode": "find-max",
        "nodes": args.urls,
        "think_ms": [args.think_min.as_millis() as u64, args.think_max.as_millis() as u64],
        "ramp_seconds": args.ramp.as_secs_f64(),
        "step_seconds": steps.step.as_secs_f64(),
        "p99_limit_ms": round(steps.p99_limit.as_secs_f64() * 1000.0, 2),
        "steps": done.iter().map(Step::json).collect::<Vec<_>>(),
        "stopped_by": stopped_by,
        "passed": max.is_some(),
        "max": max,
    })
}

/// The report as plain text: one line per step, then the maximum.
pub fn text(report: &Value) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "find-max on {}: think {}..{} ms, {} s at full load per step, p99 limit {} ms",
        report["nodes"]
            .as_array()
            .map(|n| n.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(" "))
            .unwrap_or_default(),
        report["think_ms"][0],
        report["think_ms"][1],
        report["step_seconds"],
        report["p99_limit_ms"],
    );
    let line = |step: &Value| {
        format!(
            "{} games: {} moves/s, p99 {} ms (a socket's first moves {} ms, later {} ms), {} \
             errors; CPU per move: server {} µs, tool {} µs",
            step["games"],
            step["moves_per_second"],
            step["p99_ms"],
            step["opening_p99_ms"],
            step["later_p99_ms"],
            step["errors"],
            step["server_cpu_us_per_move"]
                .as_array()
                .map(|list| list.iter().map(Value::to_string).collect::<Vec<_>>().join(" + "))
                .unwrap_or_default(),
            step["tool_cpu_us_per_move"],
        )
    };
    for step in report["steps"].as_array().into_iter().flatten() {
        let mark = if step["passed"] == true { "pass" } else { "FAIL" };
        let _ = writeln!(out, "  {mark} {}", line(step));
    }
    let _ = writeln!(out, "stopped by: {}", report["stopped_by"].as_str().unwrap_or("?"));
    if report["max"].is_null() {
        let _ = writeln!(out, "max: no step passed\nFAILED");
    } else {
        let _ = writeln!(out, "max: {}\nPASSED", line(&report["max"]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(per_second: f64, p99: f64, errors: u64) -> Value {
        json!({
            "moves": { "steady_per_second": per_second },
            "ack_latency": { "steady": { "p99_ms": p99 } },
            "error_total": errors,
            "cpu": { "steady": { "server_cpu_us_per_move": [80.0], "tool_cpu_us_per_move": 40.0 } },
        })
    }

    #[test]
    fn a_step_passes_within_the_limit_and_without_errors() {
        let limit = Duration::from_millis(50);
        assert!(Step::of(&report(900.0, 50.0, 0), 10, limit).passed);
        assert!(!Step::of(&report(900.0, 50.1, 0), 10, limit).passed);
        assert!(!Step::of(&report(900.0, 10.0, 1), 10, limit).passed);
        assert!(!Step::of(&json!({}), 10, limit).passed);
        let step = Step::of(&report(900.0, 12.0, 0), 10, limit);
        assert_eq!(step.server_cpu_us_per_move, [json!(80.0)]);
        assert_eq!(step.tool_cpu_us_per_move, json!(40.0));
        assert_eq!((step.opening_p99_ms, step.later_p99_ms), (None, None));
    }

    #[test]
    fn a_step_reads_the_p99_of_each_phase() {
        let mut report = report(900.0, 40.0, 0);
        report["ack_latency"]["by_phase"] =
            json!({ "opening": { "p99_ms": 40.0 }, "later": { "p99_ms": 3.5 } });
        let step = Step::of(&report, 10, Duration::from_millis(50));
        assert_eq!((step.opening_p99_ms, step.later_p99_ms), (Some(40.0), Some(3.5)));
    }

    #[test]
    fn games_grow_by_at_least_one_per_step() {
        assert_eq!(next_games(100, 1.5), 150);
        assert_eq!(next_games(1, 1.5), 2);
        assert_eq!(next_games(3, 1.01), 4);
    }

    #[test]
    fn the_best_step_is_the_fastest_that_passed() {
        let limit = Duration::from_millis(50);
        let steps = [
            Step::of(&report(500.0, 5.0, 0), 10, limit),
            Step::of(&report(800.0, 30.0, 0), 15, limit),
            Step::of(&report(900.0, 80.0, 0), 23, limit),
        ];
        assert_eq!(best(&steps).map(|step| step.games), Some(15));
        assert_eq!(best(&steps[2..]), None);
    }
}
