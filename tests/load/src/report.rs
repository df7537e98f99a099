//! Samples of the servers, the tool and the machine; the progress line; the final report as
//! JSON and as text.

use std::fmt::Write as _;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::time::Instant;

use crate::args::Args;
use crate::procfs::{self, MachineSample, ProcessSample};
use crate::stats::{AckPhase, Percentiles, Stats};

/// One reading of every measured process and of the machine.
#[derive(Clone, Debug)]
pub struct Sample {
    pub at: Instant,
    pub servers: Vec<Option<ProcessSample>>,
    pub tool: Option<ProcessSample>,
    pub machine: Option<MachineSample>,
}

impl Sample {
    pub fn take(pids: &[u32]) -> Sample {
        Sample {
            at: Instant::now(),
            servers: pids.iter().map(|pid| procfs::process(&pid.to_string())).collect(),
            tool: procfs::process("self"),
            machine: procfs::machine(),
        }
    }
}

pub fn round(value: f64, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    (value * scale).round() / scale
}

fn mb(kb: u64) -> f64 {
    round(kb as f64 / 1024.0, 1)
}

fn since(stats: &Stats, at: Instant) -> Duration {
    at.into_std().saturating_duration_since(stats.start)
}

/// CPU used by one process between two samples.
fn cpu_json(from: Option<&ProcessSample>, to: Option<&ProcessSample>, wall: f64) -> Value {
    let (Some(from), Some(to)) = (from, to) else { return Value::Null };
    let seconds = (to.cpu_seconds - from.cpu_seconds).max(0.0);
    let one_core = if wall > 0.0 { seconds / wall * 100.0 } else { 0.0 };
    json!({
        "cpu_seconds": round(seconds, 2),
        "percent_of_one_core": round(one_core, 1),
        "percent_of_all_cores": round(one_core / procfs::cores() as f64, 1),
        // Threads that end between the samples take their waits with them: a lower bound.
        "waited_for_a_core_seconds": round((to.run_delay_seconds - from.run_delay_seconds).max(0.0), 2),
        // Of `cpu_seconds`, what the idle-class background threads (game reviews) used.
        "background_cpu_seconds": round((to.background_cpu_seconds - from.background_cpu_seconds).max(0.0), 2),
    })
}

/// CPU use of the servers, the tool and the whole machine between two samples, and per move
/// when `moves` were acknowledged between them.
pub fn usage(from: &Sample, to: &Sample, moves: usize) -> Value {
    let wall = to.at.saturating_duration_since(from.at).as_secs_f64();
    let servers: Vec<Value> = from
        .servers
        .iter()
        .zip(&to.servers)
        .map(|(a, b)| cpu_json(a.as_ref(), b.as_ref(), wall))
        .collect();
    let machine = match (from.machine, to.machine) {
        (Some(a), Some(b)) if b.total_seconds > a.total_seconds => {
            let busy = (b.busy_seconds - a.busy_seconds) / (b.total_seconds - a.total_seconds);
            // What neither the servers nor this tool used: other work on the machine.
            let cores = procfs::cores() as f64;
            let ours: f64 = servers
                .iter()
                .chain(std::iter::once(&cpu_json(from.tool.as_ref(), to.tool.as_ref(), wall)))
                .filter_map(|cpu| cpu["percent_of_all_cores"].as_f64())
                .sum();
            json!({
                "cores": cores,
                "busy_percent_of_all_cores": round(busy * 100.0, 1),
                "other_processes_percent_of_all_cores": round((busy * 100.0 - ours).max(0.0), 1),
            })
        }
        _ => Value::Null,
    };
    let tool = cpu_json(from.tool.as_ref(), to.tool.as_ref(), wall);
    let per_move = |cpu: &Value| per_move_micros(cpu["cpu_seconds"].as_f64(), moves);
    // A move's cost leaves out the reviews, which fill idle time whatever the moves cost.
    let moves_only = |cpu: &Value| {
        let total = cpu["cpu_seconds"].as_f64();
        per_move_micros(
            total.map(|t| t - cpu["background_cpu_seconds"].as_f64().unwrap_or(0.0)),
            moves,
        )
    };
    let background = |cpu: &Value| per_move_micros(cpu["background_cpu_seconds"].as_f64(), moves);
    json!({
        "wall_seconds": round(wall, 1),
        "moves": moves,
        // Who was the limit: the servers' and this tool's CPU per acknowledged move.
        "server_cpu_us_per_move": servers.iter().map(moves_only).collect::<Vec<_>>(),
        "server_background_cpu_us_per_move": servers.iter().map(background).collect::<Vec<_>>(),
        "tool_cpu_us_per_move": per_move(&tool),
        "servers": servers,
        "tool": tool,
        "machine": machine,
    })
}

