//! `xot [--depth N] [--nodes N] [--within DISCS] [--every K] [--threads N]`: the XOT opening
//! list. Every `K`th candidate of `outflank_engine::xot::candidates` (all by default) is valued
//! by a midgame search of `--depth` plies (at most `--nodes` nodes) and kept when its value is
//! within `--within` discs of even.
//! The list, with a header saying how it was made, goes to stdout: the engine's
//! `src/xot_openings.txt` is this command's output.

use std::time::Instant;

use outflank_engine::ai::{Search, SearchLimits};
use outflank_engine::xot::{self, Opening};

use crate::{CliError, threads_option};

const USAGE: &str = "xot [--depth N] [--nodes N] [--within DISCS] [--every K] [--threads N]";

/// How the candidates are judged.
#[derive(Clone, Copy, Debug)]
struct Judge {
    depth: u32,
    nodes: u64,
    within: i32,
    every: usize,
}

pub fn run(args: &[String], json: bool) -> Result<(), CliError> {
    let mut judge = Judge { depth: 12, nodes: 2_000_000, within: 2, every: 1 };
    let mut threads = std::thread::available_parallelism().map_or(1, usize::from);
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value =
            || args.next().ok_or_else(|| CliError(format!("{arg} needs a value; {USAGE}")));
        match arg.as_str() {
            "--depth" => judge.depth = number(value()?, arg)?,
            "--nodes" => judge.nodes = number(value()?, arg)?,
            "--within" => judge.within = number(value()?, arg)?,
            "--every" => judge.every = number(value()?, arg)?,
            "--threads" => threads = threads_option(value()?)?,
            other => return Err(CliError(format!("unknown option {other:?}; {USAGE}"))),
        }
    }
    if !(1..=30).contains(&judge.depth)
        || judge.nodes == 0
        || !(0..=64).contains(&judge.within)
        || judge.every == 0
    {
        return Err(CliError(format!(
            "--depth is 1 to 30, --nodes and --every above 0, --within 0 to 64; {USAGE}"
        )));
    }
    let started = Instant::now();
    let classes = xot::candidates();
    let candidates: Vec<Opening> = classes.iter().step_by(judge.every).copied().collect();
    let values = value_all(&candidates, judge, threads);
    let kept: Vec<&Opening> = candidates
        .iter()
        .zip(&values)
        .filter(|(_, value)| value.is_some_and(|value| value.abs() <= judge.within * 100))
        .map(|(opening, _)| opening)
        .collect();
    let seconds = started.elapsed().as_secs_f64();
    let every = if judge.every > 1 { format!(" --every {}", judge.every) } else { String::new() };
    let command = format!(
        "outflank-engine xot --depth {} --nodes {} --within {}{every}",
        judge.depth, judge.nodes, judge.within
    );
    if json {
        let openings: Vec<String> = kept.iter().map(ToString::to_string).collect();
        let value = serde_json::json!({
            "command": command,
            "candidates": candidates.len(),
            "openings": openings,
            "seconds": seconds,
            "threads": threads,
        });
        println!("{value}");
    } else {
        let which = if judge.every > 1 {
            format!("every {}th of the {} classes", judge.every, classes.len())
        } else {
            format!("each of the {} classes", classes.len())
        };
        println!("# XOT openings for Outflank, made by the engine. Of the positions eight plies");
        println!("# from the start where Black has a choice of moves, one per class of positions");
        println!("# the start's symmetries map onto each other ({which}, in the order");
        println!(
            "# of a walk in square order), those that a midgame search of depth {}",
            judge.depth
        );
        println!("# ({} nodes at most) values within {} discs of even.", judge.nodes, judge.within);
        println!("# Made by: {command}");
        println!("# {} openings of {} candidates.", kept.len(), candidates.len());
        for opening in &kept {
            println!("{opening}");
        }
        eprintln!("{} candidates valued in {seconds:.1} s on {threads} threads", candidates.len());
    }
    Ok(())
}

/// Each candidate's value for the side to move, in 1/100 disc (`None`: no value), the
/// candidates shared among `threads` threads in interleaved order.
fn value_all(candidates: &[Opening], judge: Judge, threads: usize) -> Vec<Option<i32>> {
    let limits = SearchLimits {
        max_depth: judge.depth,
        node_budget: judge.nodes,
        exact_empties: 0,
        exact_node_limit: 0,
    };
    let mut values = vec![None; candidates.len()];
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|worker| {
                scope.spawn(move || {
                    let mut search = Search::new(limits);
                    (worker..candidates.len())
                        .step_by(threads)
                        .map(|index| {
                            let value = search.run(&candidates[index].board(), None);
                            (index, value.ok().map(|choice| choice.score))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for worker in workers {
            for (index, value) in worker.join().unwrap_or_default() {
                values[index] = value;
            }
        }
    });
    values
}

fn number<T: std::str::FromStr>(value: &str, option: &str) -> Result<T, CliError> {
    value.parse().map_err(|_| CliError(format!("{option} needs a number, not {value:?}")))
}
