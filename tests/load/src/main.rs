//! `outflank-load`: plays many concurrent friend games against running Outflank nodes and
//! reports move-acknowledge latency, throughput, errors and the servers' CPU and memory; or,
//! with `--computer-flood`, measures the computer's replies while one address floods it. See
//! `tests/load/README.md`.

mod args;
mod attack;
mod client;
mod computer_flood;
mod find_max;
mod idle;
mod play;
mod procfs;
mod report;
mod stats;

use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use tokio::sync::watch;
use tokio::time::Instant;

use crate::args::{Args, Parsed};
use crate::attack::Attack;
use crate::client::{Http, Node};
use crate::play::Run;
use crate::report::Sample;
use crate::stats::Stats;

fn main() -> ExitCode {
    let args = match args::parse(std::env::args().skip(1)) {
        Ok(Parsed::Run(args)) => *args,
        Ok(Parsed::Help) => {
            println!("{}", args::USAGE);
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("outflank-load: {message}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("outflank-load: cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let report = runtime.block_on(async {
        match (args.find_max, args.computer_flood) {
            (Some(steps), _) => find_max::run(&args, steps).await,
            (None, Some(tasks)) => computer_flood::run(&args, tasks).await,
            (None, None) => play(args.clone()).await,
        }
    });
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report).unwrap_or_default());
    } else if report["mode"] == "not-started" {
        // The reason is already on stderr.
    } else if report["mode"] == "find-max" {
        print!("{}", find_max::text(&report));
    } else if report["mode"] == "computer-flood" {
        print!("{}", computer_flood::text(&report));
    } else {
        print!("{}", report::text(&report));
    }
    if report["passed"] == true { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

/// The attack's own runtime, on one thread of its own. Its tasks are always ready to run: in the
/// players' scheduler they would queue ahead of the players and delay this tool's own readings
/// of the server (a p99 of 150 ms measured against 10 ms the server saw); on a thread of their
/// own the kernel shares the cores between attack and players, as two machines would.
fn attack_runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("attack")
        .enable_all()
        .build()
}

/// Samples the servers, this tool and the machine every second until stopped, and prints a
/// progress line every five seconds while bots play.
async fn monitor(
    pids: Vec<u32>,
    stats: Arc<Stats>,
    samples: Arc<Mutex<Vec<Sample>>>,
    progress: bool,
    mut stop: watch::Receiver<bool>,
) {
    let mut every = tokio::time::interval(Duration::from_secs(1));
    let mut last_line: Option<(Sample, u64)> = None;
    let mut tick = 0u64;
    loop {
        tokio::select! {
            _ = every.tick() => {}
            _ = stop.changed() => return,
        }
        let sample = Sample::take(&pids);
        samples.lock().unwrap_or_else(|e| e.into_inner()).push(sample.clone());
        tick += 1;
        if progress && tick.is_multiple_of(5) {
            let acks = stats.acks_total();
            if let Some((previous, previous_acks)) = &last_line {
                eprintln!(
                    "{}",
                    report::progress_line(&stats, previous, &sample, acks - previous_acks)
                );
            }
            last_line = Some((sample, acks));
        } else if last_line.is_none() {
            last_line = Some((sample, stats.acks_total()));
        }
    }
}

/// The report of a run that could not start.
fn not_started(message: &str) -> serde_json::Value {
    eprintln!("outflank-load: {message}");
    json!({ "mode": "not-started", "error": message, "passed": false })
}

/// Runs the load once and returns its report, whose `passed` says whether the run passed.
async fn play(args: Args) -> serde_json::Value {
    let open_files = procfs::raise_open_files_limit();
    let needed = (args.idle_sockets.unwrap_or(args.games * 2) + args.attack + 64) as u64;
    if open_files.is_some_and(|limit| limit < needed) {
        eprintln!(
            "outflank-load: the open-files limit is {} but about {needed} sockets are needed: raise \
             it with `ulimit -n` first",
            open_files.unwrap_or(0)
        );
    }
    let http = match Http::new(args.timeout, &args.sources()) {
        Ok(http) => http,
        Err(failure) => {
            return not_started(&failure.0);
        }
    };
    let stats = Arc::new(Stats::new());
    let start = Instant::now();
    let deadline = start + args.ramp + args.duration;
    let nodes: Vec<Node> = args.urls.iter().map(|url| Node::new(url)).collect();
    let (latest_game, _) = watch::channel(None);
    let attack = if args.attack > 0 {
        let attack = Attack::new(
            args.attack_from,
            nodes.clone(),
            latest_game.subscribe(),
            args.timeout,
            deadline,
        );
        match attack {
            Ok(attack) => Some(Arc::new(attack)),
            Err(failure) => {
                return not_started(&failure.0);
            }
        }
    } else {
        None
    };
    let run = Arc::new(Run {
        http,
        nodes,
        stats: stats.clone(),
        think_min: args.think_min,
        think_max: args.think_max,
        timeout: args.timeout,
        deadline,
        latest_game,
        churn: args.churn,
        control: args.control.clone(),
    });
    let samples = Arc::new(Mutex::new(vec![Sample::take(&args.server_pids)]));
    let (stop, stopped) = watch::channel(false);
    let monitor = tokio::spawn(monitor(
        args.server_pids.clone(),
        stats.clone(),
        samples.clone(),
        args.idle_sockets.is_none(),
        stopped,
    ));

    let idle_report = match args.idle_sockets {
        Some(sockets) => {
            Some(idle::measure(run.clone(), sockets, args.duration, &args.server_pids).await)
        }
        None => {
            eprintln!(
                "playing {} games on {} node(s) from {} address(es): ramp {:?}, then {:?} at \
                 full load",
                args.games,
                run.nodes.len(),
                run.http.sources(),
                args.ramp,
                args.duration
            );
            let mut attackers = Vec::with_capacity(args.attack);
            let attack_runtime = match &attack {
                Some(attack) => match attack_runtime() {
                    Ok(runtime) => {
                        eprintln!("attacking with {} tasks from {}", args.attack, args.attack_from);
                        for index in 0..args.attack {
                            let task = attack::run_task(attack.clone(), index);
                            attackers.push(runtime.spawn(task));
                        }
                        Some(runtime)
                    }
                    Err(error) => {
                        stats.error(format!("the attack's runtime did not start: {error}"));
                        None
                    }
                },
                None => None,
            };
            let mut rooms = Vec::with_capacity(args.games);
            for index in 0..args.games {
                let offset = args.ramp.mul_f64(index as f64 / args.games as f64);
                let run = run.clone();
                rooms.push(tokio::spawn(async move {
                    play::play_room(&run, index, start + offset).await;
                }));
            }
            // Every bot stops by itself at the deadline (after its last acknowledgement, which
            // the timeout bounds); the margin only guards against a stuck task.
            let limit = deadline + args.timeout * 3 + Duration::from_secs(5);
            for room in rooms {
                match tokio::time::timeout_at(limit, room).await {
                    Ok(Ok(())) => {}
                    Ok(Err(_)) => stats.error("bot task failed"),
                    Err(_) => stats.error("bot task did not stop"),
                }
            }
            // The attack stops at the deadline too; a task still running is a fault of this
            // tool, recorded with the attack, not an error of the games.
            for (index, attacker) in attackers.into_iter().enumerate() {
                let abort = attacker.abort_handle();
                if !matches!(tokio::time::timeout_at(limit, attacker).await, Ok(Ok(()))) {
                    abort.abort();
                    if let Some(attack) = &attack {
                        attack.counts.task_did_not_stop(index);
                    }
                }
            }
            if let Some(runtime) = attack_runtime {
                runtime.shutdown_background();
            }
            None
        }
    };
    samples.lock().unwrap_or_else(|e| e.into_inner()).push(Sample::take(&args.server_pids));
    stop.send_replace(true);
    let _ = monitor.await;

    let samples = samples.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let mut report = report::build(&args, &stats, &samples, start);
    if let Some(idle) = idle_report {
        report["mode"] = json!("idle-sockets");
        report["idle"] = idle;
    }
    if let Some(attack) = &attack {
        report["attack"] = attack.counts.report(args.attack_from, args.attack);
    }
    if let Some(limit) = open_files {
        report["tool"]["open_files_limit"] = json!(limit);
    }
    let passed = match args.idle_sockets {
        Some(sockets) => {
            stats.error_total() == 0
                && report["idle"]["sockets_joined"].as_u64() == Some(sockets as u64)
        }
        None => stats.error_total() == 0 && stats.acks_total() > 0,
    };
    report["passed"] = json!(passed);
    report
}