/// CPU microseconds per acknowledged move; `null` without CPU readings or moves.
fn per_move_micros(cpu_seconds: Option<f64>, moves: usize) -> Value {
    match cpu_seconds {
        Some(seconds) if moves > 0 => json!(round(seconds * 1e6 / moves as f64, 1)),
        _ => Value::Null,
    }
}

fn latency_json(p: Percentiles) -> Value {
    json!({
        "count": p.count,
        "p50_ms": round(p.p50, 2),
        "p95_ms": round(p.p95, 2),
        "p99_ms": round(p.p99, 2),
        "max_ms": round(p.max, 2),
    })
}

/// The progress line printed every five seconds.
pub fn progress_line(stats: &Stats, previous: &Sample, now: &Sample, acks: u64) -> String {
    let wall = now.at.saturating_duration_since(previous.at).as_secs_f64().max(0.001);
    let latency = Percentiles::of(stats.latencies(since(stats, previous.at), since(stats, now.at)));
    let mut line = format!(
        "[{:>4.0}s] sockets {} (peak {}) | games {} started, {} finished | moves {} ({:.0}/s) | \
         ack p50 {:.1} p99 {:.1} max {:.1} ms | errors {}",
        since(stats, now.at).as_secs_f64(),
        stats.sockets_open(),
        stats.sockets_peak(),
        Stats::get(&stats.games_started),
        Stats::get(&stats.games_finished),
        stats.acks_total(),
        acks as f64 / wall,
        latency.p50,
        latency.p99,
        latency.max,
        stats.error_total(),
    );
    for (a, b) in previous.servers.iter().zip(&now.servers) {
        if let (Some(a), Some(b)) = (a, b) {
            let cpu = (b.cpu_seconds - a.cpu_seconds) / wall * 100.0;
            let _ = write!(line, " | server {cpu:.0}% cpu {:.0} MB", mb(b.rss_kb));
        }
    }
    if let (Some(a), Some(b)) = (&previous.tool, &now.tool) {
        let _ = write!(line, " | tool {:.0}% cpu", (b.cpu_seconds - a.cpu_seconds) / wall * 100.0);
    }
    line
}

