//! CPU time and memory of processes, and the machine's CPU use, read from `/proc`.

/// One reading of a process.
#[derive(Clone, Copy, Debug)]
pub struct ProcessSample {
    /// User plus system CPU time, in seconds.
    pub cpu_seconds: f64,
    /// Resident memory (`VmRSS`), in kB.
    pub rss_kb: u64,
    /// The process's peak resident memory since it started (`VmHWM`), in kB.
    pub hwm_kb: u64,
    /// Time its threads spent runnable but waiting for a core, in seconds (the second field of
    /// `/proc/<pid>/task/*/schedstat`, summed over the threads alive now): CPU starvation.
    pub run_delay_seconds: f64,
    /// CPU time of the server's background threads (game reviews, named `review-…`), which
    /// run in the idle scheduling class and take only CPU nothing else wants: part of
    /// `cpu_seconds`, reported apart from the cost of moves.
    pub background_cpu_seconds: f64,
}

/// The name prefix of a server's background threads.
const BACKGROUND_THREADS: &str = "review-";

/// Reads `/proc/<pid>` (`self` for this process); `None` when the process is gone.
pub fn process(pid: &str) -> Option<ProcessSample> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    Some(ProcessSample {
        cpu_seconds: parse_cpu_ticks(&stat)? as f64 / ticks_per_second(),
        rss_kb: parse_status_kb(&status, "VmRSS:")?,
        hwm_kb: parse_status_kb(&status, "VmHWM:").unwrap_or(0),
        run_delay_seconds: run_delay_ns(pid) as f64 / 1e9,
        background_cpu_seconds: background_ticks(pid) as f64 / ticks_per_second(),
    })
}

/// CPU ticks of the threads of `pid` whose name marks them as background work.
fn background_ticks(pid: &str) -> u64 {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else { return 0 };
    tasks
        .filter_map(Result::ok)
        .filter_map(|task| std::fs::read_to_string(task.path().join("stat")).ok())
        .filter(|stat| thread_name(stat).is_some_and(|name| name.starts_with(BACKGROUND_THREADS)))
        .filter_map(|stat| parse_cpu_ticks(&stat))
        .sum()
}

/// The name in a `/proc/…/stat` line: between the first `(` and the last `)`.
fn thread_name(stat: &str) -> Option<&str> {
    stat.get(stat.find('(')? + 1..stat.rfind(')')?)
}

fn run_delay_ns(pid: &str) -> u64 {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else { return 0 };
    tasks
        .filter_map(Result::ok)
        .filter_map(|task| std::fs::read_to_string(task.path().join("schedstat")).ok())
        .filter_map(|line| line.split_whitespace().nth(1)?.parse::<u64>().ok())
        .sum()
}

fn ticks_per_second() -> f64 {
    match rustix::param::clock_ticks_per_second() {
        0 => 100.0,
        ticks => ticks as f64,
    }
}

/// `utime + stime` from a `/proc/<pid>/stat` line. The command name (field 2) may hold spaces
/// and parentheses, so fields are counted from the last `)`.
fn parse_cpu_ticks(stat: &str) -> Option<u64> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // After the name: state is field 3, so utime (14) and stime (15) are at 11 and 12.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

fn parse_status_kb(status: &str, key: &str) -> Option<u64> {
    let line = status.lines().find(|line| line.starts_with(key))?;
    line[key.len()..].split_whitespace().next()?.parse().ok()
}

/// The whole machine's CPU time from `/proc/stat`, in seconds summed over all cores.
#[derive(Clone, Copy, Debug)]
pub struct MachineSample {
    pub busy_seconds: f64,
    pub total_seconds: f64,
}

pub fn machine() -> Option<MachineSample> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    parse_machine(&stat, ticks_per_second())
}

fn parse_machine(stat: &str, ticks: f64) -> Option<MachineSample> {
    let line = stat.lines().find(|line| line.starts_with("cpu "))?;
    let values: Vec<u64> = line.split_whitespace().skip(1).filter_map(|v| v.parse().ok()).collect();
    // user nice system idle iowait irq softirq steal (guest time is already in user).
    let total: u64 = values.iter().take(8).sum();
    let idle = values.get(3)? + values.get(4).unwrap_or(&0);
    Some(MachineSample {
        busy_seconds: (total - idle) as f64 / ticks,
        total_seconds: total as f64 / ticks,
    })
}

/// The number of cores this machine offers.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Raises this process's open-files limit to its hard limit; returns the limit now in force.
pub fn raise_open_files_limit() -> Option<u64> {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let mut limit = getrlimit(Resource::Nofile);
    if limit.current != limit.maximum {
        limit.current = limit.maximum;
        let _ = setrlimit(Resource::Nofile, limit);
    }
    getrlimit(Resource::Nofile).current
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_fields_are_counted_after_the_name() {
        let stat = "4242 (out (fl) ank) S 1 4242 4242 0 -1 4194560 1 0 0 0 250 75 0 0 20 0 9 0";
        assert_eq!(parse_cpu_ticks(stat), Some(325));
    }

    #[test]
    fn a_threads_name_is_read_between_its_parentheses() {
        let stat = "4243 (review-0) S 1 4242 4242 0 -1 4194560 1 0 0 0 250 75 0 0 20 0 9 0";
        assert_eq!(thread_name(stat), Some("review-0"));
        assert_eq!(thread_name("4242 (out (fl) ank) S"), Some("out (fl) ank"));
    }

    #[test]
    fn status_values_are_in_kb() {
        let status = "Name:\toutflank\nVmHWM:\t  51200 kB\nVmRSS:\t   40960 kB\n";
        assert_eq!(parse_status_kb(status, "VmRSS:"), Some(40960));
        assert_eq!(parse_status_kb(status, "VmHWM:"), Some(51200));
    }

    #[test]
    fn machine_busy_time_leaves_out_idle_and_iowait() {
        let stat = "cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 1 2 3\n";
        let sample = parse_machine(stat, 100.0).unwrap();
        assert!((sample.busy_seconds - 1.5).abs() < 1e-9);
        assert!((sample.total_seconds - 10.0).abs() < 1e-9);
    }

    #[test]
    fn this_process_can_be_read() {
        let sample = process("self").unwrap();
        assert!(sample.rss_kb > 0);
    }
}