/// The report of a run, as JSON.
pub fn build(args: &Args, stats: &Stats, samples: &[Sample], start: Instant) -> Value {
    let first = &samples[0];
    let last = &samples[samples.len() - 1];
    let steady_from = start + args.ramp;
    let steady_to = start + args.ramp + args.duration;
    let steady_a = samples.iter().find(|s| s.at >= steady_from);
    let steady_b = samples.iter().rev().find(|s| s.at <= steady_to);
    let steady = match (steady_a, steady_b) {
        (Some(a), Some(b)) if b.at > a.at && args.idle_sockets.is_none() => Some((a, b)),
        _ => None,
    };

    let all = stats.latencies(Duration::ZERO, Duration::MAX);
    let acknowledged = all.len();
    let played = since(stats, steady_to.min(last.at)).as_secs_f64().max(0.001);
    let mut moves = json!({
        "sent": Stats::get(&stats.moves_sent),
        "acknowledged": all.len(),
        "per_second": round(all.len() as f64 / played, 1),
    });
    let mut latency = json!({ "all": latency_json(Percentiles::of(all)) });
    // The socket's first moves apart from the rest, at full load when there is one.
    let (phase_from, phase_to) = match steady {
        Some((a, b)) => (since(stats, a.at), since(stats, b.at)),
        None => (Duration::ZERO, Duration::MAX),
    };
    for (key, phase) in [("opening", AckPhase::Opening), ("later", AckPhase::Later)] {
        let acks = stats.phase_latencies(phase_from, phase_to, phase);
        latency["by_phase"][key] = latency_json(Percentiles::of(acks));
    }
    latency["by_phase"]["window"] = json!(if steady.is_some() { "steady" } else { "all" });
    let mut cpu = json!({ "whole_run": usage(first, last, acknowledged) });
    if let Some((a, b)) = steady {
        let acks = stats.latencies(since(stats, a.at), since(stats, b.at));
        let wall = b.at.saturating_duration_since(a.at).as_secs_f64();
        moves["steady_per_second"] = json!(round(acks.len() as f64 / wall, 1));
        let count = acks.len();
        latency["steady"] = latency_json(Percentiles::of(acks));
        cpu["steady"] = usage(a, b, count);
    }

    let memory: Vec<Value> = args
        .server_pids
        .iter()
        .enumerate()
        .map(|(i, pid)| {
            let rss = |sample: &Sample| sample.servers[i].map(|s| s.rss_kb);
            json!({
                "pid": pid,
                "rss_mb_start": rss(first).map(mb),
                "rss_mb_peak": samples.iter().filter_map(rss).max().map(mb),
                "rss_mb_end": rss(last).map(mb),
                "hwm_mb": last.servers[i].map(|s| mb(s.hwm_kb)),
            })
        })
        .collect();

    json!({
        "mode": "play",
        "nodes": args.urls,
        "games": args.games,
        // Loopback source addresses of the players; 0: the system's choice (127.0.0.1).
        "clients": args.clients,
        "ramp_seconds": args.ramp.as_secs_f64(),
        "duration_seconds": args.duration.as_secs_f64(),
        "think_ms": [args.think_min.as_millis() as u64, args.think_max.as_millis() as u64],
        // The rooms' time control; `null`: the server's default.
        "control": args.control,
        "sockets": { "peak": stats.sockets_peak(), "opened": Stats::get(&stats.sockets_opened) },
        "games_started": Stats::get(&stats.games_started),
        "games_finished": Stats::get(&stats.games_finished),
        "setups_refused_busy": Stats::get(&stats.setups_refused_busy),
        "moves": moves,
        "ack_latency": latency,
        "duplicates_ignored": Stats::get(&stats.duplicates_ignored),
        "resyncs": Stats::get(&stats.resyncs),
        "errors": stats.errors(),
        "error_total": stats.error_total(),
        "server_pids": args.server_pids,
        "cpu": cpu,
        "server_memory": memory,
        "tool": {},
    })
}

pub fn number(value: &Value) -> String {
    match value {
        Value::Null => "n/a".to_owned(),
        Value::Number(n) => n.to_string(),
        other => other.to_string(),
    }
}

pub fn write_usage(out: &mut String, title: &str, usage: &Value, pids: &[Value]) {
    let _ = writeln!(out, "{title} ({} s):", number(&usage["wall_seconds"]));
    let cpu = |v: &Value| {
        format!(
            "{} s CPU = {}% of one core, {}% of all cores; {} s runnable but waiting for a core",
            number(&v["cpu_seconds"]),
            number(&v["percent_of_one_core"]),
            number(&v["percent_of_all_cores"]),
            number(&v["waited_for_a_core_seconds"])
        )
    };
    if let Some(servers) = usage["servers"].as_array() {
        for (server, pid) in servers.iter().zip(pids) {
            let _ = writeln!(out, "  server {pid}: {}", cpu(server));
        }
    }
    let _ = writeln!(out, "  this tool: {}", cpu(&usage["tool"]));
    let servers_per_move: Vec<String> = usage["server_cpu_us_per_move"]
        .as_array()
        .map(|list| list.iter().map(number).collect())
        .unwrap_or_default();
    let background: Vec<String> = usage["server_background_cpu_us_per_move"]
        .as_array()
        .map(|list| list.iter().map(number).collect())
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "  CPU per acknowledged move: server {} µs, this tool {} µs (the server's game reviews, \
         in idle time, {} µs more)",
        if servers_per_move.is_empty() { "n/a".to_owned() } else { servers_per_move.join(" + ") },
        number(&usage["tool_cpu_us_per_move"]),
        if background.is_empty() { "n/a".to_owned() } else { background.join(" + ") },
    );
    let machine = &usage["machine"];
    let _ = writeln!(
        out,
        "  machine: {} cores, {}% busy; other processes {}% of all cores",
        number(&machine["cores"]),
        number(&machine["busy_percent_of_all_cores"]),
        number(&machine["other_processes_percent_of_all_cores"])
    );
}

/// `name n, name n` for a JSON object of counts.
pub fn counts_list(counts: &Value) -> String {
    let counts = counts.as_object().cloned().unwrap_or_default();
    counts.iter().map(|(name, n)| format!("{name} {}", number(n))).collect::<Vec<_>>().join(", ")
}

/// The attack section: per kind, the tries and how the server answered them.
fn write_attack(out: &mut String, attack: &Value) {
    let _ = writeln!(
        out,
        "attack from {}: {} tasks, {} tries ({} ms apart per task); refusals are not errors",
        attack["from"].as_str().unwrap_or("?"),
        number(&attack["tasks"]),
        number(&attack["attempts"]),
        number(&attack["pause_ms"]),
    );
    let kinds = attack["kinds"].as_object().cloned().unwrap_or_default();
    for (name, kind) in kinds {
        let _ = write!(
            out,
            "  {name} ({} tasks): {} tries, {} closed by the server",
            number(&kind["tasks"]),
            number(&kind["attempts"]),
            number(&kind["closed_by_server"]),
        );
        if kind["messages_sent"].as_u64().is_some_and(|sent| sent > 0) {
            let _ = write!(out, ", {} messages sent", number(&kind["messages_sent"]));
        }
        let (statuses, codes) = (counts_list(&kind["statuses"]), counts_list(&kind["codes"]));
        if !statuses.is_empty() {
            let _ = write!(out, "; http {statuses}");
        }
        if !codes.is_empty() {
            let _ = write!(out, "; codes {codes}");
        }
        let _ = writeln!(out);
        let outcomes = kind["outcomes"].as_object().cloned().unwrap_or_default();
        for (outcome, count) in outcomes {
            let _ = writeln!(out, "    {outcome}: {}", number(&count));
        }
    }
}

/// The report as plain text.
pub fn text(report: &Value) -> String {
    let mut out = String::new();
    let pids = report["server_pids"].as_array().cloned().unwrap_or_default();
    if report["mode"] == "idle-sockets" {
        let idle = &report["idle"];
        let _ = writeln!(
            out,
            "idle sockets: {} requested, {} joined in {} s ({} rooms set up in {} s), {} open after \
             settling, {} at the end of {} s",
            number(&idle["sockets_requested"]),
            number(&idle["sockets_joined"]),
            number(&idle["opening_seconds"]),
            number(&idle["rooms_set_up"]),
            number(&idle["set_up_seconds"]),
            number(&idle["sockets_open_after_settling"]),
            number(&idle["sockets_open_at_end"]),
            number(&idle["hold_seconds"]),
        );
        if let Some(servers) = idle["servers"].as_array() {
            for server in servers {
                let _ = writeln!(
                    out,
                    "  server {}: RSS {} kB before, {} kB with the rooms, {} kB with the sockets, \
                     {} kB at the end",
                    number(&server["pid"]),
                    number(&server["rss_kb_before"]),
                    number(&server["rss_kb_after_rooms"]),
                    number(&server["rss_kb_after_sockets"]),
                    number(&server["rss_kb_end"]),
                );
            }
        }
        let per = |v: &Value| v.as_f64().map_or("n/a".to_owned(), |v| format!("{v:.1}"));
        let _ = writeln!(
            out,
            "  memory: {} kB per room (two guests and a game), {} kB per idle socket",
            per(&idle["kb_per_room"]),
            per(&idle["kb_per_socket"]),
        );
    } else {
        let clients = match report["clients"].as_u64() {
            Some(clients) if clients > 0 => format!(" from {clients} addresses"),
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "{} games on {}{clients} for {} s after a {} s ramp, think {}..{} ms{}",
            number(&report["games"]),
            report["nodes"]
                .as_array()
                .map(|n| n.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(" "))
                .unwrap_or_default(),
            number(&report["duration_seconds"]),
            number(&report["ramp_seconds"]),
            number(&report["think_ms"][0]),
            number(&report["think_ms"][1]),
            report["control"]
                .as_str()
                .map(|control| format!(", clock {control}"))
                .unwrap_or_default(),
        );
        let _ = writeln!(
            out,
            "sockets: peak {} open, {} opened | games: {} started, {} finished, {} set-ups \
             refused as busy (503, Retry-After honoured)",
            number(&report["sockets"]["peak"]),
            number(&report["sockets"]["opened"]),
            number(&report["games_started"]),
            number(&report["games_finished"]),
            number(&report["setups_refused_busy"]),
        );
        let moves = &report["moves"];
        let _ = writeln!(
            out,
            "moves: {} sent, {} acknowledged, {}/s over the run, {}/s at full load",
            number(&moves["sent"]),
            number(&moves["acknowledged"]),
            number(&moves["per_second"]),
            number(&moves["steady_per_second"]),
        );
        let _ = writeln!(
            out,
            "versions: {} duplicate messages ignored, {} gaps answered with join since",
            number(&report["duplicates_ignored"]),
            number(&report["resyncs"]),
        );
        for (key, title) in [("all", "whole run"), ("steady", "at full load")] {
            let l = &report["ack_latency"][key];
            if !l.is_null() {
                let _ = writeln!(
                    out,
                    "move ack latency, {title} ({} moves): p50 {} ms, p95 {} ms, p99 {} ms, max {} ms",
                    number(&l["count"]),
                    number(&l["p50_ms"]),
                    number(&l["p95_ms"]),
                    number(&l["p99_ms"]),
                    number(&l["max_ms"]),
                );
            }
        }
        let phases = &report["ack_latency"]["by_phase"];
        if !phases.is_null() {
            let (opening, later) = (&phases["opening"], &phases["later"]);
            let _ = writeln!(
                out,
                "  by phase ({}): a socket's first {} moves ({}) p50 {} ms, p99 {} ms; later \
                 moves ({}) p50 {} ms, p99 {} ms",
                phases["window"].as_str().unwrap_or("?"),
                AckPhase::OPENING_MOVES,
                number(&opening["count"]),
                number(&opening["p50_ms"]),
                number(&opening["p99_ms"]),
                number(&later["count"]),
                number(&later["p50_ms"]),
                number(&later["p99_ms"]),
            );
        }
    }
    write_usage(&mut out, "CPU, whole run", &report["cpu"]["whole_run"], &pids);
    if !report["cpu"]["steady"].is_null() {
        write_usage(&mut out, "CPU at full load", &report["cpu"]["steady"], &pids);
    }
    if let Some(memory) = report["server_memory"].as_array() {
        for server in memory {
            let _ = writeln!(
                out,
                "server {} memory: RSS {} MB at the start, {} MB peak, {} MB at the end (VmHWM {} MB)",
                number(&server["pid"]),
                number(&server["rss_mb_start"]),
                number(&server["rss_mb_peak"]),
                number(&server["rss_mb_end"]),
                number(&server["hwm_mb"]),
            );
        }
    }
    if !report["attack"].is_null() {
        write_attack(&mut out, &report["attack"]);
    }
    let errors = report["errors"].as_object().cloned().unwrap_or_default();
    if errors.is_empty() {
        let _ = writeln!(out, "errors: none");
    } else {
        let _ = writeln!(out, "errors: {}", number(&report["error_total"]));
        for (kind, count) in errors {
            let _ = writeln!(out, "  {kind}: {count}");
        }
    }
    let _ = writeln!(out, "{}", if report["passed"] == true { "PASSED" } else { "FAILED" });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_per_move_is_microseconds_per_acknowledgement() {
        assert_eq!(per_move_micros(Some(0.5), 10_000), json!(50.0));
        assert_eq!(per_move_micros(Some(0.5), 0), Value::Null);
        assert_eq!(per_move_micros(None, 10), Value::Null);
    }
}
